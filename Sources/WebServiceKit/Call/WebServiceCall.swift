import Foundation

/// A declared endpoint: what to send and how to read what comes back.
///
/// Declare endpoint tables as static values, then pass them to ``WebServiceClient/perform(_:_:)``:
///
/// ```swift
/// extension WebServiceCall where Response == [Repo] {
///     static let userRepos = WebServiceCall(
///         method: .get,
///         relativePath: "users/%%0%%/repos?sort=%%1%%",
///         headers: ["Accept": "application/json", "X-Trace": "%%2%%"],
///         cache: .maxAge(300))
/// }
/// let repos = try await client.perform(.userRepos, "octocat", "updated", "abc")
/// ```
///
/// Every field other than the response serializer lives in ``descriptor`` as one ``CallFields``
/// value and can be read directly on the call (`call.method`, `call.relativePath`, or all of them
/// as `call.fields`). To set fields one by one, build a ``CallFields`` and pass it to
/// ``init(_:serializer:)`` (or ``init(_:)``).
@dynamicMemberLookup
public struct WebServiceCall<Response: Sendable>: Sendable {
    /// The call's fields.
    public let descriptor: CallDescriptor
    /// Turns the response body into `Response`.
    public let responseSerializer: any ResponseSerializer<Response>

    /// The descriptor's field `field`: `call.method`, `call.timeout`, `call.fields`…
    @inlinable
    public subscript<Field>(dynamicMember field: KeyPath<CallDescriptor, Field>) -> Field { descriptor[keyPath: field] }

    /// Throws the problem that makes every call of this descriptor fail, if there is one; use it
    /// in a test that checks an endpoint table.
    public func validate() throws(WebServiceError) { try descriptor.validate() }

    /// Throws what ``validate()`` throws, and a ``CallFields/relativePath`` that starts with `/`
    /// under a `serviceRoot` with a path, which would drop that path
    /// (``CallDescriptor/validate(serviceRoot:)``).
    public func validate(serviceRoot: URL) throws(WebServiceError) { try descriptor.validate(serviceRoot: serviceRoot) }

    /// Creates a call whose response is decoded by `serializer`.
    ///
    /// - Parameters:
    ///   - name: A name for logs and test stubs (default `"METHOD relativePath"`).
    ///   - method: The request method.
    ///   - relativePath: Path and query relative to the service root, with `%%N%%` wildcards that
    ///     take the N-th argument. A leading `/` resolves from the service root's origin; a full
    ///     `https://` URL ignores the service root.
    ///   - headers: Header fields; values may contain wildcards. A `nil` argument drops the field.
    ///   - parameterStyles: How arguments fill their wildcards by OpenAPI's parameter
    ///     serialization rules (argument index → ``ParameterStyle``).
    ///   - successCodes: Accepted status codes, e.g. `[200..<300, 304]`.
    ///   - overridesClientSuccessCodes: `true` replaces the client's codes; `false` adds to them.
    ///   - serializer: Decodes the body.
    ///   - serializationRoot: A dotted key path to decode instead of the whole body.
    ///   - requestSerializer: Serializes the body argument; `nil` uses the client's (JSON).
    ///   - bodyCharset: The charset of text bodies (JSON, XML, form, text).
    ///   - bodyParameter: The argument that becomes the body. Without it, a POST, PUT or PATCH
    ///     sends the first argument that nothing else uses.
    ///   - timeout: Seconds before the call fails with a timeout; `nil` uses the client's.
    ///   - cache: How the call uses the HTTP cache.
    ///   - cacheIdentifier: A name, with wildcards, for the responses the call stores.
    ///   - progressParameter: The argument that is a ``ProgressHandler``.
    ///   - urlBuilder: Builds the URL from arguments of its own kind.
    ///   - errorHandler: Turns responses into the service's own errors.
    ///   - multipartBoundary: The boundary of multipart bodies.
    ///   - logLevel: How much of the call is logged.
    public init(
        name: String? = nil,
        method: HTTPMethod = .get,
        relativePath: String,
        headers: [String: String] = [:],
        parameterStyles: [Int: ParameterStyle] = [:],
        successCodes: StatusCodes? = nil,
        overridesClientSuccessCodes: Bool = false,
        serializer: some ResponseSerializer<Response>,
        serializationRoot: String? = nil,
        requestSerializer: (any RequestSerializer)? = nil,
        bodyCharset: Charset = .utf8,
        bodyParameter: Int? = nil,
        timeout: TimeInterval? = nil,
        cache: CachePolicy = .automatic,
        cacheIdentifier: String? = nil,
        progressParameter: Int? = nil,
        urlBuilder: (any URLBuilder)? = nil,
        errorHandler: (any ResponseErrorHandler)? = nil,
        multipartBoundary: String? = nil,
        logLevel: LogLevel? = nil
    ) {
        var fields = CallFields(method: method, relativePath: relativePath)
        fields.name = name
        fields.headers = headers
        fields.parameterStyles = parameterStyles
        fields.successCodes = successCodes
        fields.overridesClientSuccessCodes = overridesClientSuccessCodes
        fields.serializationRoot = serializationRoot
        fields.requestSerializer = requestSerializer
        fields.bodyCharset = bodyCharset
        fields.bodyParameter = bodyParameter
        fields.timeout = timeout
        fields.cache = cache
        fields.cacheIdentifier = cacheIdentifier
        fields.progressParameter = progressParameter
        fields.urlBuilder = urlBuilder
        fields.errorHandler = errorHandler
        fields.multipartBoundary = multipartBoundary
        fields.logLevel = logLevel
        self.init(fields, serializer: serializer)
    }

    /// Creates a call of `fields` whose response is decoded by `serializer`.
    ///
    /// Every field of ``CallFields`` can be set this way, including those the initializer with
    /// one parameter per field does not list.
    public init(_ fields: CallFields, serializer: some ResponseSerializer<Response>) {
        self.init(fields, serializer: serializer, signature: nil)
    }

    /// A call of `fields` decoded by `serializer`, whose arguments are those `signature` declares
    /// when it has one (a ``TypedCall``'s).
    init(_ fields: CallFields, serializer: any ResponseSerializer<Response>, signature: ArgumentSignature?) {
        responseSerializer = serializer
        descriptor = CallDescriptor(
            fields, supportsSerializationRoot: serializer.supportsSerializationRoot,
            downloadsToFile: serializer is DownloadedFileSerializer,
            streamsResponse: serializer is any StreamingSerializer, signature: signature)
    }
}

extension WebServiceCall where Response: Decodable {
    /// Creates a call with the default serializer for its `Response`: the body as it is for
    /// `Data`, text in the response's charset for `String`, nothing for ``EmptyResponse``, and
    /// JSON for every other `Decodable` type. Parameters are those of
    /// ``init(name:method:relativePath:headers:parameterStyles:successCodes:overridesClientSuccessCodes:serializer:serializationRoot:requestSerializer:bodyCharset:bodyParameter:timeout:cache:progressParameter:urlBuilder:errorHandler:multipartBoundary:logLevel:)``.
    public init(
        name: String? = nil,
        method: HTTPMethod = .get,
        relativePath: String,
        headers: [String: String] = [:],
        parameterStyles: [Int: ParameterStyle] = [:],
        successCodes: StatusCodes? = nil,
        overridesClientSuccessCodes: Bool = false,
        serializationRoot: String? = nil,
        requestSerializer: (any RequestSerializer)? = nil,
        bodyCharset: Charset = .utf8,
        bodyParameter: Int? = nil,
        timeout: TimeInterval? = nil,
        cache: CachePolicy = .automatic,
        cacheIdentifier: String? = nil,
        progressParameter: Int? = nil,
        urlBuilder: (any URLBuilder)? = nil,
        errorHandler: (any ResponseErrorHandler)? = nil,
        multipartBoundary: String? = nil,
        logLevel: LogLevel? = nil
    ) {
        self.init(
            name: name, method: method, relativePath: relativePath, headers: headers, parameterStyles: parameterStyles,
            successCodes: successCodes, overridesClientSuccessCodes: overridesClientSuccessCodes,
            serializer: Self.defaultSerializer(),
            serializationRoot: serializationRoot, requestSerializer: requestSerializer, bodyCharset: bodyCharset,
            bodyParameter: bodyParameter, timeout: timeout, cache: cache, cacheIdentifier: cacheIdentifier,
            progressParameter: progressParameter,
            urlBuilder: urlBuilder, errorHandler: errorHandler, multipartBoundary: multipartBoundary, logLevel: logLevel
        )
    }

    /// Creates a call of `fields` with the default serializer for its `Response` (see
    /// ``init(name:method:relativePath:headers:parameterStyles:successCodes:overridesClientSuccessCodes:serializationRoot:requestSerializer:bodyCharset:bodyParameter:timeout:cache:cacheIdentifier:progressParameter:urlBuilder:errorHandler:multipartBoundary:logLevel:)``).
    public init(_ fields: CallFields) {
        self.init(fields, serializer: Self.defaultSerializer())
    }

    private static func defaultSerializer() -> AnyResponseSerializer<Response> {
        let special: (any ResponseSerializer)? =
            switch Response.self {
            case is Data.Type: DataResponseSerializer()
            case is String.Type: StringResponseSerializer()
            case is EmptyResponse.Type: EmptyResponseSerializer()
            default: nil
            }
        if let special = special as? any ResponseSerializer<Response> { return AnyResponseSerializer(special) }
        return AnyResponseSerializer(JSONResponseSerializer<Response>())
    }
}

/// A type-erased serializer, so one initializer can pick among serializers at run time.
struct AnyResponseSerializer<Output: Sendable>: ResponseSerializer {
    let base: any ResponseSerializer<Output>

    init(_ base: any ResponseSerializer<Output>) { self.base = base }

    func deserialize(_ body: Data, context: ResponseContext) throws -> Output {
        try base.deserialize(body, context: context)
    }

    func emptyValue() -> Output? { base.emptyValue() }

    var supportsSerializationRoot: Bool { base.supportsSerializationRoot }
}
