import Foundation
import WebServiceKit

/// A ``RetryEnvironment`` for tests: it never sleeps. Each wait the retry policy asks for is
/// recorded and moves its clock forward by that much, so a test of a retried call runs at once
/// and can check every wait, and the policy's total-time cap sees the time the waits would have
/// taken.
///
/// ```swift
/// let environment = RecordingRetryEnvironment()
/// client.retryPolicy = RetryPolicy(maximumAttempts: 3, environment: environment)
/// _ = try await client.perform(.report)      // 503, 503, then 200
/// environment.waits                          // [0.5, 1.0]: full backoff with jitter 1
/// ```
///
/// A cancelled task's wait throws `CancellationError`, as a real sleep does.
public final class RecordingRetryEnvironment: RetryEnvironment, @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var clock: TimeInterval = 0
    private var recorded: [TimeInterval] = []
    private let jitter: Double
    private let date: Date?

    /// An environment that draws `jitter` (in `0...1`; 1, the default, is the backoff's upper
    /// bound) for every wait and reads `date` as the current date (`nil`, the default: the
    /// system's date, which a `Retry-After` date from a real server is measured against).
    public init(jitter: Double = 1, date: Date? = nil) {
        self.jitter = jitter
        self.date = date
    }

    /// The waits asked for, in order, in seconds.
    public var waits: [TimeInterval] { lock.withLock { recorded } }

    /// The sum of the waits so far: the clock starts at 0.
    public func uptime() -> TimeInterval { lock.withLock { clock } }

    /// The date given when made, or the system's date.
    public func now() -> Date { date ?? Date() }

    /// The jitter given when made.
    public func random() -> Double { jitter }

    /// Records the wait and moves the clock by it, at once; throws `CancellationError` when the
    /// task is cancelled.
    public func sleep(seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        lock.withLock {
            recorded.append(seconds)
            clock += seconds
        }
    }
}
