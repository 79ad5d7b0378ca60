import Foundation

/// Where a ``RetryPolicy`` reads the time, draws its jitter and waits.
///
/// The client uses ``SystemRetryEnvironment``. A test gives its own, so that a retried call
/// waits for nothing and its waits are known values:
///
/// ```swift
/// struct NoWaiting: RetryEnvironment {
///     let waits = Locked<[TimeInterval]>([])   // your own lock
///     func uptime() -> TimeInterval { 0 }
///     func now() -> Date { Date(timeIntervalSince1970: 1_700_000_000) }
///     func random() -> Double { 0.5 }
///     func sleep(seconds: TimeInterval) async throws { waits.withLock { $0.append(seconds) } }
/// }
/// ```
public protocol RetryEnvironment: Sendable {
    /// Seconds on a clock that only moves forward (the time since boot): the total-time cap is
    /// measured on it.
    func uptime() -> TimeInterval
    /// The current date: a `Retry-After` given as an HTTP date is a wait until that date.
    func now() -> Date
    /// A random number in `0..<1`: the jitter of the backoff.
    func random() -> Double
    /// Waits `seconds`. It must end at once, throwing `CancellationError`, when the task that
    /// waits is cancelled: a cancelled call does not sit out its backoff.
    func sleep(seconds: TimeInterval) async throws
}

/// The system's clocks, `Double.random(in:)` and `Task.sleep`.
public struct SystemRetryEnvironment: RetryEnvironment {
    /// The system environment.
    public init() {}

    public func uptime() -> TimeInterval {
        let elapsed = ContinuousClock.now - Self.origin
        let parts = elapsed.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    public func now() -> Date { Date() }

    public func random() -> Double { Double.random(in: 0..<1) }

    public func sleep(seconds: TimeInterval) async throws {
        guard seconds.isFinite, seconds > 0 else {
            try Task.checkCancellation()
            return
        }
        // Bounded by the policy's caps (a day at most), far below UInt64's range.
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1e9))
    }

    private static let origin = ContinuousClock.now
}
