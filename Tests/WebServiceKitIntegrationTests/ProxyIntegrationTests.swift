import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests through Debian's tinyproxy, which `Scripts/test` starts twice on 127.0.0.1
/// (`start_tinyproxy`): one open, one asking for Basic credentials. Plain `http` goes to it in
/// absolute form, `https` through a `CONNECT` tunnel to the TLS nginx, both on the library's own
/// connections; curl through the same proxies gives the same verdicts.
final class ProxyIntegrationTests: XCTestCase {
    /// What httpbin's `/headers` answers.
    struct Headers: Decodable, Sendable {
        let headers: [String: String]
    }

    /// httpbin hides `Via` and the other proxy fields unless asked to show them.
    private static let headers = WebServiceCall<Headers>(relativePath: "headers?show_env=1")
    private static let ok = WebServiceCall<String>(relativePath: "ok")

    private func skipUnlessTheLoopCarriesProxies() throws {
        try XCTSkipUnless(HTTP1Transport.carriesProxies && HTTP1Transport.carriesHTTPS, "proxies go direct on Linux")
    }

    /// The proxy URL of `variable` (with its credentials for the one that asks for them).
    private func proxyURL(_ variable: String) throws -> String {
        try XCTUnwrap(ProcessInfo.processInfo.environment[variable], "\(variable): run Scripts/test")
    }

    /// A transport whose proxies are `environment`, trusting the tests' CA for `https`.
    private func transport(
        _ environment: ProxyEnvironment, skipsVerification: Bool = false, policy: ServerTrustPolicy? = nil
    )
        throws -> HTTP1Transport
    {
        let configuration = URLSessionConfiguration.ephemeral
        let authority = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
        return HTTP1Transport(
            configuration: configuration, bridge: RequestBridge(configuration: configuration, cookies: nil),
            limits: nil, serverTrust: policy ?? .onlyCertificateAuthorities([authority]),
            testOnlySkipsVerification: skipsVerification, proxies: environment)
    }

    /// `proxy`'s URL without its user and password.
    private func withoutUserAndPassword(_ proxy: String) throws -> String {
        var bare = try XCTUnwrap(URLComponents(string: proxy))
        bare.user = nil
        bare.password = nil
        return try XCTUnwrap(bare.string)
    }

    /// The error of a call; `nil` when it succeeded.
    private func failure<Response>(_ client: WebServiceClient, _ call: WebServiceCall<Response>) async
        -> WebServiceError?
    {
        do {
            _ = try await client.perform(call)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Plain http in absolute form

    /// A proxy in the session configuration (the public way to name one) carries plain `http` on
    /// the direct route: httpbin sees tinyproxy's `Via` field, and the call's metrics say direct.
    /// The configuration is Docs/Proxies.md's example.
    func testPlainHTTPGoesThroughTheConfigurationsProxy() async throws {
        try skipUnlessTheLoopCarriesProxies()
        let proxy = try XCTUnwrap(URLComponents(string: proxyURL("WEBSERVICEKIT_PROXY_URL")))
        let (proxyHost, proxyPort) = (try XCTUnwrap(proxy.host), try XCTUnwrap(proxy.port))
        let root = try HTTPBin.url()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [
            "HTTPEnable": 1, "HTTPProxy": proxyHost, "HTTPPort": proxyPort,
            "HTTPSEnable": 1, "HTTPSProxy": proxyHost, "HTTPSPort": proxyPort,
        ]
        let client = WebServiceClient(serviceRoot: root, transport: RoutingTransport(configuration: configuration))
        let response = try await client.response(for: Self.headers, [])
        XCTAssertTrue(response.value.headers["Via"]?.contains("tinyproxy") ?? false, "\(response.value.headers)")
        XCTAssertEqual(response.metrics.transactions.last?.route, .directHTTP1)
        // The twin: without the proxy the same call has no Via field.
        let direct = try await HTTPBin.client().perform(Self.headers)
        XCTAssertNil(direct.headers["Via"])
    }

    /// `no_proxy` sends a host direct.
    func testNoProxyNamesAHostThatGoesDirect() async throws {
        try skipUnlessTheLoopCarriesProxies()
        let environment = ProxyEnvironment(proxy: try proxyURL("WEBSERVICEKIT_PROXY_URL"), noProxy: "127.0.0.1")
        let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: try transport(environment))
        let value = try await client.perform(Self.headers)
        XCTAssertNil(value.headers["Via"], "\(value.headers)")
    }

    /// With credentials in the proxy URL the proxy answers, and the origin never sees them (nor
    /// a `Proxy-Authorization` the request set itself); without them the proxy's 407 is the
    /// call's status. curl through the same proxy agrees on both.
    func testProxyCredentialsGoToTheProxyOnly() async throws {
        try skipUnlessTheLoopCarriesProxies()
        let withCredentials = try proxyURL("WEBSERVICEKIT_AUTH_PROXY_URL")
        let root = try HTTPBin.url()
        let client = WebServiceClient(
            serviceRoot: root, transport: try transport(ProxyEnvironment(proxy: withCredentials, noProxy: nil)))
        let value = try await client.perform(Self.headers)
        XCTAssertTrue(value.headers["Via"]?.contains("tinyproxy") ?? false, "\(value.headers)")
        XCTAssertNil(value.headers["Proxy-Authorization"], "\(value.headers)")
        XCTAssertTrue(try TLSServer.curlAnswers(root.appendingPathComponent("headers"), ["-x", withCredentials]))

        let withoutCredentials = try withoutUserAndPassword(withCredentials)
        let refused = WebServiceClient(
            serviceRoot: root, transport: try transport(ProxyEnvironment(proxy: withoutCredentials, noProxy: nil)))
        let error = await failure(refused, Self.headers)
        guard case .unacceptableStatus(let code, _, _)? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(code, 407)
        XCTAssertFalse(try TLSServer.curlAnswers(root.appendingPathComponent("headers"), ["-x", withoutCredentials]))
    }

    // MARK: - https through a CONNECT tunnel

    /// `https` through the proxy's tunnel: TLS with the origin inside it, verified as directly;
    /// the answer and a second call on the kept-alive tunnel.
    func testHTTPSGoesThroughATunnel() async throws {
        try skipUnlessTheLoopCarriesProxies()
        let environment = ProxyEnvironment(
            proxy: nil, noProxy: nil, secureProxy: try proxyURL("WEBSERVICEKIT_PROXY_URL"))
        let client = WebServiceClient(
            serviceRoot: try TLSServer.url("WEBSERVICEKIT_TLS_URL"), transport: try transport(environment))
        let first = try await client.response(for: Self.ok, [])
        let second = try await client.response(for: Self.ok, [])
        XCTAssertEqual([first.value, second.value], ["ok\n", "ok\n"])
        XCTAssertEqual(second.metrics.transactions.last?.connectionReused, true)
        XCTAssertNotNil(first.metrics.transactions.last?.tls)
    }

    /// The proxy asking for credentials: its 407 to `CONNECT` fails the call with a typed error
    /// that says what to do (never the credentials); with them the tunnel opens. curl agrees.
    func testATunnelTheProxyRefusesIsATypedError() async throws {
        try skipUnlessTheLoopCarriesProxies()
        let withCredentials = try proxyURL("WEBSERVICEKIT_AUTH_PROXY_URL")
        let withoutCredentials = try withoutUserAndPassword(withCredentials)
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_URL")

        let refused = WebServiceClient(
            serviceRoot: root,
            transport: try transport(ProxyEnvironment(proxy: nil, noProxy: nil, secureProxy: withoutCredentials)))
        let error = await failure(refused, Self.ok)
        guard case .transport(let urlError)? = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(urlError.code, .userAuthenticationRequired)
        XCTAssertTrue(urlError.localizedDescription.contains("407"), urlError.localizedDescription)
        XCTAssertTrue(urlError.localizedDescription.contains("http://user:password@host:port"))
        XCTAssertFalse(try TLSServer.curlAnswers(root.appendingPathComponent("ok"), ["-x", withoutCredentials]))

        let admitted = WebServiceClient(
            serviceRoot: root,
            transport: try transport(ProxyEnvironment(proxy: nil, noProxy: nil, secureProxy: withCredentials)))
        let value = try await admitted.perform(Self.ok)
        XCTAssertEqual(value, "ok\n")
        XCTAssertTrue(try TLSServer.curlAnswers(root.appendingPathComponent("ok"), ["-x", withCredentials]))
        XCTAssertFalse("\(error as Any)".contains("proxy-secret"), "the credentials are never in an error")
    }

    /// A tunnel to a port nothing listens on: the proxy's refusal is a typed error naming the
    /// proxy and the origin.
    func testATunnelToAClosedPortNamesTheProxy() async throws {
        try skipUnlessTheLoopCarriesProxies()
        let environment = ProxyEnvironment(
            proxy: nil, noProxy: nil, secureProxy: try proxyURL("WEBSERVICEKIT_PROXY_URL"))
        let client = WebServiceClient(
            serviceRoot: try XCTUnwrap(URL(string: "https://127.0.0.1:1/")), transport: try transport(environment))
        let error = await failure(client, Self.ok)
        guard case .transport(let urlError)? = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(urlError.code, .cannotConnectToHost, "\(urlError)")
        XCTAssertTrue(urlError.localizedDescription.contains("refused the tunnel to 127.0.0.1:1"), "\(urlError)")
    }

    /// A pin is enforced through the tunnel as directly: a wrong pin is refused, and its twin
    /// with verification off (test-only) is answered, so the refusal is the pin check's.
    func testAPinIsEnforcedThroughTheTunnel() async throws {
        try skipUnlessTheLoopCarriesProxies()
        let environment = ProxyEnvironment(
            proxy: nil, noProxy: nil, secureProxy: try proxyURL("WEBSERVICEKIT_PROXY_URL"))
        let authority = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
        let policy = try ServerTrustPolicy.pinning(
            [PublicKeyPin(sha256: Data(repeating: 1, count: 32))],
            backup: [PublicKeyPin(sha256: Data(repeating: 2, count: 32))], additionalCertificateAuthorities: [authority]
        )
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        let pinned = WebServiceClient(serviceRoot: root, transport: try transport(environment, policy: policy))
        let error = await failure(pinned, Self.ok)
        XCTAssertEqual(error?.isServerTrustFailure, true, "\(String(describing: error))")
        let twin = WebServiceClient(
            serviceRoot: root, transport: try transport(environment, skipsVerification: true, policy: policy))
        let value = try await twin.perform(Self.ok)
        XCTAssertEqual(value, "ok\n")
    }
}
