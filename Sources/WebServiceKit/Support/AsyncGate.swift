/// A one-time gate: tasks wait until it opens; a cancelled waiter leaves at once.
///
/// Single-flight authentication uses it: one call discovers or refreshes credentials while the
/// others wait, and every long wait stays cancellable.
final class AsyncGate: Sendable {
    private struct State {
        var isOpen = false
        var nextTicket = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state = Locked(State())

    /// Returns when the gate opens; throws `CancellationError` if the waiting task is cancelled first.
    func wait() async throws {
        let ticket = state.withLock { state -> Int in
            state.nextTicket += 1
            return state.nextTicket
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> (any Error)?? in
                    if state.isOpen { return .some(nil) }
                    if Task.isCancelled { return .some(CancellationError()) }
                    state.waiters[ticket] = continuation
                    return .none
                }
                switch resumeNow {
                case .some(nil): continuation.resume()
                case .some(let error?): continuation.resume(throwing: error)
                case .none: break
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: ticket) }?.resume(throwing: CancellationError())
        }
    }

    /// Opens the gate for every waiter, present and future.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
