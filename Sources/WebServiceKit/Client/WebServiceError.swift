import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything that can make a call fail. Every case has a clear ``description``.
public enum WebServiceError: Error, Sendable, CustomStringConvertible {
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

    /// Whether the call was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// Whether the transport gave up waiting (the call's or the client's timeout).
    public var isTimeout: Bool {
        if case .transport(let error) = self { return error.code == .timedOut }
        return false
    }

    /// The HTTP status code, for failures that had a response.
    public var statusCode: Int? {
        switch self {
        case .unacceptableStatus(let code, _, _), .emptyBody(let code), .application(_, let code),
            .responseTooLarge(_, let code):
            return code
        case .decoding(let failure): return failure.statusCode
        case .retryAfterTooLong(let refusal): return refusal.statusCode
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .invalidCall(let reason): return "invalid call descriptor: \(reason)"
        case .invalidArguments(let index, let reason):
            return index.map { "invalid argument \($0): \(reason)" } ?? "invalid arguments: \(reason)"
        case .invalidHeader(let name, let reason): return "refused header \"\(name)\": \(reason)"
        case .requestSerialization(let reason): return "could not serialize the request body: \(reason)"
        case .transport(let error): return "transport failure (\(error.code.rawValue)): \(error.localizedDescription)"
        case .unacceptableStatus(let code, _, let body):
            return "unacceptable status \(code)" + (body.isEmpty ? "" : "; body starts: \(Self.excerpt(of: body))")
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

    /// The first 256 characters of a body, for messages.
    static func excerpt(of body: Data) -> String {
        let limit = 256
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
