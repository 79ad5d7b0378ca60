import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A suspended task, for the handler that resumes it.
struct SuspendedTask: @unchecked Sendable {
    let task: URLSessionTask
}

/// One request's state: the task, whether its body has begun in the call's sink, the deadline,
/// and the one continuation.
final class TaskExchange: @unchecked Sendable {  // every field is guarded by `lock`
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var continuation: CheckedContinuation<TransportResponse, any Error>?
    private var deadline: DeadlineScheduler.Token?
    /// Whether the response's body was begun in the sink.
    private var begun = false
    /// Why the sink refused the body (over the size limit, a file that cannot be written); the
    /// task is cancelled then.
    private var sinkFailure: WebServiceError?
    private var isCancelled = false
    private var timedOut = false
    private var rejectedChallenge = false
    /// Whether the head reaches the delegate as it arrives (`false`: a completion-handler task).
    private var seesHead = true
    /// Where the body goes: memory within the limit, or the call's file.
    private let sink: ResponseBodySink
    private let context: TransportContext
    /// For the call's metrics, on ``MetricsClock``: when the task started, when its response head
    /// reached the delegate.
    private var startedAt: UInt64 = 0
    private var headAt: UInt64?
    /// The session's own figures for the task, when it delivers them before the task completes
    /// (Apple platforms; Foundation on Linux never does).
    private var taskMetrics: URLSessionTaskMetrics?

    init(context: TransportContext) {
        sink = context.responseBody
        self.context = context
    }

    func start(
        _ task: URLSessionTask, continuation: CheckedContinuation<TransportResponse, any Error>,
        timeout: TimeInterval, seesHead: Bool = true
    ) {
        let deadline =
            timeout > 0 ? DeadlineScheduler.shared.schedule(after: timeout) { [weak self] in self?.expire() } : nil
        let now = MetricsClock.now()
        let cancelledAlready = lock.withLock {
            startedAt = now
            self.seesHead = seesHead
            self.task = task
            self.continuation = continuation
            self.deadline = deadline
            return isCancelled
        }
        task.resume()
        if cancelledAlready { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return self.task
        }
        task?.cancel()
    }

    /// The response head arrived: its body begins in the sink, which refuses a `Content-Length`
    /// over the limit before the body. Returns whether it did (the task is then cancelled).
    func received(_ response: URLResponse) -> Bool {
        guard let response = response as? HTTPURLResponse else { return false }
        return !begin(response)
    }

    /// Begins the body of `response` in the sink, once; returns whether the body may go on.
    private func begin(_ response: HTTPURLResponse) -> Bool {
        let now = MetricsClock.now()
        let (first, failed) = lock.withLock {
            defer { begun = true }
            if !begun, seesHead, task != nil { headAt = now }
            return (!begun, sinkFailure != nil)
        }
        guard first else { return !failed }
        let expected = response.expectedContentLength
        do throws(WebServiceError) {
            let method = lock.withLock { task?.originalRequest?.httpMethod }
            try sink.begin(
                statusCode: response.statusCode, expectedLength: expected >= 0 ? expected : nil,
                countsAppendedBytes: true, head: TransportResponse(response, method: method))
            return true
        } catch {
            fail(error)
            return false
        }
    }

    /// Ends the task, once, because the sink refused the body; the call fails with the sink's error.
    private func fail(_ error: WebServiceError) {
        let task: URLSessionTask? = lock.withLock {
            guard sinkFailure == nil else { return nil }
            sinkFailure = error
            return self.task
        }
        task?.cancel()
    }

    private func expire() {
        let (task, seesHead) = lock.withLock {
            timedOut = true
            return (self.task, self.seesHead)
        }
        // Tells the retry policy whether the server may have answered: a head seen before the
        // deadline, or, for a completion-handler task (whose head Foundation on Linux shows to
        // no one before the end), always, since it cannot be known.
        if !seesHead || task?.response is HTTPURLResponse { sink.noteHeadArrived() }
        task?.cancel()
    }

    /// Writes `data` (the next bytes of a data task's body) into the sink.
    func append(_ data: Data) {
        let (begun, failed, response) = lock.withLock { (self.begun, sinkFailure != nil, task?.response) }
        // Past the limit, nothing more is kept: the task is being cancelled.
        guard !failed else { return }
        if !begun {
            // The head's callback comes first; should it not, begin with the task's response.
            guard let response = response as? HTTPURLResponse, begin(response) else { return }
        }
        do throws(WebServiceError) {
            try sink.append(data)
        } catch {
            return fail(error)
        }
        if sink.isBackedUp { pauseUntilDrained() }
    }

    /// A streamed call's consumer is behind: on Apple platforms the task is suspended until it
    /// catches up, which stops reading from the connection. FoundationNetworking (Linux) cannot
    /// pause a task's input (its `suspend()` restarts the transfer on `resume()`), so there the
    /// body keeps arriving and ``LiveBody`` bounds it with ``ResponseStreamError/consumerTooSlow(limit:)``.
    private func pauseUntilDrained() {
        #if !canImport(FoundationNetworking)
            guard let task = lock.withLock({ self.task }) else { return }
            task.suspend()
            // URLSessionTask is thread-safe; the box only carries it to the drained handler.
            let suspended = SuspendedTask(task: task)
            sink.whenDrained { suspended.task.resume() }
        #endif
    }

    /// A download task's progress: the bytes Foundation wrote to its file so far.
    func wrote(total: Int64, expected: Int64) {
        let (begun, response) = lock.withLock { (self.begun, task?.response) }
        // Foundation may report bytes before the task's response is set: the sink counts them
        // as they come until it is, and by the response's status from then on.
        if !begun, let response = response as? HTTPURLResponse, !begin(response) { return }
        sink.advance(to: total, expected: expected >= 0 ? expected : nil)
    }

    /// A download task finished its file: the sink takes it now (moved to the call's file, or read
    /// into memory for a body that is not the download's). Whatever happened to it, the file is
    /// gone when this returns: Foundation on Apple platforms deletes it after the delegate, but
    /// FoundationNetworking leaves it in the temporary directory (a file per error body, redirect
    /// or body read into memory, and a copy when the move crossed file systems).
    func finishDownload(at location: URL, response: URLResponse?) {
        defer { try? FileManager.default.removeItem(at: location) }
        let begun = lock.withLock { self.begun }
        if !begun {
            guard let response = response as? HTTPURLResponse else {
                return fail(.transport(URLError(.badServerResponse, reason: "a body came without a response")))
            }
            guard begin(response) else { return }
        }
        do throws(WebServiceError) {
            try sink.adopt(fileAt: location)
        } catch {
            fail(error)
        }
    }

    /// The server's certificate failed the transport's ``ServerTrustPolicy``: the challenge is
    /// cancelled, and this (not the cancellation) is the task's error.
    func noteServerTrustFailure(_ error: URLError) {
        lock.withLock { sinkFailure = sinkFailure ?? .transport(error) }
    }

    /// The session was told not to answer an HTTP authentication challenge: the client's own
    /// provider does that from the 401 response.
    func noteRejectedChallenge() { lock.withLock { rejectedChallenge = true } }

    /// The session's metrics of the task (`urlSession(_:task:didFinishCollecting:)`).
    func noteTaskMetrics(_ metrics: URLSessionTaskMetrics) { lock.withLock { taskMetrics = metrics } }

    /// The task ended. `body` is the whole body a completion handler was given. Returns the
    /// task, the first time only.
    @discardableResult
    func complete(response: URLResponse?, error: (any Error)?, body handedBody: Data? = nil) -> URLSessionTask? {
        let (task, continuation, deadline, timedOut, cancelledByUs, rejectedChallenge, sinkFailure) =
            lock.withLock {
                defer {
                    self.continuation = nil
                    self.task = nil
                    self.deadline = nil
                }
                return (
                    self.task, self.continuation, self.deadline, self.timedOut, self.isCancelled,
                    self.rejectedChallenge, self.sinkFailure
                )
            }
        guard let continuation else { return nil }
        if let deadline { DeadlineScheduler.shared.cancel(deadline) }
        if let task { reportMetrics(of: task) }
        // A completion handler gets no response with an error; the task still has it (a 401
        // whose challenge the delegate rejected).
        let response = response ?? task?.response
        if let sinkFailure, !cancelledByUs {
            continuation.resume(throwing: sinkFailure)
        } else if timedOut {
            continuation.resume(throwing: URLError(.timedOut))
        } else if rejectedChallenge, !cancelledByUs, let response = response as? HTTPURLResponse,
            (error as? URLError)?.code == .cancelled
        {
            // Foundation on Linux cancels a task whose Basic challenge was rejected, after the 401
            // arrived; the 401 is the answer (its body, if any, was not read).
            continuation.resume(with: finish(response, method: task?.originalRequest?.httpMethod, body: handedBody))
        } else if let error {
            continuation.resume(throwing: Self.normalized(error))
        } else if let response = response as? HTTPURLResponse {
            continuation.resume(with: finish(response, method: task?.originalRequest?.httpMethod, body: handedBody))
        } else {
            continuation.resume(throwing: URLError(.badServerResponse))
        }
        return task
    }

    /// The task's figures for the call's metrics, before the call resumes. Where the session
    /// delivered its own metrics of the task (Apple platforms, before the task completes), its last
    /// network transaction gives reuse, connect time, time to the first response byte and the bytes
    /// on the connection. Foundation on Linux gives a task no transaction metrics (its
    /// `URLSessionTaskMetrics` are never delivered), so reuse, connect time and bytes on the wire
    /// are unknown (`nil`); the time to the response head is known when the head reaches the
    /// delegate (a data task with progress or a size limit, a download task), the body bytes sent
    /// from the task's count.
    private func reportMetrics(of task: URLSessionTask) {
        guard context.metrics != nil else { return }
        let (startedAt, headAt, taskMetrics) = lock.withLock { (self.startedAt, self.headAt, self.taskMetrics) }
        let bodySent = task.countOfBytesSent
        var report = TransportMetrics(
            route: .session, timeToFirstByte: headAt.map { MetricsClock.duration(from: startedAt, to: $0) },
            requestBodyBytes: bodySent > 0 ? bodySent : nil)
        if let transaction = taskMetrics?.transactionMetrics.last(where: { $0.resourceFetchType == .networkLoad }) {
            Self.add(transaction, to: &report)
        }
        context.report(report)
    }

    /// The figures of the session's `transaction` (one request on the network) in `report`: what
    /// it knows replaces what the delegate saw.
    static func add(_ transaction: URLSessionTaskTransactionMetrics, to report: inout TransportMetrics) {
        func duration(_ start: Date?, _ end: Date?) -> Duration? {
            guard let start, let end, end >= start else { return nil }
            return .seconds(end.timeIntervalSince(start))
        }
        report.connectionReused = transaction.isReusedConnection
        report.connectDuration =
            transaction.isReusedConnection ? nil : duration(transaction.connectStartDate, transaction.connectEndDate)
        report.timeToFirstByte =
            duration(transaction.fetchStartDate, transaction.responseStartDate) ?? report.timeToFirstByte
        let sent = transaction.countOfRequestHeaderBytesSent + transaction.countOfRequestBodyBytesSent
        let received = transaction.countOfResponseHeaderBytesReceived + transaction.countOfResponseBodyBytesReceived
        if sent > 0 { report.bytesSent = sent }
        if received > 0 { report.bytesReceived = received }
        let bodySent = transaction.countOfRequestBodyBytesSent
        if bodySent > 0 { report.requestBodyBytes = bodySent }
    }

    /// The response with the body the sink has (begun now if no byte came through the delegate;
    /// `handedBody` is a completion handler's whole body).
    private func finish(_ response: HTTPURLResponse, method: String?, body handedBody: Data?) -> Result<
        TransportResponse, any Error
    > {
        guard begin(response) else {
            return .failure(lock.withLock { sinkFailure } ?? URLError(.cancelled))
        }
        do throws(WebServiceError) {
            if let handedBody, !handedBody.isEmpty { try sink.append(handedBody) }
            return .success(try sink.finish(TransportResponse(response, method: method)))
        } catch {
            return .failure(error)
        }
    }
}

extension TaskExchange {
    /// libcurl's `CURLE_PARTIAL_FILE` ("transfer closed with N bytes remaining to read", a body
    /// shorter than its `Content-Length` or a chunked body without its last chunk) reaches
    /// Foundation on Linux as `URLError(.unknown)`, with no response left on the task. It is the
    /// connection lost mid-response, as a reset reports it and as the direct HTTP/1.1 path says:
    /// one code for a body cut short. The message is libcurl's only trace of it.
    ///
    /// libcurl's `CURLE_WEIRD_SERVER_REPLY` (a head it refuses to read: a NUL in a field, a line
    /// without a colon, a broken status line) and its framing errors (a signed chunk size, a bad
    /// `Content-Length`) reach Foundation the same way; they are `.badServerResponse`, as the
    /// direct path and ``ResponseCheck`` report a broken head. A body its decoders refuse is
    /// `.cannotDecodeContentData`, as on the direct path.
    static func normalized(_ error: any Error) -> any Error {
        guard let error = error as? URLError, error.code == .unknown else { return error }
        let message = error.localizedDescription
        let code: URLError.Code
        if message.hasPrefix("transfer closed with") {
            code = .networkConnectionLost
        } else if undecodableBodies.contains(where: message.hasPrefix) {
            code = .cannotDecodeContentData
        } else if weirdServerReplies.contains(where: message.hasPrefix) {
            code = .badServerResponse
        } else {
            return error
        }
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: message, NSUnderlyingErrorKey: error])
    }

    /// How libcurl words a response head or framing it will not read (its
    /// `CURLE_WEIRD_SERVER_REPLY`, a bad chunk size, a bad `Content-Length`, a transfer coding
    /// it does not know or cannot decode).
    private static let weirdServerReplies = [
        "Nul byte in header", "Header without colon", "Invalid status line", "Unsupported HTTP",
        "Weird server reply", "Invalid response header", "Too large response headers",
        "Illegal or missing hexadecimal sequence", "Malformed encoding found in chunked-encoding",
        "Invalid Content-Length", "Unrecognized content encoding type", "incorrect header check",
    ]

    /// How libcurl words a body its content decoders refuse (`CURLE_BAD_CONTENT_ENCODING`): the
    /// direct path's `.cannotDecodeContentData`.
    private static let undecodableBodies = ["Error while processing content unencoding"]
}
