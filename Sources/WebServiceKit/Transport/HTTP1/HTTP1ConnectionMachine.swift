/// Every decision of one HTTP/1.1 request on one connection, as a pure value: events in,
/// one action out, no I/O. ``HTTP1Exchange`` feeds it what the socket, the body source, the
/// response parser, the consumer and the timers said, and does what it answers.
///
/// ```
///  idle ─start(new|reused, not quiet)─▶ connecting ─connected─▶ writingHead
///  idle ─start(reused, quiet)─────────────────────────────────▶ writingHead
///  writingHead ─written─▶ receiving                 (no body, or a body sent with the head)
///              ─written─▶ awaitingContinue          (Expect: 100-continue)
///              ─written─▶ awaitingBodyPiece
///  awaitingContinue ─100 or the wait is over─▶ awaitingBodyPiece
///  any state with the expectation ─417─▶ connecting  (once, without it, on a new connection)
///  awaitingBodyPiece ─piece─▶ writingBodyPiece ─written─▶ awaitingBodyPiece
///                    ─end──▶ writingBodyEnd (chunked) ─written─▶ receiving
///  any sending state ─a final head, or the server refused the write─▶ receiving (sending stops)
///  receiving ─complete─▶ done (finish: reusable or not)
///  any ─lost before any answer on a reused connection, may go twice─▶ connecting (once)
///  any ─deadline, cancel, failure, lost─▶ done (fail)
/// ```
///
/// The rules it alone applies:
/// - **Stale connections** (RFC 9112 §9.3.1): a reused connection with bytes or a close already
///   waiting is never written on; one that breaks before any byte of an answer sends the
///   request again on a new connection only when it may go twice (RFC 9110 §9.2.2, or the
///   descriptor says so) and its body can be read again; otherwise the call fails, saying the
///   server may have seen it. A connection is reused at most once this way.
/// - **`Expect: 100-continue`** (RFC 9110 §10.1.1): the body waits for a 100 or for the wait to
///   end; a 417 sends the request again without the expectation, once, on a new connection
///   (while its body can still be sent again); another final answer ends the exchange without
///   the body.
/// - **Early answers** (RFC 9112 §9.5): a final head while the request goes out stops sending
///   (the connection is not reused); the response is still read to its end.
/// - **Reuse**: the connection carries the next request only when the whole request went out,
///   the response is complete and its framing and `Connection` fields allow it.
/// - **Deadlines**: no request is written once its deadline passed; a timeout names the phase
///   it stopped (connecting, sending, waiting for the response, receiving it).
/// - **Back-pressure**: input is read only while the consumer keeps up (``isReading``).
struct HTTP1ConnectionMachine: Sendable {
    /// What the request is: fixed for the exchange but for the expectation a 417 removes.
    struct Request: Sendable, Equatable {
        /// How the body goes out.
        enum Body: Sendable, Equatable {
            /// None.
            case none
            /// In the same write as the head (a small body in memory).
            case withHead
            /// After the head, a piece at a time from a source; `chunked` when its length is
            /// unknown (a last empty chunk then ends it).
            case pieces(chunked: Bool)
        }

        var body: Body
        /// Whether the head asks `Expect: 100-continue`.
        var expectsContinue: Bool
        /// Whether the head leaves the connection open for the next request.
        var keepsAlive: Bool
        /// Whether sending the request twice has the effect of sending it once.
        var maySendAgain: Bool
        /// Whether the body can be read again from its start once a piece of it was taken (a body
        /// in memory can, a stream cannot).
        var bodyRereadable: Bool
        /// In nanoseconds of the driver's clock; `nil` for none.
        var deadline: UInt64?
    }

    /// The connection the exchange starts on.
    enum Connection: Sendable, Equatable {
        /// Not opened yet.
        case new
        /// Open, and carried a request before; `quiet` when nothing (bytes, a close) waits on it.
        case reused(quiet: Bool)
    }

    enum State: Sendable, Equatable {
        case idle, connecting, writingHead, awaitingContinue, awaitingBodyPiece, writingBodyPiece, writingBodyEnd
        case receiving, done
    }

    /// What the response parser knows after the bytes that came.
    struct Response: Sendable, Equatable {
        /// The final (non-1xx) status, once its head is complete.
        var finalStatus: Int?
        var isComplete: Bool
        /// Whether its framing and fields let the connection carry another request.
        var leavesConnectionReusable: Bool

        init(finalStatus: Int? = nil, isComplete: Bool = false, leavesConnectionReusable: Bool = false) {
            self.finalStatus = finalStatus
            self.isComplete = isComplete
            self.leavesConnectionReusable = leavesConnectionReusable
        }
    }

    enum Event: Sendable, Equatable {
        case start(Connection, now: UInt64)
        case connected(now: UInt64)
        /// All bytes of the last write went out.
        case written
        /// The server closed its side as the request went out: what it sent is the answer.
        case writeRefused
        /// The body source has its next piece.
        case bodyPiece
        /// The body source ended.
        case bodyEnded
        case continueWaitOver
        /// Response bytes came and were parsed.
        case received(Response)
        /// The server ended its side (a read of 0).
        case inputEnded
        /// The connection broke (a reset, an error), with the reason.
        case broke(String)
        case consumerBehind
        case consumerCaughtUp
        case deadlinePassed
        case cancelled
        /// The driver met an error (connecting, parsing, the consumer, the body source): the call
        /// fails with it.
        case failed
    }

    /// Where a timeout stopped the exchange.
    enum Phase: String, Sendable, Equatable {
        case connecting = "connecting"
        case sending = "sending the request"
        case waiting = "waiting for the response"
        case receiving = "receiving the response"
    }

    /// Why the request goes again on a new connection.
    enum Resend: Sendable, Equatable {
        /// The reused connection broke before any answer.
        case staleConnection(String)
        /// The server refused `Expect: 100-continue` (417).
        case expectationFailed
    }

    enum Failure: Sendable, Equatable {
        /// The error that came with ``Event/failed``.
        case reported
        case timedOut(Phase)
        /// The deadline passed before the first byte of the request was written.
        case timedOutBeforeTheRequest
        case cancelled
        case connectionLost(String)
        /// A reused connection broke before any answer and the request may not go twice.
        case closedBeforeAnswering(String)
    }

    enum Action: Sendable, Equatable {
        case none
        /// Open a new connection (closing the current one first when `closingFirst`).
        case connect(closingFirst: Bool)
        /// Write the head (with the body when it goes with the head).
        case writeHead
        /// Start the wait for `100 Continue`.
        case startContinueWait
        /// Ask the body source for its next piece (ending a wait for `100 Continue`).
        case askBodyPiece
        /// Write the piece the source gave (framed as a chunk when chunked).
        case writeBodyPiece
        /// Write the last, empty chunk.
        case writeBodyEnd
        /// Stop sending: drop what waits to be written, close the body source, end the wait for
        /// `100 Continue`; go on reading.
        case stopSending
        /// The response is complete (or ended with the connection): finish it; keep the
        /// connection for the next request only when `reusable`.
        case finish(reusable: Bool)
        /// Close the connection and send the request again on a new one, with a fresh response.
        case sendAgain(Resend)
        /// Close the connection and fail the call.
        case fail(Failure)
    }

    private(set) var request: Request
    private(set) var state = State.idle
    /// Whether the request went out on a connection that carried one before (`nil` until it
    /// goes out).
    private(set) var connectionReused: Bool?
    /// Whether any byte of a response came on the current connection.
    private(set) var heardAnswer = false
    /// Whether the final (non-1xx) head of a response came on the current connection.
    private(set) var heardFinalHead = false
    /// Whether the whole request went out on the current connection.
    private(set) var requestSent = false
    private(set) var consumerBehind = false
    /// Whether a piece of the body was asked from its source (a stream may have been read).
    private(set) var bodyTouched = false
    /// How many times the request went again on a new connection.
    private(set) var resends = 0

    init(request: Request) { self.request = request }

    /// Whether input is read now: from the connection until the end, while the consumer keeps up.
    var isReading: Bool {
        switch state {
        case .idle, .connecting, .done: false
        default: !consumerBehind
        }
    }

    /// Whether the exchange ended (finished or failed).
    var isDone: Bool { state == .done }

    /// Takes `event` and says what to do.
    mutating func handle(_ event: Event) -> Action {
        if state == .done { return .none }
        switch event {
        case .start(let connection, let now):
            guard state == .idle else { return .none }
            switch connection {
            case .new, .reused(quiet: false):
                state = .connecting
                // Bytes or a close already wait on a reused one: it is never written on.
                return .connect(closingFirst: connection != .new)
            case .reused(quiet: true):
                return writeHead(now: now, reused: true)
            }
        case .connected(let now):
            guard state == .connecting else { return .none }
            return writeHead(now: now, reused: false)
        case .written:
            return written()
        case .writeRefused:
            return stopSending()
        case .bodyPiece:
            guard state == .awaitingBodyPiece else { return .none }
            state = .writingBodyPiece
            return .writeBodyPiece
        case .bodyEnded:
            guard state == .awaitingBodyPiece else { return .none }
            guard request.body == .pieces(chunked: true) else { return sent() }
            state = .writingBodyEnd
            return .writeBodyEnd
        case .continueWaitOver:
            guard state == .awaitingContinue else { return .none }
            return askBodyPiece()
        case .received(let response):
            return received(response)
        case .inputEnded:
            guard heardAnswer else { return lost("the server closed the connection") }
            // A body delimited by the close ends here; a cut one fails as the driver finishes it.
            state = .done
            return .finish(reusable: false)
        case .broke(let reason):
            return lost(reason)
        case .consumerBehind:
            consumerBehind = true
            return .none
        case .consumerCaughtUp:
            consumerBehind = false
            return .none
        case .deadlinePassed:
            let phase = phase
            state = .done
            return .fail(.timedOut(phase))
        case .cancelled:
            state = .done
            return .fail(.cancelled)
        case .failed:
            state = .done
            return .fail(.reported)
        }
    }

    /// The phase a timeout would name now.
    var phase: Phase {
        switch state {
        case .idle, .connecting: .connecting
        case .writingHead, .awaitingContinue, .awaitingBodyPiece, .writingBodyPiece, .writingBodyEnd: .sending
        case .receiving, .done: heardAnswer ? .receiving : .waiting
        }
    }

    private mutating func writeHead(now: UInt64, reused: Bool) -> Action {
        if let deadline = request.deadline, now >= deadline {
            state = .done
            // A request sent again went out once already.
            return .fail(resends == 0 ? .timedOutBeforeTheRequest : .timedOut(.connecting))
        }
        connectionReused = reused
        state = .writingHead
        return .writeHead
    }

    private mutating func written() -> Action {
        switch state {
        case .writingHead:
            switch request.body {
            case .none, .withHead:
                return sent()
            case .pieces:
                // No wait when `100 Continue` (or any answer) came before the head's write ended.
                guard request.expectsContinue, !heardAnswer else { return askBodyPiece() }
                state = .awaitingContinue
                return .startContinueWait
            }
        case .writingBodyPiece:
            return askBodyPiece()
        case .writingBodyEnd:
            return sent()
        default:
            return .none
        }
    }

    /// The whole request went out.
    private mutating func sent() -> Action {
        requestSent = true
        state = .receiving
        return .none
    }

    /// The request stops going out: the server answered or refused more.
    private mutating func stopSending() -> Action {
        switch state {
        case .writingHead, .awaitingContinue, .awaitingBodyPiece, .writingBodyPiece, .writingBodyEnd:
            state = .receiving
            return .stopSending
        default:
            return .none
        }
    }

    private mutating func received(_ response: Response) -> Action {
        guard state != .idle, state != .connecting else { return .none }
        heardAnswer = true
        let newFinalHead = response.finalStatus != nil && !heardFinalHead
        if response.finalStatus != nil { heardFinalHead = true }
        if newFinalHead, response.finalStatus == 417, request.expectsContinue, request.bodyRereadable || !bodyTouched {
            // RFC 9110 §10.1.1: "SHOULD repeat that request without a 100-continue expectation";
            // on a new connection, since the server may still wait for the first one's body.
            request.expectsContinue = false
            return sendAgain(.expectationFailed)
        }
        if response.isComplete {
            let reusable = request.keepsAlive && requestSent && response.leavesConnectionReusable
            state = .done
            return .finish(reusable: reusable)
        }
        if response.finalStatus != nil { return stopSending() }
        if state == .awaitingContinue {
            // `100 Continue`, or the first bytes of an answer: the body goes now.
            return askBodyPiece()
        }
        return .none
    }

    private mutating func askBodyPiece() -> Action {
        bodyTouched = true
        state = .awaitingBodyPiece
        return .askBodyPiece
    }

    /// The connection broke with `reason`.
    private mutating func lost(_ reason: String) -> Action {
        guard connectionReused == true, !heardAnswer else {
            state = .done
            return .fail(.connectionLost(reason))
        }
        guard request.maySendAgain else {
            state = .done
            return .fail(.closedBeforeAnswering(reason))
        }
        guard request.bodyRereadable || !bodyTouched else {
            state = .done
            return .fail(.connectionLost(reason + ", and the body's stream cannot be sent again"))
        }
        return sendAgain(.staleConnection(reason))
    }

    private mutating func sendAgain(_ reason: Resend) -> Action {
        resends += 1
        state = .connecting
        connectionReused = nil
        heardAnswer = false
        heardFinalHead = false
        requestSent = false
        consumerBehind = false
        bodyTouched = false
        return .sendAgain(reason)
    }
}
