import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which peer of a `RoutingTransport` carries a request, with a recording stub in place of each
/// peer: the HTTP/1.1 peer takes every plain `http` request, and every `https` one when it carries
/// TLS, directly or through an HTTP proxy; the session takes everything else.
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
            environment: ProxyEnvironment = ProxyEnvironment(proxy: nil, noProxy: nil), usesHTTP1: Bool = true,
            http1CarriesHTTPS: Bool = false, serverTrust: ServerTrustPolicy = .system, http1CarriesProxies: Bool = false
        ) {
            let transport = RoutingTransport(
                session: session, http1: usesHTTP1 ? http1 : nil, configuration: configuration,
                proxyEnvironment: environment, serverTrust: serverTrust, http1CarriesHTTPS: http1CarriesHTTPS,
                http1CarriesProxies: http1CarriesProxies)
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

    /// Where the HTTP/1.1 peer carries TLS, every `https` request goes to it, whatever its
    /// method and body; where it has none (OpenSSL missing, Apple platforms), to the session.
    func testHTTPSGoesToTheHTTP1PeerOnlyWhenItCarriesTLS() async throws {
        for carriesHTTPS in [false, true] {
            let routed = Routed(root: Self.secure, http1CarriesHTTPS: carriesHTTPS)
            let body = try await routed.client.perform(Self.get)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), carriesHTTPS ? "http1" : "session")
            _ = try await routed.client.perform(Self.post, Self.stream)
            _ = try await routed.client.perform(Self.download, destination())
            for method: HTTPMethod in [.post, .put, .patch, .delete] {
                let call = WebServiceCall<Data>(method: method, relativePath: "items", bodyParameter: 0)
                _ = try await routed.client.perform(call, RequestBody.data(Data("small".utf8)))
            }
            XCTAssertEqual(routed.counts.http1, carriesHTTPS ? 7 : 0)
            XCTAssertEqual(routed.counts.session, carriesHTTPS ? 0 : 7)
        }
    }

    /// Where the HTTP/1.1 peer goes through proxies itself (Linux, the event loop), a request an
    /// HTTP proxy applies to goes to it, `http` and `https`; a SOCKS proxy still sends it through
    /// the session (libcurl speaks it), as does a configuration naming only a SOCKS proxy.
    func testAnHTTPProxyKeepsTheRequestOnTheHTTP1PeerWhenItCarriesProxies() async throws {
        let environment = ProxyEnvironment(
            proxy: "http://proxy:3128", noProxy: nil, secureProxy: "http://user:secret@proxy:3128")
        let plain = Routed(root: Self.plain, environment: environment, http1CarriesProxies: true)
        _ = try await plain.client.perform(Self.get)
        let secure = Routed(
            root: Self.secure, environment: environment, http1CarriesHTTPS: true, http1CarriesProxies: true)
        _ = try await secure.client.perform(Self.get)
        XCTAssertEqual([plain.counts.http1, secure.counts.http1], [1, 1])
        let socks = Routed(
            root: Self.plain, environment: ProxyEnvironment(proxy: "socks5://proxy:1080", noProxy: nil),
            http1CarriesProxies: true)
        _ = try await socks.client.perform(Self.get)
        XCTAssertEqual([socks.counts.http1, socks.counts.session], [0, 1])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = ["SOCKSEnable": 1, "SOCKSProxy": "127.0.0.1", "SOCKSPort": 1080]
        let configured = Routed(root: Self.plain, configuration: configuration, http1CarriesProxies: true)
        _ = try await configured.client.perform(Self.get)
        XCTAssertEqual([configured.counts.http1, configured.counts.session], [0, 1])
    }

    /// How proxy URLs read, as curl reads them: the scheme optional, port 1080 by default, the
    /// user and password percent-decoded into Basic credentials that the description never shows.
    func testProxyURLsReadAsCurlReadsThem() {
        XCTAssertEqual(
            ProxyRoute.parse("http://proxy.example:3128"), .proxy(ProxyRoute(host: "proxy.example", port: 3128)))
        XCTAssertEqual(ProxyRoute.parse("proxy.example"), .proxy(ProxyRoute(host: "proxy.example", port: 1080)))
        guard case .proxy(let credentialed) = ProxyRoute.parse("http://us%40er:p%3Ass@[::1]:8080") else {
            return XCTFail("not read")
        }
        XCTAssertEqual(credentialed.host, "::1")
        XCTAssertEqual(credentialed.port, 8080)
        XCTAssertEqual(credentialed.authorization, "Basic " + Data("us@er:p:ss".utf8).base64EncodedString())
        XCTAssertEqual("\(credentialed)", "[::1]:8080")
        guard case .unsupported(let reason) = ProxyRoute.parse("socks5h://proxy:1080") else { return XCTFail() }
        XCTAssertTrue(reason.contains("socks5h"), reason)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [
            "HTTPEnable": 1, "HTTPProxy": "10.0.0.1", "HTTPPort": 3128, "HTTPSEnable": 0, "HTTPSProxy": "10.0.0.2",
        ]
        let settings = ProxyEnvironment(proxy: nil, noProxy: nil).overridden(by: configuration)
        XCTAssertEqual(
            settings.route(for: URL(string: "http://a.example/")!), .proxy(ProxyRoute(host: "10.0.0.1", port: 3128)))
        XCTAssertEqual(settings.route(for: URL(string: "https://a.example/")!), .direct, "HTTPSEnable 0")
    }

    /// `https_proxy` applies to `https` requests only, `http_proxy` to `http` ones, as libcurl
    /// reads them.
    func testHTTPSProxyAppliesToHTTPSOnly() async throws {
        let environment = ProxyEnvironment(proxy: nil, noProxy: nil, secureProxy: "http://proxy:3128")
        let secure = Routed(root: Self.secure, environment: environment, http1CarriesHTTPS: true)
        _ = try await secure.client.perform(Self.get)
        XCTAssertEqual(secure.counts.session, 1)
        let plain = Routed(root: Self.plain, environment: environment, http1CarriesHTTPS: true)
        _ = try await plain.client.perform(Self.get)
        XCTAssertEqual(plain.counts.http1, 1)
    }

    #if canImport(FoundationNetworking)
        /// A policy the session cannot enforce (on Linux, any but the system's) fails an `https`
        /// request a proxy sends through the session, before it is sent; with the system's policy
        /// the same request goes (its twin).
        func testAPolicyTheSessionCannotEnforceFailsAProxiedHTTPSRequest() async throws {
            let environment = ProxyEnvironment(proxy: nil, noProxy: nil, secureProxy: "http://proxy:3128")
            let pinned = try ServerTrustPolicy.pinning(
                [PublicKeyPin(sha256: Data(repeating: 1, count: 32))],
                backup: [PublicKeyPin(sha256: Data(repeating: 2, count: 32))])
            let routed = Routed(
                root: Self.secure, environment: environment, http1CarriesHTTPS: true, serverTrust: pinned)
            do {
                _ = try await routed.client.perform(Self.get)
                XCTFail("the request went without its policy")
            } catch {
                guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(urlError.code, .secureConnectionFailed)
                XCTAssertTrue("\(error)".contains("proxy"), "\(error)")
            }
            XCTAssertEqual(routed.counts.session, 0)
            let system = Routed(root: Self.secure, environment: environment, http1CarriesHTTPS: true)
            _ = try await system.client.perform(Self.get)
            XCTAssertEqual(system.counts.session, 1)
        }
    #endif

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
        guard case .transport(let error)? = failure?.reason else { return XCTFail("\(String(describing: failure))") }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertEqual(routed.counts.http1, 1)
        XCTAssertEqual(routed.counts.session, 0)
    }

    /// On its own, the HTTP/1.1 transport never sends an `https` request in the clear: one made
    /// without TLS refuses it before opening a connection (one would fail with another code:
    /// nothing listens on port 9).
    func testTheHTTP1TransportWithoutTLSRefusesHTTPS() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let transport = HTTP1Transport(
            configuration: configuration, bridge: RequestBridge(configuration: configuration, cookies: nil),
            limits: nil, serverTrust: nil)
        let client = WebServiceClient(serviceRoot: URL(string: Self.secure)!, transport: transport)
        var failure: WebServiceError?
        do {
            _ = try await client.perform(Self.get)
        } catch {
            failure = error
        }
        guard case .transport(let error)? = failure?.reason else { return XCTFail("\(String(describing: failure))") }
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
