import Dispatch

/// Turns a transport's byte counts into a call's progress callbacks.
///
/// - At the start: `(0, total)` for a ``ProgressHandler``, zero bytes of `total` for a
///   ``TransferProgressHandler``, with the total as soon as it is known: at once for a body
///   going out of known length; for a download, when its first figures come (with the response's
///   `Content-Length`); `-1` (`nil`) where no total is known then. Either way, exactly one start
///   event, before any other.
/// - As bytes move: cumulative figures, at most one event per 1 % of a known length, or per
///   64 KiB of a body of unknown length (those reach only the ``TransferProgressHandler``:
///   a fraction cannot be told). A ``ProgressHandler`` follows the call's primary direction only.
/// - On success, exactly one event with the fraction 1; after a failure or a cancellation, nothing.
///
/// Every event runs on the client's callback queue, in order, through a serial queue of the
/// call's own (so that order holds on a concurrent callback queue too); the call's completion
/// goes through the same queue (``close(succeeded:then:)``), so no event comes after it.
final class ProgressReporter: Sendable {
    /// The step between two events of a body of unknown length.
    static let unknownLengthStep: Int64 = 64 * 1024
    /// The step between two events of a body of known length.
    static let fractionStep = 0.01

    private struct Lane {
        /// The figures of the last event.
        var fraction = 0.0
        var bytes: Int64 = 0
        /// The highest count reported, event or not.
        var latest: Int64 = 0
    }

    private struct State {
        var simple: [ProgressHandler] = []
        var rich: [TransferProgressHandler] = []
        var channel: DispatchQueue?
        var primary = TransferDirection.download
        var upload = Lane()
        var download = Lane()
        var isStarted = false
        /// Whether the start event waits for the primary direction's first figures (a download).
        var startPending = false
        var isClosed = false
        var successTotal: Int64?
        var file: FileDownload?
    }

    private let queue: DispatchQueue
    private let state = Locked(State())

    /// A reporter delivering on `queue`, with `handler` (the `progress:` parameter of `perform`).
    init(queue: DispatchQueue, handler: TransferProgressHandler? = nil) {
        self.queue = queue
        if let handler { attach(rich: handler) }
    }

    /// Whether any handler listens; a transport needs no reporter otherwise.
    var hasHandlers: Bool { state.withLock { !$0.simple.isEmpty || !$0.rich.isEmpty } }

    /// Adds the handler bound from the call's `progressParameter` argument.
    func attach(simple: ProgressHandler? = nil, rich: TransferProgressHandler? = nil) {
        guard simple != nil || rich != nil else { return }
        state.withLock { state in
            if let simple { state.simple.append(simple) }
            if let rich { state.rich.append(rich) }
            if state.channel == nil { state.channel = DispatchQueue(label: "WebServiceKit.progress", target: queue) }
        }
    }

    /// The call starts; `primary` is the direction a ``ProgressHandler`` follows, `expected` the
    /// length of a body going out when it is known. The start event goes now when its total is
    /// known or the call uploads; a download's waits for its first figures.
    func start(primary: TransferDirection, expected: Int64? = nil) {
        state.withLock { state in
            guard !state.isStarted, !state.isClosed, state.channel != nil else { return }
            state.isStarted = true
            state.primary = primary
            if primary == .download, expected == nil {
                state.startPending = true
            } else {
                Self.sendStart(&state, expected: expected)
            }
        }
    }

    /// Sends the start event, `(0, expected)` (`-1` for a total not known).
    private static func sendStart(_ state: inout State, expected: Int64?) {
        state.startPending = false
        guard let channel = state.channel else { return }
        let total = expected.flatMap { $0 > 0 ? $0 : nil }
        let (simple, rich) = (state.simple, state.rich)
        let event = TransferProgress(direction: state.primary, completedBytes: 0, expectedBytes: total, fraction: 0)
        channel.async {
            for handler in simple { handler(0, total ?? -1) }
            for handler in rich { handler(event) }
        }
    }

    /// `completed` of `expected` bytes went out or came in (`expected` `nil`, 0 or less: unknown).
    func report(_ direction: TransferDirection, completed: Int64, expected: Int64?) {
        state.withLock { state in
            guard state.isStarted, !state.isClosed, let channel = state.channel else { return }
            if state.startPending, direction == state.primary { Self.sendStart(&state, expected: expected) }
            var lane = direction == .upload ? state.upload : state.download
            lane.latest = max(lane.latest, completed)
            defer { if direction == .upload { state.upload = lane } else { state.download = lane } }
            let event: TransferProgress
            var reachesSimple = false
            if let expected, expected > 0 {
                let fraction = min(1, Double(completed) / Double(expected))
                // Below 1 until the call has succeeded; monotonic across a retried or redirected send.
                guard fraction < 1, fraction - lane.fraction >= Self.fractionStep else { return }
                lane.fraction = fraction
                lane.bytes = max(lane.bytes, completed)
                event = TransferProgress(
                    direction: direction, completedBytes: completed, expectedBytes: expected, fraction: fraction)
                reachesSimple = direction == state.primary
            } else {
                guard completed - lane.bytes >= Self.unknownLengthStep else { return }
                lane.bytes = completed
                event = TransferProgress(
                    direction: direction, completedBytes: completed, expectedBytes: nil, fraction: 0)
            }
            let simple = reachesSimple ? state.simple : []
            let rich = state.rich
            channel.async {
                for handler in simple { handler(event.fraction, event.expectedBytes ?? -1) }
                for handler in rich { handler(event) }
            }
        }
    }

    /// Deletes the call's temporary download file when it closes unsuccessfully, before its
    /// failure callback is queued: a cancelled call leaves no file behind, even while its
    /// transport is still winding down.
    func discardOnFailure(_ download: FileDownload) {
        state.withLock { state in
            state.file = download
            // Cancelled already: the call is over, and its file with it.
            if state.isClosed { download.discard() }
        }
    }

    /// Remembers the total of a successful call: the body's length for the upload direction
    /// (`uploadLength`, or the bytes counted going out), the response body's for the download.
    /// The event itself waits for ``close(succeeded:then:)``.
    func recordSuccess(uploadLength: Int64?, downloaded: Int64) {
        state.withLock { state in
            state.successTotal = state.primary == .upload ? uploadLength ?? state.upload.latest : downloaded
        }
    }

    /// Runs `delivery` (the call's completion callback) on the callback queue, after every event
    /// enqueued so far.
    func afterEvents(_ delivery: @escaping @Sendable () -> Void) {
        state.withLock { state in (state.channel ?? queue).async(execute: delivery) }
    }

    /// Ends reporting, with the one `(1, total)` event when the call `succeeded`, then runs
    /// `delivery` (the call's completion callback) after every event, on the callback queue.
    func close(succeeded: Bool, then delivery: (@Sendable () -> Void)? = nil) {
        state.withLock { state in
            if !state.isClosed {
                state.isClosed = true
                if !succeeded { state.file?.discard() }
                // A call that ends before its download's first figures (a cache hit, a failure):
                // its start, with the total a success knows.
                if state.startPending { Self.sendStart(&state, expected: succeeded ? state.successTotal : nil) }
                if succeeded, state.isStarted, let total = state.successTotal, let channel = state.channel {
                    let (simple, rich) = (state.simple, state.rich)
                    let event = TransferProgress(
                        direction: state.primary, completedBytes: total, expectedBytes: total, fraction: 1)
                    channel.async {
                        for handler in simple { handler(1, total) }
                        for handler in rich { handler(event) }
                    }
                }
            }
            if let delivery { (state.channel ?? queue).async(execute: delivery) }
        }
    }

    /// Returns once every event enqueued so far has run: an `async` call returns after its progress.
    func settle() async {
        guard let channel = state.withLock({ $0.channel }) else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in channel.async { done.resume() } }
    }
}
