import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The body of a streamed response while it arrives: what the transport writes into the call's
/// sink waits here, bounded, until the consumer (``ResponseStream``) takes it.
///
/// - **Back-pressure**: ``push(_:)`` says when ``CallFields/streamBufferSize`` bytes wait; a
///   transport that can stop reading does so and asks ``whenDrained(_:)`` to be told when half
///   of them were taken. One that cannot (`URLSession` on Linux) keeps writing, and the body fails
///   with ``ResponseStreamError/consumerTooSlow(limit:)`` past ``hardLimit``: memory stays bounded
///   either way.
/// - **Idle deadline**: after the head, the call's timeout bounds the time between two pieces of
///   the body while the consumer waits for one (never while the consumer is behind).
/// - **Ending**: the transport ends it (``finish(_:)``) or the consumer gives up (``cancel(_:)``,
///   which stops the transport through the handler given to ``onCancel(_:)``); the first end wins
///   and the consumer sees it after the bytes that came before it.
final class LiveBody: Sendable {
    /// Bytes that may wait before the transport is asked to stop reading.
    let bufferSize: Int
    /// Bytes that may wait at all: a transport that cannot stop reading fails the body past it.
    let hardLimit: Int
    private let state = Locked(State())
    /// Set when the transport that writes this body returned or threw: it writes nothing more.
    private let transportEnd = OneShot<Void>()

    private struct State {
        var chunks: [Data] = []
        var first = 0
        var buffered = 0
        /// Every byte pushed so far.
        var received: Int64 = 0
        /// The end the consumer sees once the chunks are taken: `nil` while the body goes on,
        /// `.success` for its end, `.failure` for what stopped it.
        var end: Result<Void, WebServiceError>?
        var waiter: CheckedContinuation<Result<Data?, WebServiceError>, Never>?
        var drained: (@Sendable () -> Void)?
        var cancelHandler: (@Sendable () -> Void)?
        var cancelled = false
        /// When the last piece arrived (`DispatchTime` nanoseconds), for the idle deadline.
        var lastArrival: UInt64 = 0
        var idleToken: DeadlineScheduler.Token?

        mutating func take() -> Data? {
            guard first < chunks.count else { return nil }
            let chunk = chunks[first]
            chunks[first] = Data()
            first += 1
            buffered -= chunk.count
            if first == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                first = 0
            }
            return chunk
        }
    }

    /// A body that asks the transport to pause once `bufferSize` bytes wait.
    init(bufferSize: Int) {
        self.bufferSize = max(1, bufferSize)
        hardLimit = self.bufferSize > Int.max / 64 ? Int.max : max(self.bufferSize * 64, 16 << 20)
    }

    // MARK: The transport's side

    /// Adds the next bytes of the body. Returns whether the transport may read on: `false` once
    /// ``bufferSize`` bytes wait (stop reading, and read again when ``whenDrained(_:)`` says).
    ///
    /// - Throws: the body's end when the consumer cancelled it or it failed (stop reading);
    ///   ``ResponseStreamError/consumerTooSlow(limit:)`` past ``hardLimit``.
    @discardableResult
    func push(_ data: Data) throws(WebServiceError) -> Bool {
        guard !data.isEmpty else { return true }
        let now = DispatchTime.now().uptimeNanoseconds
        let (outcome, waiter) = state.withLock {
            state -> (Result<Bool, WebServiceError>, CheckedContinuation<Result<Data?, WebServiceError>, Never>?) in
            if case .failure(let failure) = state.end { return (.failure(failure), nil) }
            if state.end != nil { return (.success(false), nil) }
            state.lastArrival = now
            state.received += Int64(data.count)
            if let waiter = state.waiter {
                // The consumer waits: nothing is buffered, the piece goes to it at once.
                state.waiter = nil
                return (.success(true), waiter)
            }
            guard state.buffered <= hardLimit - data.count else {
                let failure = WebServiceError.responseStream(.consumerTooSlow(limit: hardLimit))
                state.end = .failure(failure)
                state.chunks.removeAll()
                state.first = 0
                state.buffered = 0
                return (.failure(failure), nil)
            }
            state.chunks.append(data)
            state.buffered += data.count
            return (.success(state.buffered < bufferSize), nil)
        }
        waiter?.resume(returning: .success(data))
        return try outcome.get()
    }

    /// Says that the transport writing this body returned or threw: it touches the call's sink
    /// no more.
    func endTransport() { transportEnd.resolve(()) }

    /// Returns once the transport writing this body returned or threw (at once when it has).
    func transportEnded() async { await transportEnd.value() }

    /// Calls `resume` once fewer than half of ``bufferSize`` bytes wait (at once when that is so
    /// already, or when the body ended): a transport that stopped reading reads again then.
    func whenDrained(_ resume: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.end == nil, state.buffered >= bufferSize / 2 else { return true }
            state.drained = resume
            return false
        }
        if now { resume() }
    }

    /// The bytes pushed so far.
    var receivedByteCount: Int64 { state.withLock { $0.received } }

    /// Whether ``bufferSize`` bytes or more wait for the consumer.
    var isBackedUp: Bool { state.withLock { $0.buffered >= bufferSize } }

    /// Ends the body: `nil` at its end, or the error that cut it. Only the first end counts.
    func finish(_ error: WebServiceError?) {
        let (waiter, token) = state.withLock {
            state -> (CheckedContinuation<Result<Data?, WebServiceError>, Never>?, DeadlineScheduler.Token?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = error.map { .failure($0) } ?? .success(())
            defer {
                state.waiter = nil
                state.idleToken = nil
            }
            return (state.waiter, state.idleToken)
        }
        if let token { DeadlineScheduler.shared.cancel(token) }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// Sets what stops the transport when the consumer gives up or a deadline passes; it runs once,
    /// at once when that happened already.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.cancelHandler = handler
            return false
        }
        if now { handler() }
    }

    /// Starts the idle deadline: the body fails with `URLError(.timedOut)` when `seconds` pass
    /// without a piece while the consumer waits for one.
    func startIdleDeadline(_ seconds: TimeInterval) {
        guard seconds > 0, seconds.isFinite else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.lastArrival = now }
        scheduleIdleCheck(after: seconds, period: seconds)
    }

    private func scheduleIdleCheck(after delay: TimeInterval, period: TimeInterval) {
        let token = DeadlineScheduler.shared.schedule(after: delay) { [weak self] in
            self?.checkIdle(period: period)
        }
        let stale = state.withLock { state -> Bool in
            guard state.end == nil else { return true }
            state.idleToken = token
            return false
        }
        if stale { DeadlineScheduler.shared.cancel(token) }
    }

    private func checkIdle(period: TimeInterval) {
        let now = DispatchTime.now().uptimeNanoseconds
        let periodNanoseconds = UInt64(period * 1e9)
        let wait = state.withLock { state -> TimeInterval? in
            guard state.end == nil else { return nil }
            state.idleToken = nil
            // The consumer is behind: the server is not the one that is slow.
            if state.buffered > 0 { return period }
            let idle = now &- state.lastArrival
            if idle < periodNanoseconds { return TimeInterval(periodNanoseconds - idle) / 1e9 }
            return 0
        }
        guard let wait else { return }
        if wait > 0 { return scheduleIdleCheck(after: wait, period: period) }
        stop(.transport(.timedOut(TimeoutFailure(phase: .betweenStreamedPieces, limit: period))))
    }

    // MARK: The consumer's side

    /// The next piece of the body, `nil` at its end; waits for one. Cancelling the waiting task
    /// cancels the body (the transport stops and closes its connection).
    func next() async throws(WebServiceError) -> Data? {
        let (ready, drained) = state.withLock { state -> (Result<Data?, WebServiceError>?, (@Sendable () -> Void)?) in
            Self.takeReady(&state, bufferSize: bufferSize)
        }
        drained?()
        if let ready { return try ready.get() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<Data?, WebServiceError>, Never>) in
                let (ready, drained) = state.withLock {
                    state -> (Result<Data?, WebServiceError>?, (@Sendable () -> Void)?) in
                    let taken = Self.takeReady(&state, bufferSize: bufferSize)
                    if taken.0 == nil { state.waiter = continuation }
                    return taken
                }
                drained?()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            self.cancel(nil)
        }
        return try result.get()
    }

    /// A piece or the end, when there is one to give now, and the drained handler to call.
    private static func takeReady(_ state: inout State, bufferSize: Int) -> (
        Result<Data?, WebServiceError>?, (@Sendable () -> Void)?
    ) {
        if let chunk = state.take() {
            var drained: (@Sendable () -> Void)?
            if state.buffered < bufferSize / 2 {
                drained = state.drained
                state.drained = nil
            }
            return (.success(chunk), drained)
        }
        switch state.end {
        case .none: return (nil, nil)
        case .success: return (.success(nil), nil)
        case .failure(let failure): return (.failure(failure), nil)
        }
    }

    /// Reads what is left of the body into memory, up to `limit` bytes (`nil`: all), then cancels
    /// the rest: the body of an error status, for its error.
    func collect(upTo limit: Int?) async -> Data {
        var body = Data()
        while let chunk = try? await next() {
            if let limit, body.count + chunk.count >= limit {
                body.append(chunk.prefix(limit - body.count))
                break
            }
            body.append(chunk)
        }
        cancel(nil)
        return body
    }

    /// The consumer gives up: the transport is stopped (its connection closed, not returned to a
    /// pool half-read) and the body ends as cancelled, unless it ended already.
    func cancel(_ reason: String?) {
        stop(.cancelled(reason: reason))
    }

    private func stop(_ error: WebServiceError) {
        let (handler, waiter, token) = state.withLock {
            state -> (
                (@Sendable () -> Void)?, CheckedContinuation<Result<Data?, WebServiceError>, Never>?,
                DeadlineScheduler.Token?
            ) in
            guard !state.cancelled else { return (nil, nil, nil) }
            state.cancelled = true
            if state.end == nil {
                state.end = .failure(error)
                state.chunks.removeAll()
                state.first = 0
                state.buffered = 0
            }
            defer {
                state.cancelHandler = nil
                state.waiter = nil
                state.drained = nil
                state.idleToken = nil
            }
            return (state.cancelHandler, state.waiter, state.idleToken)
        }
        if let token { DeadlineScheduler.shared.cancel(token) }
        waiter?.resume(returning: .failure(error))
        handler?()
    }
}
