import Foundation

/// ``HTTP1ConnectionMachine``, one HTTP/1.1 request's exchange on one connection, driven by any
/// sequence of events, the impossible ones included.
///
/// Input: a request byte (bits 0–1: no body, a body with the head, a chunked stream, a stream of
/// known length; bit 2: `Expect: 100-continue`; bit 3: keep-alive; bit 4: may go twice; bit 5:
/// the body can be read again; bit 6: a deadline), a deadline byte (its value, in the machine's
/// nanoseconds), then one byte an event: the low four bits its kind, the high four its payload
/// (the connection and the time of a start, the time of a connect, the response's final status,
/// completeness and reusability, the reason of a break).
///
/// Invariants, beyond never trapping:
/// - after the end every event gives `.none`; exactly one finish or fail ends the exchange, and
///   ``HTTP1ConnectionMachine/isDone`` says so;
/// - `finish(reusable: true)` only for a complete response that leaves the connection reusable,
///   to a request that keeps it alive and went out whole;
/// - at most one write outstanding: no write until the last was answered (`written`,
///   `writeRefused`), or sending stopped, or a new connection started;
/// - no piece of the body asked or written after a final head, or after sending stopped;
/// - the head is written only on a new connection or a quiet reused one, and never at or past
///   the deadline;
/// - a request that may not go twice is never sent again for a stale connection, and a stale
///   resend only follows a reused connection that gave no byte of an answer; at most one resend of
///   each kind, ``HTTP1ConnectionMachine/resends`` counts them (never more than two);
/// - a timeout names the phase the machine was in; input is never read while idle, connecting or
///   done.
enum HTTP1ConnectionMachineTarget {
    typealias Machine = HTTP1ConnectionMachine

    static let bodies: [Machine.Request.Body] = [.none, .withHead, .pieces(chunked: true), .pieces(chunked: false)]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let bits = input.byte()
        let deadline = UInt64(input.byte())
        let request = Machine.Request(
            body: bodies[Int(bits & 3)], expectsContinue: bits & 4 != 0, keepsAlive: bits & 8 != 0,
            maySendAgain: bits & 16 != 0, bodyRereadable: bits & 32 != 0, deadline: bits & 64 != 0 ? deadline : nil)
        var machine = Machine(request: request)
        var watch = Watch(request: request)
        while !input.isEmpty {
            let event = self.event(input.byte())
            let before = machine
            let action = machine.handle(event)
            watch.check(event, action, before: before, after: machine)
        }
    }

    /// The event one byte names.
    static func event(_ byte: UInt8) -> Machine.Event {
        let payload = byte >> 4
        switch byte & 0x0F {
        case 0:
            let connections: [Machine.Connection] = [.new, .reused(quiet: true), .reused(quiet: false), .new]
            return .start(connections[Int(payload & 3)], now: UInt64(payload >> 2) * 80)
        case 1: return .connected(now: UInt64(payload) * 17)
        case 2, 15: return .written
        case 3: return .writeRefused
        case 4: return .bodyPiece
        case 5: return .bodyEnded
        case 6: return .continueWaitOver
        case 7:
            let statuses: [Int?] = [nil, 200, 417, 204]
            return .received(
                Machine.Response(
                    finalStatus: statuses[Int(payload & 3)], isComplete: payload & 4 != 0,
                    leavesConnectionReusable: payload & 8 != 0))
        case 8: return .inputEnded
        case 9: return .broke(payload & 1 == 0 ? "reset" : "")
        case 10: return .consumerBehind
        case 11: return .consumerCaughtUp
        case 12: return .deadlinePassed
        case 13: return .cancelled
        default: return .failed
        }
    }

    /// What the events and actions so far allow next.
    struct Watch {
        let request: Machine.Request
        /// Finish and fail actions seen.
        var endings = 0
        /// A write was asked and not answered.
        var writeOutstanding = false
        /// The head went out on the current connection.
        var onConnection = false
        var onReusedConnection = false
        var heardOnConnection = false
        var finalHeadOnConnection = false
        var stoppedSending = false
        var staleResends = 0
        var expectationResends = 0
        var sendAgains = 0

        /// Checks `action`, the answer to `event`, and the machine `after` it.
        mutating func check(_ event: Machine.Event, _ action: Machine.Action, before: Machine, after: Machine) {
            if before.isDone {
                fuzzCheck(action == .none, "\(action) after the end, for \(event)")
                fuzzCheck(after.isDone, "the machine left its end")
                return
            }
            switch event {
            case .written, .writeRefused:
                writeOutstanding = false
            case .received(let response) where onConnection:
                heardOnConnection = true
                if response.finalStatus != nil { finalHeadOnConnection = true }
            default:
                break
            }
            switch action {
            case .writeHead:
                fuzzCheck(!writeOutstanding, "the head written while a write is outstanding")
                writeOutstanding = true
                switch event {
                case .start(.reused(quiet: true), let now):
                    onReusedConnection = true
                    checkBeforeTheDeadline(now)
                case .connected(let now):
                    onReusedConnection = false
                    checkBeforeTheDeadline(now)
                default:
                    fuzzCheck(false, "the head written after \(event)")
                }
                onConnection = true
                heardOnConnection = false
                finalHeadOnConnection = false
                stoppedSending = false
            case .writeBodyPiece, .writeBodyEnd:
                fuzzCheck(!writeOutstanding, "\(action) while a write is outstanding")
                writeOutstanding = true
                fuzzCheck(onConnection, "\(action) on no connection")
                fuzzCheck(!finalHeadOnConnection, "\(action) after a final head")
                fuzzCheck(!stoppedSending, "\(action) after sending stopped")
                if action == .writeBodyEnd {
                    fuzzCheck(request.body == .pieces(chunked: true), "a last chunk for \(request.body)")
                }
            case .startContinueWait, .askBodyPiece:
                fuzzCheck(!finalHeadOnConnection && !stoppedSending, "\(action) after sending stopped")
                fuzzCheck(request.body != .none && request.body != .withHead, "\(action) for \(request.body)")
                if action == .startContinueWait {
                    fuzzCheck(after.request.expectsContinue, "a wait for 100 Continue without the expectation")
                }
            case .connect(let closingFirst):
                guard case .start(let connection, _) = event else {
                    return fuzzCheck(false, "connect after \(event)")
                }
                fuzzCheck(closingFirst == (connection != .new), "\(action) for \(connection)")
                newConnection()
            case .sendAgain(let reason):
                sendAgains += 1
                switch reason {
                case .staleConnection:
                    staleResends += 1
                    fuzzCheck(request.maySendAgain, "a request that may not go twice sent again")
                    fuzzCheck(onReusedConnection, "a stale resend of a request on a new connection")
                    fuzzCheck(!heardOnConnection, "a stale resend after an answer")
                    fuzzCheck(staleResends <= 1, "a second stale resend")
                case .expectationFailed:
                    expectationResends += 1
                    if case .received(let response) = event {
                        fuzzCheck(response.finalStatus == 417, "a resend for the expectation after \(event)")
                    } else {
                        fuzzCheck(false, "a resend for the expectation after \(event)")
                    }
                    fuzzCheck(before.request.expectsContinue, "a resend for an expectation the head did not ask")
                    fuzzCheck(!after.request.expectsContinue, "the expectation kept after a 417")
                    fuzzCheck(expectationResends <= 1, "a second resend for the expectation")
                }
                newConnection()
            case .stopSending:
                writeOutstanding = false
                stoppedSending = true
            case .finish(let reusable):
                endings += 1
                if reusable {
                    var allowed = false
                    if case .received(let response) = event {
                        allowed = response.isComplete && response.leavesConnectionReusable
                    }
                    fuzzCheck(allowed, "reusable after \(event)")
                    fuzzCheck(request.keepsAlive, "reusable though the head closes it")
                    fuzzCheck(after.requestSent, "reusable though the request did not go out whole")
                }
            case .fail(let failure):
                endings += 1
                switch failure {
                case .closedBeforeAnswering:
                    fuzzCheck(!request.maySendAgain, "closed before answering, for a request that may go twice")
                case .timedOut(let phase):
                    if case .connected = event {
                        // The deadline passed as a request sent again connected.
                        fuzzCheck(
                            before.resends > 0 && phase == .connecting, "a timeout naming \(phase) as it connected")
                    } else {
                        fuzzCheck(event == .deadlinePassed, "a timeout after \(event)")
                        fuzzCheck(phase == before.phase, "a timeout naming \(phase) in the phase \(before.phase)")
                    }
                case .timedOutBeforeTheRequest:
                    switch event {
                    case .start(_, let now), .connected(let now):
                        fuzzCheck(request.deadline.map { now >= $0 } == true, "timed out at \(now) before the deadline")
                    default:
                        fuzzCheck(false, "timed out before the request after \(event)")
                    }
                case .cancelled:
                    fuzzCheck(event == .cancelled, "cancelled after \(event)")
                case .reported:
                    fuzzCheck(event == .failed, "a reported failure after \(event)")
                case .connectionLost:
                    break
                }
            case .none:
                break
            }
            fuzzCheck(endings <= 1, "\(endings) endings")
            fuzzCheck(after.isDone == (endings == 1), "isDone \(after.isDone) after \(endings) endings")
            fuzzCheck(after.resends == sendAgains, "resends \(after.resends), \(sendAgains) seen")
            fuzzCheck(after.resends <= 2, "\(after.resends) resends")
            if after.isDone || after.state == .connecting || after.state == .idle {
                fuzzCheck(!after.isReading, "reading in \(after.state)")
            }
        }

        private func checkBeforeTheDeadline(_ now: UInt64) {
            if let deadline = request.deadline {
                fuzzCheck(now < deadline, "the head written at \(now), past \(deadline)")
            }
        }

        private mutating func newConnection() {
            writeOutstanding = false
            onConnection = false
            onReusedConnection = false
            heardOnConnection = false
            finalHeadOnConnection = false
            stoppedSending = false
        }
    }
}
