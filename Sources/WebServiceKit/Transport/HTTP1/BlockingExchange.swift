import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The thin blocking driver of ``HTTP1ConnectionMachine``: one request on a pooled
/// ``SocketConnection``, on the calling thread, for platforms without the event loop (and, on
/// Linux, for the tests that run the transport's suites through it,
/// `WEBSERVICEKIT_HTTP1_THREADS=1`). The machine decides everything, as for ``HTTP1Exchange``;
/// this driver turns its actions into blocking calls and what they return into events, one at a
/// time in order.
///
/// Waits poll the socket with the connection's cancellation pipe and deadline: a cancelled or
/// expired exchange ends at once with the machine's typed failure.
struct BlockingExchange {
    private var machine: HTTP1ConnectionMachine
    private let request: WebServiceRequest
    private let method: String
    private let url: URL
    private let host: String
    private let context: TransportContext
    private let connection: SocketConnection
    private var body: RequestBodySource
    private var intake: ResponseIntake
    /// The body piece the source gave, until it is written.
    private var piece: [UInt8] = []
    /// Body bytes written on the current connection.
    private var bodyBytesSent: Int64 = 0
    /// The error of the last ``HTTP1ConnectionMachine/Event/failed``.
    private var error: (any Error)?
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// For the call's metrics: times and bytes of the request.
    private var figures = DirectRequestFigures()

    /// An exchange of `request` on `connection`, which must finish by `deadline`.
    init(
        _ request: WebServiceRequest, url: URL, on connection: SocketConnection, deadline: DispatchTime?,
        context: TransportContext
    ) throws {
        self.request = request
        self.url = url
        self.context = context
        self.connection = connection
        connection.deadline = deadline
        host = try SocketOperations.host(of: url)
        method = request.method
        body = RequestBodySource(request, streamLength: context.uploadLength, readers: .shared)
        intake = ResponseIntake(method: method, url: url, context: context)
        machine = HTTP1ConnectionMachine(
            request: body.machineRequest(
                for: request, keepsAlive: true, maySendAgain: HTTP1Transport.maySendAgain(method, context: context),
                deadline: deadline?.uptimeNanoseconds))
    }

    /// Sends the request and reads its response; the connection stays open only when the outcome
    /// says it is reusable.
    mutating func run() throws -> HTTP1Transport.Outcome {
        figures.startedAt = MetricsClock.now()
        defer {
            if context.metrics != nil {
                context.report(
                    figures.report(connectionReused: machine.connectionReused, requestBodyBytes: bodyBytesSent))
            }
        }
        let start: HTTP1ConnectionMachine.Connection =
            connection.isOpen ? .reused(quiet: connection.isIdleAndOpen) : .new
        var events: [HTTP1ConnectionMachine.Event] = [.start(start, now: Self.now)]
        while true {
            let event = events.isEmpty ? next() : events.removeFirst()
            // A streamed body's consumer that fell behind holds the next read back.
            if case .received = event, !machine.consumerBehind, context.responseBody.isBackedUp {
                events.insert(.consumerBehind, at: 0)
            }
            switch machine.handle(event) {
            case .none:
                break
            case .connect(let closingFirst):
                if closingFirst { connection.disconnect() }
                events.append(connect())
            case .writeHead:
                let head = body.head(of: request, method: method, url: url, as: machine.request)
                events += write(head.bytes, bodyBytes: head.bodyBytes)
            case .startContinueWait:
                break  // the wait is the next read's (`next()`)
            case .askBodyPiece:
                events.append(nextPiece())
            case .writeBodyPiece:
                let chunked = machine.request.body == .pieces(chunked: true)
                let framed = RequestBodySource.framed(piece, chunked: chunked)
                events += write(framed, bodyBytes: piece.count)
                piece = []
            case .writeBodyEnd:
                events += write(RequestBodySource.lastChunk, bodyBytes: 0)
            case .stopSending:
                body.close()
            case .finish(let reusable):
                body.close()
                if !reusable { connection.disconnect() }
                return HTTP1Transport.Outcome(response: try intake.finish(url: url), leavesConnectionReusable: reusable)
            case .sendAgain:
                connection.disconnect()
                body.rewind()
                bodyBytesSent = 0
                intake = ResponseIntake(method: method, url: url, context: context)
                events.append(connect())
            case .fail(let failure):
                body.close()
                connection.disconnect()
                throw failure.error(method: method, timeout: request.timeoutInterval, reported: error)
            }
        }
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// What the machine waits for: `100 Continue` (for a while), the response, or the streamed
    /// body's consumer to catch up (input is not read meanwhile).
    private mutating func next() -> HTTP1ConnectionMachine.Event {
        do {
            if machine.consumerBehind {
                try waitForConsumer()
                return .consumerCaughtUp
            }
            if machine.state == .awaitingContinue {
                let limit = Int32(RequestBodySource.continueWait)
                guard try connection.wait(for: Int16(POLLIN), atMost: limit) else { return .continueWaitOver }
            }
            return try read()
        } catch {
            return event(for: error)
        }
    }

    /// Reads what is there (waiting for a byte) and parses it.
    private mutating func read() throws -> HTTP1ConnectionMachine.Event {
        let connection = connection
        let count = try buffer.withUnsafeMutableBytes { try connection.receive(into: $0) }
        if count == 0 { return .inputEnded }
        figures.received(count)
        do {
            try intake.take(buffer[..<count])
        } catch {
            self.error = error
            return .failed
        }
        return .received(intake.progress)
    }

    /// Blocks until the streamed body's consumer has room again, the call is cancelled
    /// (`URLError.cancelled`) or its deadline passes (`URLError.timedOut`); both are checked
    /// every 50 ms.
    private func waitForConsumer() throws {
        let drained = DispatchSemaphore(value: 0)
        context.responseBody.whenDrained { drained.signal() }
        while drained.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if connection.isCancelled { throw URLError(.cancelled) }
            if let deadline = connection.deadline, DispatchTime.now() >= deadline { throw URLError(.timedOut) }
        }
    }

    private mutating func connect() -> HTTP1ConnectionMachine.Event {
        figures.connectStarts()
        do {
            try connection.open(host: host, port: url.port ?? 80)
            figures.connectedAt = MetricsClock.now()
            return .connected(now: Self.now)
        } catch {
            return event(for: error)
        }
    }

    /// Writes `bytes`, then reads an answer that came meanwhile (an early one, RFC 9112 §9.5),
    /// told after the write: the request's bytes went out whole before it.
    private mutating func write(_ bytes: [UInt8], bodyBytes: Int) -> [HTTP1ConnectionMachine.Event] {
        do {
            try bytes.withUnsafeBytes { try connection.sendAll($0) }
        } catch {
            return [event(for: error)]
        }
        figures.bytesSent += Int64(bytes.count)
        if bodyBytes > 0 {
            bodyBytesSent += Int64(bodyBytes)
            context.reportUploadProgress(sent: bodyBytesSent, expected: body.length ?? -1)
        }
        // An answer is read after the head, or once a known length went out whole, only when the
        // machine reads: the end of the body must be told before it (the request is whole then).
        let whole = body.isWhole(afterSending: bodyBytesSent, as: machine.request.body)
        guard machine.state != .writingHead, !whole, connection.hasInput else { return [.written] }
        do {
            return [.written, try read()]
        } catch {
            return [.written, event(for: error)]
        }
    }

    /// The body's next piece, read here (a stream may block this thread, which is the exchange's
    /// own); a body of known length whose last byte went is at its end.
    private mutating func nextPiece() -> HTTP1ConnectionMachine.Event {
        if body.isWhole(afterSending: bodyBytesSent, as: machine.request.body) { return .bodyEnded }
        switch body.nextNow() {
        case .success(let bytes?):
            piece = bytes
            return .bodyPiece
        case .success(nil):
            return .bodyEnded
        case .failure(let error):
            self.error = error
            return .failed
        }
    }

    /// The event a failed socket call stands for.
    private mutating func event(for error: any Error) -> HTTP1ConnectionMachine.Event {
        if error is SocketConnection.PeerClosed { return .writeRefused }
        switch (error as? URLError)?.code {
        case .cancelled?: return .cancelled
        case .timedOut?: return .deadlinePassed
        case .networkConnectionLost?: return .broke((error as? URLError)?.localizedDescription ?? "\(error)")
        default:
            self.error = error
            return .failed
        }
    }
}
