import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that sends every request through a `URLSession` whose own cache is off (the
/// library caches by RFC 9111 itself) and which never follows redirects on its own.
///
/// ``RoutingTransport``, the client's default, uses it for every request its ``HTTP1Transport``
/// does not take (on Linux: `https` and requests a proxy carries). Use it on its own to send everything through `URLSession`, as on Apple platforms:
///
/// ```swift
/// let transport = URLSessionTransport(sessionConfiguration: .ephemeral)
/// ```
///
/// Redirects come back to the client, which follows them itself (``WebServiceClient/maximumRedirects``)
/// so that credentials never travel to another origin: Foundation on Linux copies `Authorization`
/// into a redirect to any host.
///
/// The request's `timeoutInterval` is a deadline for the whole exchange, enforced here: Foundation
/// only bounds the time between two packets with it (on Linux in whole seconds, which
/// ``withFoundationTimeout(_:)`` keeps from rounding to nothing).
///
/// Response bodies are written into the call's ``ResponseBodySink`` as they arrive, which counts
/// progress and enforces the size limit; a call that downloads to a file (``DownloadedFile``)
/// runs as a download task, whose file the sink moves next to the destination when it is
/// complete: the body is never in memory.
public final class URLSessionTransport: WebServiceTransport {
    /// The session requests run on.
    public let session: URLSession
    private let router: TaskRouter
    /// The configuration's additional fields and cookies, which the client's bridge stage adds
    /// (the session is made without them); a routing transport shares them with its HTTP/1.1 peer.
    public let bridge: RequestBridge?
    /// Set only by the deprecated ``init(configuration:usesDirectHTTP1:)``: the routing transport
    /// this one stands for, whose session peer owns ``session``.
    private let routing: RoutingTransport?

    /// ``RoutingTransport/usesDirectHTTP1ByDefault``.
    @available(*, deprecated, renamed: "RoutingTransport.usesDirectHTTP1ByDefault")
    public static var usesDirectHTTP1ByDefault: Bool { RoutingTransport.usesDirectHTTP1ByDefault }

    /// Creates a transport over a new session made from `configuration`, with Foundation's
    /// `urlCache` removed, that sends every request through that session. Cookies follow the
    /// configuration (`.default` shares `HTTPCookieStorage.shared`; `.ephemeral` keeps them in
    /// memory per transport).
    public convenience init(sessionConfiguration configuration: URLSessionConfiguration) {
        let (configuration, bridge) = Self.prepared(configuration)
        self.init(prepared: configuration, bridge: bridge)
    }

    /// The transport that ``RoutingTransport/init(configuration:usesDirectHTTP1:)`` makes: on
    /// Linux (`usesDirectHTTP1`), requests to plain `http` URLs go over ``HTTP1Transport``, the
    /// rest through the session; with `usesDirectHTTP1: false`, everything goes through the
    /// session, as ``init(sessionConfiguration:)`` does.
    @available(
        *, deprecated,
        message:
            "use RoutingTransport(configuration:usesDirectHTTP1:) for the same routes, or URLSessionTransport(sessionConfiguration:) for URLSession alone"
    )
    public convenience init(
        configuration: URLSessionConfiguration = .default,
        usesDirectHTTP1: Bool = RoutingTransport.usesDirectHTTP1ByDefault
    ) {
        guard usesDirectHTTP1 else {
            self.init(sessionConfiguration: configuration)
            return
        }
        let peers = RoutingTransport.peers(for: configuration, usesDirectHTTP1: true)
        let routing = RoutingTransport(session: peers.session, http1: peers.http1, configuration: peers.configuration)
        self.init(standingFor: routing, session: peers.session)
    }

    /// A transport that sends through `routing`, whose session peer is `peer`.
    private init(standingFor routing: RoutingTransport, session peer: URLSessionTransport) {
        session = peer.session
        router = peer.router
        bridge = peer.bridge
        self.routing = routing
    }

    /// Creates a transport like ``init(sessionConfiguration:)`` whose session trusts servers as
    /// `serverTrust` says (on Apple platforms, in the session's server-trust challenge).
    ///
    /// - Throws: ``ServerTrustError/unenforceable(_:)`` when this platform's `URLSession` cannot
    ///   enforce the policy (on Linux, anything but ``ServerTrustPolicy/system``).
    public convenience init(
        sessionConfiguration configuration: URLSessionConfiguration, serverTrust: ServerTrustPolicy
    ) throws(ServerTrustError) {
        try serverTrust.checkEnforceable()
        let (configuration, bridge) = Self.prepared(configuration)
        self.init(prepared: configuration, bridge: bridge, serverTrust: serverTrust)
    }

    /// A transport over a session made from `configuration` (``prepared(_:)``), with `bridge`,
    /// trusting servers as `serverTrust` says (checked as enforceable by the caller).
    init(
        prepared configuration: URLSessionConfiguration, bridge: RequestBridge, serverTrust: ServerTrustPolicy = .system
    ) {
        self.bridge = bridge
        router = TaskRouter(serverTrust: serverTrust)
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
        routing = nil
    }

    /// A copy of `configuration` for the session, and the bridge of its fields and cookies.
    static func prepared(_ configuration: URLSessionConfiguration) -> (URLSessionConfiguration, RequestBridge) {
        // A copy: the caller's configuration object stays as it was.
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The transport keeps the cookies (for both peers of a routing transport): Foundation's own
        // `Set-Cookie` parser traps on values a server can send (``CookieJar``), so the session
        // never parses them. FoundationNetworking parses every `Set-Cookie` line as it arrives
        // unless the policy is `.never`, whatever the storage.
        let cookies = CookieJar(configuration: configuration)
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        // The client's bridge stage adds them, above the cache and the log.
        let bridge = RequestBridge(configuration: configuration, cookies: cookies)
        configuration.httpAdditionalHeaders = nil
        return (configuration, bridge)
    }

    // The session belongs to the routing transport's peer when this one stands for it.
    deinit { if routing == nil { session.finishTasksAndInvalidate() } }

    public func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse {
        if let routing { return try await routing.send(request, context: context) }
        return try await sendThroughSession(request, context: context)
    }

    private func sendThroughSession(_ request: URLRequest, context: TransportContext) async throws
        -> TransportResponse
    {
        let exchange = TaskExchange(context: context)
        let deadline = request.timeoutInterval
        let request = Self.withFoundationTimeout(request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportResponse, any Error>) in
                // A download to a file is a download task: Foundation writes the body to disk on
                // its own thread as it arrives (a data task would queue every chunk for the
                // delegate, and the chunks pile up in memory when the delegate falls behind); the
                // sink takes the finished file. Without progress to report or a size limit, a
                // data task hands its whole body to a completion handler: one delegate-queue
                // operation per call instead of one per chunk plus one at the end (the session's
                // delegate still refuses redirects and challenges). Otherwise the delegate writes
                // each chunk into the call's sink as it arrives, which enforces the limit.
                let task: URLSessionTask
                let sink = context.responseBody
                if sink.downloadsToFile {
                    task = session.downloadTask(with: request)
                } else if context.reportsProgress || sink.maximumSize != nil || sink.stream != nil {
                    task = session.dataTask(with: request)
                } else {
                    let router = router
                    task = session.dataTask(with: request) { [weak exchange] body, response, error in
                        guard let finished = exchange?.complete(response: response, error: error, body: body)
                        else { return }
                        router.unregister(finished)
                    }
                }
                router.register(exchange, for: task, context: context)
                exchange.start(
                    task, continuation: continuation, timeout: deadline,
                    seesHead: sink.downloadsToFile || context.reportsProgress || sink.maximumSize != nil
                        || sink.stream != nil)
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}

/// A suspended task, for the handler that resumes it.
private struct SuspendedTask: @unchecked Sendable {
    let task: URLSessionTask
}

extension URLSessionTransport {
    /// The request as Foundation gets it, when its deadline (`timeoutInterval`, 0 for none) is
    /// under a second: this transport enforces the deadline itself, and Foundation on Linux arms
    /// a watchdog of `Int(timeoutInterval) * 1000` ms, restarted by every read, once the field was
    /// set. A request without a deadline (a streamed call's, whose idle time ``LiveBody`` bounds)
    /// or with one under a second would fail with `URLError(.timedOut)` about a millisecond after
    /// the first pause in its response. Foundation gets 2 s instead (past the deadline, which
    /// fires first), or 30 days for no deadline. Other requests go as they are.
    static func withFoundationTimeout(_ request: URLRequest) -> URLRequest {
        let deadline = request.timeoutInterval
        guard !(deadline >= 1) else { return request }
        var request = request
        request.timeoutInterval = deadline > 0 ? 2 : noDeadlineTimeout
        return request
    }

    /// What Foundation gets for a request without a deadline: 30 days, in seconds.
    static let noDeadlineTimeout: TimeInterval = 30 * 24 * 3600
}

/// One request's state: the task, whether its body has begun in the call's sink, the deadline,
/// and the one continuation.
private final class TaskExchange: @unchecked Sendable {  // every field is guarded by `lock`
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

    /// A download task finished its file: the sink takes it now (Foundation deletes it when the
    /// delegate returns).
    func finishDownload(at location: URL, response: URLResponse?) {
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

/// The session's delegate: hands each task's callbacks to its exchange, and refuses redirects so
/// that the client follows them itself.
private final class TaskRouter: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    // `exchanges` is guarded by `lock`.
    private let lock = NSLock()
    private var exchanges: [Int: (exchange: TaskExchange, context: TransportContext)] = [:]
    /// The trust the transport was made with; ``ServerTrustPolicy/system`` leaves server-trust
    /// challenges to the system.
    private let serverTrust: ServerTrustPolicy

    init(serverTrust: ServerTrustPolicy) { self.serverTrust = serverTrust }

    func register(_ exchange: TaskExchange, for task: URLSessionTask, context: TransportContext) {
        lock.withLock { exchanges[task.taskIdentifier] = (exchange, context) }
    }

    /// Forgets a task that ended in its completion handler.
    func unregister(_ task: URLSessionTask) {
        lock.withLock { _ = exchanges.removeValue(forKey: task.taskIdentifier) }
    }

    private func exchange(for task: URLSessionTask) -> TaskExchange? {
        lock.withLock { exchanges[task.taskIdentifier]?.exchange }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let context = lock.withLock { exchanges[task.taskIdentifier]?.context }
        context?.reportUploadProgress(sent: totalBytesSent, expected: totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// HTTP authentication is the client's job (its ``AuthenticationProvider``), never the
    /// session's: reject those challenges so the 401 comes back. Server trust follows the
    /// transport's ``ServerTrustPolicy`` (the system's default handling for `.system`; Linux never
    /// asks); client certificates keep the system's default handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
            if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                !serverTrust.isSystem
            {
                var failure = URLError(
                    .serverCertificateUntrusted, reason: "the challenge carried no trust to evaluate")
                if let trust = challenge.protectionSpace.serverTrust {
                    guard let refused = serverTrust.failure(evaluating: trust, host: challenge.protectionSpace.host)
                    else {
                        completionHandler(.useCredential, URLCredential(trust: trust))
                        return
                    }
                    failure = refused
                }
                exchange(for: task)?.noteServerTrustFailure(failure)
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
        #endif
        let httpAuthentication = [
            NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        ]
        guard httpAuthentication.contains(challenge.protectionSpace.authenticationMethod) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        exchange(for: task)?.noteRejectedChallenge()
        completionHandler(.rejectProtectionSpace, nil)
    }

    /// A body over the limit is refused here, before it is read: the task is cancelled, and the
    /// disposition says so too (Foundation on Linux waits for it, and a `.allow` given after the
    /// cancellation would let the transfer go on).
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let refused = exchange(for: dataTask)?.received(response) ?? false
        completionHandler(refused ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.append(data)
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        exchange(for: downloadTask)?.wrote(total: totalBytesWritten, expected: totalBytesExpectedToWrite)
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
        exchange(for: downloadTask)?.finishDownload(at: location, response: downloadTask.response)
    }

    /// The session's metrics of the task, kept for its report (Apple platforms deliver them
    /// before the task completes; Foundation on Linux does not call this).
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        exchange(for: task)?.noteTaskMetrics(metrics)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier)?.exchange }
        exchange?.complete(response: task.response, error: error)
    }
}

extension TransportResponse {
    /// The session's answer to a request with `method` (`nil`: GET), its fields as the direct
    /// path gives them (``ResponseDecoding/sessionHeaders(_:method:statusCode:)``).
    init(_ response: HTTPURLResponse, method: String?) {
        // Read once: on Linux every read of `allHeaderFields` converts Foundation's
        // [String: String] to [AnyHashable: Any] anew.
        let all = response.allHeaderFields
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(all.count)
        for (name, value) in all {
            // Foundation keeps both as strings; the casts are the cheap path.
            guard let name = name.base as? String else { continue }
            fields.append(HTTPHeaders.Field(name: name, value: value as? String ?? "\(value)"))
        }
        let headers = ResponseDecoding.sessionHeaders(
            HTTPHeaders(fields), method: method ?? "GET", statusCode: response.statusCode)
        self.init(statusCode: response.statusCode, headers: headers, url: response.url)
    }
}
