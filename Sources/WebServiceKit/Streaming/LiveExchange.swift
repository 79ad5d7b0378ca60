import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the transport stage carries a request of a streamed call: the transport runs in a task of
/// its own and writes the body into the call's sink as usual, while the stage returns as soon as
/// the response head arrives, with the body still coming (``TransportResponse/live``). Every stage
/// above sees that head as it sees any response (checks, log, follow-ups, retries, interceptors);
/// the consumer reads the body afterwards.
///
/// The call's timeout is kept here, for every transport alike: until the head it is a deadline
/// (the transport gets the request with one out of reach), after it a bound on the time between two pieces
/// of the body while the consumer waits (``LiveBody/startIdleDeadline(_:)``), so a stream may run
/// for hours. Cancelling the call before the head, or the consumer afterwards, cancels the
/// transport's task, which closes its connection.
enum LiveExchange {
    /// The timeout the transport is given: about 31 years, within every clock's range (nanoseconds
    /// in an `Int64`, milliseconds in libcurl's `long`).
    static let unreachableTimeout: TimeInterval = 1e9

    static func send(
        _ request: WebServiceRequest, transport: any WebServiceTransport, context: TransportContext,
        limits: ResponseBodySink.StreamLimits
    ) async throws(WebServiceError) -> TransportResponse {
        let sink = context.responseBody
        let body = LiveBody(bufferSize: limits.bufferSize)
        let head = OneShot<Result<TransportResponse, WebServiceError>>()
        await sink.expectLive(body) { response in
            var response = response
            response.live = body
            // Its body is the sink's already, going live: nothing to pour.
            response.passedSink = true
            head.resolve(.success(response))
        }
        let timeout = request.timeoutInterval
        // The transport's own deadline is pushed out of reach: this exchange keeps the call's.
        // (Not 0: FoundationNetworking arms its timer with a set interval, and 0 fires at once.)
        var unbounded = request
        unbounded.timeoutInterval = Self.unreachableTimeout
        let sent = unbounded
        let feeding = Task {
            defer { body.endTransport() }
            do {
                let response = try await transport.send(sent, context: context)
                // The transport ended: after the head went up (the body's end), or with a whole
                // response it never announced (a transport that returns its body in memory).
                if !head.resolve(.success(response)) {
                    context.metrics?.endStreamedBody(bytes: body.receivedByteCount, error: nil)
                    body.finish(nil)
                }
            } catch {
                let failure = WebServiceError(transportError: error)
                if !head.resolve(.failure(failure)) {
                    context.metrics?.endStreamedBody(bytes: body.receivedByteCount, error: failure)
                    body.finish(failure)
                }
            }
        }
        body.onCancel { feeding.cancel() }
        let deadline =
            timeout > 0
            ? DeadlineScheduler.shared.schedule(after: timeout) {
                head.resolve(
                    .failure(.transport(.timedOut(TimeoutFailure(phase: .waitingForResponse, limit: timeout)))))
            } : nil
        let outcome = await withTaskCancellationHandler {
            await head.value()
        } onCancel: {
            head.resolve(.failure(.cancelled(reason: nil)))
        }
        if let deadline { DeadlineScheduler.shared.cancel(deadline) }
        switch outcome {
        case .failure(let failure):
            sink.endLive(keeping: nil)
            body.cancel(nil)
            throw failure
        case .success(let response) where response.live != nil:
            body.startIdleDeadline(timeout)
            return response
        case .success(let response):
            sink.endLive(keeping: nil)
            body.cancel(nil)
            return response
        }
    }
}

/// A value set once, by whichever of several parties comes first, and awaited by one task.
final class OneShot<Value: Sendable>: Sendable {
    private let state = Locked<(value: Value?, waiter: CheckedContinuation<Value, Never>?)>((nil, nil))

    /// Sets the value unless it was set; returns whether this call set it.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        let (set, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            guard state.value == nil else { return (false, nil) }
            state.value = value
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(returning: value)
        return set
    }

    /// The value, once set.
    func value() async -> Value {
        if let value = state.withLock({ $0.value }) { return value }
        return await withCheckedContinuation { continuation in
            let value = state.withLock { state -> Value? in
                if state.value == nil { state.waiter = continuation }
                return state.value
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}
