import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A reconnecting event stream against the stream server's /reconnect, which closes the
/// connection every `per` events, resumes after the request's `Last-Event-ID`, and answers 204
/// once `total` events went out (Tests/Servers/stream_server.py).
final class EventStreamReconnectionIntegrationTests: XCTestCase {
    private struct Log: Decodable, Sendable {
        let requests: Int
        let lastEventIDs: [String?]
    }

    private static func root() throws -> URL {
        try HTTPBin.serverURL("WEBSERVICEKIT_STREAM_URL", file: #filePath, line: #line)
    }

    private static let feed = WebServiceCall<ResponseStream<ServerSentEvent>>(
        relativePath: "reconnect?tag=%%0%%&per=2&total=5&retry=20",
        stream: .serverSentEvents(reconnection: EventStreamReconnection(delay: 5)))

    private func check(_ client: WebServiceClient, root: URL) async throws {
        let tag = UUID().uuidString
        var events: [ServerSentEvent] = []
        for try await event in try await client.stream(Self.feed, tag) { events.append(event) }
        XCTAssertEqual(events.map(\.data), ["1", "2", "3", "4", "5"])
        XCTAssertEqual(events.map(\.id), ["1", "2", "3", "4", "5"])
        let log = try await WebServiceClient(serviceRoot: root).perform(
            WebServiceCall<Log>(relativePath: "log?tag=%%0%%"), tag)
        // Three connections of events, and a fourth answered 204: the server said to stop.
        XCTAssertEqual(log.requests, 4)
        XCTAssertEqual(log.lastEventIDs, [nil, "2", "4", "5"])
    }

    func testTheDirectRouteReconnectsWithTheLastEventID() async throws {
        let root = try Self.root()
        try await check(WebServiceClient(serviceRoot: root), root: root)
    }

    func testTheSessionRouteReconnectsWithTheLastEventID() async throws {
        let root = try Self.root()
        let client = WebServiceClient(
            serviceRoot: root, transport: URLSessionTransport(sessionConfiguration: .ephemeral))
        try await check(client, root: root)
    }
}
