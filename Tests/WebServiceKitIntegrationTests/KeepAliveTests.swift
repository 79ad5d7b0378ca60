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
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the direct HTTP/1.1 path is for Linux")
        return WebServiceClient(
            serviceRoot: try FaultServer.url(), transport: RoutingTransport(configuration: .ephemeral))
    }

    func testSequentialCallsShareOneConnection() async throws {
        let client = try client()
        let tag = UUID().uuidString
        var peers: [Peer] = []
        for _ in 0..<5 { peers.append(try await client.perform(Self.peer, tag)) }
        XCTAssertEqual(Set(peers.map(\.port)).count, 1, "\(peers)")
        XCTAssertEqual(peers.map(\.served), [0, 1, 2, 3, 4])
    }

    /// A client whose session configuration allows `perHost` connections per origin.
    private func client(connectionsPerHost perHost: Int) throws -> WebServiceClient {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the direct HTTP/1.1 path is for Linux")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = perHost
        return WebServiceClient(
            serviceRoot: try FaultServer.url(), transport: RoutingTransport(configuration: configuration))
    }

    /// `/keep-alive/barrier`: answered only once `count` requests of `group` are at the server.
    private static let barrier = WebServiceCall<Peer>(
        relativePath: "keep-alive/barrier?tag=%%0%%&group=%%1%%&n=%%2%%", timeout: 20)

    /// `call` with `arguments`, in a task of its own.
    private static func start(
        _ client: WebServiceClient, _ call: WebServiceCall<Peer>, _ arguments: [any Sendable]
    ) -> Task<Peer, any Error> {
        Task { try await client.perform(call, arguments) }
    }

    /// `count` concurrent calls that the server answers only once all of them arrived: each is on
    /// a connection of its own, whatever the order the calls ran in.
    private func barrierWave(_ client: WebServiceClient, tag: String, count: Int) async throws -> [Peer] {
        let group = UUID().uuidString
        return try await withThrowingTaskGroup(of: Peer.self) { tasks in
            for _ in 0..<count { tasks.addTask { try await client.perform(Self.barrier, tag, group, count) } }
            return try await tasks.reduce(into: []) { $0.append($1) }
        }
    }

    func testConcurrentCallsOpenConnectionsThatLaterCallsReuse() async throws {
        // Four calls that must all be in flight at once open four connections; four more, once
        // those are idle, find the pool at its cap of four and reuse them all. Nothing here
        // depends on which call got which connection.
        let client = try client(connectionsPerHost: 4)
        let tag = UUID().uuidString
        let first = try await barrierWave(client, tag: tag, count: 4)
        XCTAssertEqual(Set(first.map(\.port)).count, 4, "\(first)")
        XCTAssertTrue(first.allSatisfy { $0.served == 0 }, "\(first)")
        let second = try await barrierWave(client, tag: tag, count: 4)
        XCTAssertEqual(Set(second.map(\.port)), Set(first.map(\.port)), "\(first) then \(second)")
        XCTAssertTrue(second.allSatisfy { $0.served == 1 }, "\(second)")
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 8)
    }

    func testConcurrentCallsPastTheSessionsConnectionsPerHostWaitForAConnection() async throws {
        // 40 calls, 2 connections: the calls past the cap wait for a connection rather than open
        // one, and every call is answered.
        let client = try client(connectionsPerHost: 2)
        let tag = UUID().uuidString
        let peers = try await withThrowingTaskGroup(of: Peer.self) { tasks in
            for _ in 0..<40 { tasks.addTask { try await client.perform(Self.peer, tag) } }
            return try await tasks.reduce(into: [Peer]()) { $0.append($1) }
        }
        let ports = Set(peers.map(\.port))
        XCTAssertLessThanOrEqual(ports.count, 2, "\(peers)")
        // Each connection carried its requests one after another: served 0, 1, 2, … on each.
        for port in ports {
            let served = peers.filter { $0.port == port }.map(\.served).sorted()
            XCTAssertEqual(served, Array(0..<served.count), "port \(port)")
        }
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 40)
    }

    func testACallCancelledWhileItWaitsForAConnectionIsNeverSent() async throws {
        // One connection per host, held by a call the server answers only once a second request
        // of its group arrives (from another client). A call that waits behind it and is
        // cancelled fails as cancelled, never reaches the server, and takes no connection: the
        // next call gets the held one.
        let client = try client(connectionsPerHost: 1)
        let other = try self.client(connectionsPerHost: 1)
        let tag = UUID().uuidString
        let waiterTag = UUID().uuidString
        let group = UUID().uuidString
        let holder = Self.start(client, Self.barrier, [tag, group, 2])
        // The holder's request is at the server: the one connection is taken.
        let counter = WebServiceClient(serviceRoot: try FaultServer.url())
        let count = WebServiceCall<FaultServer.Record>(relativePath: "count?tag=%%0%%")
        while try await counter.perform(count, tag).count < 1 { try await Task.sleep(nanoseconds: 10_000_000) }
        let waiter = Self.start(client, Self.peer, [waiterTag])
        // Whether the waiting call is cancelled before or after it queued, it must not be sent:
        // the only connection is held until the barrier opens below.
        try await Task.sleep(nanoseconds: 50_000_000)
        waiter.cancel()
        do {
            let peer = try await waiter.value
            XCTFail("a cancelled call was answered: \(peer)")
        } catch let error as WebServiceError {
            XCTAssertTrue(error.isCancelled, "\(error)")
        }
        _ = try await other.perform(Self.barrier, tag, group, 2)
        let held = try await holder.value
        let next = try await client.perform(Self.peer, tag)
        XCTAssertEqual(next.port, held.port, "the one connection, given back")
        XCTAssertEqual(next.served, 1)
        let waiterRecord = try await FaultServer.record(waiterTag, at: try FaultServer.url())
        XCTAssertEqual(waiterRecord.count, 0, "the cancelled call reached the server")
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
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
        struct Gzipped: Decodable, Sendable { let gzipped: Bool }
        // httpbin's /gzip answers gzip-encoded even to a request that offers no coding: decoded
        // as it arrives, not fetched again (EncodedResponseTests counts the requests).
        let client = WebServiceClient(serviceRoot: try HTTPBin.url())
        let value = try await client.perform(WebServiceCall<Gzipped>(relativePath: "gzip"))
        XCTAssertTrue(value.gzipped)
    }

    func testARequestAskingForACodingStaysOnTheDirectPathAndIsDecoded() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
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

    /// The bridge stage's fields, as the session would send them.
    func testADirectGETSendsAcceptAUserAgentAndTheCodingsItDecodes() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
        struct Headers: Decodable, Sendable { let headers: [String: String] }
        let echoed = try await WebServiceClient(serviceRoot: try HTTPBin.url())
            .perform(WebServiceCall<Headers>(relativePath: "headers"))
        XCTAssertEqual(echoed.headers["Accept"], "*/*")
        XCTAssertTrue(echoed.headers["User-Agent"]?.hasSuffix("WebServiceKit") ?? false, "\(echoed.headers)")
        XCTAssertEqual(echoed.headers["Accept-Encoding"], "gzip, deflate")
    }
}
