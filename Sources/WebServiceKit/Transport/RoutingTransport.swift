import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's default transport: sends each request to one of two peers, ``HTTP1Transport``
/// or ``URLSessionTransport``, which share the configuration's cookies.
///
/// On Linux, requests to plain `http` URLs go to the HTTP/1.1 transport unless a proxy applies:
/// GET and HEAD requests without a body on kept-alive connections (about four times as fast as
/// the session on loopback), streamed bodies (multipart uploads from files,
/// ``RequestBody/stream(length:isReplayable:open:)``) and downloads to a file on a connection
/// each. Every other request (an `https` URL, another method with a body in memory, a request a
/// proxy would carry) goes through the session. On other platforms every request goes through
/// the session (``usesDirectHTTP1ByDefault``).
///
/// The route is decided once per request, before it is sent; a request that fails on one peer is
/// not sent again on the other, so a call fails with the error of the peer that carried it.
public final class RoutingTransport: WebServiceTransport {
    /// Whether GET and HEAD requests, streamed bodies and file downloads to plain `http` URLs go
    /// to ``HTTP1Transport`` by default: on Linux, where Foundation passes each request through
    /// some 20 thread switches, sends streams chunked and slowly and writes downloads 16 KiB at a
    /// time through a reopened file; not on Apple platforms.
    #if canImport(FoundationNetworking)
        public static let usesDirectHTTP1ByDefault = true
    #else
        public static let usesDirectHTTP1ByDefault = false
    #endif

    /// The peer for every request the HTTP/1.1 peer does not take.
    private let session: any WebServiceTransport
    /// The HTTP/1.1 peer; `nil` when the session takes every request.
    private let http1: (any WebServiceTransport)?
    private let proxyConfigured: Bool
    /// Read once, when the transport is made: building the environment's dictionary on every
    /// call would cost more than the rest of a kept-alive GET's bookkeeping.
    private let proxyEnvironment: ProxyEnvironment

    /// Creates a transport whose peers are made from `configuration`: a ``URLSessionTransport``
    /// (its `URLSession` with Foundation's `urlCache` removed) and, when `usesDirectHTTP1`, an
    /// ``HTTP1Transport``. Both use one cookie jar, as the configuration asks (`.default` shares
    /// `HTTPCookieStorage.shared`; `.ephemeral` keeps cookies in memory per transport).
    ///
    /// - Parameter usesDirectHTTP1: Send requests to `http` URLs over the HTTP/1.1 transport's
    ///   own connections: GET and HEAD requests without a body on kept-alive connections,
    ///   streamed bodies and downloads to a file on a connection each. Requests that a proxy would
    ///   carry (the configuration's or the environment's `http_proxy`/`all_proxy`), every other
    ///   method with a body in memory, and every `https` request still use the session.
    /// - Parameter connectionLimits: The HTTP/1.1 transport's caps, connections per origin and in
    ///   all, where they differ from its defaults (``HTTP1Transport/ConnectionLimits``); the
    ///   session keeps the configuration's `httpMaximumConnectionsPerHost`.
    public convenience init(
        configuration: URLSessionConfiguration = .default,
        usesDirectHTTP1: Bool = RoutingTransport.usesDirectHTTP1ByDefault,
        connectionLimits: HTTP1Transport.ConnectionLimits = HTTP1Transport.ConnectionLimits()
    ) {
        let peers = Self.peers(
            for: configuration, usesDirectHTTP1: usesDirectHTTP1, connectionLimits: connectionLimits)
        self.init(session: peers.session, http1: peers.http1, configuration: peers.configuration)
    }

    /// Creates a transport like ``init(configuration:usesDirectHTTP1:connectionLimits:)`` whose
    /// `https` requests trust servers as `serverTrust` says. (The HTTP/1.1 peer carries plain
    /// `http` only: it makes no TLS connection.)
    ///
    /// - Throws: ``ServerTrustError/unenforceable(_:)`` when this platform's `URLSession` cannot
    ///   enforce the policy (on Linux, anything but ``ServerTrustPolicy/system``).
    public convenience init(
        configuration: URLSessionConfiguration = .default,
        usesDirectHTTP1: Bool = RoutingTransport.usesDirectHTTP1ByDefault,
        connectionLimits: HTTP1Transport.ConnectionLimits = HTTP1Transport.ConnectionLimits(),
        serverTrust: ServerTrustPolicy
    ) throws(ServerTrustError) {
        try serverTrust.checkEnforceable()
        let peers = Self.peers(
            for: configuration, usesDirectHTTP1: usesDirectHTTP1, connectionLimits: connectionLimits,
            serverTrust: serverTrust)
        self.init(session: peers.session, http1: peers.http1, configuration: peers.configuration)
    }

    /// A transport over `session` and `http1` that honours the proxy settings of `configuration`
    /// and `proxyEnvironment`.
    init(
        session: any WebServiceTransport, http1: (any WebServiceTransport)?, configuration: URLSessionConfiguration,
        proxyEnvironment: ProxyEnvironment = .current
    ) {
        self.session = session
        self.http1 = http1
        proxyConfigured = !(configuration.connectionProxyDictionary ?? [:]).isEmpty
        self.proxyEnvironment = proxyEnvironment
    }

    /// The two peers for `configuration`, sharing its cookie jar, and the configuration they were
    /// made from (a copy; the caller's is left as it was).
    static func peers(
        for configuration: URLSessionConfiguration, usesDirectHTTP1: Bool,
        connectionLimits: HTTP1Transport.ConnectionLimits = HTTP1Transport.ConnectionLimits(),
        serverTrust: ServerTrustPolicy = .system
    ) -> (session: URLSessionTransport, http1: HTTP1Transport?, configuration: URLSessionConfiguration) {
        let (configuration, cookies) = URLSessionTransport.prepared(configuration)
        let session = URLSessionTransport(prepared: configuration, cookies: cookies, serverTrust: serverTrust)
        let http1 =
            usesDirectHTTP1
            ? HTTP1Transport(
                configuration: configuration, cookies: cookies,
                limits: ConnectionPool.limits(for: configuration, connectionLimits)) : nil
        return (session, http1, configuration)
    }

    public func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse {
        if let http1, route(for: request, context: context) == .http1 {
            return try await http1.send(request, context: context)
        }
        return try await session.send(request, context: context)
    }

    /// The peer a request goes to.
    enum Peer: Equatable {
        case http1
        case session
    }

    /// The peer that carries `request`: the HTTP/1.1 transport for a plain `http` URL that no
    /// proxy applies to, with a streamed body, a download to a file, a streamed response, or a GET
    /// or HEAD without a body (``HTTP1Transport/keepsAlive(_:)``); the session for everything else.
    func route(for request: URLRequest, context: TransportContext) -> Peer {
        guard let url = request.url, url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty,
            !proxyConfigured, !proxyEnvironment.appliesTo(host: host)
        else { return .session }
        // A streamed response goes direct whatever its method: this transport stops reading when
        // the consumer is behind, which URLSession on Linux cannot do.
        if request.httpBodyStream != nil || context.download != nil || context.responseBody.stream != nil {
            return .http1
        }
        return HTTP1Transport.keepsAlive(request) ? .http1 : .session
    }
}

/// The proxy settings libcurl (and so `URLSession` on Linux) reads from the environment.
struct ProxyEnvironment: Sendable {
    var proxy: String?
    var noProxy: String?

    static var current: ProxyEnvironment {
        let environment = ProcessInfo.processInfo.environment
        let proxy = ["http_proxy", "all_proxy", "ALL_PROXY"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return ProxyEnvironment(proxy: proxy, noProxy: environment["no_proxy"] ?? environment["NO_PROXY"])
    }

    /// Whether requests to `host` would go through the proxy: `no_proxy` lists hosts and domain
    /// suffixes that go direct, and `*` means every host.
    func appliesTo(host: String) -> Bool {
        guard proxy != nil else { return false }
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
}
