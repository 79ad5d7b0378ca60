import Foundation

/// How a stream of Server-Sent Events reconnects when its connection ends, as a browser's
/// `EventSource` does (WHATWG HTML §9.2.3, "reestablish the connection"): after the body ends, or
/// after a network failure or an idle timeout in it, the call is sent again, through every stage
/// (authentication included), with `Last-Event-ID` set to the last event ID the stream saw (when
/// it is not empty), after the reconnection time: the server's last `retry` field, else
/// ``delay``.
///
/// ```swift
/// extension WebServiceCall where Response == ResponseStream<ServerSentEvent> {
///     static let feed = WebServiceCall(relativePath: "feed", stream: .serverSentEvents(reconnection: .init()))
/// }
/// for try await event in try await client.stream(.feed) { handle(event) }   // never ends by itself
/// ```
///
/// The stream ends for good when a reconnection is answered with 204 No Content (the standard's
/// way for a server to say "stop"), and fails when one is answered with a status the call does
/// not accept, when ``maximumFailedAttempts`` reconnections in a row got no response head, or
/// with any failure that is not the connection's (a limit, an element that did not decode).
/// Cancelling the task or ``ResponseStream/cancel()`` ends the wait at once. A failed
/// reconnection doubles the wait, up to ``maximumDelay`` (the standard's optional backoff).
public struct EventStreamReconnection: Sendable {
    /// Seconds to wait before reconnecting while the server sent no `retry` field. The standard
    /// leaves it to the client; browsers wait about 3 s.
    public var delay: TimeInterval
    /// The longest wait, after failed reconnections doubled it.
    public var maximumDelay: TimeInterval
    /// How many reconnections in a row may fail before the stream fails with the last one's error;
    /// `nil` for no limit.
    public var maximumFailedAttempts: Int?
    /// The clock the waits run on; a test gives one that does not wait
    /// (`WebServiceKitTesting.RecordingRetryEnvironment`).
    public var environment: any RetryEnvironment

    /// A reconnection policy; every value has a default.
    public init(
        delay: TimeInterval = 3, maximumDelay: TimeInterval = 60, maximumFailedAttempts: Int? = nil,
        environment: any RetryEnvironment = SystemRetryEnvironment()
    ) {
        self.delay = delay
        self.maximumDelay = maximumDelay
        self.maximumFailedAttempts = maximumFailedAttempts
        self.environment = environment
    }

    /// The wait before the reconnection that follows `failures` failed ones: the server's
    /// reconnection time (`retry`, milliseconds) or ``delay``, doubled per failure, within
    /// ``maximumDelay`` (and never negative or infinite).
    func wait(serverRetry: Int?, failures: Int) -> TimeInterval {
        let day: TimeInterval = 86_400
        func bounded(_ seconds: TimeInterval) -> TimeInterval { seconds.isNaN ? 0 : min(max(0, seconds), day) }
        let base = bounded(serverRetry.map { TimeInterval($0) / 1000 } ?? delay)
        // A server that asks for more than the maximum is waited for, without doubling.
        let cap = max(base, bounded(maximumDelay))
        var wait = base
        for _ in 0..<min(failures, 32) { wait *= 2 }
        return min(wait, cap)
    }

    /// Whether `error`, which ended a connection or a reconnection before its head, is the
    /// connection's (a network failure, a timeout): only those reconnect.
    static func reconnects(after error: WebServiceError) -> Bool {
        if case .transport = error.reason { return true }
        return false
    }
}
