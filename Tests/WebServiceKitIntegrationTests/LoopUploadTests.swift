import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if os(Linux)
    /// The own-connection route of ``HTTP1Transport`` (bodies, streamed or in memory, and
    /// downloads) on the event loop: no thread per upload, a streamed body read off the loop (so a
    /// read that blocks holds neither the loop nor the call), a stream that fails, and an early
    /// answer that ends an endless upload. Nothing here measures time: each test waits for what
    /// it expects and checks counts and errors only.
    final class LoopUploadTests: XCTestCase {
        private struct Peer: Decodable, Sendable { let port: Int }

        /// The error a call fails with.
        private func failure(_ call: () async throws -> Void) async -> WebServiceError? {
            do {
                try await call()
                return nil
            } catch {
                return error as? WebServiceError
            }
        }

        func testFiftyConcurrentStreamedUploadsInFlightAtOnceGainNoThreadPerCall() async throws {
            // 50 streamed uploads that the server answers only once all 50 arrived (their bodies
            // read), each on a connection of its own. On a thread per exchange the process would
            // gain some 50 threads; on the loops it gains at most: the sampler, the cooperative
            // pool's threads (one per core at most), the body readers' threads, and a small constant.
            let transport = HTTP1Transport(
                configuration: .ephemeral, cookies: nil,
                limits: .init(perOrigin: 64, total: 64, idleTimeout: 60_000_000_000))
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: transport)
            let body = RequestBody.stream(length: 10_000) { PatternStream(length: 10_000, delay: 0) }
            // The first upload starts the shared loops and a body reader: they are there before
            // the baseline.
            let warmUp = WebServiceCall<Peer>(
                method: .post, relativePath: "keep-alive/barrier?group=\(UUID().uuidString)&n=1")
            _ = try await client.perform(warmUp, body)
            let before = try XCTUnwrap(ProcessResources.threads)
            let peak = ResourcePeak()
            let call = WebServiceCall<Peer>(
                method: .post, relativePath: "keep-alive/barrier?group=\(UUID().uuidString)&n=50", timeout: 60)
            let ports = try await withThrowingTaskGroup(of: Int.self) { tasks in
                for _ in 0..<50 { tasks.addTask { try await client.perform(call, body).port } }
                return try await tasks.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            let most = peak.stop()
            print("own-connection uploads: \(before) threads before 50 streamed uploads at once, peak \(most.threads)")
            XCTAssertEqual(ports.count, 50, "50 connections in flight at once")
            let readers = 2
            let allowance = 1 + ProcessInfo.processInfo.activeProcessorCount + readers + 4
            XCTAssertLessThanOrEqual(
                most.threads - before, allowance, "threads: \(before) before, peak \(most.threads)")
        }

        func testCancellingWhileTheBodyStreamBlocksEndsTheCallBeforeTheReadReturns() async throws {
            // The stream gives its first 1,000 bytes, then blocks in read until released. The
            // read runs off the loop: cancelling ends the call at once, while the read still blocks;
            // the stream is closed once the read returns.
            let stream = StreamProbe()
            let client = WebServiceClient(
                serviceRoot: try FaultServer.url(), transport: HTTP1Transport(configuration: .ephemeral))
            let body = RequestBody.stream(length: 2000, isReplayable: false) { GatedStream(first: 1000, probe: stream) }
            let call = WebServiceCall<Data>(method: .post, relativePath: "ok", timeout: 60)
            let task = Task { try await client.perform(call, body) }
            let blocked = await ProcessResources.eventually(within: 30) { stream.isBlocked }
            XCTAssertTrue(blocked, "the stream's second read began")
            task.cancel()
            // Against a hang only: a transport that waited for the read would end after this
            // release, and fail the check below.
            let safety = Task.detached {
                try? await Task.sleep(nanoseconds: 20_000_000_000)
                if stream.isBlocked { stream.release() }
            }
            defer { safety.cancel() }
            let result = await task.result
            XCTAssertTrue(stream.isBlocked, "the call ended while the stream's read still blocked")
            guard case .failure(let error) = result, case .cancelled? = (error as? WebServiceError)?.reason else {
                stream.release()
                return XCTFail("\(result)")
            }
            XCTAssertFalse(stream.isClosed, "not closed under a read")
            stream.release()
            let closed = await ProcessResources.eventually(within: 30) { stream.isClosed }
            XCTAssertTrue(closed, "the stream is closed once its read returned")
        }

        func testAStreamThatFailsMidBodyFailsTheCallWithATypedError() async throws {
            let stream = StreamProbe()
            let client = WebServiceClient(
                serviceRoot: try FaultServer.url(), transport: HTTP1Transport(configuration: .ephemeral))
            let body = RequestBody.stream(length: nil, isReplayable: false) {
                FailingStream(goodBytes: 700_000, probe: stream)
            }
            let call = WebServiceCall<Data>(method: .post, relativePath: "ok", timeout: 60)
            let error = await failure { _ = try await client.perform(call, body) }
            guard case .requestSerialization(let message)? = error?.reason else {
                return XCTFail("\(String(describing: error))")
            }
            XCTAssertTrue(message.contains("could not be sent"), message)
            XCTAssertTrue(message.contains("the disk went away"), message)
            let closed = await ProcessResources.eventually(within: 30) { stream.isClosed }
            XCTAssertTrue(closed, "the stream is closed")
        }

        func testAnEarlyAnswerEndsAnEndlessChunkedUpload() async throws {
            // An endless stream of unknown length (chunked, Expect: 100-continue): only the
            // server's early 413 can end the call. Each chunk is read only once the one before
            // went out, so the stream was read a bounded number of times.
            let client = WebServiceClient(
                serviceRoot: try HTTPBin.url(), transport: HTTP1Transport(configuration: .ephemeral))
            let body = RequestBody.stream(length: nil, isReplayable: false) { PatternStream(length: .max, delay: 0) }
            let call = WebServiceCall<Data>(method: .post, relativePath: "status/413", timeout: 60)
            let error = await failure { _ = try await client.perform(call, body) }
            guard case .unacceptableStatus(let code, _, _)? = error?.reason else {
                return XCTFail("\(String(describing: error))")
            }
            XCTAssertEqual(code, 413)
        }

        func testABodyInMemoryRefusedBy417GoesAgainWholeFromTheLoop() async throws {
            // 3 MiB and 17 bytes in memory ask Expect: 100-continue; the server refuses it with a
            // 417 before the body, and the request goes again without it on a new connection,
            // its body written whole from the loop.
            struct Echo: Decodable { let length: Int, expect: String }
            let length = 3 * 1024 * 1024 + 17
            let bytes = Data((0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) })
            let client = WebServiceClient(
                serviceRoot: try FaultServer.url(), transport: HTTP1Transport(configuration: .ephemeral))
            let call = WebServiceCall<Echo>(method: .post, relativePath: "expect-417")
            let echo = try await client.perform(call, RequestBody.data(bytes))
            XCTAssertEqual(echo.length, length)
            XCTAssertEqual(echo.expect, "")
        }
    }

    /// What a test stream did, readable from the test while the stream is in the transport's hands.
    private final class StreamProbe: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var blocked = false
        private var closed = false
        let gate = DispatchSemaphore(value: 0)

        var isBlocked: Bool {
            get { lock.withLock { blocked } }
            set { lock.withLock { blocked = newValue } }
        }
        var isClosed: Bool {
            get { lock.withLock { closed } }
            set { lock.withLock { closed = newValue } }
        }
        func release() { gate.signal() }
    }

    /// Gives `first` bytes, then blocks in its next read until its probe is released.
    private final class GatedStream: InputStream {
        private let first: Int
        private let probe: StreamProbe
        private var given = 0
        private var status: Stream.Status = .notOpen

        init(first: Int, probe: StreamProbe) {
            self.first = first
            self.probe = probe
            super.init(data: Data())
        }

        override var streamStatus: Stream.Status { status }
        override var streamError: (any Error)? { nil }
        override var hasBytesAvailable: Bool { true }
        override func open() { status = .open }
        override func close() {
            status = .closed
            probe.isClosed = true
        }

        override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
            let count = min(len, first - given)
            if count > 0 {
                for index in 0..<count { buffer[index] = UInt8(ascii: "x") }
                given += count
                return count
            }
            probe.isBlocked = true
            probe.gate.wait()
            probe.isBlocked = false
            return 0
        }
    }

    private struct DiskGone: Error, CustomStringConvertible {
        var description: String { "the disk went away" }
    }

    /// Gives `goodBytes` bytes, then fails with ``DiskGone``.
    private final class FailingStream: InputStream {
        private let goodBytes: Int
        private let probe: StreamProbe
        private var given = 0
        private var failed = false

        init(goodBytes: Int, probe: StreamProbe) {
            self.goodBytes = goodBytes
            self.probe = probe
            super.init(data: Data())
        }

        override var streamStatus: Stream.Status { failed ? .error : .open }
        override var streamError: (any Error)? { failed ? DiskGone() : nil }
        override var hasBytesAvailable: Bool { true }
        override func open() {}
        override func close() { probe.isClosed = true }

        override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
            let count = min(len, goodBytes - given)
            guard count > 0 else {
                failed = true
                return -1
            }
            for index in 0..<count { buffer[index] = UInt8(ascii: "y") }
            given += count
            return count
        }
    }
#endif
