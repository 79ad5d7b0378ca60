import Foundation

extension WebServiceCall where Response == DownloadedFile {
    /// Creates a call that streams its response body to a file.
    ///
    /// Pass a ``DownloadDestination`` argument to choose the file; without one the body goes to a
    /// new file in the temporary directory. The call is never cached, and its responses are
    /// checked as any other's (success codes, error handler: the body's first 64 KiB are kept in
    /// memory as it is written, for them; after an error the file is deleted). Parameters are those of
    /// ``init(name:method:relativePath:headers:parameterStyles:successCodes:overridesClientSuccessCodes:serializer:serializationRoot:requestSerializer:bodyCharset:bodyParameter:timeout:cache:cacheIdentifier:progressParameter:urlBuilder:errorHandler:multipartBoundary:logLevel:)``.
    public init(
        name: String? = nil,
        method: HTTPMethod = .get,
        relativePath: String,
        headers: [String: String] = [:],
        parameterStyles: [Int: ParameterStyle] = [:],
        successCodes: StatusCodes? = nil,
        overridesClientSuccessCodes: Bool = false,
        requestSerializer: (any RequestSerializer)? = nil,
        bodyCharset: Charset = .utf8,
        bodyParameter: Int? = nil,
        timeout: TimeInterval? = nil,
        progressParameter: Int? = nil,
        urlBuilder: (any URLBuilder)? = nil,
        errorHandler: (any ResponseErrorHandler)? = nil,
        multipartBoundary: String? = nil,
        logLevel: LogLevel? = nil
    ) {
        self.init(
            name: name, method: method, relativePath: relativePath, headers: headers, parameterStyles: parameterStyles,
            successCodes: successCodes, overridesClientSuccessCodes: overridesClientSuccessCodes,
            serializer: DownloadedFileSerializer(),
            requestSerializer: requestSerializer, bodyCharset: bodyCharset, bodyParameter: bodyParameter,
            timeout: timeout, cache: .disabled, progressParameter: progressParameter, urlBuilder: urlBuilder,
            errorHandler: errorHandler, multipartBoundary: multipartBoundary, logLevel: logLevel)
    }

    /// Creates a call of `fields` that streams its response body to a file, as
    /// ``init(name:method:relativePath:headers:parameterStyles:successCodes:overridesClientSuccessCodes:requestSerializer:bodyCharset:bodyParameter:timeout:progressParameter:urlBuilder:errorHandler:multipartBoundary:logLevel:)``
    /// does: its ``CallFields/cache`` is ``CachePolicy/disabled`` whatever `fields` says.
    public init(_ fields: CallFields) {
        var fields = fields
        fields.cache = .disabled
        self.init(fields, serializer: DownloadedFileSerializer())
    }
}

/// The serializer of `WebServiceCall<DownloadedFile>`: the client writes such bodies to a file
/// itself, and the value is that file (``ResponseContext/downloadedFile``); a body in memory is
/// refused.
struct DownloadedFileSerializer: ResponseSerializer {
    struct NotAFile: Error, CustomStringConvertible {
        var description: String { "a DownloadedFile is written by the client, not decoded from a body" }
    }

    func deserialize(_ body: Data, context: ResponseContext) throws -> DownloadedFile {
        guard let file = context.downloadedFile else { throw NotAFile() }
        return file
    }
}
