import Dispatch

/// Turns a transport's byte counts into a call's progress callbacks: `(0, -1)` at the start,
/// cumulative fractions coalesced to one call per 1 % of the expected length, `(1, total)`
/// exactly once on success, nothing after a failure or cancellation. Everything runs on the
/// client's callback queue, in order.
final class ProgressReporter: Sendable {
    private struct State {
        var lastFraction = 0.0
        var isFinished = false
    }

    private let handler: ProgressHandler
    private let queue: DispatchQueue
    private let state = Locked(State())

    init(handler: @escaping ProgressHandler, queue: DispatchQueue) {
        self.handler = handler
        self.queue = queue
    }

    func start() { queue.async { [handler] in handler(0, -1) } }

    /// Reports `completed` of `expected` bytes; unknown lengths report nothing until the end.
    func report(completed: Int64, expected: Int64) {
        guard expected > 0 else { return }
        let fraction = min(1, Double(completed) / Double(expected))
        let due = state.withLock { state -> Bool in
            guard !state.isFinished, fraction < 1, fraction - state.lastFraction >= 0.01 else { return false }
            state.lastFraction = fraction
            return true
        }
        if due { queue.async { [handler] in handler(fraction, expected) } }
    }

    /// The one `(1, total)` of a successful call.
    func finish(total: Int64) {
        let due = state.withLock { state -> Bool in
            defer { state.isFinished = true }
            return !state.isFinished
        }
        if due { queue.async { [handler] in handler(1, total) } }
    }

    /// Stops reporting: a failed or cancelled call never reaches 1.
    func stop() { state.withLock { $0.isFinished = true } }
}
