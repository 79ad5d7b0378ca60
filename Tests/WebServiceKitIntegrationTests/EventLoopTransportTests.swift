import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if os(Linux)
    /// The kept-alive route of ``HTTP1Transport`` on the event loop, against the fault server: no
    /// thread parked per call, cancellation and the deadline as loop events, and idle connections
    /// the server closes released at once. Nothing here measures time: each test waits for what
    /// it expects (with a generous limit against a hang) and checks counts and errors only.
    final class EventLoopTransportTests: XCTestCase {
        /// Forwards to an ``HTTP1Transport`` and keeps every error it threw, as it threw it (the
        /// client may retry, and wraps errors).
        private final class Recording: WebServiceTransport {
            let inner: HTTP1Transport
            let errors = Locked<[any Error]>([])

            init(_ inner: HTTP1Transport) { self.inner = inner }

            func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
                do {
                    return try await inner.send(request, context: context)
                } catch {
                    errors.withLock { $0.append(error) }
                    throw error
                }
            }
        }

        private struct Peer: Decodable, Sendable { let port: Int }

        /// The names of the process's threads (`/proc/self/task/*/comm`).
        private static func threadNames() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap { task in
                (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }

        /// What the fault server sent so far for `tag` (without waiting for it to finish).
        private static func sent(_ tag: String) async throws -> Int {
            let call = WebServiceCall<FaultServer.Record>(relativePath: "count?tag=%%0%%")
            return try await WebServiceClient(serviceRoot: try FaultServer.url()).perform(call, tag).sent
        }

        func testTwoHundredConcurrentGETsInFlightAtOnceParkNoThreadPerCall() async throws {
            // 200 calls that the server answers only once all 200 are at the server, each on a
            // connection of its own. On the blocking path each would hold a thread in poll(2)
            // (some 200 threads); on the loops, the process gains at most a few: the sampler, the
            // cooperative pool's threads (one per core at most), and a small constant.
            let transport = HTTP1Transport(
                configuration: .ephemeral, cookies: nil,
                limits: .init(perOrigin: 256, total: 256, idleTimeout: 60_000_000_000))
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: transport)
            let tag = UUID().uuidString
            let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer?tag=%%0%%")
            // The first call starts the shared loops: they are there before the baseline.
            _ = try await client.perform(peer, tag)
            let loops = try EventLoopGroup.shared().loops.count
            let before = Self.threadNames()
            let peak = ResourcePeak()
            let group = UUID().uuidString
            let barrier = WebServiceCall<Peer>(
                relativePath: "keep-alive/barrier?tag=%%0%%&group=%%1%%&n=%%2%%", timeout: 60)
            let ports = try await withThrowingTaskGroup(of: Int.self) { tasks in
                for _ in 0..<200 { tasks.addTask { try await client.perform(barrier, tag, group, 200).port } }
                return try await tasks.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            let most = peak.stop()
            let after = Self.threadNames()
            print("event-loop threads: \(before.count) before 200 GETs in flight at once, peak \(most.threads)")
            XCTAssertEqual(ports.count, 200, "200 connections in flight at once")
            let allowance = 1 + ProcessInfo.processInfo.activeProcessorCount + 4
            XCTAssertLessThanOrEqual(
                most.threads - before.count, allowance, "threads: \(before.count) before, peak \(most.threads)")
            XCTAssertEqual(before.filter { $0.hasPrefix(EventLoopGroup.sharedName + "-") }.count, loops, "\(before)")
            XCTAssertEqual(after.filter { $0.hasPrefix(EventLoopGroup.sharedName + "-") }.count, loops, "\(after)")
            XCTAssertEqual(transport.pool.counts.open, 200)
            XCTAssertEqual(transport.pool.counts.idle, 200)
        }

        func testCancellingACallMidResponseClosesItsConnectionAndEndsTheCallOnce() async throws {
            let transport = HTTP1Transport(configuration: .ephemeral)
            let recording = Recording(transport)
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: recording)
            let tag = UUID().uuidString
            // 120 bytes, one each half second: a minute, unless the client hangs up.
            let call = WebServiceCall<Data>(relativePath: "drip?interval=0.5&bytes=120&tag=\(tag)")
            let task = Task { try await client.perform(call) }
            // Mid-response: the server sent the head and the body's first byte.
            var waited = 0
            while try await Self.sent(tag) < 1, waited < 3_000 {
                try await Task.sleep(nanoseconds: 10_000_000)
                waited += 1
            }
            task.cancel()
            do {
                let body = try await task.value
                XCTFail("a cancelled call was answered: \(body.count) bytes")
            } catch let error as WebServiceError {
                XCTAssertTrue(error.isCancelled, "\(error)")
            }
            let errors = recording.errors.current
            XCTAssertEqual(errors.count, 1, "\(errors)")
            XCTAssertEqual((errors.first as? URLError)?.code, .cancelled, "\(errors)")
            XCTAssertEqual(transport.pool.counts.open, 0)
            // The server's sends fail once the connection is closed: it stops long before its
            // minute (FaultServer.record waits until it is done with the request).
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertEqual(record.finished, 1)
            XCTAssertLessThan(record.sent, 120)
        }

        func testTheDeadlineEndsACallTheServerIsSlowToAnswer() async throws {
            let transport = HTTP1Transport(configuration: .ephemeral)
            let recording = Recording(transport)
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: recording)
            let tag = UUID().uuidString
            let call = WebServiceCall<Data>(relativePath: "drip?interval=0.5&bytes=120&tag=\(tag)", timeout: 1)
            do {
                let body = try await client.perform(call)
                XCTFail("a call past its deadline was answered: \(body.count) bytes")
            } catch {
                XCTAssertTrue(error.isTimeout, "\(error)")
            }
            let errors = recording.errors.current
            XCTAssertFalse(errors.isEmpty)
            for error in errors { XCTAssertEqual((error as? URLError)?.code, .timedOut, "\(errors)") }
            XCTAssertEqual(transport.pool.counts.open, 0)
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertLessThan(record.sent, 120)
        }

        func testAHostNameIsResolvedOffTheLoopAndEveryAddressIsTried() async throws {
            // `localhost` is a name (resolved on the resolver's threads, not the loop's), which
            // may give ::1 first: the fault server listens on 127.0.0.1 only, so the connection
            // goes on to the next address.
            // Outside XCTUnwrap: without the server, FaultServer.url() skips the test.
            let server = try FaultServer.url()
            var components = try XCTUnwrap(URLComponents(url: server, resolvingAgainstBaseURL: false))
            components.host = "localhost"
            let root = try XCTUnwrap(components.url)
            let transport = HTTP1Transport(configuration: .ephemeral)
            let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer?tag=%%0%%")
            let tag = UUID().uuidString
            let client = WebServiceClient(serviceRoot: root, transport: transport)
            let first = try await client.perform(peer, tag)
            let second = try await client.perform(peer, tag)
            XCTAssertEqual(first.port, second.port, "one kept-alive connection")
            XCTAssertEqual(transport.pool.counts.idle, 1)
        }

        func testAnIdleConnectionTheServerClosesIsClosedWithoutAnotherCall() async throws {
            let transport = HTTP1Transport(configuration: .ephemeral)
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: transport)
            // A complete response that keeps the connection (no `Connection: close`), after which
            // the server ends its side: the connection goes to the pool, then the server closes it.
            let response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"
            let encoded = Data(response.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            let before = try XCTUnwrap(ProcessResources.openSockets)
            let body = try await client.perform(WebServiceCall<Data>(relativePath: "raw?b64=\(encoded)"))
            XCTAssertEqual(body, Data("ok".utf8))
            XCTAssertEqual(transport.pool.counts.idle, 1, "the response left the connection reusable")
            // Its descriptor is released as the server's close arrives, not at the idle timeout
            // (30 s) nor when the next call takes it from the pool.
            let released = await ProcessResources.eventually(within: 20) {
                (ProcessResources.openSockets ?? .max) <= before
            }
            XCTAssertTrue(released, "sockets: \(before) before, \(ProcessResources.openSockets ?? -1) now")
            // The next call finds it closed and goes on a new connection.
            let again = try await client.perform(WebServiceCall<Data>(relativePath: "raw?b64=\(encoded)"))
            XCTAssertEqual(again, Data("ok".utf8))
        }
    }
#endif
