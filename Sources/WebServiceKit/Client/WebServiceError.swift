import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything that can make a call fail: what went wrong (``reason``, one typed case) and the call
/// it happened to (``call``: its name, method and URL, secrets redacted).
///
/// ```swift
/// do {
///     _ = try await client.perform(.userRepos, "octocat", "updated")
/// } catch {
///     print(error)  // userRepos (GET https://api.example.com/users/octocat/repos?sort=updated): unacceptable status 404
///     if case .unacceptableStatus(let code, _, _) = error.reason { print(code) }
/// }
/// ```
///
/// Each case of ``Reason`` can be made on the error directly (`throw .invalidCall("…")`,
/// `WebServiceError.cancelled(reason: nil)`), as interceptors, providers and error handlers do; the
/// client names the call when the error leaves it.
public struct WebServiceError: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let reason: Reason
    /// The call that failed; `nil` for an error not (yet) delivered by a call: one an interceptor
    /// or a provider makes, before the client names the call.
    public var call: CallSummary? { naming?.call }
    /// The call and the reason's text with its secrets hidden, in one reference: every call's
    /// result carries room for an error, which stays as small as its reason this way.
    private var naming: Naming?

    private final class Naming: Sendable {
        let call: CallSummary
        /// ``reason``'s description with the call's secrets hidden, when it had any to hide.
        let scrubbedReason: String?

        init(call: CallSummary, scrubbedReason: String?) {
            self.call = call
            self.scrubbedReason = scrubbedReason
        }
    }

    /// An error of `reason`, not tied to a call.
    public init(_ reason: Reason) { self.reason = reason }

    /// A failed call: its name, method and URL, the URL's password and the values of redacted
    /// query parameters (``LogRedaction``) replaced by `[redacted]`.
    public struct CallSummary: Sendable, Hashable, CustomStringConvertible {
        /// The descriptor's name (``CallDescriptor/name``).
        public let name: String
        /// The request method.
        public let method: String
        /// The request's URL, redacted; the relative path as declared when the call failed before
        /// its URL was built (an argument that does not fit, say).
        public let url: String
        /// Whether the descriptor has a name of its own (``CallFields/name``), rather than its
        /// method and relative path.
        let isNamed: Bool

        /// Describes a call; `isNamed` says whether `name` is one the descriptor was given.
        init(name: String, method: String, url: String, isNamed: Bool) {
            self.name = name
            self.method = method
            self.url = url
            self.isNamed = isNamed
        }

        /// `userRepos (GET https://api.example.com/users/octocat/repos)`; `GET https://…` for a
        /// descriptor without a name of its own.
        public var description: String { isNamed ? "\(name) (\(method) \(url))" : "\(method) \(url)" }
    }

    /// This error as the failure of `call`: its description starts with the call. An error that
    /// names a call already (the failure of a nested call, such as a token refresh) keeps it.
    /// `secrets` are hidden in the reason's text.
    func naming(_ call: CallSummary, hiding secrets: LogRedaction.Secrets) -> WebServiceError {
        guard naming == nil else { return self }
        var named = self
        let text = reason.description
        let scrubbed = secrets.scrub(text)
        named.naming = Naming(call: call, scrubbedReason: scrubbed == text ? nil : scrubbed)
        return named
    }

    /// The failure of the same call for another reason, as a product that reads a failure further
    /// makes it (the JSON-RPC product reads an error status's body as a JSON-RPC error): the call it
    /// names is kept.
    public func replacingReason(_ reason: Reason) -> WebServiceError {
        var replaced = WebServiceError(reason)
        replaced.naming = naming.map { Naming(call: $0.call, scrubbedReason: nil) }
        return replaced
    }

    public var description: String {
        let text = naming?.scrubbedReason ?? reason.description
        return call.map { "\($0): \(text)" } ?? text
    }

    /// The ``description``: what `error.localizedDescription` gives, where an app shows an error
    /// (without it, Foundation's "The operation could not be completed…").
    public var errorDescription: String? { description }

    /// What went wrong in a call. Every case has a clear ``description``.
    public enum Reason: Sendable, CustomStringConvertible {
        /// The descriptor itself is malformed (a bad template, an invalid method or header name…).
        case invalidCall(String)
        /// The arguments do not fit the descriptor: a missing argument, one nothing consumes, or one
        /// of a type its place cannot take. `index` names the argument.
        case invalidArguments(index: Int?, reason: String)
        /// A header name or value would corrupt the request (CR, LF, NUL): header injection refused.
        case invalidHeader(name: String, reason: String)
        /// The body argument could not be serialized.
        case requestSerialization(String)
        /// The request never got a response: connection, TLS, DNS, timeout.
        case transport(URLError)
        /// The status code is not among the accepted ones.
        case unacceptableStatus(code: Int, headers: HTTPHeaders, body: Data)
        /// The response had no body where the call's `Response` needs one.
        case emptyBody(statusCode: Int)
        /// The body could not be decoded into `Response`.
        case decoding(DecodingFailure)
        /// The service reported an error of its own, decoded by the call's error handler.
        case application(any Error, statusCode: Int)
        /// Authentication failed: wrong credentials, or a challenge that kept coming back.
        case authentication(String)
        /// An interceptor refused the request or the response.
        case intercepted(any Error)
        /// The call was cancelled, with the reason given to ``WebServiceTask/cancel(reason:)``.
        case cancelled(reason: String?)
        /// A download to a file failed on the local side: the destination exists or cannot be
        /// written, or writing the body failed. See ``DownloadDestination``.
        case download(FileDownloadError)
        /// The response body was longer than ``WebServiceClient/maximumResponseBodySize`` allows:
        /// reading stopped there (before the body, when `Content-Length` already said so) and
        /// nothing of it was kept or cached. `limit` is the cap in bytes.
        case responseTooLarge(limit: Int, statusCode: Int)
        /// The server asked, with `Retry-After` (RFC 9110 §10.2.3), for a wait longer than the call's
        /// ``RetryPolicy`` allows (``RetryPolicy/maximumDelay``, or what was left of
        /// ``RetryPolicy/maximumTotalTime``): the call stopped rather than wait. The refusal carries
        /// the wait asked for and the response that asked.
        case retryAfterTooLong(RetryAfterRefusal)
        /// A streamed response (``WebServiceClient/stream(_:_:)``, ``ResponseStream``) could not
        /// go on: a line or an event past its limit, or a consumer that fell too far behind a
        /// transport that cannot pause. See ``ResponseStreamError``.
        case responseStream(ResponseStreamError)

        public var description: String {
            switch self {
            case .invalidCall(let reason): return "invalid call descriptor: \(reason)"
            case .invalidArguments(let index, let reason):
                return index.map { "invalid argument \($0): \(reason)" } ?? "invalid arguments: \(reason)"
            case .invalidHeader(let name, let reason): return "refused header \"\(name)\": \(reason)"
            case .requestSerialization(let reason): return "could not serialize the request body: \(reason)"
            case .transport(let error):
                return "transport failure (\(error.code.rawValue)): \(error.localizedDescription)"
            case .unacceptableStatus(let code, _, let body):
                return "unacceptable status \(code)"
                    + (body.isEmpty ? "" : "; body starts: \(WebServiceError.excerpt(of: body))")
            case .emptyBody(let code): return "empty response body (status \(code)) where a value was expected"
            case .decoding(let failure): return failure.description
            case .application(let error, let code): return "service error (status \(code)): \(error)"
            case .authentication(let reason): return "authentication failed: \(reason)"
            case .intercepted(let error): return "an interceptor refused the call: \(error)"
            case .cancelled(let reason): return reason.map { "cancelled: \($0)" } ?? "cancelled"
            case .download(let error): return "download failed: \(error)"
            case .responseTooLarge(let limit, let code):
                return "the response body (status \(code)) is larger than the \(limit)-byte limit; reading stopped. "
                    + "Raise the client's maximumResponseBodySize (for a streamed body, the call's "
                    + "maximumStreamedBodySize) to accept it"
            case .retryAfterTooLong(let refusal): return "retry refused: \(refusal)"
            case .responseStream(let error): return "streamed response stopped: \(error)"
            }
        }
    }

    // MARK: The reasons, made on the error

    /// ``Reason/invalidCall(_:)``.
    public static func invalidCall(_ reason: String) -> WebServiceError { WebServiceError(.invalidCall(reason)) }
    /// ``Reason/invalidArguments(index:reason:)``.
    public static func invalidArguments(index: Int?, reason: String) -> WebServiceError {
        WebServiceError(.invalidArguments(index: index, reason: reason))
    }
    /// ``Reason/invalidHeader(name:reason:)``.
    public static func invalidHeader(name: String, reason: String) -> WebServiceError {
        WebServiceError(.invalidHeader(name: name, reason: reason))
    }
    /// ``Reason/requestSerialization(_:)``.
    public static func requestSerialization(_ reason: String) -> WebServiceError {
        WebServiceError(.requestSerialization(reason))
    }
    /// ``Reason/transport(_:)``.
    public static func transport(_ error: URLError) -> WebServiceError { WebServiceError(.transport(error)) }
    /// ``Reason/unacceptableStatus(code:headers:body:)``.
    public static func unacceptableStatus(code: Int, headers: HTTPHeaders, body: Data) -> WebServiceError {
        WebServiceError(.unacceptableStatus(code: code, headers: headers, body: body))
    }
    /// ``Reason/emptyBody(statusCode:)``.
    public static func emptyBody(statusCode: Int) -> WebServiceError {
        WebServiceError(.emptyBody(statusCode: statusCode))
    }
    /// ``Reason/decoding(_:)``.
    public static func decoding(_ failure: DecodingFailure) -> WebServiceError { WebServiceError(.decoding(failure)) }
    /// ``Reason/application(_:statusCode:)``.
    public static func application(_ error: any Error, statusCode: Int) -> WebServiceError {
        WebServiceError(.application(error, statusCode: statusCode))
    }
    /// ``Reason/authentication(_:)``.
    public static func authentication(_ reason: String) -> WebServiceError { WebServiceError(.authentication(reason)) }
    /// ``Reason/intercepted(_:)``.
    public static func intercepted(_ error: any Error) -> WebServiceError { WebServiceError(.intercepted(error)) }
    /// ``Reason/cancelled(reason:)``.
    public static func cancelled(reason: String?) -> WebServiceError { WebServiceError(.cancelled(reason: reason)) }
    /// ``Reason/download(_:)``.
    public static func download(_ error: FileDownloadError) -> WebServiceError { WebServiceError(.download(error)) }
    /// ``Reason/responseTooLarge(limit:statusCode:)``.
    public static func responseTooLarge(limit: Int, statusCode: Int) -> WebServiceError {
        WebServiceError(.responseTooLarge(limit: limit, statusCode: statusCode))
    }
    /// ``Reason/retryAfterTooLong(_:)``.
    public static func retryAfterTooLong(_ refusal: RetryAfterRefusal) -> WebServiceError {
        WebServiceError(.retryAfterTooLong(refusal))
    }
    /// ``Reason/responseStream(_:)``.
    public static func responseStream(_ error: ResponseStreamError) -> WebServiceError {
        WebServiceError(.responseStream(error))
    }

    /// The failure of a response serializer, with an excerpt of the body it read.
    public struct DecodingFailure: Sendable, CustomStringConvertible {
        /// The serializer's error.
        public let underlying: any Error
        /// The start of the body, as text, for diagnostics.
        public let bodyExcerpt: String
        /// The status code of the response.
        public let statusCode: Int

        init(underlying: any Error, bodyExcerpt: String, statusCode: Int) {
            self.underlying = underlying
            self.bodyExcerpt = bodyExcerpt
            self.statusCode = statusCode
        }

        /// Creates the failure of code that decodes a response body after its call returned (the
        /// JSON-RPC product decodes each result when it is asked for): the excerpt is the start of
        /// `body`, cut as the client cuts it.
        ///
        /// - Parameters:
        ///   - underlying: The decoder's error.
        ///   - body: The body that could not be decoded.
        ///   - statusCode: The status code of the response.
        public init(underlying: any Error, body: Data, statusCode: Int) {
            self.init(underlying: underlying, bodyExcerpt: WebServiceError.excerpt(of: body), statusCode: statusCode)
        }

        public var description: String {
            "could not decode the response (status \(statusCode)): \(Self.describe(underlying)); body starts: \(bodyExcerpt)"
        }

        static func describe(_ error: any Error) -> String {
            switch error {
            case DecodingError.keyNotFound(let key, let context):
                return "key \"\(key.stringValue)\" not found at \(path(context.codingPath))"
            case DecodingError.typeMismatch(let type, let context):
                return "expected \(type) at \(path(context.codingPath)): \(context.debugDescription)"
            case DecodingError.valueNotFound(let type, let context):
                return "no \(type) value at \(path(context.codingPath)): \(context.debugDescription)"
            case DecodingError.dataCorrupted(let context):
                return "malformed data at \(path(context.codingPath)): \(context.debugDescription)"
            default:
                return "\(error)"
            }
        }

        private static func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the top level" : codingPath.map(\.stringValue).joined(separator: ".")
        }
    }

    /// The transport's failure, for ``Reason/transport(_:)``: `catch let error as WebServiceError
    /// where error.urlError?.code == .cannotConnectToHost`.
    public var urlError: URLError? {
        if case .transport(let error) = reason { return error }
        return nil
    }

    /// The service's own error, for ``Reason/application(_:statusCode:)``: what the call's error
    /// handler made of the response (`error.applicationError as? ODataError`).
    public var applicationError: (any Error)? {
        if case .application(let error, _) = reason { return error }
        return nil
    }

    /// Whether the call was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = reason { return true }
        return false
    }

    /// Whether the transport gave up waiting (the call's or the client's timeout).
    public var isTimeout: Bool {
        if case .transport(let error) = reason { return error.code == .timedOut }
        return false
    }

    /// The HTTP status code, for failures that had a response.
    public var statusCode: Int? {
        switch reason {
        case .unacceptableStatus(let code, _, _), .emptyBody(let code), .application(_, let code),
            .responseTooLarge(_, let code):
            return code
        case .decoding(let failure): return failure.statusCode
        case .retryAfterTooLong(let refusal): return refusal.statusCode
        default: return nil
        }
    }

    /// The first 256 characters of a body, for messages.
    static func excerpt(of body: Data) -> String {
        let limit = 256
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
