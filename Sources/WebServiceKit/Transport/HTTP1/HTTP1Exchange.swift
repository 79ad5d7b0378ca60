#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// One request on a pooled connection, driven by the connection's event loop from start to
    /// end: the loop's driver of ``HTTP1ConnectionMachine``, which makes every decision. The
    /// driver does what the machine answers and tells it what happened: it connects (a numeric
    /// host on the loop, a name on ``HostResolver``), writes the head and the body
    /// (``OutgoingBytes``, ``RequestBodySource``), reads the response into a ``ResponseIntake``
    /// (off the loop, on a file writer's queue, when the call downloads to a file), and resumes
    /// the caller straight from the loop.
    ///
    /// The deadline is a timer of the loop; cancelling the task goes to the loop. Either ends the
    /// call at once, exactly once, whichever comes first; a call ends only once its intake is out
    /// of the file writer's hands. The outcome says whether the connection can carry the next
    /// request; when it cannot, its socket is closed already.
    final class HTTP1Exchange: @unchecked Sendable {  // after `run` hands it over, only the loop's thread touches it
        typealias Outcome = HTTP1Transport.Outcome

        private(set) var machine: HTTP1ConnectionMachine
        let socket: LoopSocket
        let request: WebServiceRequest
        private let method: String
        private let url: URL
        let host: String
        let port: Int
        let context: TransportContext
        let resolver: HostResolver
        /// The TLS settings of an `https` origin; `nil` in the clear.
        let tls: TLSContext?
        /// The proxy the connection goes through: a tunnel for `https`, the absolute form for
        /// `http`; `nil`: straight to the origin.
        let proxy: ProxyRoute?
        /// The `CONNECT` exchange of a new tunnelled connection, while it runs.
        var tunnel: ProxyTunnel?
        /// The part of the `CONNECT` request not written yet.
        var tunnelRequest: ArraySlice<UInt8> = []
        private var body: RequestBodySource
        private var output = OutgoingBytes()
        /// Touched off the loop only by a download's file writer (``FileIntake``), while it has it.
        var intake: ResponseIntake
        /// Where a download's bytes are parsed and written to its file (`nil` when the response
        /// does not go to a file).
        var files: FileIntake?
        private var continuation: CheckedContinuation<Outcome, any Error>?
        private var deadlineTimer: TimerQueue<() -> Void>.ID?
        private var continueTimer: TimerQueue<() -> Void>.ID?
        private var cancelled = false
        /// The error an ``HTTP1ConnectionMachine/Event/failed`` event reported.
        private var error: (any Error)?
        /// The body's piece the source gave, until it is written.
        private var piece: [UInt8] = []
        /// Counts the times the request went out, so that a piece asked for an earlier one is
        /// dropped.
        private var attempt = 0
        /// Whether a read of what the TLS stream holds is on the loop's queue.
        var readScheduled = false
        /// For the call's metrics: times and bytes of the request.
        var figures = DirectRequestFigures()

        var loop: EventLoop { socket.loop }

        private init(
            request: WebServiceRequest, method: String, url: URL, host: String, body: RequestBodySource,
            machine: HTTP1ConnectionMachine, socket: LoopSocket, context: TransportContext, resolver: HostResolver,
            tls: TLSContext?, proxy: ProxyRoute?
        ) {
            self.request = request
            self.method = method
            self.url = url
            self.host = host
            self.tls = tls
            self.proxy = proxy
            port = url.port ?? (tls == nil ? 80 : 443)
            self.body = body
            self.machine = machine
            self.socket = socket
            self.context = context
            self.resolver = resolver
            intake = ResponseIntake(method: method, url: url, context: context)
            files = context.download != nil ? FileIntake(queue: BodyStreamReader.files.nextQueue()) : nil
        }

        /// Sends `request` on `connection` (opened when it is not open yet) and reads its response
        /// into `context`'s sink; `deadline` in nanoseconds of ``EventLoop/now()``. A streamed
        /// body's length is the context's (`nil`: unknown, sent chunked). With `tls`, a new
        /// connection's TLS handshake follows its connect, and everything goes through it. With
        /// `proxy`, a new connection goes to the proxy: through a `CONNECT` tunnel for `https`,
        /// with the target in absolute form for `http`.
        static func run(
            _ request: WebServiceRequest, url: URL, on connection: LoopConnection, deadline: UInt64?,
            context: TransportContext, tls: TLSContext? = nil, proxy: ProxyRoute? = nil,
            resolver: HostResolver = .shared, readers: BodyStreamReader = .shared
        ) async throws -> Outcome {
            let host = try SocketOperations.host(of: url)
            let method = request.method
            let body = RequestBodySource(request, streamLength: context.uploadLength, readers: readers)
            let machine = HTTP1ConnectionMachine(
                request: body.machineRequest(
                    for: request, keepsAlive: true, maySendAgain: HTTP1Transport.maySendAgain(method, context: context),
                    deadline: deadline))
            let exchange = HTTP1Exchange(
                request: request, method: method, url: url, host: host, body: body, machine: machine,
                socket: connection.socket, context: context, resolver: resolver, tls: tls, proxy: proxy)
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

        // MARK: - On the loop: events in

        private func start(_ continuation: CheckedContinuation<Outcome, any Error>) {
            self.continuation = continuation
            figures.startedAt = MetricsClock.now()
            // A kept-alive TLS connection: what its handshake negotiated (a new one's comes with
            // its handshake).
            if context.metrics != nil { figures.tls = socket.tls?.session.negotiated }
            // Cancelled before it started: the cancellation's work ran first, and found nothing.
            if cancelled { return handle(.cancelled) }
            if let deadline = machine.request.deadline {
                deadlineTimer = loop.schedule(at: deadline) { [self] in
                    deadlineTimer = nil
                    handle(.deadlinePassed)
                }
            }
            let connection: HTTP1ConnectionMachine.Connection =
                socket.isOpen ? .reused(quiet: socket.isQuiet) : .new
            handle(.start(connection, now: EventLoop.now()))
        }

        private func cancel() {
            cancelled = true
            // Before start: start sees the flag.
            guard continuation != nil else { return }
            handle(.cancelled)
        }

        /// Tells the machine `event`, does what it answers, and sets what the socket waits for.
        func handle(_ event: HTTP1ConnectionMachine.Event) {
            perform(machine.handle(event))
            watch()
        }

        /// Sets what the socket waits for: input while the machine reads and no ended input waits
        /// for a download's writer, the chance to write while bytes wait.
        func watch() {
            guard socket.isOpen, !machine.isDone, machine.state != .connecting else { return }
            var interest: IOInterest = machine.isReading && files?.end == nil ? .read : []
            if !output.isEmpty || socket.tls?.hasPendingOutput == true { interest.formUnion(.write) }
            socket.watch(interest)
            if interest.contains(.read) { readBufferedRecords() }
        }

        /// Fails the call with `error` through the machine.
        func handle(_ error: any Error) {
            self.error = error
            handle(.failed)
        }

        private func onSocket(_ events: IOEvents) {
            if !events.isDisjoint(with: [.readable, .hangUp, .error]) { receive() }
            guard !machine.isDone, !events.isDisjoint(with: [.writable, .error]) else { return }
            if !output.isEmpty { return flush() }
            // Records of what went out that the socket had not taken yet.
            if let tls = socket.tls, tls.hasPendingOutput { flushRecords(tls) }
        }

        // MARK: - Actions out

        private func perform(_ action: HTTP1ConnectionMachine.Action) {
            switch action {
            case .none:
                break
            case .connect(let closingFirst):
                if closingFirst { socket.close() }
                connect()
            case .writeHead:
                writeHead()
            case .startContinueWait:
                continueTimer = loop.schedule(
                    at: EventLoop.now() + RequestBodySource.continueWait * 1_000_000
                ) { [self] in
                    continueTimer = nil
                    handle(.continueWaitOver)
                }
            case .askBodyPiece:
                endContinueWait()
                // A body of known length is whole on the wire once its last byte went (the source
                // checked it was the last): said at once, before an answer can be read.
                if body.isWhole(afterSending: output.bodyBytesSent, as: machine.request.body) {
                    return handle(.bodyEnded)
                }
                // Taken on a later turn of the loop, even from memory: a long body written to a
                // fast reader never nests one piece's write in another's.
                let (loop, attempt) = (loop, attempt)
                body.next { [self] piece in
                    _ = loop.execute { [self] in take(piece, attempt: attempt) }
                }
            case .writeBodyPiece:
                let chunked = machine.request.body == .pieces(chunked: true)
                output.append(RequestBodySource.framed(piece, chunked: chunked), bodyBytes: piece.count)
                piece = []
                flush()
            case .writeBodyEnd:
                output.append(RequestBodySource.lastChunk)
                flush()
            case .stopSending:
                endContinueWait()
                output.removeAll()
                body.close()
            case .finish(let reusable):
                complete(reusable: reusable)
            case .sendAgain:
                endContinueWait()
                socket.close()
                attempt += 1
                output.removeAll(restarting: true)
                body.rewind()
                intake = ResponseIntake(method: method, url: url, context: context)
                files?.discardInput()
                connect()
            case .fail(let failure):
                end(.failure(failure.error(method: method, timeout: request.timeoutInterval, reported: error)))
            }
        }

        /// Writes the records a TLS write left waiting; the machine heard `written` already.
        private func flushRecords(_ tls: TLSStream) {
            switch tls.flush(to: socket.fd) {
            case .moved, .wouldBlock: watch()
            case .peerClosed: handle(.writeRefused)
            case .failed(let reason): handle(.broke(reason))
            }
        }

        private func writeHead() {
            // Through a proxy without a tunnel (plain `http`): the target in absolute form.
            let head = body.head(
                of: request, method: method, url: url, as: machine.request, forwardProxy: tls == nil ? proxy : nil)
            output.append(head.bytes, bodyBytes: head.bodyBytes)
            // Input is read from the first byte out (an early answer); writable only when a write
            // would block.
            socket.watch(.read) { [unowned self] events in onSocket(events) }
            flush()
        }

        /// Writes what is pending until the socket takes no more.
        private func flush() {
            let before = output.bodyBytesSent
            let (fd, tls) = (socket.fd, socket.tls)
            let transfer = output.flush { bytes in
                tls.map { $0.send(fd, bytes) } ?? SocketOperations.send(fd, bytes)
            }
            switch transfer {
            case .moved:
                if output.bodyBytesSent > before {
                    context.reportUploadProgress(sent: output.bodyBytesSent, expected: body.length ?? -1)
                }
                handle(.written)
            case .wouldBlock: watch()
            case .peerClosed: handle(.writeRefused)
            case .failed(let reason): handle(.broke(reason))
            }
        }

        /// The body's next piece is there (`nil` at its end), or its source failed.
        private func take(_ piece: Result<[UInt8]?, WebServiceError>, attempt: Int) {
            guard attempt == self.attempt, !machine.isDone else { return }
            switch piece {
            case .failure(let error): handle(error)
            case .success(nil): handle(.bodyEnded)
            case .success(let bytes?):
                self.piece = bytes
                handle(.bodyPiece)
            }
        }

        private func endContinueWait() {
            if let continueTimer { loop.cancelTimer(continueTimer) }
            continueTimer = nil
        }

        private func complete(reusable: Bool) {
            guard let files else { return end(Result { try intake.finish(url: self.url) }, reusable: reusable) }
            // The sink closes the file: off the loop too.
            files.isBusy = true
            let (loop, url) = (loop, url)
            files.queue.async { [self] in
                let outcome = Result { try intake.finish(url: url) }
                loop.execute { [self] in
                    files.isBusy = false
                    if let held = files.heldResult { return resume(held) }
                    end(outcome, reusable: reusable)
                }
            }
        }

        private func end(_ result: Result<TransportResponse, any Error>, reusable: Bool = false) {
            let outcome = result.map { Outcome(response: $0, leavesConnectionReusable: reusable) }
            for timer in [deadlineTimer, continueTimer].compactMap({ $0 }) { loop.cancelTimer(timer) }
            deadlineTimer = nil
            continueTimer = nil
            body.close()
            output.removeAll()
            if case .success(let outcome) = outcome, outcome.leavesConnectionReusable {
                socket.stopWatching()
            } else {
                socket.close()
            }
            // A call fails only once its sink is out of a write.
            if let files, files.isBusy { return files.heldResult = outcome }
            resume(outcome)
        }

        func resume(_ result: Result<Outcome, any Error>) {
            files?.heldResult = nil
            if context.metrics != nil {
                // Reported before the call resumes.
                figures.bytesSent = output.wireBytes
                context.report(
                    figures.report(connectionReused: machine.connectionReused, requestBodyBytes: output.bodyBytesSent))
            }
            let continuation = continuation
            self.continuation = nil
            continuation?.resume(with: result)
        }
    }
#endif
