#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A kept-alive HTTP/1.1 connection owned by one event loop: the pool's handle of it, which
    /// any thread may hold, close or ask whether it is still open.
    ///
    /// Its socket is opened by the first exchange that needs it, and opened anew when a request
    /// goes again after the server dropped it (``LoopExchange``). Between exchanges the socket
    /// waits for input only: a server that closes it, or speaks unasked, has it closed at once on
    /// the loop, so an idle connection the server dropped holds no descriptor.
    final class LoopConnection: Sendable {
        let loop: EventLoop
        /// Touched only on the loop's thread, but for ``LoopSocket/isOpen``.
        let socket: LoopSocket
        private let closed = Locked(false)

        /// A connection of `loop`, not opened yet.
        init(loop: EventLoop) {
            self.loop = loop
            socket = LoopSocket(loop: loop)
        }

        deinit {
            // A connection dropped without close() (never in the pool's hands) still frees its
            // descriptor, on the loop that owns it.
            guard !closed.current else { return }
            let socket = socket
            if loop.inLoop { socket.close() } else { loop.execute { socket.close() } }
        }

        /// Whether ``close()`` was called.
        var isClosed: Bool { closed.current }

        /// Whether the connection can take the next request: its socket is connected, and
        /// neither the pool nor the server closed it.
        var isIdleAndOpen: Bool { !isClosed && socket.isOpen }

        /// Closes the connection for good; its descriptor is released on its loop (at once when
        /// called there). Call it only when no exchange runs on it; calling it again does nothing.
        func close() {
            let first = closed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            guard first else { return }
            let socket = socket
            if loop.inLoop { socket.close() } else { loop.execute { socket.close() } }
        }
    }

    /// Resolves host names off the event loops, on a fixed number of serial queues (so at most
    /// that many threads block in `getaddrinfo(3)`, whatever the number of calls). A numeric
    /// host never comes here: the exchanges parse it on their loop, and no resolver thread runs
    /// for it.
    final class HostResolver: Sendable {
        /// The process's resolver: two lookups at a time.
        static let shared = HostResolver(width: 2)

        private let queues: [DispatchQueue]
        private let turn = Locked(0)
        private let asked = Locked(0)

        /// The lookups handed to the resolver so far: for tests.
        var lookups: Int { asked.current }

        init(width: Int) {
            queues = (0..<max(1, width)).map { DispatchQueue(label: "WebServiceKit.resolver-\($0)") }
        }

        /// Resolves `host` and calls `completion` with its addresses, on the resolver's thread.
        func resolve(
            host: String, port: Int, completion: @escaping @Sendable (Result<[ResolvedAddress], URLError>) -> Void
        ) {
            asked.withLock { $0 += 1 }
            let index = turn.withLock { turn in
                defer { turn = (turn + 1) % queues.count }
                return turn
            }
            queues[index].async {
                do throws(URLError) {
                    completion(.success(try SocketOperations.resolve(host: host, port: port)))
                } catch {
                    completion(.failure(error))
                }
            }
        }

        /// The addresses of `host`, for `body` on `loop` (called from `loop`): a numeric host is
        /// parsed there at once, without asking DNS and without a resolver thread; a name is
        /// resolved on the resolver's queues first.
        func addresses(
            of host: String, port: Int, on loop: EventLoop,
            _ body: @escaping @Sendable (Result<[ResolvedAddress], URLError>) -> Void
        ) {
            guard SocketOperations.isNumeric(host) else {
                resolve(host: host, port: port) { result in loop.execute { body(result) } }
                return
            }
            do throws(URLError) {
                body(.success(try SocketOperations.resolve(host: host, port: port)))
            } catch {
                body(.failure(error))
            }
        }
    }

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
            guard let name = url.host, !name.isEmpty else { throw URLError(.badURL, reason: "no host in \(url)") }
            // An IPv6 literal without its brackets, as getaddrinfo takes it.
            let host = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
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
