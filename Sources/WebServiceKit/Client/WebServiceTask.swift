/// A running call started with callbacks; cancel it to stop it.
///
/// Exactly one of the call's callbacks runs, once: its result, or ``WebServiceError/cancelled(reason:)``
/// when ``cancel(reason:)`` wins the race with the response.
public final class WebServiceTask: Sendable {
    private struct State {
        var isFinished = false
        var isCancelled = false
        var work: Task<Void, Never>?
    }

    private let state = Locked(State())
    private let deliverCancellation: @Sendable (String?) -> Void

    init(deliverCancellation: @escaping @Sendable (String?) -> Void) {
        self.deliverCancellation = deliverCancellation
    }

    /// Whether ``cancel(reason:)`` was called.
    public var isCancelled: Bool { state.current.isCancelled }

    /// Whether the call's callback has been claimed (delivered or about to be).
    public var isFinished: Bool { state.current.isFinished }

    /// Cancels the call. Unless its result was already delivered, the failure callback gets
    /// ``WebServiceError/cancelled(reason:)``.
    public func cancel() { cancel(reason: nil) }

    /// Cancels the call with a reason that the failure callback receives.
    public func cancel(reason: String?) {
        let (work, shouldDeliver) = state.withLock { state in
            state.isCancelled = true
            defer { state.isFinished = true }
            return (state.work, !state.isFinished)
        }
        work?.cancel()
        if shouldDeliver { deliverCancellation(reason) }
    }

    func attach(_ work: Task<Void, Never>) {
        let cancelledAlready = state.withLock { state in
            state.work = work
            return state.isCancelled
        }
        if cancelledAlready { work.cancel() }
    }

    /// Claims the one delivery; `false` when cancellation already took it.
    func claimDelivery() -> Bool {
        state.withLock { state in
            defer { state.isFinished = true }
            return !state.isFinished
        }
    }
}
