import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GET and HEAD requests to plain `http` URLs go over the transport's own kept-alive HTTP/1.1
/// connections (the default on Linux), against the fault server's keep-alive routes and httpbin.
final class KeepAliveTests: XCTestCase {
    /// What `/keep-alive/peer` tells of the connection that carried the request.
    struct Peer: Decodable, Sendable {
        /// The client's port: the same port is the same connection.
        let port: Int
        /// Requests served before this one on the connection.
        let served: Int
    }

    private static let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer?tag=%%0%%")
    private static let dropNext = WebServiceCall<Peer>(relativePath: "keep-alive/drop-next?tag=%%0%%")

    private func client() throws -> WebServiceClient {
        try XCTSkipUnless(URLSessionTransport.usesDirectHTTP1ByDefault, "the direct HTTP/1.1 path is for Linux")
        return WebServiceClient(
            serviceRoot: try FaultServer.url(), transport: URLSessionTransport(configuration: .ephemeral))
    }

    func testSequentialCallsShareOneConnection() async throws {
        let client = try client()
        let tag = UUID().uuidString
        var peers: [Peer] = []
        for _ in 0..<5 { peers.append(try await client.perform(Self.peer, tag)) }
        XCTAssertEqual(Set(peers.map(\.port)).count, 1, "\(peers)")
        XCTAssertEqual(peers.map(\.served), [0, 1, 2, 3, 4])
    }

    func testConcurrentCallsOpenConnectionsThatLaterCallsReuse() async throws {
        let client = try client()
        let tag = UUID().uuidString
        let wave: @Sendable () async throws -> [Peer] = {
            try await withThrowingTaskGroup(of: Peer.self) { group in
                for _ in 0..<8 { group.addTask { try await client.perform(Self.peer, tag) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let first = try await wave()
        let second = try await wave()
        let opened = Set(first.map(\.port))
        XCTAssertTrue(Set(second.map(\.port)).isSubset(of: opened), "\(first) then \(second)")
        XCTAssertTrue(second.allSatisfy { $0.served > 0 }, "\(second)")
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 16)
    }

    func testARequestTheServerDropsOnAKeptConnectionIsSentAgainOnANewOne() async throws {
        let client = try client()
        let tag = UUID().uuidString
        let first = try await client.perform(Self.dropNext, tag)
        // The server closes that connection when this request arrives on it, without answering:
        // the request goes again, on a new connection.
        let second = try await client.perform(Self.peer, tag)
        XCTAssertNotEqual(second.port, first.port)
        XCTAssertEqual(second.served, 0)
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 3, "the first call, the dropped request and the one sent again")
    }

    func testAConnectionTheServerClosesIsNotKept() async throws {
        let client = try client()
        let tag = UUID().uuidString
        let ok = WebServiceCall<Data>(relativePath: "ok?tag=%%0%%")
        // /ok answers with Connection: close; every call needs, and gets, a connection of its own.
        for _ in 0..<3 { _ = try await client.perform(ok, tag) }
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 3)
    }

    func testAnEncodedResponseIsDecodedOnTheDirectPath() async throws {
        try XCTSkipUnless(URLSessionTransport.usesDirectHTTP1ByDefault)
        struct Gzipped: Decodable, Sendable { let gzipped: Bool }
        // httpbin's /gzip answers gzip-encoded even to a request that offers no coding: decoded
        // as it arrives, not fetched again (EncodedResponseTests counts the requests).
        let client = WebServiceClient(serviceRoot: try HTTPBin.url())
        let value = try await client.perform(WebServiceCall<Gzipped>(relativePath: "gzip"))
        XCTAssertTrue(value.gzipped)
    }

    func testARequestAskingForACodingStaysOnTheDirectPathAndIsDecoded() async throws {
        try XCTSkipUnless(URLSessionTransport.usesDirectHTTP1ByDefault)
        struct Gzipped: Decodable, Sendable {
            let gzipped: Bool
            let headers: [String: String]
        }
        let call = WebServiceCall<Gzipped>(relativePath: "gzip", headers: ["Accept-Encoding": "gzip, deflate"])
        let echoed = try await WebServiceClient(serviceRoot: try HTTPBin.url()).perform(call)
        XCTAssertTrue(echoed.gzipped)
        XCTAssertEqual(echoed.headers["Accept-Encoding"], "gzip, deflate")
        // The direct path's User-Agent: the session (libcurl) did not carry it.
        XCTAssertTrue(echoed.headers["User-Agent"]?.hasSuffix("WebServiceKit") ?? false, "\(echoed.headers)")
    }

    func testADirectGETSendsAcceptAndAUserAgentAsTheSessionWould() async throws {
        try XCTSkipUnless(URLSessionTransport.usesDirectHTTP1ByDefault)
        struct Headers: Decodable, Sendable { let headers: [String: String] }
        let echoed = try await WebServiceClient(serviceRoot: try HTTPBin.url())
            .perform(WebServiceCall<Headers>(relativePath: "headers"))
        XCTAssertEqual(echoed.headers["Accept"], "*/*")
        XCTAssertTrue(echoed.headers["User-Agent"]?.hasSuffix("WebServiceKit") ?? false, "\(echoed.headers)")
        XCTAssertNil(echoed.headers["Accept-Encoding"])
    }
}
