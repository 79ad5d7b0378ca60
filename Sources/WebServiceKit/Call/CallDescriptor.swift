import Foundation

/// Everything a ``WebServiceCall`` declares except how its response is decoded.
///
/// Interceptors and authentication providers see this non-generic form. Templates are parsed
/// once, when the descriptor is made; a malformed one is kept as an error that every call
/// reports (``WebServiceError/invalidCall(_:)``) and that ``validate()`` throws for tests.
public struct CallDescriptor: Sendable {
    /// Identifies this descriptor (and its copies) among all descriptors of the process.
    public var id: CallID { storage.id }
    /// A name for logs and test stubs; defaults to `"METHOD relativePath"`.
    public var name: String { storage.name }
    /// The request method.
    public var method: HTTPMethod { storage.method }
    /// The path (and query) relative to the client's service root, with `%%N%%` wildcards.
    public var relativePath: String { storage.relativePath }
    /// Header fields; values may contain wildcards.
    public var headers: [String: String] { storage.headers }
    /// Status codes this call accepts, in addition to or instead of the client's.
    public var successCodes: StatusCodes? { storage.successCodes }
    /// `true`: ``successCodes`` replace the client's; `false`: they are added to them.
    public var overridesClientSuccessCodes: Bool { storage.overridesClientSuccessCodes }
    /// A dotted key path (`"coord.lon"`, `"items.0"`) to decode instead of the whole body.
    public var serializationRoot: String? { storage.serializationRoot }
    /// How the body argument is serialized; `nil` uses the client's.
    public var requestSerializer: (any RequestSerializer)? { storage.requestSerializer }
    /// The charset of text bodies.
    public var bodyCharset: Charset { storage.bodyCharset }
    /// The index of the argument that becomes the body (ROAD's `postParameter`).
    public var bodyParameter: Int? { storage.bodyParameter }
    /// The request timeout; `nil` uses the client's.
    public var timeout: TimeInterval? { storage.timeout }
    /// How the call uses the HTTP cache.
    public var cache: CachePolicy { storage.cache }
    /// A name for the responses this call stores, with `%%N%%` wildcards (`"user-%%0%%"`), so
    /// that ``HTTPCache/removeResponses(identifiedBy:)`` can drop them by prefix (ROAD's cache
    /// identifiers).
    public var cacheIdentifier: String? { storage.cacheIdentifier }
    /// The index of the argument that is a ``ProgressHandler`` (ROAD's `progressBlockParameter`).
    public var progressParameter: Int? { storage.progressParameter }
    /// Builds the URL from arguments of its own kind (OData).
    public var urlBuilder: (any URLBuilder)? { storage.urlBuilder }
    /// Turns error bodies into the service's own error; `nil` uses the client's.
    public var errorHandler: (any ResponseErrorHandler)? { storage.errorHandler }
    /// The boundary of multipart bodies; `nil` picks a random one. A call whose in-memory part
    /// holds this boundary at the start of a line fails with
    /// ``WebServiceError/invalidArguments(index:reason:)`` rather than send a body that would be
    /// cut there (RFC 2046 §5.1.1); file and stream parts are not searched.
    public var multipartBoundary: String? { storage.multipartBoundary }
    /// How much of this call is logged; `nil` uses the client's level.
    public var logLevel: LogLevel? { storage.logLevel }

    var compiled: Result<CompiledCall, WebServiceError> { storage.compiled }

    /// Throws the problem that makes every call of this descriptor fail, if there is one.
    public func validate() throws(WebServiceError) { _ = try compiled.get() }

    /// The fields, shared by every copy: a descriptor travels through each call's pipeline by
    /// value, and copying one reference costs one retain where twenty fields cost twenty.
    private let storage: Storage

    init(_ storage: Storage) { self.storage = storage }

    /// The fields. Its initializer is the designated one: every public initializer of
    /// WebServiceCall ends there.
    final class Storage: Sendable {
        let id: CallID
        let name: String
        let method: HTTPMethod
        let relativePath: String
        let headers: [String: String]
        let successCodes: StatusCodes?
        let overridesClientSuccessCodes: Bool
        let serializationRoot: String?
        let requestSerializer: (any RequestSerializer)?
        let bodyCharset: Charset
        let bodyParameter: Int?
        let timeout: TimeInterval?
        let cache: CachePolicy
        let cacheIdentifier: String?
        let progressParameter: Int?
        let urlBuilder: (any URLBuilder)?
        let errorHandler: (any ResponseErrorHandler)?
        let multipartBoundary: String?
        let logLevel: LogLevel?
        let compiled: Result<CompiledCall, WebServiceError>

        init(
            name: String?, method: HTTPMethod, relativePath: String, headers: [String: String],
            successCodes: StatusCodes?, overridesClientSuccessCodes: Bool, serializationRoot: String?,
            supportsSerializationRoot: Bool, requestSerializer: (any RequestSerializer)?, bodyCharset: Charset,
            bodyParameter: Int?, timeout: TimeInterval?, cache: CachePolicy, cacheIdentifier: String?,
            progressParameter: Int?,
            urlBuilder: (any URLBuilder)?, errorHandler: (any ResponseErrorHandler)?, multipartBoundary: String?,
            logLevel: LogLevel?
        ) {
            id = CallID.next()
            self.name = name ?? "\(method.rawValue) \(relativePath)"
            self.method = method
            self.relativePath = relativePath
            self.headers = headers
            self.successCodes = successCodes
            self.overridesClientSuccessCodes = overridesClientSuccessCodes
            self.serializationRoot = serializationRoot
            self.requestSerializer = requestSerializer
            self.bodyCharset = bodyCharset
            self.bodyParameter = bodyParameter
            self.timeout = timeout
            self.cache = cache
            self.cacheIdentifier = cacheIdentifier
            self.progressParameter = progressParameter
            self.urlBuilder = urlBuilder
            self.errorHandler = errorHandler
            self.multipartBoundary = multipartBoundary
            self.logLevel = logLevel
            compiled = Result { () throws(WebServiceError) in
                try CompiledCall(
                    method: method, relativePath: relativePath, headers: headers, serializationRoot: serializationRoot,
                    supportsSerializationRoot: supportsSerializationRoot, bodyParameter: bodyParameter,
                    progressParameter: progressParameter, multipartBoundary: multipartBoundary, timeout: timeout,
                    cacheIdentifier: cacheIdentifier,
                    successCodes: successCodes, overridesClientSuccessCodes: overridesClientSuccessCodes)
            }
        }
    }
}

/// The identity of a descriptor, for test stubs and logs.
public struct CallID: Hashable, Sendable, CustomStringConvertible {
    let value: Int

    private static let counter = Locked(0)

    static func next() -> CallID {
        CallID(
            value: counter.withLock { count in
                count += 1
                return count
            })
    }

    public var description: String { "#\(value)" }
}

/// The parsed, checked form of a descriptor's templates.
final class CompiledCall: Sendable {
    struct HeaderTemplate: Sendable {
        let name: String
        let value: Template
    }

    let url: URLTemplate
    let headers: [HeaderTemplate]
    /// Whether two of ``headers`` have the same name in different cases (the later one wins).
    let headerNamesCollide: Bool
    let serializationRoot: [String]?
    let cacheIdentifier: Template?
    /// The URL of a call without wildcards in its path or query, kept for the last service root
    /// it was built against: parsing it again costs more than the rest of the request.
    let staticURL: StaticURLCache?

    init(
        method: HTTPMethod, relativePath: String, headers: [String: String], serializationRoot: String?,
        supportsSerializationRoot: Bool, bodyParameter: Int?, progressParameter: Int?, multipartBoundary: String?,
        timeout: TimeInterval?, cacheIdentifier: String?, successCodes: StatusCodes?,
        overridesClientSuccessCodes: Bool
    ) throws(WebServiceError) {
        guard method.isValidToken else {
            throw .invalidCall("method \"\(method.rawValue)\" is not a valid HTTP token (RFC 9110 §9.1)")
        }
        do {
            url = try URLTemplate.parse(relativePath)
            staticURL = url.argumentIndices.isEmpty ? StaticURLCache() : nil
            self.cacheIdentifier = try cacheIdentifier.map { (text) throws(TemplateError) in try Template.parse(text) }
        } catch {
            throw .invalidCall(error.description)
        }
        var headerTemplates: [HeaderTemplate] = []
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            do throws(TemplateError) {
                headerTemplates.append(HeaderTemplate(name: name, value: try Template.parse(value)))
            } catch {
                // Neither the value nor its wildcard is quoted: a header template may hold a credential.
                throw .invalidHeader(
                    name: name,
                    reason:
                        "malformed template: a wildcard is %%N%% with N a decimal argument index from 0 to \(Template.maximumIndex)"
                )
            }
        }
        self.headers = headerTemplates
        headerNamesCollide = Set(headerTemplates.map { $0.name.lowercased() }).count < headerTemplates.count
        for header in self.headers {
            guard HTTPToken.isValidFieldName(header.name) else {
                throw .invalidHeader(name: header.name, reason: "not a valid field name (RFC 9110 §5.1)")
            }
            for case .literal(let text) in header.value.parts {
                if let problem = HeaderValidation.problem(in: text) {
                    throw .invalidHeader(name: header.name, reason: problem)
                }
            }
        }
        if let serializationRoot {
            guard supportsSerializationRoot else {
                throw .invalidCall("serializationRoot \"\(serializationRoot)\" needs a serializer that supports it")
            }
            let steps = serializationRoot.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !steps.contains(where: \.isEmpty) else {
                throw .invalidCall("serializationRoot \"\(serializationRoot)\" has an empty step")
            }
            self.serializationRoot = steps
        } else {
            self.serializationRoot = nil
        }
        for (label, index) in [("bodyParameter", bodyParameter), ("progressParameter", progressParameter)] {
            if let index, index < 0 || index > Template.maximumIndex {
                throw .invalidCall("\(label) \(index) is not an argument index")
            }
        }
        if let bodyParameter, bodyParameter == progressParameter {
            throw .invalidCall("bodyParameter and progressParameter are both argument \(bodyParameter)")
        }
        if overridesClientSuccessCodes, successCodes == nil {
            throw .invalidCall("overridesClientSuccessCodes needs successCodes to replace the client's with")
        }
        if let boundary = multipartBoundary, let problem = MultipartBoundary.problem(in: boundary) {
            throw .invalidCall("multipartBoundary \"\(boundary)\": \(problem)")
        }
        if let timeout, !(timeout > 0) {
            throw .invalidCall("timeout must be positive; got \(timeout)")
        }
    }
}

/// One URL remembered with the service root it was built against.
final class StaticURLCache: Sendable {
    private let entry = Locked<(root: String, url: URL)?>(nil)

    /// The URL built for `root`, if it is the one remembered.
    func url(for root: String) -> URL? {
        entry.withLock { entry in entry.flatMap { $0.root == root ? $0.url : nil } }
    }

    func remember(_ url: URL, for root: String) { entry.withLock { $0 = (root, url) } }
}
