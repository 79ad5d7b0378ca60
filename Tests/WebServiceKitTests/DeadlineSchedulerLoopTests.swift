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
