import Dispatch
import Foundation
import XCTest

@testable import WebServiceKit

#if os(Linux) && canImport(Glibc)
    import Glibc

    /// The event loop with real descriptors (socket pairs) and threads. Nothing here measures
    /// time: each test waits for what it expects (with a generous limit against a hang) and
    /// checks order and content only.
    final class EventLoopTests: XCTestCase {
        private var loop: EventLoop!

        override func setUp() async throws { loop = try EventLoop(name: "test-loop") }

        override func tearDown() async throws { loop.shutdown() }

        /// A connected pair of stream sockets.
        private func socketPair() throws -> (Int32, Int32) {
            var fds: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
                throw URLError(.cannotConnectToHost)
            }
            return (fds[0], fds[1])
        }

        /// Runs `work` on the loop and waits for it.
        private func onLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> T {
            let result = Locked<Result<T, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            XCTAssertTrue(
                loop.execute {
                    result.withLock { $0 = Result { try work() } }
                    done.signal()
                })
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            return try XCTUnwrap(result.current).get()
        }

        func testWorkFromManyThreadsRunsOnTheLoopInTheOrderEachThreadHandedIt() throws {
            let seen = Locked<[[Int]]>(Array(repeating: [], count: 4))
            let offLoop = Locked(0)
            let loop = self.loop!
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for item in 0..<1_000 {
                    loop.execute {
                        if !loop.inLoop { offLoop.withLock { $0 += 1 } }
                        seen.withLock { $0[thread].append(item) }
                    }
                }
            }
            try onLoop {}
            XCTAssertFalse(loop.inLoop)
            XCTAssertEqual(offLoop.current, 0)
            XCTAssertEqual(seen.current, Array(repeating: Array(0..<1_000), count: 4))
        }

        func testAReadableSocketCallsItsHandlerUntilItIsDrained() throws {
            let (mine, peer) = try socketPair()
            defer { close(peer) }
            let received = Locked<[UInt8]>([])
            let done = DispatchSemaphore(value: 0)
            let loop = self.loop!
            let registration = try onLoop {
                try loop.register(mine, interest: .read) { events in
                    guard events.contains(.readable) else { return }
                    // Two bytes at a time: level-triggered, the handler is called again for the rest.
                    var buffer = [UInt8](repeating: 0, count: 2)
                    let count = read(mine, &buffer, 2)
                    guard count > 0 else { return }
                    let total = received.withLock {
                        $0 += buffer.prefix(count)
                        return $0.count
                    }
                    if total == 5 { done.signal() }
                }
            }
            XCTAssertEqual(write(peer, "hello", 5), 5)
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(String(decoding: received.current, as: UTF8.self), "hello")
            try onLoop {
                loop.deregister(registration)
                close(mine)
            }
        }

        func testADeregisteredHandlerIsNeverCalledAgain() throws {
            let (mine, peer) = try socketPair()
            defer { close(peer) }
            let firstCalls = Locked(0)
            let loop = self.loop!
            try onLoop {
                let first = try loop.register(mine, interest: .read) { _ in firstCalls.withLock { $0 += 1 } }
                loop.deregister(first)
            }
            XCTAssertEqual(write(peer, "x", 1), 1)
            let done = DispatchSemaphore(value: 0)
            let second = try onLoop {
                try loop.register(mine, interest: .read) { events in
                    var byte: UInt8 = 0
                    if events.contains(.readable), read(mine, &byte, 1) == 1 { done.signal() }
                }
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertNotEqual(second.token, 0)
            XCTAssertEqual(firstCalls.current, 0)
            try onLoop {
                loop.deregister(second)
                close(mine)
            }
        }

        func testWriteInterestAndThePeersCloseAreReported() throws {
            let (mine, peer) = try socketPair()
            let seen = Locked<[String]>([])
            let done = DispatchSemaphore(value: 0)
            let loop = self.loop!
            let registrationBox = Locked<EventLoop.Registration?>(nil)
            try onLoop {
                let registration = try loop.register(mine, interest: .write) { events in
                    if events.contains(.writable), seen.current.isEmpty {
                        seen.withLock { $0.append("writable") }
                        // Done writing: wait for the peer instead.
                        if let registration = registrationBox.current {
                            try? loop.setInterest(.read, for: registration)
                        }
                    } else if events.contains(.hangUp) {
                        seen.withLock { $0.append("hang-up") }
                        if let registration = registrationBox.current { loop.deregister(registration) }
                        done.signal()
                    }
                }
                registrationBox.withLock { $0 = registration }
            }
            try onLoop {}
            close(peer)
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(seen.current, ["writable", "hang-up"])
            close(mine)
        }

        /// Deadlines decide the order, however late the loop gets to them; a cancelled timer never runs.
        func testTimersRunInDeadlineOrderAndCancelledOnesNever() throws {
            let fired = Locked<[String]>([])
            let done = DispatchSemaphore(value: 0)
            let loop = self.loop!
            try onLoop {
                let now = EventLoop.now()
                let millisecond: UInt64 = 1_000_000
                _ = loop.schedule(at: now + 3 * millisecond) { fired.withLock { $0.append("c") } }
                _ = loop.schedule(at: now + millisecond) { fired.withLock { $0.append("a") } }
                let cancelled = loop.schedule(at: now + millisecond) { fired.withLock { $0.append("x") } }
                _ = loop.schedule(at: now + 2 * millisecond) { fired.withLock { $0.append("b") } }
                _ = loop.schedule(at: now + 4 * millisecond) { done.signal() }
                XCTAssertTrue(loop.cancelTimer(cancelled))
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(fired.current, ["a", "b", "c"])
        }

        func testShutdownRunsWorkHandedBeforeAndRefusesWorkAfter() throws {
            let ran = Locked(0)
            for _ in 0..<100 { loop.execute { ran.withLock { $0 += 1 } } }
            loop.shutdown()
            XCTAssertEqual(ran.current, 100)
            XCTAssertFalse(loop.execute { ran.withLock { $0 += 1 } })
            XCTAssertEqual(ran.current, 100)
            loop.shutdown()  // a second shutdown does nothing
        }

        func testAGroupHandsOutItsLoopsInTurn() throws {
            let group = try EventLoopGroup(count: 3, name: "test-group")
            defer { group.shutdown() }
            let picked = (0..<6).map { _ in group.next() }
            for index in 0..<3 {
                XCTAssertTrue(picked[index] === group.loops[index])
                XCTAssertTrue(picked[index + 3] === group.loops[index])
            }
        }
    }
#endif
