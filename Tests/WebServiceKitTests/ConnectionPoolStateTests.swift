import XCTest

@testable import WebServiceKit

/// The connection pool's decisions, driven by hand with a clock of the test's own: no sockets, no
/// threads, no sleeping. Connections are numbers.
final class ConnectionPoolStateTests: XCTestCase {
    typealias State = ConnectionPoolState<Int>

    /// A grant as a value to compare: `reuse(n)` is "reuse n", a place to open one is "open".
    private func describe(_ grant: State.Grant) -> String {
        switch grant {
        case .reuse(let connection): "reuse \(connection)"
        case .open: "open"
        }
    }

    private func describe(_ grants: [(waiter: State.WaiterID, grant: State.Grant)]) -> [String] {
        grants.map { "\($0.waiter): \(describe($0.grant))" }
    }

    /// The grant of a call that must go at once.
    private func granted(
        _ state: inout State, _ origin: String, at now: UInt64 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) -> String? {
        let (acquisition, _) = state.acquire(origin: origin, now: now)
        guard case .granted(let grant) = acquisition else {
            XCTFail("the call waits", file: file, line: line)
            return nil
        }
        return describe(grant)
    }

    /// The id of a call that must wait.
    private func waiting(
        _ state: inout State, _ origin: String, at now: UInt64 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) -> State.WaiterID {
        let (acquisition, _) = state.acquire(origin: origin, now: now)
        guard case .waiting(let id) = acquisition else {
            XCTFail("the call goes at once", file: file, line: line)
            return 0
        }
        return id
    }

    private func limits(perOrigin: Int = 6, total: Int = 100, idleTimeout: UInt64 = 1_000) -> State.Limits {
        State.Limits(perOrigin: perOrigin, total: total, idleTimeout: idleTimeout)
    }

    // MARK: - Reuse and the per-origin cap

    func testACallReusesTheMostRecentlyUsedIdleConnectionOfItsOrigin() {
        var state = State(limits: limits())
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "a:80"), "open")
        _ = state.release(origin: "a:80", connection: 1, now: 10)
        _ = state.release(origin: "a:80", connection: 2, now: 20)
        XCTAssertEqual(granted(&state, "b:80", at: 30), "open", "another origin's idle connection is not its own")
        XCTAssertEqual(granted(&state, "a:80", at: 30), "reuse 2")
        XCTAssertEqual(granted(&state, "a:80", at: 30), "reuse 1")
        XCTAssertEqual(state.openCount, 3)
    }

    func testCallsPastTheCapOfTheirOriginWaitAndAreServedFirstComeFirstServed() {
        var state = State(limits: limits(perOrigin: 2))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "a:80"), "open")
        let first = waiting(&state, "a:80")
        let second = waiting(&state, "a:80")
        let third = waiting(&state, "a:80")
        XCTAssertEqual(granted(&state, "b:80"), "open", "another origin has a cap of its own")
        XCTAssertEqual(state.waitingCount, 3)

        // A connection given back reusable goes to the first waiting call, still leased.
        var actions = state.release(origin: "a:80", connection: 1, now: 5)
        XCTAssertEqual(describe(actions.grants), ["\(first): reuse 1"])
        XCTAssertNil(actions.armIdleTimer, "nothing went idle")
        // One given back closed leaves its place to the next.
        actions = state.release(origin: "a:80", connection: nil, now: 6)
        XCTAssertEqual(describe(actions.grants), ["\(second): open"])
        actions = state.release(origin: "a:80", connection: 1, now: 7)
        XCTAssertEqual(describe(actions.grants), ["\(third): reuse 1"])
        XCTAssertEqual(state.openCount(for: "a:80"), 2)
        XCTAssertEqual(state.waitingCount, 0)
    }

    func testANewCallWaitsBehindTheCallsAlreadyWaitingForItsOrigin() {
        var state = State(limits: limits(perOrigin: 1))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        let first = waiting(&state, "a:80")
        let actions = state.release(origin: "a:80", connection: 1, now: 1)
        XCTAssertEqual(describe(actions.grants), ["\(first): reuse 1"])
        // The connection is leased again: a new call waits, it does not take a place of its own.
        let second = waiting(&state, "a:80")
        XCTAssertGreaterThan(second, first)
        XCTAssertEqual(state.openCount, 1)
    }

    func testACapBelowOneCountsAsOne() {
        var state = State(limits: limits(perOrigin: 0, total: -3))
        XCTAssertEqual(state.limits.perOrigin, 1)
        XCTAssertEqual(state.limits.total, 1)
        XCTAssertEqual(granted(&state, "a:80"), "open")
        _ = waiting(&state, "a:80")
    }

    // MARK: - Cancelling a waiting call

    func testACancelledWaitingCallLeavesTheQueueAndNeverGetsAConnection() {
        var state = State(limits: limits(perOrigin: 1))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        let cancelled = waiting(&state, "a:80")
        let next = waiting(&state, "a:80")
        let actions = state.cancel(cancelled, now: 0)
        XCTAssertNotNil(actions)
        XCTAssertEqual(actions.map { describe($0.grants) }, [], "the connection is still in use")
        XCTAssertEqual(state.waitingCount, 1)
        XCTAssertNil(state.cancel(cancelled, now: 0), "cancelling twice does nothing")

        let released = state.release(origin: "a:80", connection: 1, now: 1)
        XCTAssertEqual(describe(released.grants), ["\(next): reuse 1"])
        // A call that got its grant is no longer waiting: cancelling it now changes nothing, and
        // the caller gives the grant back itself.
        XCTAssertNil(state.cancel(next, now: 0))
        XCTAssertEqual(state.leasedCount(for: "a:80"), 1)
    }

    func testCancellingTheOnlyWaitingCallOfAnOriginForgetsTheOrigin() {
        var state = State(limits: limits(perOrigin: 1, total: 1))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        let waiter = waiting(&state, "b:80")
        XCTAssertEqual(state.cancel(waiter, now: 0).map { describe($0.grants) }, [])
        let actions = state.release(origin: "a:80", connection: nil, now: 1)
        XCTAssertEqual(describe(actions.grants), [], "no one waits any more")
        XCTAssertEqual(state.openCount, 0)
        XCTAssertEqual(state.openCount(for: "b:80"), 0)
    }

    // MARK: - The total cap

    func testAtTheTotalCapANewOriginClosesTheConnectionIdleTheLongest() {
        var state = State(limits: limits(total: 2))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "b:80"), "open")
        _ = state.release(origin: "a:80", connection: 1, now: 10)
        _ = state.release(origin: "b:80", connection: 2, now: 20)
        let (acquisition, actions) = state.acquire(origin: "c:80", now: 30)
        guard case .granted(let grant) = acquisition else { return XCTFail("c waits") }
        XCTAssertEqual(describe(grant), "open")
        XCTAssertEqual(actions.close, [1])
        XCTAssertEqual(state.openCount, 2)
        XCTAssertEqual(state.openCount(for: "a:80"), 0)
    }

    func testACallWaitingForTheTotalGoesWhenAnotherOriginGivesAConnectionBack() {
        var state = State(limits: limits(total: 2))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "b:80"), "open")
        let forC = waiting(&state, "c:80")
        // Given back reusable, a's connection is closed to make room for c.
        var actions = state.release(origin: "a:80", connection: 1, now: 5)
        XCTAssertEqual(describe(actions.grants), ["\(forC): open"])
        XCTAssertEqual(actions.close, [1])
        let forD = waiting(&state, "d:80")
        actions = state.release(origin: "b:80", connection: nil, now: 6)
        XCTAssertEqual(describe(actions.grants), ["\(forD): open"])
        XCTAssertEqual(state.openCount, 2)
    }

    func testWhenTheTotalFreesUpTheEarliestWaitingCallOfAnyOriginGoesFirst() {
        var state = State(limits: limits(total: 1))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        let forB = waiting(&state, "b:80")
        let forC = waiting(&state, "c:80")
        let forB2 = waiting(&state, "b:80")
        var actions = state.release(origin: "a:80", connection: nil, now: 1)
        XCTAssertEqual(describe(actions.grants), ["\(forB): open"])
        actions = state.release(origin: "b:80", connection: nil, now: 2)
        XCTAssertEqual(describe(actions.grants), ["\(forC): open"])
        actions = state.release(origin: "c:80", connection: nil, now: 3)
        XCTAssertEqual(describe(actions.grants), ["\(forB2): open"])
    }

    // MARK: - Idle timeout

    func testTheFirstIdleConnectionArmsTheTimerAndLaterOnesDoNot() {
        var state = State(limits: limits(idleTimeout: 100))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "b:80"), "open")
        XCTAssertEqual(state.release(origin: "a:80", connection: 1, now: 0).armIdleTimer, 100)
        XCTAssertNil(state.release(origin: "b:80", connection: 2, now: 50).armIdleTimer)
        XCTAssertEqual(state.idleTimer, 100)
    }

    func testTheTimerClosesIdleConnectionsOfEveryOriginOnceTheTimeoutPassed() {
        var state = State(limits: limits(idleTimeout: 100))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "b:80"), "open")
        XCTAssertEqual(granted(&state, "c:80"), "open")
        _ = state.release(origin: "a:80", connection: 1, now: 0)
        _ = state.release(origin: "b:80", connection: 2, now: 50)
        _ = state.release(origin: "c:80", connection: 3, now: 220)

        // Early (a timer may fire a little early): nothing closes, and it comes back at the time.
        var actions = state.expireIdle(now: 99)
        XCTAssertEqual(actions.close, [])
        XCTAssertEqual(actions.armIdleTimer, 199, "not before the interval between runs")

        actions = state.expireIdle(now: 200)
        XCTAssertEqual(actions.close.sorted(), [1, 2], "a and b were idle 200 and 150")
        XCTAssertEqual(actions.armIdleTimer, 320, "c's connection reaches the timeout at 320")
        XCTAssertEqual(state.openCount, 1)

        actions = state.expireIdle(now: 320)
        XCTAssertEqual(actions.close, [3])
        XCTAssertNil(actions.armIdleTimer, "no idle connection is left")
        XCTAssertNil(state.idleTimer)
        XCTAssertEqual(state.openCount, 0)
        XCTAssertEqual(state.idleCount, 0)

        // The next idle connection arms it again.
        XCTAssertEqual(granted(&state, "a:80", at: 400), "open")
        XCTAssertEqual(state.release(origin: "a:80", connection: 4, now: 400).armIdleTimer, 500)
    }

    func testTheTimerRunsAtMostOncePerIntervalWhateverTheIdleTimes() {
        // 10 seconds of idle timeout: the interval is one second.
        let second: UInt64 = 1_000_000_000
        var state = State(limits: limits(idleTimeout: 10 * second))
        XCTAssertEqual(state.reapInterval, second)
        for connection in 1...3 { XCTAssertEqual(granted(&state, "o\(connection):80"), "open") }
        for connection in 1...3 {
            _ = state.release(origin: "o\(connection):80", connection: connection, now: UInt64(connection) * 1_000)
        }
        let actions = state.expireIdle(now: 10 * second + 1_000)
        XCTAssertEqual(actions.close, [1])
        XCTAssertEqual(
            actions.armIdleTimer, 11 * second + 1_000,
            "a second later, not 1,000 ns later when the next one reaches the timeout")
    }

    func testACallClosesItsOriginsIdleConnectionsPastTheTimeoutBeforeTheTimerRuns() {
        var state = State(limits: limits(idleTimeout: 100))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "a:80"), "open")
        _ = state.release(origin: "a:80", connection: 1, now: 0)
        _ = state.release(origin: "a:80", connection: 2, now: 60)
        let (acquisition, actions) = state.acquire(origin: "a:80", now: 120)
        guard case .granted(let grant) = acquisition else { return XCTFail("the call waits") }
        XCTAssertEqual(describe(grant), "reuse 2", "idle 60, under the timeout")
        XCTAssertEqual(actions.close, [1])
        XCTAssertEqual(state.openCount, 1)
    }

    func testClosingEveryIdleConnectionKeepsTheLeasedOnesCounted() {
        var state = State(limits: limits())
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "a:80"), "open")
        XCTAssertEqual(granted(&state, "b:80"), "open")
        _ = state.release(origin: "a:80", connection: 1, now: 0)
        _ = state.release(origin: "b:80", connection: 3, now: 0)
        XCTAssertEqual(state.closeAllIdle().sorted(), [1, 3])
        XCTAssertEqual(state.openCount, 1)
        XCTAssertNil(state.idleTimer)
    }

    func testAReleaseWithoutALeaseChangesNothing() {
        var state = State(limits: limits())
        let actions = state.release(origin: "a:80", connection: 7, now: 0)
        XCTAssertTrue(actions.isEmpty)
        XCTAssertEqual(state.openCount, 0)
        XCTAssertEqual(state.idleCount, 0)
    }

    // MARK: - Deadlines

    /// The pool's timer for a deadline may run late (its thread busy): a connection given back
    /// meanwhile goes to the next call whose deadline has not passed, never to one whose has.
    func testACallWhoseDeadlinePassedIsGivenNothingAndTheNextIsServed() {
        var state = State(limits: limits(perOrigin: 1))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        let (late, _) = state.acquire(origin: "a:80", deadline: 100, now: 0)
        let (onTime, _) = state.acquire(origin: "a:80", deadline: 1_000, now: 0)
        guard case .waiting(let lateID) = late, case .waiting(let onTimeID) = onTime else {
            return XCTFail("both calls wait")
        }
        var actions = state.release(origin: "a:80", connection: 1, now: 100)
        XCTAssertEqual(actions.expired.map(\.waiter), [lateID])
        XCTAssertEqual(actions.expired.map(\.origin), ["a:80"])
        XCTAssertEqual(describe(actions.grants), ["\(onTimeID): reuse 1"])
        XCTAssertNil(state.cancel(lateID, now: 100), "an expired call waits no more")
        XCTAssertEqual(state.waitingCount, 0)

        // The same when the place frees up by a close.
        let (third, _) = state.acquire(origin: "a:80", deadline: 200, now: 150)
        guard case .waiting(let thirdID) = third else { return XCTFail("the call waits") }
        actions = state.release(origin: "a:80", connection: nil, now: 250)
        XCTAssertEqual(actions.expired.map(\.waiter), [thirdID])
        XCTAssertEqual(describe(actions.grants), [])
        XCTAssertEqual(state.openCount, 0)
        XCTAssertEqual(state.waitingCount, 0)
    }

    /// A call does not queue behind calls whose deadline passed: they leave the queue when it
    /// arrives, and it is the next one served.
    func testCallsPastTheirDeadlineHoldNoOneBack() {
        var state = State(limits: limits(perOrigin: 1))
        XCTAssertEqual(granted(&state, "a:80"), "open")
        let (late, _) = state.acquire(origin: "a:80", deadline: 50, now: 0)
        guard case .waiting(let lateID) = late else { return XCTFail("the call waits") }
        let (next, actions) = state.acquire(origin: "a:80", now: 60)
        guard case .waiting(let nextID) = next else { return XCTFail("the origin is at its cap") }
        XCTAssertEqual(actions.expired.map(\.waiter), [lateID])
        XCTAssertEqual(state.waitingCount, 1)
        XCTAssertEqual(describe(state.release(origin: "a:80", connection: 1, now: 70).grants), ["\(nextID): reuse 1"])
    }

    // MARK: - Invariants under any sequence

    /// Thousands of random operations (a fixed seed: the same every run) on three origins, with
    /// the caps, the counts and the order of service checked after each. Some calls have a
    /// deadline: none of them is given anything at or after it.
    func testTheCapsAndTheOrderHoldUnderAnySequenceOfOperations() {
        var random = SplitMix64(seed: 0x5EED)
        let origins = ["a:80", "b:80", "c:80"]
        var state = State(limits: limits(perOrigin: 2, total: 4, idleTimeout: 50))
        var leased: [(origin: String, connection: Int?)] = []
        var waiting: [State.WaiterID: String] = [:]
        var deadlines: [State.WaiterID: UInt64] = [:]
        var nextConnection = 100
        var now: UInt64 = 0
        var open: Set<Int> = []
        var lastServed: [String: State.WaiterID] = [:]

        func apply(_ actions: State.Actions) {
            for closed in actions.close { XCTAssertNotNil(open.remove(closed), "closed twice: \(closed)") }
            for (id, origin) in actions.expired {
                XCTAssertEqual(waiting.removeValue(forKey: id), origin, "expired twice, or of another origin: \(id)")
                XCTAssertLessThanOrEqual(deadlines[id] ?? .max, now, "expired before its deadline: \(id)")
                XCTAssertGreaterThan(id, lastServed[origin] ?? 0, "expired out of order")
                lastServed[origin] = id
            }
            for (id, grant) in actions.grants {
                XCTAssertGreaterThan(deadlines[id] ?? .max, now, "granted at or after its deadline: \(id)")
                guard let origin = waiting.removeValue(forKey: id) else { return XCTFail("granted twice: \(id)") }
                XCTAssertGreaterThan(id, lastServed[origin] ?? 0, "served out of order")
                lastServed[origin] = id
                switch grant {
                case .reuse(let connection): leased.append((origin, connection))
                case .open: leased.append((origin, nil))
                }
            }
        }

        for _ in 0..<20_000 {
            now += random.next(below: 10)
            switch random.next(below: 6) {
            case 0, 1:
                let origin = origins[Int(random.next(below: 3))]
                let deadline = random.next(below: 2) == 0 ? now + random.next(below: 200) : nil
                let (acquisition, actions) = state.acquire(
                    origin: origin, deadline: deadline, now: now)
                apply(actions)
                switch acquisition {
                case .granted(.reuse(let connection)): leased.append((origin, connection))
                case .granted(.open): leased.append((origin, nil))
                case .waiting(let id):
                    waiting[id] = origin
                    deadlines[id] = deadline
                }
            case 2, 3:
                guard !leased.isEmpty else { continue }
                let (origin, connection) = leased.remove(at: Int(random.next(below: UInt64(leased.count))))
                var given: Int?
                if random.next(below: 3) != 0 {
                    given = connection ?? nextConnection
                    nextConnection += 1
                    if let given { open.insert(given) }
                } else if let connection {
                    open.remove(connection)
                }
                apply(state.release(origin: origin, connection: given, now: now))
            case 4:
                guard let id = waiting.keys.min() else { continue }
                if random.next(below: 2) == 0, let actions = state.cancel(id, now: now) {
                    waiting[id] = nil
                    apply(actions)
                }
            default:
                apply(state.expireIdle(now: now))
            }
            // The caps, and the pool's count against the test's.
            XCTAssertLessThanOrEqual(state.openCount, 4)
            for origin in origins { XCTAssertLessThanOrEqual(state.openCount(for: origin), 2) }
            XCTAssertEqual(state.openCount, leased.count + state.idleCount)
            XCTAssertEqual(state.waitingCount, waiting.count)
            // No call waits while it could go: its origin is at its cap, or the total is reached
            // with nothing idle to close.
            for origin in Set(waiting.values) {
                let full = state.openCount(for: origin) >= 2
                XCTAssertTrue(full || (state.openCount >= 4 && state.idleCount == 0), "\(origin) waits for nothing")
            }
        }
    }
}
