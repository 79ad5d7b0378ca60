import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if os(Linux) && canImport(CWebServiceKitSystem)
    /// Where ``DeadlineScheduler`` runs its actions on Linux: on an event loop's thread, with no
    /// thread of its own, and on a Dispatch timer that stands in while no loop runs. Each test
    /// waits for the action it expects (with a generous limit against a hang); none measures time.
    final class DeadlineSchedulerLoopTests: XCTestCase {
        /// The name of the calling thread (`/proc/thread-self/comm`).
        private static func currentThreadName() -> String {
            ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Whether `object` has a side table: the word after its isa is then the table's address,
        /// shifted and marked by its two top bits (`UseSlowRC` and `SideTableMark` in the Swift
        /// runtime's RefCount.h, 64-bit layout). A weak reference is what makes one.
        private static func hasSideTable(_ object: AnyObject) -> Bool {
            let word = Unmanaged.passUnretained(object).toOpaque().load(
                fromByteOffset: MemoryLayout<UInt>.size, as: UInt64.self)
            return word >> 62 == 0b11
        }

        private final class Probe {}

        /// The twin of the next test: the check sees the side table a weak reference makes.
        func testTheSideTableCheckSeesAWeakReference() {
            let probe = Probe()
            XCTAssertFalse(Self.hasSideTable(probe))
            let weakProbe = { [weak probe] in probe }
            XCTAssertNotNil(weakProbe())
            XCTAssertTrue(Self.hasSideTable(probe))
        }

        /// The scheduler's timer closures hold it by no weak reference, on any path (the loop's
        /// timer armed from another thread and from the loop's own, the stand-in, the scheduler
        /// going away): a side table on the process's scheduler, which lives until exit, was
        /// what valgrind reported as a definite leak (Docs/Reliability.md, "Leak check").
        func testTheSchedulerGetsNoSideTable() throws {
            let loop = try EventLoop(name: "test-deadlines")
            defer { loop.shutdown() }
            let scheduler = DeadlineScheduler(loop: loop)
            let ran = expectation(description: "every action ran")
            ran.expectedFulfillmentCount = 3
            _ = scheduler.schedule(after: 0.01) {
                // From the loop's own thread too.
                _ = scheduler.schedule(after: 0.01) { ran.fulfill() }
                ran.fulfill()
            }
            let cancelled = scheduler.schedule(after: 60) { XCTFail("a cancelled action ran") }
            scheduler.cancel(cancelled)
            let stopped = try EventLoop(name: "test-stopped")
            stopped.shutdown()
            let standIn = DeadlineScheduler(loop: stopped)
            _ = standIn.schedule(after: 0.01) { ran.fulfill() }
            wait(for: [ran], timeout: 10)
            XCTAssertFalse(Self.hasSideTable(scheduler))
            XCTAssertFalse(Self.hasSideTable(standIn))
            XCTAssertFalse(Self.hasSideTable(DeadlineScheduler.shared))
        }

        /// A scheduler that goes away with actions pending runs none of them, and lets go of its
        /// timer: what its loop or stand-in held of it is released.
        func testASchedulerThatGoesAwayRunsNothingMoreAndIsReleased() throws {
            let loop = try EventLoop(name: "test-deadlines")
            defer { loop.shutdown() }
            weak var released: DeadlineScheduler?
            let flushed = expectation(description: "the loop ran the work queued before")
            do {
                let scheduler = DeadlineScheduler(loop: loop)
                released = scheduler
                _ = scheduler.schedule(after: 0.05) { XCTFail("an action of a scheduler that went away ran") }
            }
            XCTAssertNil(released, "the scheduler is released")
            // The loop's timer would have fired by now; the work queued after it shows it did not run.
            let late = DeadlineScheduler(loop: loop)
            _ = late.schedule(after: 0.1) { flushed.fulfill() }
            wait(for: [flushed], timeout: 10)
        }

        func testActionsRunOnTheLoopsThreadInDeadlineOrder() throws {
            let loop = try EventLoop(name: "test-deadlines")
            defer { loop.shutdown() }
            let scheduler = DeadlineScheduler(loop: loop)
            let seen = Locked<[(Int, Bool)]>([])
            let done = expectation(description: "both ran")
            done.expectedFulfillmentCount = 2
            for (label, delay) in [(1, 0.10), (2, 0.02)] {
                _ = scheduler.schedule(after: delay) {
                    seen.withLock { $0.append((label, loop.inLoop)) }
                    done.fulfill()
                }
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(seen.current.map(\.0), [2, 1])
            XCTAssertEqual(seen.current.map(\.1), [true, true], "every action on the loop's thread")
        }

        func testAnEarlierDeadlineFromTheLoopsOwnThreadRearmsItsTimer() throws {
            // An action that schedules (as the pool's idle timer does) arms the timer on the spot.
            let loop = try EventLoop(name: "test-deadlines")
            defer { loop.shutdown() }
            let scheduler = DeadlineScheduler(loop: loop)
            let late = scheduler.schedule(after: 60) { XCTFail("the late action must not run") }
            let inner = expectation(description: "the action scheduled by an action ran")
            _ = scheduler.schedule(after: 0.01) {
                _ = scheduler.schedule(after: 0.01) { inner.fulfill() }
            }
            wait(for: [inner], timeout: 10)
            scheduler.cancel(late)
            XCTAssertEqual(scheduler.counts.pending, 0)
        }

        func testADispatchTimerStandsInWhenTheLoopHasStopped() throws {
            let loop = try EventLoop(name: "test-deadlines")
            loop.shutdown()
            let scheduler = DeadlineScheduler(loop: loop)
            let ran = expectation(description: "the action ran without its loop")
            _ = scheduler.schedule(after: 0.01) {
                XCTAssertFalse(loop.inLoop)
                ran.fulfill()
            }
            wait(for: [ran], timeout: 10)
        }

        func testTheSchedulerStartsNoLoopAndMovesToTheLoopsOnceTheyRun() throws {
            // As the process's scheduler with its group: a process that only uses URLSession
            // gets no loop thread for its deadlines, and one whose loops run gets no other.
            let loops = SharedEventLoops(name: "wsk-dl", environment: [:], cores: 1)
            let scheduler = DeadlineScheduler(loopsOf: loops)
            let first = expectation(description: "the action ran without a loop")
            let firstThread = Locked("")
            _ = scheduler.schedule(after: 0.01) {
                firstThread.withLock { $0 = Self.currentThreadName() }
                first.fulfill()
            }
            wait(for: [first], timeout: 10)
            XCTAssertNil(loops.runningGroup, "the scheduler started the loops")
            XCTAssertFalse(firstThread.current.hasPrefix("wsk-dl-"), firstThread.current)

            let group = try loops.group()
            defer { group.shutdown() }
            let second = expectation(description: "the action ran on the loop")
            let secondThread = Locked("")
            _ = scheduler.schedule(after: 0.01) {
                secondThread.withLock { $0 = Self.currentThreadName() }
                second.fulfill()
            }
            wait(for: [second], timeout: 10)
            XCTAssertEqual(secondThread.current, "wsk-dl-0")
        }
    }
#endif
