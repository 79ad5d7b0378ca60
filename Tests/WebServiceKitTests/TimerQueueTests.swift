import XCTest

@testable import WebServiceKit

/// The event loop's timer heap against a plain sorted list, on seeded random operations.
final class TimerQueueTests: XCTestCase {
    func testPopsInDeadlineThenScheduleOrderAndSkipsCancelled() {
        var queue = TimerQueue<String>()
        _ = queue.schedule(at: 30, "c")
        _ = queue.schedule(at: 10, "a")
        let cancelled = queue.schedule(at: 10, "x")
        _ = queue.schedule(at: 20, "b1")
        _ = queue.schedule(at: 20, "b2")
        XCTAssertTrue(queue.cancel(cancelled))
        XCTAssertFalse(queue.cancel(cancelled))
        XCTAssertEqual(queue.nextDeadline(), 10)
        XCTAssertNil(queue.popDue(now: 9))
        var popped: [String] = []
        while let work = queue.popDue(now: 100) { popped.append(work) }
        XCTAssertEqual(popped, ["a", "b1", "b2", "c"])
        XCTAssertEqual(queue.count, 0)
        XCTAssertNil(queue.nextDeadline())
    }

    /// 20,000 random schedules, cancels and pops, checked step by step against a model.
    func testMatchesASortedListModel() {
        var random = SplitMix64(seed: 21)
        var queue = TimerQueue<Int>()
        var model: [(deadline: UInt64, order: Int, id: TimerQueue<Int>.ID)] = []
        var now: UInt64 = 0
        for order in 0..<20_000 {
            switch random.next() % 3 {
            case 0:
                let deadline = now + random.next() % 1_000
                model.append((deadline, order, queue.schedule(at: deadline, order)))
            case 1 where !model.isEmpty:
                let index = Int(random.next() % UInt64(model.count))
                XCTAssertTrue(queue.cancel(model[index].id))
                model.remove(at: index)
            default:
                now += random.next() % 200
                model.sort { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
                let due = model.prefix { $0.deadline <= now }
                var popped: [Int] = []
                while let work = queue.popDue(now: now) { popped.append(work) }
                XCTAssertEqual(popped, due.map(\.order))
                model.removeFirst(due.count)
            }
            XCTAssertEqual(queue.count, model.count)
            XCTAssertEqual(queue.nextDeadline(), model.map(\.deadline).min())
        }
    }
}
