import Foundation

/// How a call uses the HTTP cache (ROAD's `RFWebServiceCache`).
///
/// The descriptor carries the policy; the cache interprets it.
public struct CachePolicy: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case automatic
        case disabled
        case maxAge(TimeInterval)
        case forceNetwork
        case forceCache
        case maxStale(TimeInterval)
        case offlineFallback
    }

    let kind: Kind

    /// Follow the response's caching headers (RFC 9111). The default.
    public static let automatic = CachePolicy(kind: .automatic)
    /// Never read from or write to the cache for this call.
    public static let disabled = CachePolicy(kind: .disabled)
    /// Serve a stored response for `seconds` whatever its headers say.
    public static func maxAge(_ seconds: TimeInterval) -> CachePolicy { CachePolicy(kind: .maxAge(seconds)) }
    /// Always ask the server, without validators, and store the response for later calls
    /// (a reload).
    public static let forceNetwork = CachePolicy(kind: .forceNetwork)
    /// Never ask the server: serve the stored response however stale, or fail with 504 (Gateway
    /// Timeout) when there is none or its headers forbid serving it without validation
    /// (`only-if-cached`, RFC 9111 §5.2.1.7).
    public static let forceCache = CachePolicy(kind: .forceCache)
    /// Follow the response's caching headers, but accept a stored response up to `seconds` past
    /// its freshness lifetime unless it must be revalidated (`max-stale`, RFC 9111 §5.2.1.2).
    public static func maxStale(_ seconds: TimeInterval) -> CachePolicy { CachePolicy(kind: .maxStale(seconds)) }
    /// Follow the response's caching headers and, when the server cannot be reached, serve the
    /// stored response however stale unless its headers forbid it (`no-cache`, `must-revalidate`).
    public static let offlineFallback = CachePolicy(kind: .offlineFallback)

    public var description: String {
        switch kind {
        case .automatic: "automatic"
        case .disabled: "disabled"
        case .maxAge(let seconds): "maxAge(\(seconds))"
        case .forceNetwork: "forceNetwork"
        case .forceCache: "forceCache"
        case .maxStale(let seconds): "maxStale(\(seconds))"
        case .offlineFallback: "offlineFallback"
        }
    }
}

/// How much of each exchange is logged, as in OkHttp's logging interceptor.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Nothing.
    case none
    /// Method, URL, status and duration.
    case basic
    /// `basic` and the header fields (secrets redacted).
    case headers
    /// `headers` and the bodies (truncated past a size limit).
    case body

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Builds a call's URL from arguments of its own kind (the OData URL builder is one).
///
/// Arguments that the builder ``accepts(_:)`` are handed to it instead of being treated as the
/// body or as unused.
public protocol URLBuilder: Sendable {
    /// Whether `argument` is one of this builder's parameters.
    func accepts(_ argument: Any) -> Bool

    /// The final URL, from the URL built out of the descriptor's path and the accepted arguments.
    func buildURL(from url: URL, arguments: [Any]) throws -> URL
}

/// Turns a response into the service's own error (ROAD's error handler, WebStruct's application
/// errors). The client calls it for every response before decoding.
public protocol ResponseErrorHandler: Sendable {
    /// The service's error for this response, or `nil` to let the call go on (decoding an
    /// accepted response, or failing an unaccepted one with
    /// ``WebServiceError/unacceptableStatus(code:headers:body:)``).
    func error(for response: ResponseContext, body: Data, statusAccepted: Bool) -> (any Error)?
}

/// Decodes a JSON error body of type `Failure` from responses whose status is not accepted.
///
/// ```swift
/// struct APIError: Error, Decodable { let code: Int; let message: String }
/// static let profile = WebServiceCall<Profile>(
///     method: .get, relativePath: "me", errorHandler: DecodableErrorHandler(APIError.self))
/// ```
/// A body that does not decode as `Failure` leaves the call to fail with `unacceptableStatus`.
///
/// Services that answer errors with `200 OK` and an error body: pass
/// `inAcceptedResponses: true`, and accepted responses whose body decodes as `Failure` fail with
/// it too (as WebStruct's application errors did). Give `Failure` a required field that success
/// bodies never have, or every response will decode as one.
public struct DecodableErrorHandler<Failure: Error & Decodable>: ResponseErrorHandler {
    private let decoder: JSONDecoder
    private let inAcceptedResponses: Bool

    /// Creates a handler for `Failure` bodies, in unaccepted responses only unless
    /// `inAcceptedResponses`.
    public init(_ failure: Failure.Type, decoder: JSONDecoder = JSONDecoder(), inAcceptedResponses: Bool = false) {
        self.decoder = decoder
        self.inAcceptedResponses = inAcceptedResponses
    }

    public func error(for response: ResponseContext, body: Data, statusAccepted: Bool) -> (any Error)? {
        guard !statusAccepted || inAcceptedResponses, !body.isEmpty else { return nil }
        return try? decoder.decode(Failure.self, from: body)
    }
}
