import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if os(Linux)
    /// Every kind of request on the pool's kept-alive connections (``HTTP1ConnectionMachine`` run by
    /// ``HTTP1Exchange``): a streamed body, a body in memory over 64 KiB, one that asks
    /// `Expect: 100-continue`, a download to a file, each after a GET on the same connection and
    /// before the next call on it; a 417 and an early 413 on a reused connection. The fault server
    /// says which connection carried a request (its port) and how many it served before.
    final class PooledConnectionTests: XCTestCase {
        private struct Peer: Decodable, Sendable, Equatable {
            let port: Int
            let served: Int
        }

        private var directory: URL!

        override func setUpWithError() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-pooled-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

        private func client() throws -> WebServiceClient {
            WebServiceClient(serviceRoot: try FaultServer.url(), transport: HTTP1Transport(configuration: .ephemeral))
        }

        private static let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer")
        private static let upload = WebServiceCall<Peer>(method: .post, relativePath: "keep-alive/peer")

        /// `Scripts/test` runs these suites twice: on the event loop, and through the blocking
        /// driver (`WEBSERVICEKIT_HTTP1_THREADS=1`); this says the second run is what it claims.
        func testTheDriverIsTheOneTheEnvironmentAsksFor() async throws {
            let threads = ProcessInfo.processInfo.environment["WEBSERVICEKIT_HTTP1_THREADS"] == "1"
            let transport = HTTP1Transport(configuration: .ephemeral)
            XCTAssertEqual(transport.pool.onThreads, threads)
            let connection = try await transport.pool.connection(to: "127.0.0.1:9", deadline: nil)
            defer { transport.pool.release(connection, to: "127.0.0.1:9", reusable: false) }
            switch connection.socket {
            case .loop: XCTAssertFalse(threads, "a loop connection in the blocking run")
            case .blocking: XCTAssertTrue(threads, "a blocking connection in the loop run")
            }
        }

        func testEveryKindOfRequestRidesTheSameKeptAliveConnection() async throws {
            let client = try client()
            let first = try await client.perform(Self.peer)
            var expected = 1
            func check(_ response: WebServiceResponse<Peer>, _ label: String) {
                XCTAssertEqual(response.value, Peer(port: first.port, served: expected), label)
                XCTAssertEqual(response.metrics.transactions.first?.connectionReused, true, label)
                expected += 1
            }
            // A stream of known length: Content-Length, no expectation under 1 MiB.
            let streamed = RequestBody.stream(length: 200_000, isReplayable: false) {
                PatternStream(length: 200_000, delay: 0)
            }
            let afterStream = try await client.response(for: Self.upload, arguments: [streamed])
            check(afterStream, "a streamed body")
            XCTAssertEqual(afterStream.metrics.transactions.first?.requestBodyBytes, 200_000)
            // A stream of unknown length: chunked, asking Expect: 100-continue; the server sends no
            // 100, so the body goes when the wait ends.
            let chunked = RequestBody.stream(length: nil, isReplayable: false) {
                PatternStream(length: 70_000, delay: 0)
            }
            check(try await client.response(for: Self.upload, arguments: [chunked]), "a chunked body")
            // 3 MiB in memory: in pieces after the head, with the expectation.
            let large = Data(repeating: UInt8(ascii: "x"), count: 3 * 1024 * 1024)
            let afterLarge = try await client.response(for: Self.upload, arguments: [RequestBody.data(large)])
            check(afterLarge, "a body over 1 MiB in memory")
            XCTAssertEqual(afterLarge.metrics.transactions.first?.requestBodyBytes, Int64(large.count))
            // A download to a file: the answer goes to the file, the connection back to the pool.
            let destination = directory.appendingPathComponent("peer.json")
            let download = WebServiceCall<DownloadedFile>(relativePath: "keep-alive/peer")
            let file = try await client.perform(download, [DownloadDestination(destination)])
            let written = try JSONDecoder().decode(Peer.self, from: Data(contentsOf: file.url))
            XCTAssertEqual(written, Peer(port: first.port, served: expected), "a download to a file")
            expected += 1
            check(try await client.response(for: Self.peer, arguments: []), "a GET after them all")
        }

        func testA417OnAReusedConnectionSendsTheRequestAgainWithoutTheExpectation() async throws {
            // RFC 9110 §10.1.1: the server refuses the expectation before the body; the request
            // goes again without it, on a new connection, its body whole.
            struct Echo: Decodable { let length: Int, expect: String }
            let client = try client()
            let first = try await client.perform(Self.peer)
            let length = 2 * 1024 * 1024 + 3
            let call = WebServiceCall<Echo>(method: .post, relativePath: "expect-417")
            let echo = try await client.response(
                for: call, arguments: [RequestBody.data(Data(repeating: 7, count: length))])
            XCTAssertEqual(echo.value.length, length)
            XCTAssertEqual(echo.value.expect, "")
            XCTAssertEqual(echo.metrics.transactions.first?.connectionReused, false, "sent again on a new one")
            // The pool still serves: the first connection was given up, not lost.
            let after = try await client.perform(Self.peer)
            XCTAssertNotEqual(after.port, first.port)
        }

        func testAnEarlyFinalAnswerOnAReusedConnectionEndsTheUploadAndTheConnection() async throws {
            // RFC 9112 §9.5: the server answers 413 and closes while an endless body goes out on
            // a connection that carried a GET before; the call fails with the 413, and the next
            // call gets a new connection.
            let client = WebServiceClient(
                serviceRoot: try HTTPBin.url(), transport: HTTP1Transport(configuration: .ephemeral))
            let get = WebServiceCall<Data>(relativePath: "get")
            let warm = try await client.response(for: get, arguments: [])
            XCTAssertEqual(warm.statusCode, 200)
            let body = RequestBody.stream(length: nil, isReplayable: false) { PatternStream(length: .max, delay: 0) }
            let call = WebServiceCall<Data>(method: .post, relativePath: "status/413", timeout: 60)
            do {
                _ = try await client.perform(call, body)
                XCTFail("an endless upload succeeded")
            } catch {
                XCTAssertEqual(error.statusCode, 413, "\(error)")
            }
            let next = try await client.response(for: get, arguments: [])
            XCTAssertEqual(next.statusCode, 200)
            XCTAssertEqual(next.metrics.transactions.first?.connectionReused, false)
        }

        /// A timeout says where the exchange stopped and which setting raises it (the machine's
        /// phase): a body that drips past the call's timeout. Which phase it names depends on
        /// when the head arrived, so either of the two after the request went out is accepted.
        func testATimeoutNamesItsPhaseAndTheSettingToRaise() async throws {
            let client = try client()
            let drip = WebServiceCall<Data>(relativePath: "drip?interval=0.2&bytes=1000", timeout: 1)
            do {
                _ = try await client.perform(drip)
                XCTFail("a body dripping for 200 s arrived within 1 s")
            } catch {
                XCTAssertTrue(error.isTimeout, "\(error)")
                let text = "\(error)"
                XCTAssertTrue(
                    text.contains("while receiving the response") || text.contains("while waiting for the response"),
                    text)
                XCTAssertTrue(text.contains("Raise the call's timeout"), text)
                XCTAssertTrue(text.contains("the call's timeout of 1 s passed while"), "the limit: \(text)")
            }
        }
    }
#endif
