import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transports as peers against the local httpbin: `HTTP1Transport` and
/// `URLSessionTransport` on their own, and `RoutingTransport` choosing between them. A request
/// tells which peer carried it by the `User-Agent` it arrived with: the HTTP/1.1 transport sends
/// `<process> WebServiceKit` when the request has none, libcurl sends its own.
final class RoutingTransportIntegrationTests: XCTestCase {
    private static let headers = WebServiceCall<Headers>(relativePath: "headers")
    // Without a Content-Type, libcurl would label the body a form and httpbin would parse it.
    private static let anything = WebServiceCall<Echo>(
        method: .post, relativePath: "anything", headers: ["Content-Type": "application/octet-stream"])
    private static let downloadHeaders = WebServiceCall<DownloadedFile>(relativePath: "headers")

    /// What httpbin's `/headers` answers.
    struct Headers: Decodable, Sendable {
        let headers: [String: String]
    }

    /// The `User-Agent` the HTTP/1.1 transport sends.
    private static let http1Agent = "\(ProcessInfo.processInfo.processName) WebServiceKit"

    private func client(_ transport: any WebServiceTransport) throws -> WebServiceClient {
        WebServiceClient(serviceRoot: try HTTPBin.url(), transport: transport)
    }

    /// A streamed body, as multipart uploads from files are.
    private static var stream: RequestBody { .stream(length: 6) { InputStream(data: Data("stream".utf8)) } }

    func testEachPeerWorksOnItsOwn() async throws {
        let http1 = try client(HTTP1Transport(configuration: .ephemeral))
        let viaHTTP1 = try await http1.perform(Self.headers)
        XCTAssertEqual(viaHTTP1.headers["User-Agent"], Self.http1Agent)
        // A body in memory, which the routing transport would give to the session.
        let echo = try await http1.perform(Self.anything, RequestBody.data(Data("in memory".utf8)))
        XCTAssertEqual(echo.data, "in memory")
        XCTAssertEqual(echo.headers["User-Agent"], Self.http1Agent)

        let session = try client(URLSessionTransport(sessionConfiguration: .ephemeral))
        let viaSession = try await session.perform(Self.headers)
        XCTAssertNotNil(viaSession.headers["User-Agent"])
        XCTAssertNotEqual(viaSession.headers["User-Agent"], Self.http1Agent)
    }

    /// On Linux: every plain-`http` request goes to the HTTP/1.1 peer: GETs, streamed bodies,
    /// bodies in memory and downloads.
    func testTheRoutingTransportSendsEachRequestToItsPeer() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the HTTP/1.1 peer is for Linux")
        let client = try client(RoutingTransport(configuration: .ephemeral))
        let get = try await client.perform(Self.headers)
        XCTAssertEqual(get.headers["User-Agent"], Self.http1Agent)
        let streamed = try await client.perform(Self.anything, Self.stream)
        XCTAssertEqual(streamed.data, "stream")
        XCTAssertEqual(streamed.headers["User-Agent"], Self.http1Agent)
        let inMemory = try await client.perform(Self.anything, RequestBody.data(Data("data".utf8)))
        XCTAssertEqual(inMemory.data, "data")
        XCTAssertEqual(inMemory.headers["User-Agent"], Self.http1Agent)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-routing-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try await client.perform(
            Self.downloadHeaders,
            DownloadDestination(directory.appendingPathComponent("headers.json"), createsIntermediateDirectories: true))
        let downloaded = try JSONDecoder().decode(Headers.self, from: Data(contentsOf: file.url))
        XCTAssertEqual(downloaded.headers["User-Agent"], Self.http1Agent)
    }

    /// A configuration with proxy settings is one the HTTP/1.1 peer cannot honour: every request
    /// goes through the session (here the settings turn the proxy off, so the request still
    /// reaches httpbin).
    func testAConfigurationWithProxySettingsSendsEverythingThroughTheSession() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = ["HTTPEnable": false]
        let client = try client(RoutingTransport(configuration: configuration))
        let get = try await client.perform(Self.headers)
        XCTAssertNotNil(get.headers["User-Agent"])
        XCTAssertNotEqual(get.headers["User-Agent"], Self.http1Agent)
        let streamed = try await client.perform(Self.anything, Self.stream)
        XCTAssertEqual(streamed.data, "stream")
        XCTAssertNotEqual(streamed.headers["User-Agent"], Self.http1Agent)
    }

    /// One cookie jar for both peers: a cookie the session stored goes with the HTTP/1.1 peer's
    /// requests, and the other way round.
    func testThePeersShareOneCookieJar() async throws {
        // Every plain-http request of a routing transport goes to its HTTP/1.1 peer, so each peer
        // is called through a client of its own (the session's carries https and proxied calls).
        let peers = RoutingTransport.peers(for: .ephemeral, usesDirectHTTP1: true)
        let viaSessionPeer = try client(peers.session)
        let viaHTTP1Peer = try client(try XCTUnwrap(peers.http1))
        let setBySession = WebServiceCall<Data>(method: .post, relativePath: "response-headers?Set-Cookie=a%3D1")
        _ = try await viaSessionPeer.perform(setBySession, RequestBody.data(Data()))
        // httpbin answers with a redirect to /cookies, which the client follows.
        let setByHTTP1 = WebServiceCall<Data>(relativePath: "cookies/set?b=2")
        _ = try await viaHTTP1Peer.perform(setByHTTP1)
        let viaHTTP1 = try await viaHTTP1Peer.perform(Self.headers)
        XCTAssertEqual(viaHTTP1.headers["User-Agent"], Self.http1Agent)
        XCTAssertEqual(Self.cookies(viaHTTP1.headers["Cookie"]), ["a=1", "b=2"])
        let viaSession = try await viaSessionPeer.perform(Self.anything, RequestBody.data(Data()))
        XCTAssertNotEqual(viaSession.headers["User-Agent"], Self.http1Agent)
        XCTAssertEqual(Self.cookies(viaSession.headers["Cookie"]), ["a=1", "b=2"])
    }

    /// The cookies of a `Cookie` field, sorted.
    private static func cookies(_ field: String?) -> [String] {
        (field ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.sorted()
    }

    /// Code written for the old `URLSessionTransport(configuration:usesDirectHTTP1:)` routes as
    /// the routing transport does: on Linux, plain-`http` GETs and bodies in memory over the
    /// HTTP/1.1 transport; with `usesDirectHTTP1: false`, everything through the session, which
    /// it still exposes.
    func testTheDeprecatedInitializerStillRoutes() async throws {
        let transport = legacyTransport(usesDirectHTTP1: RoutingTransport.usesDirectHTTP1ByDefault)
        XCTAssertNil(transport.session.configuration.httpCookieStorage, "the transport keeps the cookies")
        let client = try client(transport)
        let get = try await client.perform(Self.headers)
        XCTAssertEqual(
            get.headers["User-Agent"] == Self.http1Agent, RoutingTransport.usesDirectHTTP1ByDefault, "\(get.headers)")
        let inMemory = try await client.perform(Self.anything, RequestBody.data(Data("data".utf8)))
        XCTAssertEqual(
            inMemory.headers["User-Agent"] == Self.http1Agent, RoutingTransport.usesDirectHTTP1ByDefault,
            "\(inMemory.headers)")

        let sessionOnly = try self.client(legacyTransport(usesDirectHTTP1: false))
        let viaSession = try await sessionOnly.perform(Self.headers)
        XCTAssertNotEqual(viaSession.headers["User-Agent"], Self.http1Agent)
    }
}

/// Calls the deprecated initializer through a protocol, so that the test build stays free of
/// warnings while the old spelling stays covered.
private protocol LegacyTransportFactory {
    static func transport(usesDirectHTTP1: Bool) -> URLSessionTransport
}

/// `URLSessionTransport(configuration: .ephemeral, usesDirectHTTP1:)`.
private func legacyTransport(usesDirectHTTP1: Bool) -> URLSessionTransport {
    func make<Factory: LegacyTransportFactory>(_ factory: Factory.Type) -> URLSessionTransport {
        factory.transport(usesDirectHTTP1: usesDirectHTTP1)
    }
    return make(LegacySpelling.self)
}

private enum LegacySpelling: LegacyTransportFactory {
    @available(*, deprecated)
    static func transport(usesDirectHTTP1: Bool) -> URLSessionTransport {
        URLSessionTransport(configuration: .ephemeral, usesDirectHTTP1: usesDirectHTTP1)
    }
}
