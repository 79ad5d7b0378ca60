import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transports as peers against the local httpbin: `HTTP1Transport` and
/// `URLSessionTransport` on their own, and `RoutingTransport` choosing between them. The call's
/// metrics tell which peer carried a request (``CallMetrics/Transaction/route``); both send the
/// same fields, which the client's bridge stage added above them.
final class RoutingTransportIntegrationTests: XCTestCase {
    private static let headers = WebServiceCall<Headers>(relativePath: "headers")
    private static let anything = WebServiceCall<Echo>(method: .post, relativePath: "anything")
    private static let downloadHeaders = WebServiceCall<DownloadedFile>(relativePath: "headers")

    /// What httpbin's `/headers` answers.
    struct Headers: Decodable, Sendable {
        let headers: [String: String]
    }

    private func client(_ transport: any WebServiceTransport) throws -> WebServiceClient {
        WebServiceClient(serviceRoot: try HTTPBin.url(), transport: transport)
    }

    /// A streamed body, as multipart uploads from files are.
    private static var stream: RequestBody { .stream(length: 6) { InputStream(data: Data("stream".utf8)) } }

    /// The peer that carried the call's last request, and its value.
    private func send<Response>(
        _ client: WebServiceClient, _ call: WebServiceCall<Response>, _ arguments: any Sendable...
    ) async throws -> (peer: CallMetrics.Route?, value: Response) {
        let response = try await client.response(for: call, arguments)
        return (response.metrics.transactions.last?.route, response.value)
    }

    func testEachPeerWorksOnItsOwn() async throws {
        let http1 = try client(HTTP1Transport(configuration: .ephemeral))
        let viaHTTP1 = try await send(http1, Self.headers)
        XCTAssertEqual(viaHTTP1.peer, .directHTTP1)
        XCTAssertEqual(viaHTTP1.value.headers["User-Agent"], RequestBridge.userAgent)
        let echo = try await send(http1, Self.anything, RequestBody.data(Data("in memory".utf8)))
        XCTAssertEqual(echo.value.data, "in memory")
        XCTAssertEqual(echo.peer, .directHTTP1)

        let session = try client(URLSessionTransport(sessionConfiguration: .ephemeral))
        let viaSession = try await send(session, Self.headers)
        XCTAssertEqual(viaSession.peer, .session)
        // One User-Agent for both: the bridge stage's, not libcurl's.
        XCTAssertEqual(viaSession.value.headers["User-Agent"], RequestBridge.userAgent)
    }

    /// On Linux: every plain-`http` request goes to the HTTP/1.1 peer: GETs, streamed bodies,
    /// bodies in memory and downloads.
    func testTheRoutingTransportSendsEachRequestToItsPeer() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the HTTP/1.1 peer is for Linux")
        let client = try client(RoutingTransport(configuration: .ephemeral))
        let get = try await send(client, Self.headers)
        XCTAssertEqual(get.peer, .directHTTP1)
        let streamed = try await send(client, Self.anything, Self.stream)
        XCTAssertEqual(streamed.value.data, "stream")
        XCTAssertEqual(streamed.peer, .directHTTP1)
        let inMemory = try await send(client, Self.anything, RequestBody.data(Data("data".utf8)))
        XCTAssertEqual(inMemory.value.data, "data")
        XCTAssertEqual(inMemory.peer, .directHTTP1)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-routing-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try await send(
            client, Self.downloadHeaders,
            DownloadDestination(directory.appendingPathComponent("headers.json"), createsIntermediateDirectories: true))
        XCTAssertEqual(file.peer, .directHTTP1)
        let downloaded = try JSONDecoder().decode(Headers.self, from: Data(contentsOf: file.value.url))
        XCTAssertEqual(downloaded.headers["User-Agent"], RequestBridge.userAgent)
    }

    /// A configuration with proxy settings the HTTP/1.1 peer cannot honour (SOCKS): every request
    /// goes through the session (here the settings turn the proxy off, so the request still
    /// reaches httpbin). HTTP proxy settings it honours itself (ProxyIntegrationTests).
    func testAConfigurationWithProxySettingsSendsEverythingThroughTheSession() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = ["SOCKSEnable": false]
        let client = try client(RoutingTransport(configuration: configuration))
        let get = try await send(client, Self.headers)
        XCTAssertEqual(get.peer, .session)
        let streamed = try await send(client, Self.anything, Self.stream)
        XCTAssertEqual(streamed.value.data, "stream")
        XCTAssertEqual(streamed.peer, .session)
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
        let viaHTTP1 = try await send(viaHTTP1Peer, Self.headers)
        XCTAssertEqual(viaHTTP1.peer, .directHTTP1)
        XCTAssertEqual(Self.cookies(viaHTTP1.value.headers["Cookie"]), ["a=1", "b=2"])
        let viaSession = try await send(viaSessionPeer, Self.anything, RequestBody.data(Data()))
        XCTAssertEqual(viaSession.peer, .session)
        XCTAssertEqual(Self.cookies(viaSession.value.headers["Cookie"]), ["a=1", "b=2"])
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
        let expected: CallMetrics.Route = RoutingTransport.usesDirectHTTP1ByDefault ? .directHTTP1 : .session
        let get = try await send(client, Self.headers)
        XCTAssertEqual(get.peer, expected)
        XCTAssertEqual(get.value.headers["User-Agent"], RequestBridge.userAgent, "the bridge of the routing transport")
        let inMemory = try await send(client, Self.anything, RequestBody.data(Data("data".utf8)))
        XCTAssertEqual(inMemory.value.data, "data")
        XCTAssertEqual(inMemory.peer, expected)

        let sessionOnly = try self.client(legacyTransport(usesDirectHTTP1: false))
        let viaSession = try await send(sessionOnly, Self.headers)
        XCTAssertEqual(viaSession.peer, .session)
    }

    // MARK: - https on the direct route

    /// The response that ended a FoundationNetworking process (a chunked body with a trailer
    /// field, RFC 9112 §7.1.2) answers every method over https, with and without a body, once the
    /// default client sends `https` direct; each call says it went direct.
    func testAnHTTPSResponseWithATrailerFieldAnswersEveryMethod() async throws {
        try XCTSkipUnless(HTTP1Transport.carriesHTTPS, "https goes direct on Linux with OpenSSL")
        let authority = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
        let client = try WebServiceClient(
            serviceRoot: TLSServer.url("WEBSERVICEKIT_TLS_TRUNCATING_URL"),
            serverTrust: .additionalCertificateAuthorities([authority]))
        for method: HTTPMethod in [.get, .delete, .post, .put, .patch, .options] {
            let bare = WebServiceCall<String>(method: method, relativePath: "trailer")
            let plain = try await client.response(for: bare, [])
            XCTAssertEqual(plain.value, "empty", "\(method)")
            XCTAssertEqual(plain.metrics.transactions.last?.route, .directHTTP1)
            guard method != .get else { continue }
            let withBody = WebServiceCall<String>(method: method, relativePath: "trailer", bodyParameter: 0)
            let echoed = try await client.response(for: withBody, [Data("body of \(method)".utf8)])
            XCTAssertEqual(echoed.value, "body of \(method)")
            XCTAssertEqual(echoed.metrics.transactions.last?.route, .directHTTP1)
        }
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
