import XCTest

@testable import WebServiceKit

/// ``HTTP1ConnectionMachine`` against a reference written apart from it: random walks of events
/// over random requests, the machine's action and key properties compared with the model's at
/// every step, and the exchange's invariants checked at every step whatever the model says.
///
/// The model keeps no state enum: it records facts (started, the attempt on the wire and what
/// happened on it) and derives the action from predicates on them, in the words of the RFCs.
final class HTTP1ConnectionMachineModelTests: XCTestCase {
    typealias Machine = HTTP1ConnectionMachine
    typealias Request = Machine.Request
    typealias State = Machine.State
    typealias Action = Machine.Action
    typealias Event = Machine.Event
    typealias Response = Machine.Response

    /// The seed of the walks; walk `n` uses `seed + n`, so one walk can be replayed alone.
    static let seed: UInt64 = 0x4854_5450_315F_4D43
    /// Events of all walks together (the test stops at the first walk past it).
    static let totalSteps = 300_000

    // MARK: - The walks

    func testRandomWalksAgreeWithTheModelAndKeepTheInvariants() {
        var steps = 0
        var walk = 0
        var ends: [String: Int] = [:]
        var actions: [String: Int] = [:]
        while steps < Self.totalSteps {
            var random = SplitMix64(seed: Self.seed &+ UInt64(walk))
            let request = Self.randomRequest(&random)
            var machine = Machine(request: request)
            var model = ExchangeModel(request: request)
            var watch = ExchangeWatch(request: request)
            var path: [Event] = []
            let length = 1 + Int(random.next(below: 60))
            var afterTheEnd = 0
            for step in 0..<length {
                // A few events after the end (they must do nothing), then the next walk.
                if machine.isDone {
                    afterTheEnd += 1
                    if afterTheEnd > 3 { break }
                }
                let event = Self.randomEvent(&random, machine: machine)
                path.append(event)
                let before = machine
                let got = machine.handle(event)
                steps += 1
                actions[Self.kind(of: got), default: 0] += 1
                if let problem = watch.observe(event, got, before: before, after: machine) {
                    let context = Self.describe(walk: walk, step: step, request: request, path: path)
                    return XCTFail("invariant broken: \(problem)\n\(context)")
                }
                let expected = model.handle(event)
                if got != expected {
                    let context = Self.describe(walk: walk, step: step, request: request, path: path)
                    return XCTFail("the model expected \(expected), the machine answered \(got)\n\(context)")
                }
                if let difference = model.difference(from: machine) {
                    let context = Self.describe(walk: walk, step: step, request: request, path: path)
                    return XCTFail("after \(event): \(difference)\n\(context)")
                }
            }
            ends[machine.isDone ? "done" : "\(machine.state)", default: 0] += 1
            walk += 1
        }
        print("HTTP1ConnectionMachine random walk: \(walk) walks, \(steps) events, seed \(Self.seed)")
        print(
            "  walks ended in: \(ends.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
        )
        print(
            "  actions: \(actions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        XCTAssertGreaterThanOrEqual(steps, 100_000)
        XCTAssertGreaterThan(ends["done", default: 0], walk / 4, "too few walks reach the end")
    }

    /// Where a walk is, to replay it: the seed, the walk, the step, the request and the events.
    static func describe(walk: Int, step: Int, request: Request, path: [Event]) -> String {
        let events = path.map { "\($0)".replacingOccurrences(of: "WebServiceKit.HTTP1ConnectionMachine.", with: "") }
        return """
            seed \(seed) + walk \(walk) (SplitMix64(seed: \(seed &+ UInt64(walk)))), step \(step)
                request \(request)
                events \(events.joined(separator: ", "))
            """
    }

    /// An action's name without its payload, or with it for the endings and resends.
    static func kind(of action: Action) -> String {
        switch action {
        case .finish, .sendAgain:
            "\(action)".replacingOccurrences(of: "WebServiceKit.HTTP1ConnectionMachine.", with: "")
        case .fail: "fail"
        default: String("\(action)".prefix { $0 != "(" })
        }
    }

    /// The walks reach every state and every action (a walk generator that never got there would
    /// compare nothing).
    func testTheWalksReachEveryStateAndAction() {
        var states: Set<String> = []
        var actions: Set<String> = []
        for walk in 0..<2_000 {
            var random = SplitMix64(seed: Self.seed &+ UInt64(walk))
            var machine = Machine(request: Self.randomRequest(&random))
            for _ in 0..<(1 + Int(random.next(below: 60))) {
                let action = machine.handle(Self.randomEvent(&random, machine: machine))
                states.insert("\(machine.state)")
                actions.insert(String("\(action)".prefix { $0 != "(" }))
            }
        }
        XCTAssertEqual(
            states,
            [
                "idle", "connecting", "writingHead", "awaitingContinue", "awaitingBodyPiece", "writingBodyPiece",
                "writingBodyEnd", "receiving", "done",
            ])
        XCTAssertEqual(
            actions,
            [
                "none", "connect", "writeHead", "startContinueWait", "askBodyPiece", "writeBodyPiece", "writeBodyEnd",
                "stopSending", "finish", "sendAgain", "fail",
            ])
    }

    /// Any request: every body, expectation, keep-alive, idempotency and rereadability, with a
    /// deadline a third of the time none.
    static func randomRequest(_ random: inout SplitMix64) -> Request {
        let bodies: [Request.Body] = [.none, .withHead, .pieces(chunked: true), .pieces(chunked: false)]
        return Request(
            body: bodies[Int(random.next(below: 4))], expectsContinue: random.next(below: 2) == 0,
            keepsAlive: random.next(below: 4) != 0, maySendAgain: random.next(below: 2) == 0,
            bodyRereadable: random.next(below: 2) == 0,
            deadline: random.next(below: 3) == 0 ? nil : 1 + random.next(below: 1_100))
    }

    /// The responses a parser can report: interim bytes, a final head, complete ones.
    static let responses: [Response] = [
        Response(),
        Response(finalStatus: 200),
        Response(finalStatus: 200, leavesConnectionReusable: true),
        Response(finalStatus: 417),
        Response(finalStatus: 417, isComplete: true, leavesConnectionReusable: true),
        Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: true),
        Response(finalStatus: 200, isComplete: true, leavesConnectionReusable: false),
        Response(finalStatus: 204, isComplete: true, leavesConnectionReusable: true),
        Response(finalStatus: 503, isComplete: true, leavesConnectionReusable: false),
    ]

    /// Any event: more than half the time one the machine's state waits for (so walks go deep),
    /// else any kind, the endings (deadline, cancel, failure, a lost connection) rarely.
    static func randomEvent(_ random: inout SplitMix64, machine: Machine) -> Event {
        // Mostly early, now and then at or past any deadline.
        let now = random.next(below: 4) == 0 ? random.next(below: 1_200) : random.next(below: 100)
        if random.next(below: 10) < 6, let awaited = awaitedEvent(&random, machine: machine, now: now) {
            return awaited
        }
        switch random.next(below: 100) {
        case 0..<4: return randomStart(&random, now: now)
        case 4..<12: return .connected(now: now)
        case 12..<30: return .written
        case 30..<33: return .writeRefused
        case 33..<43: return .bodyPiece
        case 43..<49: return .bodyEnded
        case 49..<54: return .continueWaitOver
        case 54..<76: return randomReceived(&random)
        case 76..<79: return .inputEnded
        case 79..<82: return .broke(random.next(below: 2) == 0 ? "reset" : "a read failed")
        case 82..<89: return .consumerBehind
        case 89..<96: return .consumerCaughtUp
        case 96..<97: return .deadlinePassed
        case 97..<98: return .cancelled
        default: return .failed
        }
    }

    /// An event the machine's state waits for; `nil` when done.
    private static func awaitedEvent(_ random: inout SplitMix64, machine: Machine, now: UInt64) -> Event? {
        switch machine.state {
        case .idle: return randomStart(&random, now: now)
        case .connecting: return .connected(now: now)
        case .writingHead, .writingBodyPiece, .writingBodyEnd:
            return random.next(below: 5) == 0 ? randomReceived(&random) : .written
        case .awaitingContinue:
            switch random.next(below: 3) {
            case 0: return .continueWaitOver
            case 1: return .received(Response())
            default: return randomReceived(&random)
            }
        case .awaitingBodyPiece: return random.next(below: 3) == 0 ? .bodyEnded : .bodyPiece
        case .receiving: return randomReceived(&random)
        case .done: return nil
        }
    }

    private static func randomReceived(_ random: inout SplitMix64) -> Event {
        .received(responses[Int(random.next(below: UInt64(responses.count)))])
    }

    private static func randomStart(_ random: inout SplitMix64, now: UInt64) -> Event {
        let connections: [Machine.Connection] = [.new, .reused(quiet: true), .reused(quiet: false)]
        return .start(connections[Int(random.next(below: 3))], now: now)
    }
}

/// What RFC 9110 and RFC 9112 (and the machine's documented rules where they leave a choice) say
/// one exchange does, kept as facts rather than states.
struct ExchangeModel {
    typealias Machine = HTTP1ConnectionMachine

    /// A write the driver was asked for.
    enum Write { case head, piece, lastChunk }

    /// What happened to the request on the current connection.
    struct Attempt {
        /// Whether the connection carried a request before.
        var reused: Bool
        /// The write not answered yet.
        var pendingWrite: Write? = .head
        var waitingForContinue = false
        /// The body source was asked for a piece and has not given it.
        var pieceWanted = false
        /// The body source was asked at least once (a stream may have been read).
        var sourceAsked = false
        var sentWhole = false
        /// Sending stopped before the request went out whole.
        var stopped = false
        /// A byte of a response came.
        var heard = false
        var finalHead = false
    }

    let request: Machine.Request
    /// Whether the head still asks `Expect: 100-continue`.
    var expectation: Bool
    var started = false
    var ended = false
    /// `nil` before the request goes out on a connection (and while a new one opens).
    var attempt: Attempt?
    var resends = 0
    var consumerBehind = false

    init(request: Machine.Request) {
        self.request = request
        expectation = request.expectsContinue
    }

    /// Whether the request is going out now.
    var sending: Bool {
        guard let attempt, !ended else { return false }
        return !attempt.sentWhole && !attempt.stopped
    }

    var bodyInPieces: Bool {
        if case .pieces = request.body { return true }
        return false
    }

    /// The action the rules give for `event`.
    mutating func handle(_ event: Machine.Event) -> Machine.Action {
        if ended { return .none }
        switch event {
        case .start(let connection, let now):
            if started { return .none }
            started = true
            // RFC 9112 §9.3.1: a reused connection with anything waiting on it is not written on.
            if connection == .reused(quiet: true) { return goOut(now: now, reused: true) }
            return .connect(closingFirst: connection != .new)
        case .connected(let now):
            guard started, attempt == nil else { return .none }
            return goOut(now: now, reused: false)
        case .written:
            guard sending, let write = attempt?.pendingWrite else { return .none }
            attempt?.pendingWrite = nil
            switch write {
            case .head:
                guard bodyInPieces else { return sentWhole() }
                // RFC 9110 §10.1.1: the body waits for a 100, unless one came already.
                if expectation, attempt?.heard == false {
                    attempt?.waitingForContinue = true
                    return .startContinueWait
                }
                return askPiece()
            case .piece: return askPiece()
            case .lastChunk: return sentWhole()
            }
        case .writeRefused:
            return sending ? stop() : .none
        case .bodyPiece:
            guard sending, attempt?.pieceWanted == true else { return .none }
            attempt?.pieceWanted = false
            attempt?.pendingWrite = .piece
            return .writeBodyPiece
        case .bodyEnded:
            guard sending, attempt?.pieceWanted == true else { return .none }
            attempt?.pieceWanted = false
            guard request.body == .pieces(chunked: true) else { return sentWhole() }
            attempt?.pendingWrite = .lastChunk
            return .writeBodyEnd
        case .continueWaitOver:
            guard sending, attempt?.waitingForContinue == true else { return .none }
            attempt?.waitingForContinue = false
            return askPiece()
        case .received(let response):
            return received(response)
        case .inputEnded:
            // RFC 9112 §6.3: a response delimited by the close ends with it.
            if attempt?.heard == true { return end(.finish(reusable: false)) }
            return lost("the server closed the connection")
        case .broke(let reason):
            return lost(reason)
        case .consumerBehind:
            consumerBehind = true
            return .none
        case .consumerCaughtUp:
            consumerBehind = false
            return .none
        case .deadlinePassed:
            return end(.fail(.timedOut(phase)))
        case .cancelled:
            return end(.fail(.cancelled))
        case .failed:
            return end(.fail(.reported))
        }
    }

    private mutating func received(_ response: Machine.Response) -> Machine.Action {
        guard var current = attempt else { return .none }
        let firstFinalHead = response.finalStatus != nil && !current.finalHead
        current.heard = true
        if response.finalStatus != nil { current.finalHead = true }
        attempt = current
        // RFC 9110 §10.1.1: repeat without the expectation, when the body can go again.
        if response.finalStatus == 417, firstFinalHead, expectation, request.bodyRereadable || !current.sourceAsked {
            return sendAgain(.expectationFailed)
        }
        if response.isComplete {
            // RFC 9112 §9.3: kept for the next request only when all three allow it.
            return end(
                .finish(reusable: request.keepsAlive && current.sentWhole && response.leavesConnectionReusable))
        }
        // RFC 9112 §9.5: a final answer while sending stops the sending.
        if response.finalStatus != nil { return sending ? stop() : .none }
        if current.waitingForContinue {
            attempt?.waitingForContinue = false
            return askPiece()
        }
        return .none
    }

    /// RFC 9112 §9.3.1 and RFC 9110 §9.2.2: only a reused connection that closes before any
    /// answer is stale, and only a request that may go twice, with a body that can, goes again.
    private mutating func lost(_ reason: String) -> Machine.Action {
        guard let attempt, attempt.reused, !attempt.heard else { return end(.fail(.connectionLost(reason))) }
        guard request.maySendAgain else { return end(.fail(.closedBeforeAnswering(reason))) }
        guard request.bodyRereadable || !attempt.sourceAsked else {
            return end(.fail(.connectionLost(reason + ", and the body's stream cannot be sent again")))
        }
        return sendAgain(.staleConnection(reason))
    }

    private mutating func goOut(now: UInt64, reused: Bool) -> Machine.Action {
        // A request sent again went out once already: its timeout is not "before the request".
        if let deadline = request.deadline, now >= deadline {
            return end(.fail(resends == 0 ? .timedOutBeforeTheRequest : .timedOut(.connecting)))
        }
        attempt = Attempt(reused: reused)
        return .writeHead
    }

    private mutating func askPiece() -> Machine.Action {
        attempt?.pieceWanted = true
        attempt?.sourceAsked = true
        return .askBodyPiece
    }

    private mutating func sentWhole() -> Machine.Action {
        attempt?.sentWhole = true
        return .none
    }

    private mutating func stop() -> Machine.Action {
        attempt?.stopped = true
        attempt?.pendingWrite = nil
        attempt?.waitingForContinue = false
        attempt?.pieceWanted = false
        return .stopSending
    }

    private mutating func sendAgain(_ reason: Machine.Resend) -> Machine.Action {
        resends += 1
        attempt = nil
        consumerBehind = false
        if reason == .expectationFailed { expectation = false }
        return .sendAgain(reason)
    }

    private mutating func end(_ action: Machine.Action) -> Machine.Action {
        ended = true
        return action
    }

    /// The phase a timeout names now (before the end).
    var phase: Machine.Phase {
        guard let attempt else { return .connecting }
        if sending { return .sending }
        return attempt.heard ? .receiving : .waiting
    }

    /// The machine state the facts amount to; `nil` when they amount to none.
    var state: Machine.State? {
        if ended { return .done }
        guard started else { return .idle }
        guard let attempt else { return .connecting }
        if attempt.sentWhole || attempt.stopped { return .receiving }
        switch attempt.pendingWrite {
        case .head: return .writingHead
        case .piece: return .writingBodyPiece
        case .lastChunk: return .writingBodyEnd
        case nil: break
        }
        if attempt.waitingForContinue { return .awaitingContinue }
        if attempt.pieceWanted { return .awaitingBodyPiece }
        return nil
    }

    /// How `machine`'s properties differ from the model's facts; `nil` when they agree.
    func difference(from machine: Machine) -> String? {
        var differences: [String] = []
        func compare<T: Equatable>(_ name: String, _ got: T, _ expected: T) {
            if got != expected { differences.append("\(name) \(got), the model says \(expected)") }
        }
        compare("state", machine.state, state)
        compare("isDone", machine.isDone, ended)
        compare("isReading", machine.isReading, !ended && attempt != nil && !consumerBehind)
        compare("connectionReused", machine.connectionReused, attempt?.reused)
        compare("heardAnswer", machine.heardAnswer, attempt?.heard ?? false)
        compare("requestSent", machine.requestSent, attempt?.sentWhole ?? false)
        compare("bodyTouched", machine.bodyTouched, attempt?.sourceAsked ?? false)
        compare("resends", machine.resends, resends)
        compare("expectsContinue", machine.request.expectsContinue, expectation)
        // The phase before the end.
        if !ended { compare("phase", machine.phase, phase) }
        return differences.isEmpty ? nil : differences.joined(separator: "; ")
    }
}

/// The invariants of any exchange, checked from the outside: the events in and the actions out,
/// and a few of the machine's properties.
struct ExchangeWatch {
    typealias Machine = HTTP1ConnectionMachine

    let request: Machine.Request
    /// Finish and fail actions seen.
    var endings = 0
    /// A write was asked and not answered by `written` / `writeRefused`.
    var writeOutstanding = false
    /// The request went out on the current connection.
    var onConnection = false
    var onReusedConnection = false
    var heardOnConnection = false
    var finalHeadOnConnection = false
    var stoppedSending = false
    var staleResends = 0
    var expectationResends = 0
    var sendAgains = 0

    init(request: Machine.Request) { self.request = request }

    /// Checks `action`, the answer to `event`, and the machine `after` it; says what is wrong.
    mutating func observe(_ event: Machine.Event, _ action: Machine.Action, before: Machine, after: Machine) -> String?
    {
        if before.isDone {
            if action != .none { return "\(action) after the end" }
            return after.isDone ? nil : "the machine left its end"
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
        case .writeHead, .writeBodyPiece, .writeBodyEnd:
            if writeOutstanding { return "\(action) while a write is outstanding" }
            writeOutstanding = true
            if action == .writeHead {
                switch event {
                case .start(.reused(quiet: true), let now), .connected(let now):
                    if let deadline = request.deadline, now >= deadline { return "the head written past the deadline" }
                    onReusedConnection = event != .connected(now: now)
                default:
                    return "the head written after \(event)"
                }
                onConnection = true
            } else {
                if !onConnection { return "\(action) on no connection" }
                if finalHeadOnConnection { return "\(action) after a final head" }
                if stoppedSending { return "\(action) after sending stopped" }
            }
        case .startContinueWait, .askBodyPiece:
            if finalHeadOnConnection || stoppedSending { return "\(action) after sending stopped" }
        case .connect(let closingFirst):
            guard case .start(let connection, _) = event else { return "connect after \(event)" }
            if closingFirst != (connection != .new) { return "\(action) for \(connection)" }
            newConnection()
        case .sendAgain(let reason):
            sendAgains += 1
            switch reason {
            case .staleConnection:
                staleResends += 1
                if !request.maySendAgain { return "a request that may not go twice sent again" }
                if !onReusedConnection { return "a stale resend of a request on a new connection" }
                if heardOnConnection { return "a stale resend after an answer" }
                if staleResends > 1 { return "a second stale resend" }
            case .expectationFailed:
                expectationResends += 1
                guard case .received(let response) = event, response.finalStatus == 417 else {
                    return "a resend for the expectation after \(event)"
                }
                if expectationResends > 1 { return "a second resend for the expectation" }
            }
            newConnection()
        case .stopSending:
            writeOutstanding = false
            stoppedSending = true
        case .finish(let reusable):
            endings += 1
            if reusable {
                guard case .received(let response) = event, response.isComplete,
                    response.leavesConnectionReusable
                else { return "reusable after \(event)" }
                if !request.keepsAlive { return "reusable though the head closes it" }
                if !after.requestSent { return "reusable though the request did not go out whole" }
            }
        case .fail(let failure):
            endings += 1
            if case .closedBeforeAnswering = failure, request.maySendAgain {
                return "closed before answering, for a request that may go twice"
            }
        case .none:
            break
        }
        if endings > 1 { return "\(endings) endings" }
        if after.isDone != (endings == 1) { return "isDone \(after.isDone) after \(endings) endings" }
        if after.resends != sendAgains { return "resends \(after.resends), \(sendAgains) seen" }
        if after.resends > 2 { return "\(after.resends) resends" }
        if after.isReading, after.isDone || after.state == .connecting || after.state == .idle {
            return "reading in \(after.state)"
        }
        return nil
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
