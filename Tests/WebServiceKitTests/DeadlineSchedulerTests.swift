import Foundation
import XCTest

@testable import WebServiceKit

final class DeadlineSchedulerTests: XCTestCase {
    /// Collects what the actions did, in order.
    private final class Record: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var items: [Int] = []

        func append(_ item: Int) { lock.withLock { items.append(item) } }
        var all: [Int] { lock.withLock { items } }
    }

    func testActionsRunInDeadlineOrderWhateverTheOrderTheyWereScheduledIn() {
        let scheduler = DeadlineScheduler()
        let record = Record()
        let done = expectation(description: "all three ran")
        done.expectedFulfillmentCount = 3
        for (label, delay) in [(1, 0.30), (2, 0.05), (3, 0.15)] {
            _ = scheduler.schedule(after: delay) {
                record.append(label)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(record.all, [2, 3, 1])
        XCTAssertEqual(scheduler.counts.pending, 0)
        XCTAssertEqual(scheduler.counts.stored, 0)
    }

    func testAnEarlierDeadlineScheduledAfterALaterOneRearmsTheTimer() {
        let scheduler = DeadlineScheduler()
        let early = expectation(description: "the early action ran")
        let late = scheduler.schedule(after: 30) { XCTFail("the late action must not run") }
        let start = Date()
        _ = scheduler.schedule(after: 0.05) { early.fulfill() }
        wait(for: [early], timeout: 5)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        scheduler.cancel(late)
    }

    func testACancelledActionNeverRuns() {
        let scheduler = DeadlineScheduler()
        let record = Record()
        let later = expectation(description: "the action after it ran")
        let cancelled = scheduler.schedule(after: 0.05) { record.append(1) }
        _ = scheduler.schedule(after: 0.2) {
            record.append(2)
            later.fulfill()
        }
        scheduler.cancel(cancelled)
        // Cancelling twice, or after the action ran, changes nothing.
        scheduler.cancel(cancelled)
        wait(for: [later], timeout: 5)
        XCTAssertEqual(record.all, [2])
    }

    func testCancelledDeadlinesDoNotPileUp() {
        // What DispatchQueue.asyncAfter did: every cancelled work item stayed until its deadline.
        let scheduler = DeadlineScheduler()
        let tokens = (0..<10_000).map { _ in scheduler.schedule(after: 60) { XCTFail("cancelled") } }
        XCTAssertEqual(scheduler.counts.pending, 10_000)
        for token in tokens { scheduler.cancel(token) }
        XCTAssertEqual(scheduler.counts.pending, 0)
        XCTAssertLessThanOrEqual(scheduler.counts.stored, 64)
    }

    func testLiveDeadlinesSurviveCompaction() {
        let scheduler = DeadlineScheduler()
        let kept = expectation(description: "the kept actions ran")
        kept.expectedFulfillmentCount = 10
        var tokens: [DeadlineScheduler.Token] = []
        for index in 0..<1_000 {
            if index % 100 == 0 {
                _ = scheduler.schedule(after: 0.1 + Double(index) / 10_000) { kept.fulfill() }
            } else {
                tokens.append(scheduler.schedule(after: 60) { XCTFail("cancelled") })
            }
        }
        for token in tokens { scheduler.cancel(token) }
        XCTAssertLessThan(scheduler.counts.stored, 1_000)
        wait(for: [kept], timeout: 5)
        XCTAssertEqual(scheduler.counts.pending, 0)
    }
}
