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

        /// The check a kept-alive connection gets before a request goes out on it: quiet while
        /// nothing arrived; not once the peer sent bytes or closed, which it reads without
        /// taking anything.
        func testAConnectionIsQuietUntilThePeerSpeaksOrCloses() throws {
            let (mine, peer) = try socketPair()
            defer { close(mine) }
            XCTAssertTrue(SocketOperations.isQuiet(mine))
            var byte: UInt8 = 42
            XCTAssertEqual(write(peer, &byte, 1), 1)
            XCTAssertFalse(SocketOperations.isQuiet(mine), "bytes nobody asked for")
            XCTAssertFalse(SocketOperations.isQuiet(mine), "the peek took nothing")
            XCTAssertEqual(read(mine, &byte, 1), 1)
            XCTAssertTrue(SocketOperations.isQuiet(mine))
            close(peer)
            XCTAssertFalse(SocketOperations.isQuiet(mine), "the peer's close")
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

#if os(Linux) && canImport(Glibc)
    /// A socket on the event loop against a listening socket of the test's own on 127.0.0.1.
    final class LoopSocketTests: XCTestCase {
        private var loop: EventLoop!

        override func setUp() async throws { loop = try EventLoop(name: "test-socket-loop") }

        override func tearDown() async throws { loop.shutdown() }

        /// A listening socket on 127.0.0.1 and its port.
        private func listener() throws -> (fd: Int32, port: Int) { try loopbackListener() }

        func testConnectWriteAndReadToTheEnd() throws {
            let (listening, port) = try listener()
            defer { close(listening) }
            // The server: accept, read "ping", answer "pong", close.
            let server = Thread {
                let peer = accept(listening, nil, nil)
                var buffer = [UInt8](repeating: 0, count: 4)
                var got = 0
                while got < 4 {
                    let count = buffer.withUnsafeMutableBytes { read(peer, $0.baseAddress! + got, 4 - got) }
                    if count <= 0 { break }
                    got += count
                }
                if buffer == Array("ping".utf8) { _ = write(peer, "pong", 4) }
                close(peer)
            }
            server.start()
            let addresses = try SocketOperations.resolve(host: "127.0.0.1", port: port)
            let outcome = Locked<[String]>([])
            let done = DispatchSemaphore(value: 0)
            let loop = self.loop!
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
            defer { buffer.deallocate() }
            let unsafeBuffer = UnsafeSendableBuffer(buffer)
            loop.execute {
                let socket = LoopSocket(loop: loop)
                socket.connect(to: addresses[...], name: "127.0.0.1:\(port)") { result in
                    guard case .success = result else {
                        outcome.withLock { $0.append("connect failed") }
                        done.signal()
                        return
                    }
                    outcome.withLock { $0.append("connected") }
                    let ping = Array("ping".utf8)
                    let wrote = ping.withUnsafeBytes { SocketOperations.send(socket.fd, $0) }
                    outcome.withLock { $0.append("wrote \(wrote)") }
                    var received: [UInt8] = []
                    socket.watch(.read) { _ in
                        let transfer = SocketOperations.receive(socket.fd, into: unsafeBuffer.value)
                        guard case .moved(let count) = transfer else {
                            if transfer == .wouldBlock { return }
                            outcome.withLock { $0.append("read \(transfer)") }
                            socket.close()
                            done.signal()
                            return
                        }
                        if count == 0 {
                            outcome.withLock { $0.append("received \(String(decoding: received, as: UTF8.self))") }
                            socket.close()
                            done.signal()
                            return
                        }
                        received += UnsafeRawBufferPointer(rebasing: unsafeBuffer.value[..<count])
                    }
                }
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(outcome.current, ["connected", "wrote moved(4)", "received pong"])
        }

        func testAReaderThatReconnectsOnTheEndOfTheStreamGetsItsConnection() throws {
            // The server closes its first connection at once and accepts a second. The client's
            // read sees the end, closes the socket and connects it again from inside the read's
            // consumer (as a request that goes again after a dropped connection does): the new
            // connection's completion must come, not be dropped with the finished read.
            let (listening, port) = try listener()
            defer { close(listening) }
            let server = Thread {
                close(accept(listening, nil, nil))
                let second = accept(listening, nil, nil)
                _ = write(second, "x", 1)
                close(second)
            }
            server.start()
            let addresses = try SocketOperations.resolve(host: "127.0.0.1", port: port)
            let outcome = Locked<[String]>([])
            let done = DispatchSemaphore(value: 0)
            let loop = self.loop!
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
            defer { buffer.deallocate() }
            let unsafeBuffer = UnsafeSendableBuffer(buffer)
            loop.execute {
                let socket = LoopSocket(loop: loop)
                socket.connect(to: addresses[...], name: "first") { _ in
                    socket.watch(.read) { _ in
                        let transfer = SocketOperations.receive(socket.fd, into: unsafeBuffer.value)
                        outcome.withLock { $0.append("first read \(transfer)") }
                        socket.close()
                        socket.connect(to: addresses[...], name: "second") { result in
                            outcome.withLock { $0.append("second connect \((try? result.get()) != nil)") }
                            socket.watch(.read) { _ in
                                let transfer = SocketOperations.receive(socket.fd, into: unsafeBuffer.value)
                                outcome.withLock { $0.append("second read \(transfer)") }
                                socket.close()
                                done.signal()
                            }
                        }
                    }
                }
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(outcome.current, ["first read moved(0)", "second connect true", "second read moved(1)"])
        }

        func testARefusedConnectionIsATypedError() throws {
            // A port that was listening and is closed: nothing accepts there.
            let (listening, port) = try listener()
            close(listening)
            let addresses = try SocketOperations.resolve(host: "127.0.0.1", port: port)
            let failure = Locked<URLError?>(nil)
            let done = DispatchSemaphore(value: 0)
            let loop = self.loop!
            loop.execute {
                let socket = LoopSocket(loop: loop)
                socket.connect(to: addresses[...], name: "127.0.0.1:\(port)") { result in
                    if case .failure(let error) = result { failure.withLock { $0 = error } }
                    XCTAssertFalse(socket.isOpen)
                    done.signal()
                }
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(failure.current?.code, .cannotConnectToHost)
        }
    }

    /// A buffer handed to the loop's thread, which alone uses it while the test waits.
    private struct UnsafeSendableBuffer: @unchecked Sendable {
        let value: UnsafeMutableRawBufferPointer
        init(_ value: UnsafeMutableRawBufferPointer) { self.value = value }
    }
#endif
