import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which peer of a `RoutingTransport` carries a request, with a recording stub in place of each
/// peer: the HTTP/1.1 peer takes every plain `http` request unless a proxy applies; the session
/// takes everything else.
final class RoutingTransportTests: XCTestCase {
    private static let get = WebServiceCall<Data>(relativePath: "items")
    private static let head = WebServiceCall<Data>(method: .head, relativePath: "items")
    private static let post = WebServiceCall<Data>(method: .post, relativePath: "items")
    private static let download = WebServiceCall<DownloadedFile>(relativePath: "files/a")
    private static let postDownload = WebServiceCall<DownloadedFile>(method: .post, relativePath: "exports")

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-routing-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// The two peers, and a client on `root` over a routing transport made from them.
    private struct Routed {
        let session = StubTransport(fallback: .text("session"))
        let http1 = StubTransport(fallback: .text("http1"))
        let client: WebServiceClient

        init(
            root: String, configuration: URLSessionConfiguration = .ephemeral,
            environment: ProxyEnvironment = ProxyEnvironment(proxy: nil, noProxy: nil), usesHTTP1: Bool = true
        ) {
            let transport = RoutingTransport(
                session: session, http1: usesHTTP1 ? http1 : nil, configuration: configuration,
                proxyEnvironment: environment)
            client = WebServiceClient(serviceRoot: URL(string: root)!, transport: transport)
        }

        /// How many requests each peer received.
        var counts: (http1: Int, session: Int) { (http1.requests.count, session.requests.count) }
    }

    private static let plain = "http://127.0.0.1:9/v1/"
    private static let secure = "https://127.0.0.1:9/v1/"

    /// A body read from a stream, as multipart uploads from files are.
    private static var stream: RequestBody { .stream(length: 5) { InputStream(data: Data("hello".utf8)) } }

    private func destination() -> DownloadDestination {
        DownloadDestination(directory.appendingPathComponent(UUID().uuidString))
    }

    func testPlainHTTPGetAndHeadGoToTheHTTP1Peer() async throws {
        let routed = Routed(root: Self.plain)
        let body = try await routed.client.perform(Self.get)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "http1")
        _ = try await routed.client.perform(Self.head)
        XCTAssertEqual(routed.counts.http1, 2)
        XCTAssertEqual(routed.counts.session, 0)
        XCTAssertEqual(routed.http1.requests.map { $0.request.httpMethod ?? "GET" }, ["GET", "HEAD"])
    }

    func testHTTPSGoesToTheSessionWhateverTheRequest() async throws {
        let routed = Routed(root: Self.secure)
        let body = try await routed.client.perform(Self.get)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "session")
        _ = try await routed.client.perform(Self.post, Self.stream)
        _ = try await routed.client.perform(Self.download, destination())
        XCTAssertEqual(routed.counts.http1, 0)
        XCTAssertEqual(routed.counts.session, 3)
    }

    func testAStreamedBodyToPlainHTTPGoesToTheHTTP1Peer() async throws {
        let routed = Routed(root: Self.plain)
        _ = try await routed.client.perform(Self.post, Self.stream)
        XCTAssertEqual(routed.counts.http1, 1)
        XCTAssertEqual(routed.counts.session, 0)
        XCTAssertNotNil(routed.http1.requests.first?.request.httpBodyStream)
    }

    /// Every method with a body in memory goes direct: FoundationNetworking ends the process on
    /// a response to such a request that carries a trailer field.
    func testEveryMethodWithABodyInMemoryToPlainHTTPGoesToTheHTTP1Peer() async throws {
        let routed = Routed(root: Self.plain)
        let methods: [HTTPMethod] = [.post, .put, .patch, .delete, .options]
        for method in methods {
            let call = WebServiceCall<Data>(method: method, relativePath: "items", bodyParameter: 0)
            _ = try await routed.client.perform(call, RequestBody.data(Data("small".utf8)))
        }
        XCTAssertEqual(routed.counts.http1, methods.count)
        XCTAssertEqual(routed.counts.session, 0)
        XCTAssertEqual(routed.http1.requests.map { $0.request.httpMethod }, methods.map(\.rawValue))
    }

    func testADownloadToAFileFromPlainHTTPGoesToTheHTTP1Peer() async throws {
        let routed = Routed(root: Self.plain)
        let file = try await routed.client.perform(Self.download, destination())
        XCTAssertEqual(try String(contentsOf: file.url, encoding: .utf8), "http1")
        // A download is the HTTP/1.1 peer's whatever its method and body: a POST with a body in
        // memory would otherwise go through the session.
        _ = try await routed.client.perform(Self.postDownload, RequestBody.data(Data("q".utf8)), destination())
        XCTAssertEqual(routed.counts.http1, 2)
        XCTAssertEqual(routed.counts.session, 0)
        XCTAssertEqual(routed.http1.requests.last?.request.httpMethod, "POST")
    }

    /// The HTTP/1.1 peer connects directly: a proxy in the session configuration sends every
    /// request through the session, which honours it.
    func testAProxyInTheConfigurationSendsEverythingThroughTheSession() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = ["HTTPEnable": 1, "HTTPProxy": "127.0.0.1", "HTTPPort": 9]
        let routed = Routed(root: Self.plain, configuration: configuration)
        _ = try await routed.client.perform(Self.get)
        _ = try await routed.client.perform(Self.post, Self.stream)
        _ = try await routed.client.perform(Self.download, destination())
        XCTAssertEqual(routed.counts.http1, 0)
        XCTAssertEqual(routed.counts.session, 3)
    }

    /// `http_proxy` in the environment applies as libcurl applies it: hosts in `no_proxy` still
    /// go to the HTTP/1.1 peer.
    func testAProxyInTheEnvironmentAppliesUnlessNoProxyNamesTheHost() async throws {
        let proxied = Routed(
            root: Self.plain, environment: ProxyEnvironment(proxy: "http://proxy:3128", noProxy: "example.com"))
        _ = try await proxied.client.perform(Self.get)
        _ = try await proxied.client.perform(Self.post, Self.stream)
        XCTAssertEqual(proxied.counts.http1, 0)
        XCTAssertEqual(proxied.counts.session, 2)

        let exempt = Routed(
            root: Self.plain, environment: ProxyEnvironment(proxy: "http://proxy:3128", noProxy: "127.0.0.1"))
        _ = try await exempt.client.perform(Self.get)
        XCTAssertEqual(exempt.counts.http1, 1)
        XCTAssertEqual(exempt.counts.session, 0)
    }

    func testWithoutTheHTTP1PeerEverythingGoesThroughTheSession() async throws {
        let routed = Routed(root: Self.plain, usesHTTP1: false)
        _ = try await routed.client.perform(Self.get)
        _ = try await routed.client.perform(Self.post, Self.stream)
        _ = try await routed.client.perform(Self.download, destination())
        XCTAssertEqual(routed.counts.http1, 0)
        XCTAssertEqual(routed.counts.session, 3)
    }

    /// The route is decided once: a request that fails on the HTTP/1.1 peer fails with that
    /// peer's error and is not sent again through the session.
    func testAFailureOnTheHTTP1PeerIsNotSentAgainThroughTheSession() async throws {
        let routed = Routed(root: Self.plain)
        routed.http1.stub(Self.get, with: .failure(.networkConnectionLost))
        var failure: WebServiceError?
        do {
            _ = try await routed.client.perform(Self.get)
        } catch {
            failure = error
        }
        guard case .transport(let error)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertEqual(routed.counts.http1, 1)
        XCTAssertEqual(routed.counts.session, 0)
    }

    /// On its own, the HTTP/1.1 transport never sends an `https` request in the clear: it
    /// refuses it before opening a connection (one would fail with another code: nothing listens
    /// on port 9).
    func testTheHTTP1TransportRefusesHTTPS() async throws {
        let client = WebServiceClient(
            serviceRoot: URL(string: Self.secure)!, transport: HTTP1Transport(configuration: .ephemeral))
        var failure: WebServiceError?
        do {
            _ = try await client.perform(Self.get)
        } catch {
            failure = error
        }
        guard case .transport(let error)? = failure else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(error.code, .unsupportedURL)
    }

    /// `RoutingTransport.usesDirectHTTP1ByDefault` is the old `URLSessionTransport` one, and a
    /// client made without a transport routes.
    func testTheClientRoutesByDefault() {
        let client = WebServiceClient(serviceRoot: URL(fileURLWithPath: "/"))
        XCTAssertTrue(client.transport is RoutingTransport)
        #if canImport(FoundationNetworking)
            XCTAssertTrue(RoutingTransport.usesDirectHTTP1ByDefault)
        #else
            XCTAssertFalse(RoutingTransport.usesDirectHTTP1ByDefault)
        #endif
    }
}
