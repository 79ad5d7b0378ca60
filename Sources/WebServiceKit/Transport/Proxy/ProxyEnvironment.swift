import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The proxy settings libcurl (and so `URLSession` on Linux) reads from the environment, and the
/// session configuration's: which requests go through a proxy, and which proxy.
struct ProxyEnvironment: Sendable {
    /// The proxy of `http` requests: `http_proxy`, else `all_proxy`.
    let proxy: String?
    let noProxy: String?
    /// The proxy of `https` requests: `https_proxy`, else `all_proxy`.
    let secureProxy: String?
    /// Why every request goes through a proxy this library's connections cannot use (a session
    /// configuration naming only a SOCKS proxy); `nil` otherwise.
    var unsupported: String?
    /// The two proxies as ``ProxyRoute/parse(_:)`` reads them, read once rather than per request.
    private let proxyChoice: ProxyRoute.Choice?
    private let secureProxyChoice: ProxyRoute.Choice?

    init(proxy: String?, noProxy: String?, secureProxy: String? = nil) {
        self.proxy = proxy
        self.noProxy = noProxy
        self.secureProxy = secureProxy
        proxyChoice = proxy.map(ProxyRoute.parse)
        secureProxyChoice = secureProxy.map(ProxyRoute.parse)
    }

    static var current: ProxyEnvironment {
        let environment = ProcessInfo.processInfo.environment
        func first(_ names: [String]) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        // libcurl reads `http_proxy` only in lower case (an upper-case HTTP_PROXY could be set
        // by a CGI request's `Proxy` field); the others in either case.
        return ProxyEnvironment(
            proxy: first(["http_proxy", "all_proxy", "ALL_PROXY"]),
            noProxy: environment["no_proxy"] ?? environment["NO_PROXY"],
            secureProxy: first(["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]))
    }

    /// The settings of `configuration`'s `connectionProxyDictionary` (`HTTPEnable`, `HTTPProxy`,
    /// `HTTPPort`, and the `HTTPS…` ones), in place of the environment's when it names a proxy.
    func overridden(by configuration: URLSessionConfiguration) -> ProxyEnvironment {
        guard let dictionary = configuration.connectionProxyDictionary, !dictionary.isEmpty else { return self }
        func proxy(_ prefix: String) -> String? {
            let enabled =
                (dictionary["\(prefix)Enable"] as? Int).map { $0 != 0 } ?? (dictionary["\(prefix)Enable"] as? Bool)
            guard enabled ?? true, let host = dictionary["\(prefix)Proxy"] as? String, !host.isEmpty else { return nil }
            let port =
                (dictionary["\(prefix)Port"] as? Int) ?? (dictionary["\(prefix)Port"] as? String).flatMap { Int($0) }
            return "http://\(host)" + (port.map { ":\($0)" } ?? "")
        }
        var settings = ProxyEnvironment(proxy: proxy("HTTP"), noProxy: noProxy, secureProxy: proxy("HTTPS"))
        // Settings of another kind (SOCKS, automatic configuration) are libcurl's to apply.
        let others = dictionary.keys.map { "\($0)" }.filter { !$0.hasPrefix("HTTP") }.sorted()
        if !others.isEmpty {
            settings.unsupported =
                "the session configuration has proxy settings other than HTTP ones (\(others.joined(separator: ", ")))"
        }
        return settings
    }

    /// Whether requests to `host` with `scheme` would go through a proxy: `no_proxy` lists hosts
    /// and domain suffixes that go direct, and `*` means every host.
    func appliesTo(host: String, scheme: String = "http") -> Bool {
        guard (scheme == "https" ? secureProxy : proxy) != nil else { return false }
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for entry in (noProxy ?? "").split(separator: ",") {
            var entry = entry.trimmingCharacters(in: .whitespaces).lowercased()
            if entry == "*" { return false }
            if entry.hasPrefix(".") { entry.removeFirst() }
            if entry.isEmpty { continue }
            if host == entry || host.hasSuffix("." + entry) { return false }
        }
        return true
    }

    /// The proxy that carries a request to `url`; `nil` when it goes direct.
    func route(for url: URL) -> ProxyRoute.Choice {
        if let unsupported { return .unsupported(unsupported) }
        guard let host = url.host, let scheme = url.scheme?.lowercased(), appliesTo(host: host, scheme: scheme),
            let choice = scheme == "https" ? secureProxyChoice : proxyChoice
        else { return .direct }
        return choice
    }
}
