import XCTest

@testable import WebServiceKit

/// ``HTTP1ConnectionMachine`` as a table: every state, reached by a short path of events from a
/// fresh machine, meets every kind of event, and the table says the action and the next state,
/// for the request variants that change the answers. Then the RFC rules the machine applies, one
/// named scenario each. No I/O, no clock: the `now` of an event is a plain number.
final class HTTP1ConnectionMachineTests: XCTestCase {
    typealias Machine = HTTP1ConnectionMachine
    typealias Request = Machine.Request
    typealias State = Machine.State
    typealias Action = Machine.Action
    typealias Event = Machine.Event
    typealias Response = Machine.Response

    /// The deadline of the requests that have one, in the machine's nanoseconds.
    static let deadline: UInt64 = 1_000
    /// The reason a connection gives when it breaks.
    static let reset = "reset"
    /// The reason the machine gives when the server ends its side before any answer.
    static let closed = "the server closed the connection"
    /// What the machine adds to the reason when the body's stream cannot go again.
    static let stream = ", and the body's stream cannot be sent again"

    // MARK: - Requests, events and paths

    /// The request of the main table: a chunked stream that asks `Expect: 100-continue`, keeps the
    /// connection alive, may go twice, cannot be read again, and has a deadline. Every state is
    /// reachable with it.
    static let base = Request(
        body: .pieces(chunked: true), expectsContinue: true, keepsAlive: true, maySendAgain: true,
        bodyRereadable: false, deadline: deadline)

    /// The variants of ``base`` the other tables use, by name.
    static let variants: [String: Request] = {
        var variants = ["base": base]
        func variant(_ name: String, _ change: (inout Request) -> Void) {
            var request = base
            change(&request)
            variants[name] = request
        }
        variant("no expectation") { $0.expectsContinue = false }
        variant("no body") {
            $0.body = .none
            $0.expectsContinue = false
        }
        variant("body with the head") {
            $0.body = .withHead
            $0.expectsContinue = false
        }
        variant("length known") { $0.body = .pieces(chunked: false) }
        variant("closing") { $0.keepsAlive = false }
        variant("not idempotent") { $0.maySendAgain = false }
        variant("rereadable") { $0.bodyRereadable = true }
        variant("no deadline") { $0.deadline = nil }
        return variants
    }()

    /// How the request reaches the state of a row: on a new connection, or written on a reused
    /// quiet one (the one a stale connection can be).
    enum Via: String {
        case new = "new connection"
        case reused = "reused connection"
    }

    /// The representative events of the table: every kind of ``HTTP1ConnectionMachine/Event``,
    /// with the payloads that change answers.
    enum Probe: String, CaseIterable {
        case startNew, startReusedQuiet, startReusedNotQuiet, startReusedQuietLate
        case connected, connectedLate
        case written, writeRefused, bodyPiece, bodyEnded, continueWaitOver
        case receivedInterim, received200, received417, receivedCompleteReusable, receivedCompleteClosing
        case inputEnded, broke, consumerBehind, consumerCaughtUp, deadlinePassed, cancelled, failed

        /// The event the probe names: "late" is at the deadline, the others well before it.
        var event: Event {
            switch self {
            case .startNew: .start(.new, now: 0)
            case .startReusedQuiet: .start(.reused(quiet: true), now: 0)
            case .startReusedNotQuiet: .start(.reused(quiet: false), now: 0)
            case .startReusedQuietLate: .start(.reused(quiet: true), now: deadline)
            case .connected: .connected(now: 10)
            case .connectedLate: .connected(now: deadline)
            case .written: .written
            case .writeRefused: .writeRefused
            case .bodyPiece: .bodyPiece
            case .bodyEnded: .bodyEnded
            case .continueWaitOver: .continueWaitOver
            // Bytes with no final status yet: a `100 Continue`, or part of a head.
            case .receivedInterim: .received(Response())
            case .received200: .received(Response(finalStatus: 200))
            case .received417: .received(Response(finalStatus: 417))
            case .receivedCompleteReusable:
                .received(Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: true))
            case .receivedCompleteClosing:
                .received(Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: false))
            case .inputEnded: .inputEnded
            case .broke: .broke(reset)
            case .consumerBehind: .consumerBehind
            case .consumerCaughtUp: .consumerCaughtUp
            case .deadlinePassed: .deadlinePassed
            case .cancelled: .cancelled
            case .failed: .failed
            }
        }
    }

    /// The events that take a fresh machine for `request` to `state` by the shortest ordinary
    /// path; `nil` when the request never is in that state that way.
    static func path(to state: State, for request: Request, via: Via) -> [Event]? {
        let head: [Event] =
            via == .new ? [.start(.new, now: 0), .connected(now: 10)] : [.start(.reused(quiet: true), now: 0)]
        var askingPiece: [Event]? {
            guard case .pieces = request.body else { return nil }
            return head + (request.expectsContinue ? [.written, .continueWaitOver] : [.written])
        }
        switch state {
        case .idle: return []
        case .connecting: return via == .new ? [.start(.new, now: 0)] : [.start(.reused(quiet: false), now: 0)]
        case .writingHead: return head
        case .awaitingContinue:
            guard case .pieces = request.body, request.expectsContinue else { return nil }
            return head + [.written]
        case .awaitingBodyPiece: return askingPiece
        case .writingBodyPiece: return askingPiece.map { $0 + [.bodyPiece] }
        case .writingBodyEnd:
            guard request.body == .pieces(chunked: true) else { return nil }
            return askingPiece.map { $0 + [.bodyEnded] }
        case .receiving:
            switch request.body {
            case .none, .withHead: return head + [.written]
            case .pieces(chunked: true): return askingPiece.map { $0 + [.bodyEnded, .written] }
            case .pieces(chunked: false): return askingPiece.map { $0 + [.bodyEnded] }
            }
        case .done:
            let complete = Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: true)
            return path(to: .receiving, for: request, via: via).map { $0 + [.received(complete)] }
        }
    }

    /// A machine for `request` driven to `state`; `nil` (and a failure) when the path does not
    /// lead there.
    func machine(
        in state: State, for request: Request, via: Via, file: StaticString = #filePath, line: UInt = #line
    ) -> Machine? {
        guard let events = Self.path(to: state, for: request, via: via) else {
            XCTFail("no path to \(state) for \(request) on a \(via.rawValue)", file: file, line: line)
            return nil
        }
        var machine = Machine(request: request)
        for event in events { _ = machine.handle(event) }
        guard machine.state == state else {
            XCTFail("\(events) led to \(machine.state), not \(state)", file: file, line: line)
            return nil
        }
        return machine
    }

    // MARK: - The table

    /// One cell: in `state`, `probe` gives `action` and leaves the machine in `next`.
    struct Row {
        var state: State
        var probe: Probe
        var action: Action
        var next: State
    }

    /// The rows of one request variant on one kind of connection.
    struct Table {
        var variant: String
        var via: Via
        var rows: [Row]

        init(_ variant: String, via: Via = .new, _ cells: [(State, Probe, Action, State)]) {
            self.variant = variant
            self.via = via
            rows = cells.map { Row(state: $0.0, probe: $0.1, action: $0.2, next: $0.3) }
        }
    }

    // The base request on a new connection: every state against every probe.
    static let baseTable = Table(
        "base",
        [
            // state               probe                        action                                     next
            (.idle, .startNew, .connect(closingFirst: false), .connecting),
            (.idle, .startReusedQuiet, .writeHead, .writingHead),
            (.idle, .startReusedNotQuiet, .connect(closingFirst: true), .connecting),
            (.idle, .startReusedQuietLate, .fail(.timedOutBeforeTheRequest), .done),
            (.idle, .connected, .none, .idle),
            (.idle, .connectedLate, .none, .idle),
            (.idle, .written, .none, .idle),
            (.idle, .writeRefused, .none, .idle),
            (.idle, .bodyPiece, .none, .idle),
            (.idle, .bodyEnded, .none, .idle),
            (.idle, .continueWaitOver, .none, .idle),
            (.idle, .receivedInterim, .none, .idle),
            (.idle, .received200, .none, .idle),
            (.idle, .received417, .none, .idle),
            (.idle, .receivedCompleteReusable, .none, .idle),
            (.idle, .receivedCompleteClosing, .none, .idle),
            (.idle, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.idle, .broke, .fail(.connectionLost(reset)), .done),
            (.idle, .consumerBehind, .none, .idle),
            (.idle, .consumerCaughtUp, .none, .idle),
            (.idle, .deadlinePassed, .fail(.timedOut(.connecting)), .done),
            (.idle, .cancelled, .fail(.cancelled), .done),
            (.idle, .failed, .fail(.reported), .done),

            (.connecting, .startNew, .none, .connecting),
            (.connecting, .startReusedQuiet, .none, .connecting),
            (.connecting, .startReusedNotQuiet, .none, .connecting),
            (.connecting, .startReusedQuietLate, .none, .connecting),
            (.connecting, .connected, .writeHead, .writingHead),
            (.connecting, .connectedLate, .fail(.timedOutBeforeTheRequest), .done),
            (.connecting, .written, .none, .connecting),
            (.connecting, .writeRefused, .none, .connecting),
            (.connecting, .bodyPiece, .none, .connecting),
            (.connecting, .bodyEnded, .none, .connecting),
            (.connecting, .continueWaitOver, .none, .connecting),
            (.connecting, .receivedInterim, .none, .connecting),
            (.connecting, .received200, .none, .connecting),
            (.connecting, .received417, .none, .connecting),
            (.connecting, .receivedCompleteReusable, .none, .connecting),
            (.connecting, .receivedCompleteClosing, .none, .connecting),
            (.connecting, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.connecting, .broke, .fail(.connectionLost(reset)), .done),
            (.connecting, .consumerBehind, .none, .connecting),
            (.connecting, .consumerCaughtUp, .none, .connecting),
            (.connecting, .deadlinePassed, .fail(.timedOut(.connecting)), .done),
            (.connecting, .cancelled, .fail(.cancelled), .done),
            (.connecting, .failed, .fail(.reported), .done),

            (.writingHead, .startNew, .none, .writingHead),
            (.writingHead, .startReusedQuiet, .none, .writingHead),
            (.writingHead, .startReusedNotQuiet, .none, .writingHead),
            (.writingHead, .startReusedQuietLate, .none, .writingHead),
            (.writingHead, .connected, .none, .writingHead),
            (.writingHead, .connectedLate, .none, .writingHead),
            (.writingHead, .written, .startContinueWait, .awaitingContinue),
            (.writingHead, .writeRefused, .stopSending, .receiving),
            (.writingHead, .bodyPiece, .none, .writingHead),
            (.writingHead, .bodyEnded, .none, .writingHead),
            (.writingHead, .continueWaitOver, .none, .writingHead),
            (.writingHead, .receivedInterim, .none, .writingHead),
            (.writingHead, .received200, .stopSending, .receiving),
            // RFC 9110 §10.1.1: a 417 to the expectation, before any piece was asked: once more without it.
            (.writingHead, .received417, .sendAgain(.expectationFailed), .connecting),
            (.writingHead, .receivedCompleteReusable, .finish(reusable: false), .done),
            (.writingHead, .receivedCompleteClosing, .finish(reusable: false), .done),
            (.writingHead, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.writingHead, .broke, .fail(.connectionLost(reset)), .done),
            (.writingHead, .consumerBehind, .none, .writingHead),
            (.writingHead, .consumerCaughtUp, .none, .writingHead),
            (.writingHead, .deadlinePassed, .fail(.timedOut(.sending)), .done),
            (.writingHead, .cancelled, .fail(.cancelled), .done),
            (.writingHead, .failed, .fail(.reported), .done),

            (.awaitingContinue, .startNew, .none, .awaitingContinue),
            (.awaitingContinue, .startReusedQuiet, .none, .awaitingContinue),
            (.awaitingContinue, .startReusedNotQuiet, .none, .awaitingContinue),
            (.awaitingContinue, .startReusedQuietLate, .none, .awaitingContinue),
            (.awaitingContinue, .connected, .none, .awaitingContinue),
            (.awaitingContinue, .connectedLate, .none, .awaitingContinue),
            (.awaitingContinue, .written, .none, .awaitingContinue),
            (.awaitingContinue, .writeRefused, .stopSending, .receiving),
            (.awaitingContinue, .bodyPiece, .none, .awaitingContinue),
            (.awaitingContinue, .bodyEnded, .none, .awaitingContinue),
            (.awaitingContinue, .continueWaitOver, .askBodyPiece, .awaitingBodyPiece),
            (.awaitingContinue, .receivedInterim, .askBodyPiece, .awaitingBodyPiece),
            (.awaitingContinue, .received200, .stopSending, .receiving),
            (.awaitingContinue, .received417, .sendAgain(.expectationFailed), .connecting),
            (.awaitingContinue, .receivedCompleteReusable, .finish(reusable: false), .done),
            (.awaitingContinue, .receivedCompleteClosing, .finish(reusable: false), .done),
            (.awaitingContinue, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.awaitingContinue, .broke, .fail(.connectionLost(reset)), .done),
            (.awaitingContinue, .consumerBehind, .none, .awaitingContinue),
            (.awaitingContinue, .consumerCaughtUp, .none, .awaitingContinue),
            (.awaitingContinue, .deadlinePassed, .fail(.timedOut(.sending)), .done),
            (.awaitingContinue, .cancelled, .fail(.cancelled), .done),
            (.awaitingContinue, .failed, .fail(.reported), .done),

            (.awaitingBodyPiece, .startNew, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .startReusedQuiet, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .startReusedNotQuiet, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .startReusedQuietLate, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .connected, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .connectedLate, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .written, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .writeRefused, .stopSending, .receiving),
            (.awaitingBodyPiece, .bodyPiece, .writeBodyPiece, .writingBodyPiece),
            (.awaitingBodyPiece, .bodyEnded, .writeBodyEnd, .writingBodyEnd),
            (.awaitingBodyPiece, .continueWaitOver, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .receivedInterim, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .received200, .stopSending, .receiving),
            // The stream was asked for a piece: the request cannot be repeated, the 417 is the answer.
            (.awaitingBodyPiece, .received417, .stopSending, .receiving),
            (.awaitingBodyPiece, .receivedCompleteReusable, .finish(reusable: false), .done),
            (.awaitingBodyPiece, .receivedCompleteClosing, .finish(reusable: false), .done),
            (.awaitingBodyPiece, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.awaitingBodyPiece, .broke, .fail(.connectionLost(reset)), .done),
            (.awaitingBodyPiece, .consumerBehind, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .consumerCaughtUp, .none, .awaitingBodyPiece),
            (.awaitingBodyPiece, .deadlinePassed, .fail(.timedOut(.sending)), .done),
            (.awaitingBodyPiece, .cancelled, .fail(.cancelled), .done),
            (.awaitingBodyPiece, .failed, .fail(.reported), .done),

            (.writingBodyPiece, .startNew, .none, .writingBodyPiece),
            (.writingBodyPiece, .startReusedQuiet, .none, .writingBodyPiece),
            (.writingBodyPiece, .startReusedNotQuiet, .none, .writingBodyPiece),
            (.writingBodyPiece, .startReusedQuietLate, .none, .writingBodyPiece),
            (.writingBodyPiece, .connected, .none, .writingBodyPiece),
            (.writingBodyPiece, .connectedLate, .none, .writingBodyPiece),
            (.writingBodyPiece, .written, .askBodyPiece, .awaitingBodyPiece),
            (.writingBodyPiece, .writeRefused, .stopSending, .receiving),
            (.writingBodyPiece, .bodyPiece, .none, .writingBodyPiece),
            (.writingBodyPiece, .bodyEnded, .none, .writingBodyPiece),
            (.writingBodyPiece, .continueWaitOver, .none, .writingBodyPiece),
            (.writingBodyPiece, .receivedInterim, .none, .writingBodyPiece),
            (.writingBodyPiece, .received200, .stopSending, .receiving),
            (.writingBodyPiece, .received417, .stopSending, .receiving),
            (.writingBodyPiece, .receivedCompleteReusable, .finish(reusable: false), .done),
            (.writingBodyPiece, .receivedCompleteClosing, .finish(reusable: false), .done),
            (.writingBodyPiece, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.writingBodyPiece, .broke, .fail(.connectionLost(reset)), .done),
            (.writingBodyPiece, .consumerBehind, .none, .writingBodyPiece),
            (.writingBodyPiece, .consumerCaughtUp, .none, .writingBodyPiece),
            (.writingBodyPiece, .deadlinePassed, .fail(.timedOut(.sending)), .done),
            (.writingBodyPiece, .cancelled, .fail(.cancelled), .done),
            (.writingBodyPiece, .failed, .fail(.reported), .done),

            (.writingBodyEnd, .startNew, .none, .writingBodyEnd),
            (.writingBodyEnd, .startReusedQuiet, .none, .writingBodyEnd),
            (.writingBodyEnd, .startReusedNotQuiet, .none, .writingBodyEnd),
            (.writingBodyEnd, .startReusedQuietLate, .none, .writingBodyEnd),
            (.writingBodyEnd, .connected, .none, .writingBodyEnd),
            (.writingBodyEnd, .connectedLate, .none, .writingBodyEnd),
            (.writingBodyEnd, .written, .none, .receiving),
            (.writingBodyEnd, .writeRefused, .stopSending, .receiving),
            (.writingBodyEnd, .bodyPiece, .none, .writingBodyEnd),
            (.writingBodyEnd, .bodyEnded, .none, .writingBodyEnd),
            (.writingBodyEnd, .continueWaitOver, .none, .writingBodyEnd),
            (.writingBodyEnd, .receivedInterim, .none, .writingBodyEnd),
            (.writingBodyEnd, .received200, .stopSending, .receiving),
            (.writingBodyEnd, .received417, .stopSending, .receiving),
            (.writingBodyEnd, .receivedCompleteReusable, .finish(reusable: false), .done),
            (.writingBodyEnd, .receivedCompleteClosing, .finish(reusable: false), .done),
            (.writingBodyEnd, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.writingBodyEnd, .broke, .fail(.connectionLost(reset)), .done),
            (.writingBodyEnd, .consumerBehind, .none, .writingBodyEnd),
            (.writingBodyEnd, .consumerCaughtUp, .none, .writingBodyEnd),
            (.writingBodyEnd, .deadlinePassed, .fail(.timedOut(.sending)), .done),
            (.writingBodyEnd, .cancelled, .fail(.cancelled), .done),
            (.writingBodyEnd, .failed, .fail(.reported), .done),

            (.receiving, .startNew, .none, .receiving),
            (.receiving, .startReusedQuiet, .none, .receiving),
            (.receiving, .startReusedNotQuiet, .none, .receiving),
            (.receiving, .startReusedQuietLate, .none, .receiving),
            (.receiving, .connected, .none, .receiving),
            (.receiving, .connectedLate, .none, .receiving),
            (.receiving, .written, .none, .receiving),
            (.receiving, .writeRefused, .none, .receiving),
            (.receiving, .bodyPiece, .none, .receiving),
            (.receiving, .bodyEnded, .none, .receiving),
            (.receiving, .continueWaitOver, .none, .receiving),
            (.receiving, .receivedInterim, .none, .receiving),
            (.receiving, .received200, .none, .receiving),
            (.receiving, .received417, .none, .receiving),
            (.receiving, .receivedCompleteReusable, .finish(reusable: true), .done),
            (.receiving, .receivedCompleteClosing, .finish(reusable: false), .done),
            (.receiving, .inputEnded, .fail(.connectionLost(closed)), .done),
            (.receiving, .broke, .fail(.connectionLost(reset)), .done),
            (.receiving, .consumerBehind, .none, .receiving),
            (.receiving, .consumerCaughtUp, .none, .receiving),
            (.receiving, .deadlinePassed, .fail(.timedOut(.waiting)), .done),
            (.receiving, .cancelled, .fail(.cancelled), .done),
            (.receiving, .failed, .fail(.reported), .done),

            (.done, .startNew, .none, .done),
            (.done, .startReusedQuiet, .none, .done),
            (.done, .startReusedNotQuiet, .none, .done),
            (.done, .startReusedQuietLate, .none, .done),
            (.done, .connected, .none, .done),
            (.done, .connectedLate, .none, .done),
            (.done, .written, .none, .done),
            (.done, .writeRefused, .none, .done),
            (.done, .bodyPiece, .none, .done),
            (.done, .bodyEnded, .none, .done),
            (.done, .continueWaitOver, .none, .done),
            (.done, .receivedInterim, .none, .done),
            (.done, .received200, .none, .done),
            (.done, .received417, .none, .done),
            (.done, .receivedCompleteReusable, .none, .done),
            (.done, .receivedCompleteClosing, .none, .done),
            (.done, .inputEnded, .none, .done),
            (.done, .broke, .none, .done),
            (.done, .consumerBehind, .none, .done),
            (.done, .consumerCaughtUp, .none, .done),
            (.done, .deadlinePassed, .none, .done),
            (.done, .cancelled, .none, .done),
            (.done, .failed, .none, .done),
        ])

    /// The cells where a variant of the request, or a reused connection, answers otherwise (and a
    /// few where it answers the same, to show the variant's states are reached).
    static let variantTables: [Table] = [
        // No wait for `100 Continue`: the body starts once the head is out, and a 417 is an answer
        // like any other (the request did not ask an expectation).
        Table(
            "no expectation",
            [
                (.writingHead, .written, .askBodyPiece, .awaitingBodyPiece),
                (.writingHead, .received417, .stopSending, .receiving),
                (.awaitingBodyPiece, .received417, .stopSending, .receiving),
                (.awaitingBodyPiece, .continueWaitOver, .none, .awaitingBodyPiece),
                (.writingBodyEnd, .received417, .stopSending, .receiving),
                (.receiving, .received417, .none, .receiving),
                (.receiving, .receivedCompleteReusable, .finish(reusable: true), .done),
            ]),
        // No body, or the body in the head's write: the request is sent once the head is.
        Table(
            "no body",
            [
                (.writingHead, .written, .none, .receiving),
                (.writingHead, .bodyPiece, .none, .writingHead),
                (.writingHead, .bodyEnded, .none, .writingHead),
                (.writingHead, .continueWaitOver, .none, .writingHead),
                (.writingHead, .received200, .stopSending, .receiving),
                (.writingHead, .receivedCompleteReusable, .finish(reusable: false), .done),
                (.receiving, .bodyEnded, .none, .receiving),
                (.receiving, .received417, .none, .receiving),
                (.receiving, .receivedCompleteReusable, .finish(reusable: true), .done),
                (.receiving, .deadlinePassed, .fail(.timedOut(.waiting)), .done),
            ]),
        Table(
            "body with the head",
            [
                (.writingHead, .written, .none, .receiving),
                (.writingHead, .bodyPiece, .none, .writingHead),
                (.writingHead, .writeRefused, .stopSending, .receiving),
                (.receiving, .receivedCompleteReusable, .finish(reusable: true), .done),
                (.receiving, .receivedCompleteClosing, .finish(reusable: false), .done),
            ]),
        // A known length: no last chunk, the source's end is the request's end.
        Table(
            "length known",
            [
                (.awaitingBodyPiece, .bodyEnded, .none, .receiving),
                (.awaitingBodyPiece, .bodyPiece, .writeBodyPiece, .writingBodyPiece),
                (.writingBodyPiece, .written, .askBodyPiece, .awaitingBodyPiece),
                (.receiving, .receivedCompleteReusable, .finish(reusable: true), .done),
            ]),
        // `Connection: close` in the head: never reused.
        Table(
            "closing",
            [
                (.receiving, .receivedCompleteReusable, .finish(reusable: false), .done),
                (.receiving, .receivedCompleteClosing, .finish(reusable: false), .done),
            ]),
        Table(
            "no deadline",
            [
                (.idle, .startReusedQuietLate, .writeHead, .writingHead),
                (.connecting, .connectedLate, .writeHead, .writingHead),
                (.writingHead, .deadlinePassed, .fail(.timedOut(.sending)), .done),
            ]),
        // On a reused connection, a break or a close before any answer is a stale connection
        // (RFC 9112 §9.3.1): the request goes again while its body can, that is, for a stream,
        // until a piece of it was asked (the source may have read it).
        Table(
            "base", via: .reused,
            [
                (.connecting, .startNew, .none, .connecting),
                (.connecting, .connected, .writeHead, .writingHead),
                (.connecting, .broke, .fail(.connectionLost(reset)), .done),
                (.writingHead, .broke, .sendAgain(.staleConnection(reset)), .connecting),
                (.writingHead, .inputEnded, .sendAgain(.staleConnection(closed)), .connecting),
                (.writingHead, .written, .startContinueWait, .awaitingContinue),
                (.awaitingContinue, .broke, .sendAgain(.staleConnection(reset)), .connecting),
                (.awaitingContinue, .inputEnded, .sendAgain(.staleConnection(closed)), .connecting),
                (.awaitingContinue, .received417, .sendAgain(.expectationFailed), .connecting),
                (.awaitingBodyPiece, .broke, .fail(.connectionLost(reset + stream)), .done),
                (
                    .writingBodyPiece, .broke,
                    .fail(.connectionLost(reset + stream)), .done
                ),
                (
                    .writingBodyPiece, .inputEnded,
                    .fail(.connectionLost(closed + stream)), .done
                ),
                (.writingBodyEnd, .broke, .fail(.connectionLost(reset + stream)), .done),
                (.receiving, .broke, .fail(.connectionLost(reset + stream)), .done),
                (.receiving, .inputEnded, .fail(.connectionLost(closed + stream)), .done),
                (.receiving, .receivedCompleteReusable, .finish(reusable: true), .done),
                (.receiving, .deadlinePassed, .fail(.timedOut(.waiting)), .done),
                (.done, .broke, .none, .done),
            ]),
        Table(
            "rereadable", via: .reused,
            [
                (.writingBodyPiece, .broke, .sendAgain(.staleConnection(reset)), .connecting),
                (.writingBodyPiece, .inputEnded, .sendAgain(.staleConnection(closed)), .connecting),
                (.awaitingBodyPiece, .broke, .sendAgain(.staleConnection(reset)), .connecting),
                (.writingBodyEnd, .broke, .sendAgain(.staleConnection(reset)), .connecting),
                (.receiving, .inputEnded, .sendAgain(.staleConnection(closed)), .connecting),
            ]),
        // RFC 9110 §9.2.2: a request that may not go twice is never repeated by itself.
        Table(
            "not idempotent", via: .reused,
            [
                (.writingHead, .broke, .fail(.closedBeforeAnswering(reset)), .done),
                (.writingHead, .inputEnded, .fail(.closedBeforeAnswering(closed)), .done),
                (.awaitingContinue, .broke, .fail(.closedBeforeAnswering(reset)), .done),
                (.writingBodyPiece, .broke, .fail(.closedBeforeAnswering(reset)), .done),
                (.receiving, .inputEnded, .fail(.closedBeforeAnswering(closed)), .done),
                // A 417 is not a repetition the server may have acted on: it goes again.
                (.awaitingContinue, .received417, .sendAgain(.expectationFailed), .connecting),
            ]),
        Table(
            "not idempotent",
            [
                (.writingHead, .broke, .fail(.connectionLost(reset)), .done),
                (.receiving, .inputEnded, .fail(.connectionLost(closed)), .done),
            ]),
        Table(
            "no body", via: .reused,
            [
                (.writingHead, .broke, .sendAgain(.staleConnection(reset)), .connecting),
                (.writingHead, .written, .none, .receiving),
                (.receiving, .inputEnded, .sendAgain(.staleConnection(closed)), .connecting),
            ]),
        Table(
            "body with the head", via: .reused,
            [
                (.receiving, .broke, .sendAgain(.staleConnection(reset)), .connecting)
            ]),
    ]

    /// Checks every row of `table`, naming it in every message.
    private func check(_ table: Table) {
        guard let request = Self.variants[table.variant] else { return XCTFail("no variant \(table.variant)") }
        for row in table.rows {
            let name = "\(table.variant) on a \(table.via.rawValue), \(row.state) + \(row.probe)"
            guard var machine = machine(in: row.state, for: request, via: table.via) else {
                XCTFail("\(name): state not reached")
                continue
            }
            let action = machine.handle(row.probe.event)
            XCTAssertEqual(action, row.action, "\(name): action")
            XCTAssertEqual(machine.state, row.next, "\(name): next state")
            XCTAssertEqual(machine.isDone, row.next == .done, "\(name): isDone")
        }
    }

    func testTheBaseTableCoversEveryStateAndEvent() {
        let cells = Set(Self.baseTable.rows.map { "\($0.state) \($0.probe)" })
        XCTAssertEqual(cells.count, Self.baseTable.rows.count, "a cell appears twice")
        let states: [State] = [
            .idle, .connecting, .writingHead, .awaitingContinue, .awaitingBodyPiece, .writingBodyPiece,
            .writingBodyEnd, .receiving, .done,
        ]
        for state in states {
            for probe in Probe.allCases {
                XCTAssertTrue(cells.contains("\(state) \(probe)"), "the table has no row for \(state) + \(probe)")
            }
        }
        XCTAssertEqual(cells.count, states.count * Probe.allCases.count)
    }

    func testTheBaseTable() {
        check(Self.baseTable)
    }

    func testTheVariantTables() {
        for table in Self.variantTables { check(table) }
    }

    /// The paths the table takes reach each state with the facts the rows rely on.
    func testThePathsReachTheirStatesWithTheExpectedFacts() {
        let request = Self.base
        if let machine = machine(in: .writingHead, for: request, via: .reused) {
            XCTAssertEqual(machine.connectionReused, true)
            XCTAssertFalse(machine.heardAnswer)
        }
        if let machine = machine(in: .writingHead, for: request, via: .new) {
            XCTAssertEqual(machine.connectionReused, false)
        }
        if let machine = machine(in: .connecting, for: request, via: .reused) {
            XCTAssertNil(machine.connectionReused, "a reused connection with bytes waiting is never written on")
        }
        for state in [State.writingHead, .awaitingContinue] {
            if let machine = machine(in: state, for: request, via: .new) {
                XCTAssertFalse(machine.bodyTouched, "\(state)")
            }
        }
        for state in [State.awaitingBodyPiece, .writingBodyPiece, .writingBodyEnd, .receiving] {
            if let machine = machine(in: state, for: request, via: .new) {
                XCTAssertTrue(machine.bodyTouched, "\(state)")
            }
        }
        if let machine = machine(in: .receiving, for: request, via: .new) {
            XCTAssertTrue(machine.requestSent)
            XCTAssertFalse(machine.heardAnswer)
        }
        for variant in ["no body", "body with the head", "length known", "no expectation"] {
            guard let request = Self.variants[variant] else { continue }
            if let machine = machine(in: .receiving, for: request, via: .new) {
                XCTAssertTrue(machine.requestSent, variant)
            }
        }
    }

    // MARK: - Scenarios

    /// Drives `machine` through `steps`, checking each action.
    private func drive(
        _ machine: inout Machine, _ steps: [(Event, Action)], file: StaticString = #filePath, line: UInt = #line
    ) {
        for (index, (event, expected)) in steps.enumerated() {
            XCTAssertEqual(machine.handle(event), expected, "step \(index): \(event)", file: file, line: line)
        }
    }

    private func request(
        body: Request.Body = .none, expectsContinue: Bool = false, keepsAlive: Bool = true, maySendAgain: Bool = true,
        bodyRereadable: Bool = true, deadline: UInt64? = nil
    ) -> Request {
        Request(
            body: body, expectsContinue: expectsContinue, keepsAlive: keepsAlive, maySendAgain: maySendAgain,
            bodyRereadable: bodyRereadable, deadline: deadline)
    }

    /// RFC 9112 §9.3.1: "A user agent MAY ... automatically retransmit" a request with an
    /// idempotent method (RFC 9110 §9.2.2) after a connection closed before its response; the
    /// machine does it once, on a new connection, and only for a reused connection (the stale
    /// one a server closed while it was idle).
    func testAStaleReusedConnectionSendsAnIdempotentRequestAgainOnce() {
        var machine = Machine(request: request())
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .none),
                (.inputEnded, .sendAgain(.staleConnection(Self.closed))),
            ])
        XCTAssertEqual(machine.state, .connecting)
        XCTAssertEqual(machine.resends, 1)
        XCTAssertNil(machine.connectionReused)
        XCTAssertFalse(machine.requestSent, "a fresh attempt")
        drive(
            &machine,
            [
                (.connected(now: 5), .writeHead),
                (.written, .none),
                // The new connection breaking too is a failure: at most one resend for staleness.
                (.broke(Self.reset), .fail(.connectionLost(Self.reset))),
            ])
        XCTAssertEqual(machine.connectionReused, false)
        XCTAssertEqual(machine.resends, 1)
        XCTAssertTrue(machine.isDone)
    }

    /// RFC 9110 §9.2.2 and RFC 9112 §9.3.1: a request that is not idempotent is not repeated by
    /// the client on its own; the failure says the server may have seen it.
    func testAStaleReusedConnectionFailsARequestThatMayNotGoTwice() {
        var machine = Machine(request: request(body: .withHead, maySendAgain: false))
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .none),
                (.broke(Self.reset), .fail(.closedBeforeAnswering(Self.reset))),
            ])
        XCTAssertEqual(machine.resends, 0)
    }

    /// RFC 9112 §9.3.1: only a connection closed before any answer is stale; once a byte of the
    /// response came, a close is a lost response, not a reason to repeat.
    func testAConnectionThatAnsweredIsNotStale() {
        var machine = Machine(request: request())
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .none),
                (.received(Response()), .none),
                (.broke(Self.reset), .fail(.connectionLost(Self.reset))),
            ])
        XCTAssertEqual(machine.resends, 0)
        // The server's close after an answer began ends the response (a body delimited by the close,
        // RFC 9112 §6.3): finished, never reused.
        machine = Machine(request: request())
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .none),
                (.received(Response(finalStatus: 200)), .none),
                (.inputEnded, .finish(reusable: false)),
            ])
    }

    /// RFC 9112 §9.3.1 (a request repeats only when it can be sent whole again): a streamed body
    /// the source was asked a piece of (it may have read it) is not resent; one never asked, or a
    /// body in memory, is.
    func testAStreamedBodyAlreadyTouchedIsNotSentAgain() {
        let streamed = request(body: .pieces(chunked: true), expectsContinue: true, bodyRereadable: false)
        var machine = Machine(request: streamed)
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .startContinueWait),
                (.continueWaitOver, .askBodyPiece),
                (.bodyPiece, .writeBodyPiece),
                (.written, .askBodyPiece),
                (.broke(Self.reset), .fail(.connectionLost(Self.reset + Self.stream))),
            ])
        XCTAssertEqual(machine.resends, 0)

        // Asked, even with no piece given yet: the source may have read from the stream.
        machine = Machine(request: streamed)
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .startContinueWait),
                (.received(Response()), .askBodyPiece),
                // The 100 was an answer: not stale at all.
                (.broke(Self.reset), .fail(.connectionLost(Self.reset))),
            ])
        machine = Machine(request: streamed)
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .startContinueWait),
                (.continueWaitOver, .askBodyPiece),
                (.inputEnded, .fail(.connectionLost(Self.closed + Self.stream))),
            ])

        // Never asked (still waiting for `100 Continue`): it goes again.
        machine = Machine(request: streamed)
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .startContinueWait),
                (.broke(Self.reset), .sendAgain(.staleConnection(Self.reset))),
            ])
        XCTAssertFalse(machine.bodyTouched)

        machine = Machine(request: request(body: .pieces(chunked: false), bodyRereadable: true))
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .askBodyPiece),
                (.bodyPiece, .writeBodyPiece),
                (.written, .askBodyPiece),
                (.bodyEnded, .none),
                (.inputEnded, .sendAgain(.staleConnection(Self.closed))),
                (.connected(now: 1), .writeHead),
            ])
        XCTAssertFalse(machine.bodyTouched, "the body goes again from its start")
    }

    /// RFC 9112 §9.3.1: a reused connection with bytes or a close already waiting is stale or
    /// desynchronised; the request never goes on it.
    func testAReusedConnectionThatIsNotQuietIsNeverWrittenOn() {
        for mayGoTwice in [true, false] {
            var machine = Machine(request: request(maySendAgain: mayGoTwice))
            drive(
                &machine,
                [
                    (.start(.reused(quiet: false), now: 0), .connect(closingFirst: true)),
                    (.written, .none),
                    (.received(Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: true)), .none),
                ])
            XCTAssertNil(machine.connectionReused)
            XCTAssertEqual(machine.state, .connecting)
            drive(&machine, [(.connected(now: 1), .writeHead), (.written, .none)])
            XCTAssertEqual(machine.connectionReused, false, "the request went on the new connection")
            // Not a reused connection: its close is a lost connection, never a resend.
            drive(&machine, [(.inputEnded, .fail(.connectionLost(Self.closed)))])
        }
    }

    /// RFC 9110 §10.1.1: a client that receives a 417 to a request with a 100-continue expectation
    /// "SHOULD repeat that request without a 100-continue expectation": once, on a new connection
    /// (the server may still wait for the first one's body), and never again.
    func testA417SendsTheRequestAgainOnceWithoutTheExpectation() {
        var machine = Machine(
            request: request(
                body: .pieces(chunked: true), expectsContinue: true, maySendAgain: false, bodyRereadable: false))
        drive(
            &machine,
            [
                (.start(.new, now: 0), .connect(closingFirst: false)),
                (.connected(now: 1), .writeHead),
                (.written, .startContinueWait),
                (.received(Response(finalStatus: 417)), .sendAgain(.expectationFailed)),
            ])
        XCTAssertFalse(machine.request.expectsContinue)
        XCTAssertEqual(machine.resends, 1)
        XCTAssertEqual(machine.state, .connecting)
        drive(
            &machine,
            [
                (.connected(now: 2), .writeHead),
                // No expectation any more: the body follows the head at once.
                (.written, .askBodyPiece),
                // A second 417 is the answer.
                (.received(Response(finalStatus: 417)), .stopSending),
                (
                    .received(Response(finalStatus: 417, isComplete: true, leavesConnectionReusable: true)),
                    .finish(reusable: false)
                ),
            ])
        XCTAssertEqual(machine.resends, 1)
    }

    /// RFC 9110 §10.1.1: a final status other than 417 while the client waits for `100 Continue`
    /// answers the request; the body is never sent.
    func testAFinalAnswerWhileWaitingForContinueEndsWithoutTheBody() {
        var machine = Machine(request: request(body: .pieces(chunked: true), expectsContinue: true))
        drive(
            &machine,
            [
                (.start(.new, now: 0), .connect(closingFirst: false)),
                (.connected(now: 1), .writeHead),
                (.written, .startContinueWait),
                (.received(Response(finalStatus: 401)), .stopSending),
                (.continueWaitOver, .none),
                (.bodyPiece, .none),
                (
                    .received(Response(finalStatus: 401, isComplete: true, leavesConnectionReusable: true)),
                    .finish(reusable: false)
                ),
            ])
        // A `100 Continue` (no final status yet) lets the body go before the wait is over.
        machine = Machine(request: request(body: .pieces(chunked: true), expectsContinue: true))
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .startContinueWait),
                (.received(Response()), .askBodyPiece),
                (.continueWaitOver, .none),
            ])
    }

    /// RFC 9112 §9.5: a client that sees a response while it sends the body "SHOULD immediately
    /// cease transmitting the body"; the response is still read to its end, and the connection,
    /// whose request did not go out whole, is not reused.
    func testAnEarlyFinalHeadStopsSendingAndTheConnectionIsNotReused() {
        var machine = Machine(request: request(body: .pieces(chunked: true)))
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .askBodyPiece),
                (.bodyPiece, .writeBodyPiece),
                (.received(Response(finalStatus: 413)), .stopSending),
                (.written, .none),
                (.bodyPiece, .none),
                (.bodyEnded, .none),
            ])
        XCTAssertEqual(machine.state, .receiving)
        XCTAssertFalse(machine.requestSent)
        XCTAssertTrue(machine.isReading, "the response is still read")
        drive(
            &machine,
            [
                (
                    .received(Response(finalStatus: 413, isComplete: true, leavesConnectionReusable: true)),
                    .finish(reusable: false)
                )
            ])

        // The server refusing the write is the same: what it sent is the answer.
        machine = Machine(request: request(body: .pieces(chunked: false)))
        drive(
            &machine,
            [
                (.start(.new, now: 0), .connect(closingFirst: false)),
                (.connected(now: 1), .writeHead),
                (.written, .askBodyPiece),
                (.bodyPiece, .writeBodyPiece),
                (.writeRefused, .stopSending),
                (
                    .received(Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: true)),
                    .finish(reusable: false)
                ),
            ])
    }

    /// The connection carries the next request only when the head kept it alive, the whole
    /// request went out, and the response's framing and fields allow it (RFC 9112 §9.3).
    func testReuseNeedsKeepAliveTheWholeRequestAndAReusableResponse() {
        for keepsAlive in [true, false] {
            for sentWhole in [true, false] {
                for responseAllows in [true, false] {
                    var machine = Machine(request: request(body: .withHead, keepsAlive: keepsAlive))
                    _ = machine.handle(.start(.reused(quiet: true), now: 0))
                    if sentWhole { _ = machine.handle(.written) }
                    let action = machine.handle(
                        .received(
                            Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: responseAllows)))
                    XCTAssertEqual(
                        action, .finish(reusable: keepsAlive && sentWhole && responseAllows),
                        "keepsAlive \(keepsAlive), sent whole \(sentWhole), response allows \(responseAllows)")
                }
            }
        }
    }

    /// No request is written once its deadline passed: the failure says the request never went.
    func testADeadlineBeforeTheFirstWriteFailsBeforeTheRequest() {
        let late = request(deadline: 100)
        var machine = Machine(request: late)
        drive(&machine, [(.start(.reused(quiet: true), now: 100), .fail(.timedOutBeforeTheRequest))])
        XCTAssertNil(machine.connectionReused)
        machine = Machine(request: late)
        drive(
            &machine,
            [
                (.start(.new, now: 0), .connect(closingFirst: false)),
                (.connected(now: 150), .fail(.timedOutBeforeTheRequest)),
            ])
        // One nanosecond before the deadline still writes.
        machine = Machine(request: late)
        drive(
            &machine,
            [
                (.start(.new, now: 0), .connect(closingFirst: false)),
                (.connected(now: 99), .writeHead),
            ])
    }

    /// A timeout names the phase it stopped: connecting, sending the request, waiting for the
    /// response, receiving it.
    func testTimeoutsNameThePhase() {
        let chunked = request(body: .pieces(chunked: true), deadline: 1_000)
        let cases: [(String, [Event], Machine.Phase)] = [
            ("before the start", [], .connecting),
            ("connecting", [.start(.new, now: 0)], .connecting),
            ("writing the head", [.start(.new, now: 0), .connected(now: 1)], .sending),
            ("sending the body", [.start(.reused(quiet: true), now: 0), .written, .bodyPiece], .sending),
            (
                "waiting",
                [.start(.reused(quiet: true), now: 0), .written, .bodyPiece, .written, .bodyEnded, .written],
                .waiting
            ),
            (
                "receiving",
                [
                    .start(.reused(quiet: true), now: 0), .written, .bodyEnded, .written,
                    .received(Response(finalStatus: 200)),
                ], .receiving
            ),
            (
                "receiving after an early answer",
                [.start(.reused(quiet: true), now: 0), .written, .received(Response(finalStatus: 200))], .receiving
            ),
        ]
        for (name, events, phase) in cases {
            var machine = Machine(request: chunked)
            for event in events { _ = machine.handle(event) }
            XCTAssertEqual(machine.phase, phase, name)
            XCTAssertEqual(machine.handle(.deadlinePassed), .fail(.timedOut(phase)), name)
        }
    }

    /// Once the exchange ended, nothing changes it: not a cancel, not a late event.
    func testACancelAfterTheEndDoesNothing() {
        var machine = Machine(request: request())
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .none),
                (
                    .received(Response(finalStatus: 204, isComplete: true, leavesConnectionReusable: true)),
                    .finish(reusable: true)
                ),
                (.cancelled, .none),
                (.deadlinePassed, .none),
                (.failed, .none),
                (.broke(Self.reset), .none),
            ])
        XCTAssertTrue(machine.isDone)
        machine = Machine(request: request())
        drive(&machine, [(.cancelled, .fail(.cancelled)), (.cancelled, .none), (.start(.new, now: 0), .none)])
    }

    /// Input is read only while the consumer keeps up, and never before the request goes or
    /// after the end.
    func testAConsumerBehindTurnsReadingOff() {
        var machine = Machine(request: request())
        XCTAssertFalse(machine.isReading, "idle")
        _ = machine.handle(.start(.new, now: 0))
        XCTAssertFalse(machine.isReading, "connecting")
        _ = machine.handle(.connected(now: 1))
        XCTAssertTrue(machine.isReading, "reading while the head goes out (an early answer)")
        XCTAssertEqual(machine.handle(.consumerBehind), .none)
        XCTAssertFalse(machine.isReading)
        _ = machine.handle(.written)
        XCTAssertFalse(machine.isReading, "still behind")
        XCTAssertEqual(machine.handle(.consumerCaughtUp), .none)
        XCTAssertTrue(machine.isReading)
        _ = machine.handle(.consumerBehind)
        _ = machine.handle(.received(Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: true)))
        XCTAssertFalse(machine.isReading, "done")
        _ = machine.handle(.consumerCaughtUp)
        XCTAssertFalse(machine.isReading, "done, caught up or not")
    }

    /// A resend starts a fresh response: a consumer behind on the abandoned one no longer holds
    /// reading back.
    func testAResendForgetsTheConsumerOfTheAbandonedResponse() {
        var machine = Machine(request: request())
        _ = machine.handle(.start(.reused(quiet: true), now: 0))
        _ = machine.handle(.consumerBehind)
        XCTAssertEqual(machine.handle(.broke(Self.reset)), .sendAgain(.staleConnection(Self.reset)))
        XCTAssertFalse(machine.isReading, "connecting")
        _ = machine.handle(.connected(now: 1))
        XCTAssertTrue(machine.isReading)
    }

    /// A stale resend and a 417 resend can both happen, once each: never more than two.
    func testAtMostTwoResends() {
        var machine = Machine(
            request: request(body: .pieces(chunked: false), expectsContinue: true, bodyRereadable: false))
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .startContinueWait),
                (.inputEnded, .sendAgain(.staleConnection(Self.closed))),
                (.connected(now: 1), .writeHead),
                (.written, .startContinueWait),
                (.received(Response(finalStatus: 417)), .sendAgain(.expectationFailed)),
                (.connected(now: 2), .writeHead),
                (.written, .askBodyPiece),
                (.inputEnded, .fail(.connectionLost(Self.closed))),
            ])
        XCTAssertEqual(machine.resends, 2)
    }

    /// RFC 9110 §10.1.1: a `100 Continue` read before the head's write was answered lets the body
    /// go at once (no wait for the timer); a 417 after the body went from memory still sends the
    /// request again without the expectation, but one after a stream was read is the answer.
    func testAnInterimAnswerBeforeTheHeadWasWrittenAndA417AfterTheBody() {
        var machine = Machine(request: request(body: .pieces(chunked: false), expectsContinue: true))
        drive(
            &machine,
            [
                (.start(.new, now: 0), .connect(closingFirst: false)),
                (.connected(now: 0), .writeHead),
                (.received(Response()), .none),
                (.written, .askBodyPiece),
                (.bodyEnded, .none),
                (.received(Response(finalStatus: 417)), .sendAgain(.expectationFailed)),
            ])
        XCTAssertFalse(machine.request.expectsContinue)
        machine = Machine(
            request: request(body: .pieces(chunked: false), expectsContinue: true, bodyRereadable: false))
        drive(
            &machine,
            [
                (.start(.new, now: 0), .connect(closingFirst: false)),
                (.connected(now: 0), .writeHead),
                (.written, .startContinueWait),
                (.continueWaitOver, .askBodyPiece),
                (.bodyEnded, .none),
                (.received(Response(finalStatus: 417, isComplete: true)), .finish(reusable: false)),
            ])
    }

    /// A timeout while the body goes out names sending even after a `100 Continue`; one as a
    /// request sent again connects is not "before the request" (it went out once).
    func testTimeoutsAfterAnInterimAnswerAndAfterASecondConnect() {
        var machine = Machine(request: request(body: .pieces(chunked: true), expectsContinue: true))
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .startContinueWait),
                (.received(Response()), .askBodyPiece),
                (.deadlinePassed, .fail(.timedOut(.sending))),
            ])
        machine = Machine(request: request(deadline: 100))
        drive(
            &machine,
            [
                (.start(.reused(quiet: true), now: 0), .writeHead),
                (.written, .none),
                (.inputEnded, .sendAgain(.staleConnection(Self.closed))),
                (.connected(now: 100), .fail(.timedOut(.connecting))),
            ])
    }
}

/// The errors of the machine's failures name the phase, the limit and the setting to raise.
final class HTTP1ConnectionMachineFailureErrorTests: XCTestCase {
    func testATimeoutSaysItsPhaseItsLimitAndTheSetting() {
        let waiting = HTTP1ConnectionMachine.Failure.timedOut(.waiting)
        XCTAssertEqual(
            (waiting.error(method: "GET", timeout: 10, reported: nil) as? URLError)?.localizedDescription,
            "the call's timeout of 10 s passed while waiting for the response. Raise the call's timeout (the "
                + "descriptor's timeout or WebServiceRequest.timeoutInterval)")
        XCTAssertEqual(
            (HTTP1ConnectionMachine.Failure.timedOutBeforeTheRequest.error(method: "POST", timeout: 2.5, reported: nil)
                as? URLError)?.localizedDescription,
            "the call's timeout of 2.5 s passed while connecting. Raise the call's timeout (the descriptor's "
                + "timeout or WebServiceRequest.timeoutInterval). Its request was not written: nothing was sent")
        XCTAssertFalse(
            "\(waiting.error(method: "GET", timeout: 0, reported: nil))".contains(" of "), "no limit, no amount")
    }

    /// Each phase of the machine is the typed timeout's phase, with the limit and the setting,
    /// which a call's error gives as ``WebServiceError/timeout``.
    func testATimeoutCarriesItsTypedDetails() throws {
        let phases: [(HTTP1ConnectionMachine.Phase, TimeoutFailure.Phase)] = [
            (.connecting, .connecting), (.sending, .sending), (.waiting, .waitingForResponse),
            (.receiving, .receiving),
        ]
        for (phase, typed) in phases {
            let error = try XCTUnwrap(
                HTTP1ConnectionMachine.Failure.timedOut(phase).error(method: "GET", timeout: 10, reported: nil)
                    as? URLError)
            let failure = WebServiceError.transport(error)
            XCTAssertTrue(failure.isTimeout)
            XCTAssertEqual(failure.timeout, TimeoutFailure(phase: typed, limit: 10))
            XCTAssertEqual(failure.timeout?.setting, TimeoutFailure.callTimeout)
            XCTAssertEqual(error.localizedDescription, failure.timeout?.description)
        }
        XCTAssertNil(WebServiceError.transport(URLError(.timedOut)).timeout, "URLSession's timeouts say no more")
    }
}
