#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// One request with no body or a small body in memory, of any method, on a kept-alive
    /// ``LoopConnection``, driven by the connection's event loop from start to end: connect when
    /// the connection is not open yet (a numeric host resolved on the loop, a name on
    /// ``HostResolver``), write the request head and body in one buffer, read the response into
    /// a ``ResponseIntake`` as it arrives, and resume the caller straight from the loop.
    ///
    /// - The deadline is a timer of the loop: when it fires the connection is closed and the call
    ///   fails with `URLError(.timedOut)`.
    /// - Cancelling the task closes the connection on the loop and fails the call with
    ///   `URLError(.cancelled)`; the call ends exactly once, whichever comes first.
    /// - A request on a reused connection that the server closed before any byte of a response
    ///   goes again, once, on a new connection when it may be sent twice (RFC 9112 §9.3.1: a client
    ///   may retry an idempotent request whose connection closed before the response began);
    ///   otherwise the call fails with ``HTTP1Transport/closedBeforeAnswering(_:reason:)``.
    /// - The outcome says whether the connection can carry the next request; when it cannot, its
    ///   socket is closed already.
    final class LoopExchange: @unchecked Sendable {  // after `run` hands it over, only the loop's thread touches it
        private let connection: LoopConnection
        /// The request's head and body, written in one go.
        private let message: [UInt8]
        private let bodyCount: Int
        private let method: String
        private let url: URL
        private let host: String
        private let port: Int
        /// Nanoseconds on ``EventLoop/now()``; `nil` for none.
        private let deadline: UInt64?
        private let resolver: HostResolver
        private var intake: ResponseIntake
        private var continuation: CheckedContinuation<DirectExchange.Outcome, any Error>?
        private var timer: TimerQueue<() -> Void>.ID?
        private var cancelled = false
        private var done = false
        private let context: TransportContext
        /// For the call's metrics: times and bytes of the request.
        private var figures = DirectRequestFigures()
        private var connectionReused: Bool?

        private var loop: EventLoop { connection.loop }
        private var socket: LoopSocket { connection.socket }

        private init(
            connection: LoopConnection, head: HTTP1RequestHead, body: Data?, method: String, url: URL, host: String,
            port: Int, deadline: UInt64?, context: TransportContext, resolver: HostResolver
        ) {
            self.connection = connection
            var bytes = head.bytes
            if let body, !body.isEmpty { bytes.append(contentsOf: body) }
            message = bytes
            bodyCount = body?.count ?? 0
            self.method = method
            self.url = url
            self.host = host
            self.port = port
            self.deadline = deadline
            self.resolver = resolver
            self.context = context
            intake = ResponseIntake(method: method, url: url, context: context)
        }

        /// Sends `head` and `body` (framed by `head`) on `connection` and reads its response into
        /// `context`'s sink; `deadline` in nanoseconds of ``EventLoop/now()``.
        static func run(
            _ head: HTTP1RequestHead, body: Data? = nil, method: String, url: URL, on connection: LoopConnection,
            deadline: UInt64?, context: TransportContext, resolver: HostResolver = .shared
        ) async throws -> DirectExchange.Outcome {
            let host = try SocketOperations.host(of: url)
            let exchange = LoopExchange(
                connection: connection, head: head, body: body, method: method, url: url, host: host,
                port: url.port ?? 80, deadline: deadline, context: context, resolver: resolver)
            let loop = connection.loop
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let started = loop.execute { exchange.start(continuation) }
                    if !started {
                        continuation.resume(
                            throwing: URLError(.cannotConnectToHost, reason: "the event loop has stopped"))
                    }
                }
            } onCancel: {
                loop.execute { exchange.cancel() }
            }
        }

        // MARK: - On the loop

        private func start(_ continuation: CheckedContinuation<DirectExchange.Outcome, any Error>) {
            self.continuation = continuation
            figures.startedAt = MetricsClock.now()
            // Cancelled before it started: the cancellation's work ran first, and found nothing.
            if cancelled { return fail(URLError(.cancelled)) }
            if let deadline {
                timer = loop.schedule(at: deadline) { [self] in
                    timer = nil
                    fail(URLError(.timedOut))
                }
            }
            guard socket.isOpen else { return connect() }
            // A close (or bytes) that reached the socket before the loop read its event: the
            // request goes on a new connection and is never written on this one, whatever its
            // method. What this cannot see, a close still on its way, `lost` decides.
            guard socket.isQuiet else {
                socket.close()
                return connect()
            }
            send(reused: true)
        }

        private func cancel() {
            cancelled = true
            // Before start: start sees the flag.
            guard continuation != nil else { return }
            fail(URLError(.cancelled))
        }

        private func connect() {
            figures.connectStarts()
            resolver.addresses(of: host, port: port, on: loop) { [self] result in
                guard !done else { return }
                switch result {
                case .success(let addresses): connect(to: addresses)
                case .failure(let error): fail(error)
                }
            }
        }

        private func connect(to addresses: [ResolvedAddress]) {
            socket.connect(to: addresses[...], name: "\(host):\(port)") { [self] result in
                switch result {
                case .success:
                    figures.connectedAt = MetricsClock.now()
                    send(reused: false)
                case .failure(let error): fail(error)
                }
            }
        }

        private func send(reused: Bool) {
            if let deadline, EventLoop.now() >= deadline { return fail(URLError.timedOutBeforeTheRequest) }
            connectionReused = reused
            figures.bytesSent += Int64(message.count)
            socket.write(message) { [self] transfer in
                switch transfer {
                case .moved, .wouldBlock:
                    if bodyCount > 0 {
                        context.reportUploadProgress(sent: Int64(bodyCount), expected: Int64(bodyCount))
                    }
                    receive(reused: reused)
                case .peerClosed: lost(reused: reused, reason: "the server closed the connection")
                case .failed(let reason): lost(reused: reused, reason: reason)
                }
            }
        }

        private func receive(reused: Bool) {
            let buffer = loop.readBuffer
            socket.read(into: buffer) { [self] transfer in
                guard !done else { return false }
                switch transfer {
                case .wouldBlock:
                    return true
                case .moved(0):
                    // The server ended its side: a body delimited by the close ends here; a
                    // response cut short, or none at all, is a lost connection.
                    if intake.parser.hasReceivedBytes {
                        complete()
                    } else {
                        lost(reused: reused, reason: "the server closed the connection")
                    }
                    return false
                case .moved(let count):
                    figures.received(count)
                    do {
                        try intake.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    } catch {
                        fail(error)
                        return false
                    }
                    guard intake.parser.isComplete else {
                        // A streamed body whose consumer is behind: stop reading until it caught up.
                        guard context.responseBody.isBackedUp else { return true }
                        hold(reused: reused)
                        return false
                    }
                    complete()
                    return false
                case .peerClosed:
                    lost(reused: reused, reason: "the server reset the connection")
                    return false
                case .failed(let reason):
                    lost(reused: reused, reason: reason)
                    return false
                }
            }
        }

        /// Leaves the input in the socket until the streamed body's consumer has room again (or
        /// the connection hangs up, which is read at once).
        private func hold(reused: Bool) {
            socket.holdReading { [self] in
                guard !done else { return }
                receive(reused: reused)
            }
            let loop = loop
            context.responseBody.whenDrained { [self] in
                _ = loop.execute { [self] in
                    guard !done, socket.isOpen else { return }
                    receive(reused: reused)
                }
            }
        }

        /// The connection broke. On a reused connection, before any byte of a response, the
        /// request goes again on a new one when it may; otherwise the call fails.
        private func lost(reused: Bool, reason: String) {
            guard reused, !intake.parser.hasReceivedBytes else {
                return fail(URLError(.networkConnectionLost, reason: reason))
            }
            guard HTTP1Transport.maySendAgain(method, context: context) else {
                return fail(HTTP1Transport.closedBeforeAnswering(method, reason: reason))
            }
            socket.close()
            connect()
        }

        private func complete() {
            let response: TransportResponse
            do {
                response = try intake.finish(url: url)
            } catch {
                return fail(error)
            }
            let reusable = intake.parser.leavesConnectionReusable
            if !reusable { socket.close() }
            finish(.success(DirectExchange.Outcome(response: response, leavesConnectionReusable: reusable)))
        }

        /// The request's figures for the call's metrics, reported before the call resumes.
        private func reportMetrics() {
            guard context.metrics != nil else { return }
            context.report(figures.report(connectionReused: connectionReused, requestBodyBytes: Int64(bodyCount)))
        }

        private func fail(_ error: any Error) {
            guard !done else { return }
            socket.close()
            finish(.failure(error))
        }

        private func finish(_ result: Result<DirectExchange.Outcome, any Error>) {
            guard !done else { return }
            done = true
            if let timer { loop.cancelTimer(timer) }
            reportMetrics()
            timer = nil
            let continuation = continuation
            self.continuation = nil
            continuation?.resume(with: result)
        }
    }
#endif
