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

        func testADispatchTimerStandsInWhileNoLoopCanStartAndTheLoopTakesOverOnceOneDoes() throws {
            let loop = try EventLoop(name: "test-deadlines")
            defer { loop.shutdown() }
            let available = Locked(false)
            let scheduler = DeadlineScheduler { () throws(URLError) -> EventLoop in
                guard available.current else { throw URLError(.cannotConnectToHost, reason: "no descriptor left") }
                return loop
            }
            let first = expectation(description: "the action ran without a loop")
            _ = scheduler.schedule(after: 0.01) {
                XCTAssertFalse(loop.inLoop)
                first.fulfill()
            }
            wait(for: [first], timeout: 10)
            available.withLock { $0 = true }
            let second = expectation(description: "the action ran on the loop")
            _ = scheduler.schedule(after: 0.01) {
                XCTAssertTrue(loop.inLoop)
                second.fulfill()
            }
            wait(for: [second], timeout: 10)
        }

        func testTheSharedSchedulerRunsItsActionsOnTheProcessLoops() {
            let name = Locked("")
            let ran = expectation(description: "the action ran")
            let token = DeadlineScheduler.shared.schedule(after: 0.01) {
                name.withLock { $0 = Self.currentThreadName() }
                ran.fulfill()
            }
            wait(for: [ran], timeout: 10)
            DeadlineScheduler.shared.cancel(token)
            XCTAssertTrue(name.current.hasPrefix(EventLoopGroup.sharedName + "-"), name.current)
        }
    }
#endif
