#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// One request on a connection of its own, driven by an event loop from start to end: a body
    /// in memory or streamed (or none), or a response that goes to a file. The loop connects,
    /// writes the head, then the body, and reads the response into a ``ResponseIntake`` as it
    /// arrives, listening for it all along; the caller resumes straight from the loop.
    ///
    /// - A body in memory is written from the loop. A streamed body is read off the loop by a
    ///   ``BodyStreamFeed`` one chunk at a time, and the next chunk is read only once the previous
    ///   one is written (the upload goes as fast as the server takes it, holding one chunk).
    /// - Bodies of 1 MiB or more, or of unknown length, ask `Expect: 100-continue` and wait up to
    ///   a second (a loop timer) for an answer before sending the body anyway (RFC 9110 §10.1.1);
    ///   a 417 to it sends the request again without it, once, on a new connection.
    /// - A final response (a 413, a 401) that arrives while the body goes out ends the upload: RFC
    ///   9112 §9.5 lets a server answer and close before it read the whole body. So does the
    ///   server closing its side.
    /// - The deadline (a loop timer) fails the call with `URLError(.timedOut)`; cancelling the
    ///   task fails it with `URLError(.cancelled)`; either closes the connection at once.
    ///
    /// The response's body goes to the call's ``ResponseBodySink`` from the loop's thread.
    /// After ``run(_:url:body:length:context:on:deadline:resolver:readers:)`` hands
    /// it over, only the loop's thread touches it.
    final class LoopUploadExchange: @unchecked Sendable {
        /// What the request carries.
        enum Body {
            /// Bytes in memory, written from the loop.
            case data(Data)
            /// A stream, read off the loop.
            case stream(InputStream)
        }

        private enum Phase {
            /// Connecting, or writing the head.
            case head
            /// The head asked `Expect: 100-continue`; waiting for an answer or the timer.
            case awaitingContinue
            /// Writing the body.
            case body
            /// Reading the response only.
            case response
        }

        private let request: URLRequest
        private let url: URL
        private let host: String
        private let port: Int
        private let method: String
        private let body: Body?
        private let length: Int64?
        private let context: TransportContext
        private let deadline: UInt64?
        private let resolver: HostResolver
        private let readers: BodyStreamReader
        private let socket: LoopSocket
        private var intake: ResponseIntake
        private var continuation: CheckedContinuation<TransportResponse, any Error>?
        private var deadlineTimer: TimerQueue<() -> Void>.ID?
        private var continueTimer: TimerQueue<() -> Void>.ID?
        private var cancelled = false
        private var done = false
        private var phase = Phase.head
        private var expectsContinue: Bool
        /// What is left to write, in order; the first from `pendingOffset`.
        private var pending: [[UInt8]] = []
        private var pendingOffset = 0
        /// The body bytes in `pending`, counted as sent once written.
        private var chunkBytes = 0
        private var bodyEnded = false
        private var sent: Int64 = 0
        private var dataOffset = 0
        private var feed: BodyStreamFeed?
        /// Where a download's bytes are parsed and written to its file (`nil` when the response
        /// stays in memory): one read at a time, while the socket is not read.
        private let fileQueue: DispatchQueue?
        /// Whether `intake` is in `fileQueue`'s hands.
        private var intakeBusy = false
        /// Whether a streamed body's consumer is behind: the socket is not read meanwhile.
        private var heldForConsumer = false
        /// What arrived for `fileQueue` meanwhile: only when the connection hung up.
        private var backlog: [[UInt8]] = []
        /// How the input ended, once it did, for `fileQueue`'s path.
        private var inputEnd: SocketOperations.Transfer?
        /// The outcome, held while `fileQueue` still has the intake (a call fails only once its
        /// sink is out of a write).
        private var heldResult: Result<TransportResponse, any Error>?
        /// For the call's metrics: times and bytes of the request.
        private var figures = DirectRequestFigures()

        private var loop: EventLoop { socket.loop }

        private init(
            request: URLRequest, url: URL, host: String, body: Body?, length: Int64?,
            context: TransportContext, loop: EventLoop, deadline: UInt64?, resolver: HostResolver,
            readers: BodyStreamReader
        ) {
            self.request = request
            self.url = url
            self.host = host
            port = url.port ?? 80
            method = request.httpMethod ?? (body == nil ? "GET" : "POST")
            self.body = body
            self.length = length
            self.context = context
            self.deadline = deadline
            self.resolver = resolver
            self.readers = readers
            fileQueue = context.download != nil ? BodyStreamReader.files.nextQueue() : nil
            socket = LoopSocket(loop: loop)
            intake = ResponseIntake(method: method, url: url, context: context)
            expectsContinue =
                body != nil
                && (request.value(forHTTPHeaderField: "Expect").map { $0.lowercased() == "100-continue" }
                    ?? ((length ?? Int64.max) >= DirectExchange.expectContinueThreshold))
        }

        /// Sends `request` with `body` (`length` bytes, `nil` when unknown: chunked) on a new
        /// connection of `loop`, and reads its response into `context`'s sink; `deadline` in
        /// nanoseconds of ``EventLoop/now()``. The connection is closed at the end.
        static func run(
            _ request: URLRequest, url: URL, body: Body?, length: Int64?,
            context: TransportContext, on loop: EventLoop, deadline: UInt64?, resolver: HostResolver = .shared,
            readers: BodyStreamReader = .shared
        ) async throws -> TransportResponse {
            let host = try SocketOperations.host(of: url)
            let exchange = LoopUploadExchange(
                request: request, url: url, host: host, body: body, length: length,
                context: context, loop: loop, deadline: deadline, resolver: resolver, readers: readers)
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

        private func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
            self.continuation = continuation
            figures.startedAt = MetricsClock.now()
            // Cancelled before it started: the cancellation's work ran first, and found nothing.
            if cancelled { return fail(URLError(.cancelled)) }
            if let deadline {
                deadlineTimer = loop.schedule(at: deadline) { [self] in
                    deadlineTimer = nil
                    fail(URLError(.timedOut))
                }
            }
            connect()
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
                guard !done else { return }
                switch result {
                case .success:
                    figures.connectedAt = MetricsClock.now()
                    sendHead()
                case .failure(let error): fail(error)
                }
            }
        }

        private func sendHead() {
            if let deadline, EventLoop.now() >= deadline { return fail(URLError.timedOutBeforeTheRequest) }
            let framing: HTTP1RequestHead.Framing =
                body == nil
                ? HTTP1Transport.framing(of: nil, method: method)
                : length.map(HTTP1RequestHead.Framing.length) ?? .chunked
            let head = HTTP1RequestHead(
                method: method, url: url, fields: request.allHTTPHeaderFields ?? [:], framing: framing,
                expectsContinue: expectsContinue, keepsAlive: false)
            phase = .head
            pending = [head.bytes]
            pendingOffset = 0
            socket.watch([.read, .write]) { [unowned self] events in handle(events) }
            flush()
        }

        private func handle(_ events: IOEvents) {
            if !events.isDisjoint(with: [.readable, .hangUp, .error]) { receive() }
            guard !done, !pending.isEmpty, !events.isDisjoint(with: [.writable, .error]) else { return }
            flush()
        }

        /// Writes what is pending until the socket takes no more; then goes on with the exchange.
        private func flush() {
            while let first = pending.first {
                let transfer = first.withUnsafeBytes {
                    SocketOperations.send(socket.fd, UnsafeRawBufferPointer(rebasing: $0[pendingOffset...]))
                }
                switch transfer {
                case .moved(let count):
                    figures.bytesSent += Int64(count)
                    pendingOffset += count
                    if pendingOffset >= first.count {
                        pending.removeFirst()
                        pendingOffset = 0
                    }
                case .wouldBlock:
                    socket.watch(reading.union(.write))
                    return
                case .peerClosed:
                    // The server closed its side: its response, if it sent one, is the answer.
                    return stopUpload()
                case .failed(let reason):
                    return fail(URLError(.networkConnectionLost, reason: reason))
                }
            }
            socket.watch(reading)
            written()
        }

        /// Everything pending went out.
        private func written() {
            switch phase {
            case .head:
                guard body != nil else { return phase = .response }
                guard expectsContinue else { return startBody() }
                phase = .awaitingContinue
                continueTimer = loop.schedule(
                    at: EventLoop.now() + UInt64(DirectExchange.continueWait) * 1_000_000
                ) { [self] in
                    continueTimer = nil
                    if phase == .awaitingContinue { startBody() }
                }
            case .body:
                if bodyEnded { return phase = .response }
                if chunkBytes > 0 {
                    sent += Int64(chunkBytes)
                    chunkBytes = 0
                    context.reportUploadProgress(sent: sent, expected: length ?? -1)
                }
                nextChunk()
            case .awaitingContinue, .response:
                break
            }
        }

        private func startBody() {
            if let continueTimer { loop.cancelTimer(continueTimer) }
            continueTimer = nil
            phase = .body
            nextChunk()
        }

        /// Asks for the body's next chunk: from memory at once, from a stream off the loop.
        private func nextChunk() {
            switch body {
            case nil:
                bodyEnded = true
                phase = .response
            case .data(let data):
                let end = min(data.count, dataOffset + DirectExchange.bufferSize)
                if dataOffset >= end { return take(.success(nil)) }
                let start = data.startIndex + dataOffset
                dataOffset = end
                take(.success([UInt8](data[start..<(data.startIndex + end)])))
            case .stream(let stream):
                let feed =
                    self.feed ?? BodyStreamFeed(stream: stream, length: length, queue: readers.nextQueue())
                self.feed = feed
                let loop = loop
                feed.next(limit: DirectExchange.bufferSize) { [self] result in
                    loop.execute { [self] in take(result) }
                }
            }
        }

        /// The body's next chunk (`nil` at its end) is there, or its stream failed.
        private func take(_ chunk: Result<[UInt8]?, WebServiceError>) {
            guard !done, phase == .body else { return }
            let chunked = length == nil
            switch chunk {
            case .failure(let error):
                fail(error)
            case .success(nil):
                bodyEnded = true
                guard chunked else { return phase = .response }
                pending.append(Array("0\r\n\r\n".utf8))
                flush()
            case .success(let bytes?):
                chunkBytes = bytes.count
                if chunked { pending.append(Array((String(bytes.count, radix: 16) + "\r\n").utf8)) }
                pending.append(bytes)
                if chunked { pending.append(Array("\r\n".utf8)) }
                flush()
            }
        }

        /// Stops sending: the server answered, or closed its side. What it sent, and sends, is the
        /// answer.
        private func stopUpload() {
            if let continueTimer { loop.cancelTimer(continueTimer) }
            continueTimer = nil
            phase = .response
            pending.removeAll()
            pendingOffset = 0
            feed?.close()
            socket.watch(reading)
        }

        /// Input is read unless a download's file has the bytes read before, or a streamed body's
        /// consumer has not caught up.
        private var reading: IOInterest { intakeBusy || heldForConsumer ? [] : .read }

        private func receive() {
            if fileQueue != nil { return receiveForFile() }
            let buffer = loop.readBuffer
            switch SocketOperations.receive(socket.fd, into: buffer) {
            case .wouldBlock:
                return
            case .moved(0):
                // The server ended its side: a body delimited by the close ends here; a response
                // cut short, or none at all, is a lost connection.
                complete()
            case .moved(let count):
                noteReceived(count)
                do {
                    try intake.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                } catch {
                    return fail(error)
                }
                if phase == .awaitingContinue, intake.parser.head?.statusCode == 417 {
                    return retryWithoutExpectation()
                }
                if intake.parser.isComplete { return complete() }
                answered()
                if context.responseBody.isBackedUp { holdForConsumer() }
            case .peerClosed:
                fail(URLError(.networkConnectionLost, reason: "the server reset the connection"))
            case .failed(let reason):
                fail(URLError(.networkConnectionLost, reason: reason))
            }
        }

        /// Stops reading until the streamed body's consumer has room again; a hang-up meanwhile is
        /// still read.
        private func holdForConsumer() {
            heldForConsumer = true
            socket.watch(pending.isEmpty ? reading : reading.union(.write))
            let loop = loop
            context.responseBody.whenDrained { [self] in
                _ = loop.execute { [self] in
                    guard !done, heldForConsumer else { return }
                    heldForConsumer = false
                    socket.watch(pending.isEmpty ? reading : reading.union(.write))
                }
            }
        }

        /// Bytes of a response arrived before it is complete.
        private func answered() {
            switch phase {
            case .awaitingContinue:
                // `100 Continue` (or the start of a final answer): the body goes now, unless a
                // final head is already here.
                if intake.hasFinalHead { stopUpload() } else { startBody() }
            case .head, .body:
                if intake.hasFinalHead { stopUpload() }
            case .response:
                break
            }
        }

        /// The expectation failed before any byte of the body went out: send the request again
        /// without it, on a new connection, since the server may still be waiting for the body of
        /// the first (RFC 9110 §10.1.1: "SHOULD repeat that request without a 100-continue
        /// expectation"; curl does the same, once).
        private func retryWithoutExpectation() {
            if let continueTimer { loop.cancelTimer(continueTimer) }
            continueTimer = nil
            socket.close()
            intake = ResponseIntake(method: method, url: url, context: context)
            backlog.removeAll()
            inputEnd = nil
            expectsContinue = false
            phase = .head
            connect()
        }

        /// A download's read: the bytes go to `fileQueue`, and the socket is not read meanwhile
        /// (the server is held back by TCP while the file takes the bytes). A hang-up while
        /// the file is written is read at once (what is left in the socket), and closes it.
        private func receiveForFile() {
            let buffer = loop.readBuffer
            let transfer = SocketOperations.receive(socket.fd, into: buffer)
            switch transfer {
            case .wouldBlock:
                return
            case .moved(let count) where count > 0:
                noteReceived(count)
                backlog.append([UInt8](UnsafeRawBufferPointer(rebasing: buffer[..<count])))
            default:
                // No more input: what was sent is the answer, and nothing more goes out.
                inputEnd = transfer
                stopUpload()
                socket.close()
            }
            pump()
        }

        /// Hands the next bytes to `fileQueue`, or ends the input, or reads on.
        private func pump() {
            guard !intakeBusy, !done, let fileQueue else { return }
            if !backlog.isEmpty {
                let bytes = backlog.removeFirst()
                intakeBusy = true
                // Only a hang-up reaches the loop meanwhile.
                socket.watch(pending.isEmpty ? [] : .write)
                let loop = loop
                fileQueue.async { [self] in
                    let outcome = Result { try intake.take(bytes) }
                    loop.execute { [self] in tookForFile(outcome) }
                }
                return
            }
            if let end = inputEnd {
                inputEnd = nil
                switch end {
                case .peerClosed:
                    return fail(URLError(.networkConnectionLost, reason: "the server reset the connection"))
                case .failed(let reason): return fail(URLError(.networkConnectionLost, reason: reason))
                default: return complete()
                }
            }
            socket.watch(pending.isEmpty ? .read : [.read, .write])
        }

        private func tookForFile(_ outcome: Result<Void, any Error>) {
            intakeBusy = false
            if let heldResult { return resume(heldResult) }
            switch outcome {
            case .failure(let error): return fail(error)
            case .success: break
            }
            if phase == .awaitingContinue, intake.parser.head?.statusCode == 417 {
                return retryWithoutExpectation()
            }
            if intake.parser.isComplete { return complete() }
            answered()
            pump()
        }

        private func complete() {
            if let fileQueue {
                // The sink closes the file: off the loop too.
                intakeBusy = true
                let loop = loop
                let url = url
                fileQueue.async { [self] in
                    let outcome = Result { try intake.finish(url: url) }
                    loop.execute { [self] in
                        intakeBusy = false
                        if let heldResult { return resume(heldResult) }
                        finish(outcome)
                    }
                }
                return
            }
            let response: TransportResponse
            do {
                response = try intake.finish(url: url)
            } catch {
                return fail(error)
            }
            finish(.success(response))
        }

        private func fail(_ error: any Error) {
            finish(.failure(error))
        }

        private func finish(_ result: Result<TransportResponse, any Error>) {
            guard !done else { return }
            done = true
            socket.close()
            feed?.close()
            pending.removeAll()
            for timer in [deadlineTimer, continueTimer].compactMap({ $0 }) { loop.cancelTimer(timer) }
            deadlineTimer = nil
            continueTimer = nil
            guard !intakeBusy else { return heldResult = result }
            resume(result)
        }

        /// `count` bytes of the response arrived, for the call's metrics.
        private func noteReceived(_ count: Int) {
            figures.received(count)
        }

        private func resume(_ result: Result<TransportResponse, any Error>) {
            heldResult = nil
            if context.metrics != nil {
                // Reported before the call resumes: its connection is its own, never reused.
                context.report(figures.report(connectionReused: false, requestBodyBytes: sent))
            }
            let continuation = continuation
            self.continuation = nil
            continuation?.resume(with: result)
        }
    }
#endif
