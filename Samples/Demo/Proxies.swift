import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Proxies on the library's own connections: plain `http` through the proxy the session
/// configuration names (in absolute form: httpbin sees the proxy's `Via` field), and `https`
/// through its `CONNECT` tunnel, with the trust policy enforced inside it.
func demonstrateProxies(proxy: URL, httpRoot: URL, tlsRoot: URL?, certificates: URL?) async {
    guard let proxyHost = proxy.host, let proxyPort = proxy.port else { return }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.connectionProxyDictionary = [
        "HTTPEnable": 1, "HTTPProxy": proxyHost, "HTTPPort": proxyPort,
        "HTTPSEnable": 1, "HTTPSProxy": proxyHost, "HTTPSPort": proxyPort,
    ]
    struct Headers: Decodable, Sendable { let headers: [String: String] }
    do {
        let client = WebServiceClient(serviceRoot: httpRoot, transport: RoutingTransport(configuration: configuration))
        // httpbin shows the proxy's fields only when asked.
        let response = try await client.response(for: WebServiceCall<Headers>(relativePath: "headers?show_env=1"), [])
        let route = response.metrics.transactions.last?.route.map { "\($0)" } ?? "?"
        print(
            "http through the proxy \(proxyHost):\(proxyPort): Via \"\(response.value.headers["Via"] ?? "none")\", over \(route)"
        )
    } catch {
        print("http through the proxy: \(error)")
    }
    guard let tlsRoot, let certificates else { return }
    do {
        let ca = try X509Certificate(derOrPEM: Data(contentsOf: certificates.appendingPathComponent("ca.pem")))
        let transport = try RoutingTransport(
            configuration: configuration, serverTrust: .additionalCertificateAuthorities([ca]))
        let response = try await WebServiceClient(serviceRoot: tlsRoot, transport: transport).response(
            for: WebServiceCall<String>(relativePath: "ok"), [])
        let tls = response.metrics.transactions.last?.tls.map { "\($0)" } ?? "?"
        print("https through the proxy's CONNECT tunnel: \(response.value.trimmingCharacters(in: .newlines)), \(tls)")
    } catch {
        print("https through the proxy: \(error)")
    }
}
