import Foundation
import XCTest

@testable import WebServiceKit

/// The loop count of a group made on first use (``SharedEventLoops``, behind
/// ``HTTP1Transport/eventLoopCount``): where it comes from, and that it is fixed once the group
/// runs. Each test that starts loops uses a group of its own and shuts it down.
final class EventLoopCountTests: XCTestCase {
    func testTheEnvironmentGivesTheDefaultAndAnInvalidValueFallsBackToTheCores() {
        let variable = SharedEventLoops.environmentVariable
        XCTAssertEqual(SharedEventLoops(name: "t", environment: [:], cores: 6).count, 6)
        XCTAssertEqual(SharedEventLoops(name: "t", environment: [variable: "3"], cores: 6).count, 3)
        XCTAssertEqual(SharedEventLoops(name: "t", environment: [variable: " 2 "], cores: 6).count, 2)
        for invalid in ["0", "-1", "two", ""] {
            XCTAssertEqual(SharedEventLoops(name: "t", environment: [variable: invalid], cores: 6).count, 6, invalid)
        }
        // A machine that reports no core still gets a loop.
        XCTAssertEqual(SharedEventLoops(name: "t", environment: [:], cores: 0).count, 1)
    }

    func testACountSetInCodeWinsOverTheEnvironmentAndIsAtLeastOne() {
        let loops = SharedEventLoops(name: "t", environment: [SharedEventLoops.environmentVariable: "3"], cores: 6)
        XCTAssertTrue(loops.setCount(5))
        XCTAssertEqual(loops.count, 5)
        XCTAssertTrue(loops.setCount(0))
        XCTAssertEqual(loops.count, 1)
    }

    #if os(Linux) && canImport(CWebServiceKitSystem)
        /// The names of the process's threads (`/proc/self/task/*/comm`).
        private static func threadNames() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap { task in
                (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }

        /// Returns once every loop of `group` has run work: each has named its thread by then.
        private static func waitUntilRunning(_ group: EventLoopGroup) {
            let ran = DispatchSemaphore(value: 0)
            for loop in group.loops { loop.execute { ran.signal() } }
            for _ in group.loops { _ = ran.wait(timeout: .now() + 30) }
        }

        func testTheGroupStartsWithTheCountSetBeforeItsFirstUse() throws {
            let loops = SharedEventLoops(name: "wsk-count3", environment: [:], cores: 1)
            XCTAssertTrue(loops.setCount(3))
            let group = try loops.group()
            defer { group.shutdown() }
            Self.waitUntilRunning(group)
            XCTAssertEqual(group.loops.count, 3)
            let names = Self.threadNames().filter { $0.hasPrefix("wsk-count3-") }.sorted()
            XCTAssertEqual(names, ["wsk-count3-0", "wsk-count3-1", "wsk-count3-2"])
        }

        func testACountSetAfterTheGroupStartedIsIgnoredAndTheRunningCountIsReported() throws {
            let loops = SharedEventLoops(name: "wsk-count2", environment: [:], cores: 4)
            XCTAssertTrue(loops.setCount(2))
            let group = try loops.group()
            defer { group.shutdown() }
            XCTAssertFalse(loops.setCount(5))
            XCTAssertEqual(loops.count, 2)
            XCTAssertTrue(try loops.group() === group, "the group is started once")
            XCTAssertEqual(group.loops.count, 2)
        }

        func testThePublicSettingReportsTheProcessGroupOnceItRuns() throws {
            let group = try EventLoopGroup.shared()
            XCTAssertEqual(HTTP1Transport.eventLoopCount, group.loops.count)
            // Too late: the process's loops run already.
            HTTP1Transport.eventLoopCount = group.loops.count + 1
            XCTAssertEqual(HTTP1Transport.eventLoopCount, group.loops.count)
            XCTAssertTrue(try EventLoopGroup.shared() === group)
        }
    #endif
}
