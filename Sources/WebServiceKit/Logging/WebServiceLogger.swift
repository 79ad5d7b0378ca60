/// Receives what a ``WebServiceClient`` logs about the exchanges of its calls.
///
/// How much is logged depends on the call's ``LogLevel``: the descriptor's `logLevel`, or the
/// client's ``WebServiceClient/logLevel`` (`.none` by default, so nothing is logged until you
/// ask). Every request sent to the transport gives one ``LogMessage`` of kind `.request`, and its
/// answer one of kind `.response` or `.failure`; a retried or redirected call logs one pair per
/// request it sends. Secrets are redacted before a message is made (see ``LogRedaction``).
///
/// ```swift
/// client.logger = StandardErrorLogger()   // the default
/// client.logLevel = .basic
/// ```
///
/// A logger is called from the task running the call, so concurrent calls call it concurrently;
/// it should return quickly.
public protocol WebServiceLogger: Sendable {
    /// Records one message.
    func log(_ message: LogMessage)
}

/// One message about one exchange: the request as it goes to the transport, or its answer.
///
/// ``text`` is the whole message, one line per header field or body line, in the style of
/// OkHttp's `HttpLoggingInterceptor`:
///
/// ```text
/// --> POST https://api.example.com/notes (17-byte body)
/// Content-Type: application/json
/// --> END POST
/// <-- 201 https://api.example.com/notes (12 ms, 25-byte body)
/// Content-Type: application/json
/// <-- END HTTP
/// ```
///
/// ``metadata`` carries the same facts as separate values, under the keys of
/// ``LogMessage/MetadataKey``, for loggers that keep structured fields.
public struct LogMessage: Sendable, Hashable {
    /// What the message is about.
    public enum Kind: String, Sendable, Hashable {
        /// A request, logged just before it goes to the transport.
        case request
        /// The transport's response to a request (from the network or the cache).
        case response
        /// The transport failed to get a response (no connection, timeout, cancellation).
        case failure
        /// The call will be sent again by its ``RetryPolicy``, after a wait: one message per retry.
        case retry
    }

    /// The keys of ``LogMessage/metadata``. Values are strings; a key is absent when it does not
    /// apply to the message's kind.
    public enum MetadataKey {
        /// The call's name (the descriptor's `name`). Every message.
        public static let call = "call"
        /// The request's number within its call, from 1: a retry after a challenge or a followed
        /// redirect sends request 2, and so on. Every message.
        public static let attempt = "attempt"
        /// The request method. Every message.
        public static let method = "method"
        /// The request URL, redacted (or, in a response, the response's URL). Every message.
        public static let url = "url"
        /// The status code. Responses.
        public static let status = "status"
        /// Whole milliseconds from sending the request to the response or failure.
        public static let durationMilliseconds = "durationMs"
        /// Where the response came from: `network`, `cache`, `revalidatedCache` or `staleCache`
        /// (``ResponseSource``). Responses.
        public static let source = "source"
        /// What went wrong, redacted. Failures; for a retry, why the call is sent again.
        public static let error = "error"
        /// `true` or `false`: whether the request went over a connection that carried an earlier
        /// one (``CallMetrics/Transaction/connectionReused``). Responses, when the transport said.
        public static let connectionReused = "connectionReused"
        /// The transport that carried the request (``CallMetrics/Route``): `direct HTTP/1.1`,
        /// `session` (URLSession: on Linux, `https` when the system's OpenSSL could not be opened,
        /// ``RoutingTransport/routeNotice``), or a custom transport's name. Responses and
        /// failures, when the transport said.
        public static let route = "route"
        /// Whole milliseconds the call waits before it is sent again. Retries.
        public static let retryDelayMilliseconds = "retryDelayMs"
    }

    /// What the message is about.
    public let kind: Kind
    /// The level the call logs at (never `.none`): how much ``text`` contains.
    public let level: LogLevel
    /// The message, one or more lines separated by `\n`, secrets redacted.
    public let text: String
    /// The facts of the message as separate values, under the keys of ``MetadataKey``, secrets
    /// redacted.
    public let metadata: [String: String]

    /// Creates a message; the client makes them, tests of your own loggers may too.
    public init(kind: Kind, level: LogLevel, text: String, metadata: [String: String]) {
        self.kind = kind
        self.level = level
        self.text = text
        self.metadata = metadata
    }
}

extension WebServiceLogger where Self == StandardErrorLogger {
    /// Writes each message to the standard error stream (``StandardErrorLogger``).
    public static var standardError: StandardErrorLogger { StandardErrorLogger() }
}

extension WebServiceLogger where Self == DisabledLogger {
    /// Drops every message (``DisabledLogger``).
    public static var disabled: DisabledLogger { DisabledLogger() }
}
