import Foundation
import WebServiceKit

/// Records a call's progress events and its completion, in the order they ran: for tests of code
/// that shows progress.
///
/// ```swift
/// let recorder = ProgressRecorder()
/// let file = try await client.perform(.report, [recorder.simple, DownloadDestination(url)])
/// recorder.markCompletion()
/// XCTAssertEqual(recorder.simpleEvents.last?.fraction, 1)
/// ```
public final class ProgressRecorder: @unchecked Sendable {  // `events` is guarded by `lock`
    /// One recorded event.
    public enum Event: Equatable, Sendable {
        /// A call of ``simple``.
        case simple(fraction: Double, expected: Int64)
        /// A call of ``rich``.
        case rich(TransferProgress)
        /// ``markCompletion()``.
        case completion
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private let onFirstProgress: (@Sendable () -> Void)?
    private let delay: useconds_t

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - delay: Microseconds each handler call sleeps, to play a slow user interface.
    ///   - onFirstProgress: Runs once, at the first event after the start event `(0, total)`.
    public init(delay: useconds_t = 0, onFirstProgress: (@Sendable () -> Void)? = nil) {
        self.delay = delay
        self.onFirstProgress = onFirstProgress
    }

    /// A ``ProgressHandler`` that records ``Event/simple(fraction:expected:)``.
    public var simple: ProgressHandler {
        { fraction, expected in self.append(.simple(fraction: fraction, expected: expected)) }
    }

    /// A ``TransferProgressHandler`` that records ``Event/rich(_:)``.
    public var rich: TransferProgressHandler { { progress in self.append(.rich(progress)) } }

    /// Records the call's completion (call it from the completion callback, or after `await`).
    public func markCompletion() { append(.completion) }

    private func append(_ event: Event) {
        if delay > 0 { usleep(delay) }
        let first = lock.withLock {
            events.append(event)
            return events.count == 2
        }
        if first { onFirstProgress?() }
    }

    /// Every event so far.
    public var all: [Event] { lock.withLock { events } }

    /// The simple handler's events.
    public var simpleEvents: [(fraction: Double, expected: Int64)] {
        all.compactMap { if case .simple(let fraction, let expected) = $0 { (fraction, expected) } else { nil } }
    }

    /// The rich handler's events.
    public var richEvents: [TransferProgress] {
        all.compactMap { if case .rich(let progress) = $0 { progress } else { nil } }
    }

    /// Whether the completion was recorded once, and last: nothing came after it.
    public var endsWithCompletion: Bool { all.last == .completion && all.filter { $0 == .completion }.count == 1 }
}
