import Foundation

/// A streamed call's side of its ``ResponseBodySink``: each response's body goes live to the
/// consumer as it arrives (``LiveBody``), and a transport that can stop reading asks whether the
/// consumer is behind.
extension ResponseBodySink {
    /// Sets the live body the next response head of a streamed call begins, and what is told of
    /// that head. The call's previous live body, if any, is cancelled first: a new request means
    /// the previous response was not the call's answer (a redirect, a challenge, a retried
    /// failure), and its connection is closed rather than read to its end. Its transport is
    /// waited for, so that the call's responses still go through the sink one at a time: a
    /// transport that had not yet seen its cancellation would otherwise begin, append to or finish
    /// the new body.
    func expectLive(_ body: LiveBody, onHead: @escaping @Sendable (TransportResponse) -> Void) async {
        let previous = state.withLock { state -> [LiveBody] in
            defer {
                state.pendingLive = nil
                state.currentLive = nil
            }
            return [state.pendingLive?.body, state.currentLive].compactMap { $0 }
        }
        for body in previous { body.cancel(nil) }
        for body in previous { await body.transportEnded() }
        state.withLock { $0.pendingLive = (body, onHead) }
    }

    /// Cancels the call's live bodies but `kept` (the answer's, which the consumer reads): the
    /// call ended, and a body nobody will read must not hold its connection.
    func endLive(keeping kept: LiveBody?) {
        let bodies = state.withLock { state -> [LiveBody] in
            defer {
                state.pendingLive = nil
                state.currentLive = nil
            }
            return [state.pendingLive?.body, state.currentLive].compactMap { $0 }
        }
        for body in bodies where body !== kept { body.cancel(nil) }
    }

    /// Whether a streamed call's consumer has a full buffer: a transport that can stop reading
    /// does so after the read it just made, and reads again when ``whenDrained(_:)`` says.
    /// Always `false` for other calls (no lock taken).
    var isBackedUp: Bool {
        guard stream != nil else { return false }
        guard case .live(let body) = state.withLock({ $0.destination }) else { return false }
        return body.isBackedUp
    }

    /// Calls `resume` once the streamed body being read has room again (at once when it has, or
    /// when it is not live).
    func whenDrained(_ resume: @escaping @Sendable () -> Void) {
        guard case .live(let body) = state.withLock({ $0.destination }) else { return resume() }
        body.whenDrained(resume)
    }
}
