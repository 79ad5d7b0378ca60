import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Where JSON-RPC 2.0 requests go: a ``WebServiceCall`` that POSTs the request objects as JSON and
/// reads the response objects, with the ids its requests get.
///
/// Declare endpoints as static values, like other calls, and call methods through them:
///
/// ```swift
/// extension JSONRPCEndpoint {
///     static let rpc = JSONRPCEndpoint(relativePath: "rpc", headers: ["X-Client": "kit"])
/// }
/// let difference = try await client.perform(.rpc, .subtract, [42, 23])
/// ```
///
/// Every request runs through the client's pipeline as the endpoint's ``call``: shared headers,
/// interceptors, the authentication provider, logging, timeouts, success codes, progress and
/// cancellation apply as they do to any call. The call's wildcards (`%%0%%`, `%%1%%`… in the
/// path, the header values or the cache identifier) take the `arguments` of the `perform`
/// methods; the body is the argument after them.
///
/// The HTTP cache stores only `GET` responses (RFC 9111), so the `POST`ed calls of an endpoint
/// always reach the server; `cache` is kept in the descriptor for interceptors and transports
/// that read it.
public struct JSONRPCEndpoint: Sendable {
    /// The call every request of the endpoint is sent as; its `Response` is the raw
    /// ``JSONRPCPayload``. Stub it in tests (`stubs.stub(endpoint.call, with: …)`), or check it
    /// with ``WebServiceCall/validate()``.
    public let call: WebServiceCall<JSONRPCPayload>
    /// Gives the ids of the endpoint's requests.
    public let ids: any JSONRPCIDGenerator
    /// Encodes params.
    public let encoder: JSONEncoder
    /// How many arguments the call's wildcards take; the body is argument number `argumentCount`.
    public let argumentCount: Int

    /// Creates an endpoint.
    ///
    /// - Parameters:
    ///   - name: A name for logs and test stubs (default `"POST relativePath"`).
    ///   - relativePath: Path and query relative to the service root, with `%%N%%` wildcards.
    ///   - headers: Header fields; values may contain wildcards. `Content-Type` and `Accept` are
    ///     `application/json` unless given here.
    ///   - successCodes: Accepted status codes, added to the client's or replacing them.
    ///   - overridesClientSuccessCodes: `true` replaces the client's codes; `false` adds to them.
    ///   - timeout: Seconds before a call fails with a timeout; `nil` uses the client's.
    ///   - cache: The calls' cache policy (see above: `POST` responses are not stored).
    ///   - cacheIdentifier: A name, with wildcards, for the responses the calls store.
    ///   - errorHandler: Turns responses into the service's own errors before they are read as
    ///     JSON-RPC; `nil` uses the client's.
    ///   - logLevel: How much of the calls is logged; `nil` uses the client's level.
    ///   - ids: Gives request ids (numbers from 1 by default).
    ///   - encoder: Encodes params (its strategies apply to dates, data, keys…).
    ///   - decoder: Decodes results; `nil` uses the client's ``WebServiceClient/jsonDecoder``.
    public init(
        name: String? = nil,
        relativePath: String,
        headers: [String: String] = [:],
        successCodes: StatusCodes? = nil,
        overridesClientSuccessCodes: Bool = false,
        timeout: TimeInterval? = nil,
        cache: CachePolicy = .automatic,
        cacheIdentifier: String? = nil,
        errorHandler: (any ResponseErrorHandler)? = nil,
        logLevel: LogLevel? = nil,
        ids: any JSONRPCIDGenerator = JSONRPCNumberIDGenerator(),
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder? = nil
    ) {
        var fields = CallFields(method: .post, relativePath: relativePath)
        fields.name = name
        fields.headers = headers
        fields.successCodes = successCodes
        fields.overridesClientSuccessCodes = overridesClientSuccessCodes
        fields.timeout = timeout
        fields.cache = cache
        fields.cacheIdentifier = cacheIdentifier
        fields.errorHandler = errorHandler
        fields.logLevel = logLevel
        self.init(fields, ids: ids, encoder: encoder, decoder: decoder)
    }

    /// Creates an endpoint from a call's fields (``CallFields``), so that every field a call can
    /// have is an endpoint's too. The method is always `POST`, `Content-Type` and `Accept` are
    /// `application/json` unless `fields.headers` has them, and the body is the argument after
    /// the wildcards (`fields.bodyParameter` is set to it).
    public init(
        _ fields: CallFields, ids: any JSONRPCIDGenerator = JSONRPCNumberIDGenerator(),
        encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder? = nil
    ) {
        var fields = fields
        fields.method = .post
        let given = HTTPHeaders(fields.headers)
        for name in ["Content-Type", "Accept"] where !given.contains(name) {
            fields.headers[name] = "application/json"
        }
        let serializer = JSONRPCResponseSerializer(decoder: decoder)
        // The wildcards come first; the body is the argument after the last one they use.
        var templates = fields
        templates.bodyParameter = nil
        let probe = WebServiceCall(templates, serializer: serializer)
        let argumentCount =
            (try? probe.validate()) == nil
            ? 0
            : (Self.largestWildcardIndex(
                in: [fields.relativePath] + fields.headers.values + [fields.cacheIdentifier ?? ""]) ?? -1) + 1
        self.argumentCount = argumentCount
        self.ids = ids
        self.encoder = encoder
        fields.bodyParameter = argumentCount
        call = WebServiceCall(fields, serializer: serializer)
    }

    func arguments(_ wildcards: [any Sendable], body: Data) throws(WebServiceError) -> [any Sendable] {
        guard wildcards.count == argumentCount else {
            throw .invalidArguments(
                index: nil,
                reason: "the JSON-RPC endpoint \"\(call.name)\" takes \(argumentCount) wildcard argument(s); "
                    + "got \(wildcards.count)")
        }
        return wildcards + [body]
    }
}

extension JSONRPCEndpoint {
    /// The largest `%%N%%` index in templates that a valid descriptor holds, where every `%%`
    /// opens a wildcard of decimal digits that the next `%%` closes; `nil` without wildcards.
    static func largestWildcardIndex(in templates: [String]) -> Int? {
        var largest: Int?
        for template in templates {
            var rest = template[...]
            while let open = rest.range(of: "%%") {
                let digits = rest[open.upperBound...]
                guard let close = digits.range(of: "%%") else { break }
                if let index = Int(digits[..<close.lowerBound]) { largest = max(largest ?? index, index) }
                rest = digits[close.upperBound...]
            }
        }
        return largest
    }
}
