import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's default transport: sends each request to one of two peers, ``HTTP1Transport``
/// or ``URLSessionTransport``, which share the configuration's cookies.
///
/// On Linux, every request to a plain `http` URL goes to the HTTP/1.1 transport unless a proxy
/// applies, whatever its method and body (none, in memory, a stream such as a multipart upload
/// from files, a download to a file), on kept-alive connections (a small GET about three times
/// as fast as the session on loopback). Every `https` request and every request a proxy would
/// carry goes through the session. On other platforms every request goes through the session
/// (``usesDirectHTTP1ByDefault``).
///
/// The route is decided once per request, before it is sent; a request that fails on one peer is
/// not sent again on the other, so a call fails with the error of the peer that carried it.
public final class RoutingTransport: WebServiceTransport {
    /// Whether requests to plain `http` URLs go to ``HTTP1Transport`` by default: on Linux,
    /// where Foundation passes each request through some 20 thread switches, sends streams
    /// chunked and slowly, writes downloads 16 KiB at a time through a reopened file, and ends the
    /// process on a response with a trailer field; not on Apple platforms.
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
    /// The fields and cookies of the session configuration, one bridge for both peers (the
    /// session peer's; the HTTP/1.1 peer's when the session names none).
    public let bridge: RequestBridge?

    /// Creates a transport whose peers are made from `configuration`: a ``URLSessionTransport``
    /// (its `URLSession` with Foundation's `urlCache` removed) and, when `usesDirectHTTP1`, an
    /// ``HTTP1Transport``. Both use one cookie jar, as the configuration asks (`.default` shares
    /// `HTTPCookieStorage.shared`; `.ephemeral` keeps cookies in memory per transport).
    ///
    /// - Parameter usesDirectHTTP1: Send requests to `http` URLs over the HTTP/1.1 transport's
    ///   own kept-alive connections, whatever their method and body. Requests that a proxy would carry (the
    ///   configuration's or the environment's `http_proxy`/`all_proxy`) and every `https`
    ///   request still use the session.
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
        bridge = session.bridge ?? http1?.bridge
    }

    /// The two peers for `configuration`, sharing its cookie jar, and the configuration they were
    /// made from (a copy; the caller's is left as it was).
    static func peers(
        for configuration: URLSessionConfiguration, usesDirectHTTP1: Bool,
        connectionLimits: HTTP1Transport.ConnectionLimits = HTTP1Transport.ConnectionLimits(),
        serverTrust: ServerTrustPolicy = .system
    ) -> (session: URLSessionTransport, http1: HTTP1Transport?, configuration: URLSessionConfiguration) {
        let (configuration, bridge) = URLSessionTransport.prepared(configuration)
        let session = URLSessionTransport(prepared: configuration, bridge: bridge, serverTrust: serverTrust)
        let http1 =
            usesDirectHTTP1
            ? HTTP1Transport(
                configuration: configuration, bridge: bridge,
                limits: ConnectionPool.limits(for: configuration, connectionLimits)) : nil
        return (session, http1, configuration)
    }

    public func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
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

    /// The peer that carries `request`: the HTTP/1.1 transport for every plain `http` URL that no
    /// proxy applies to, whatever its method and body; the session for everything else.
    ///
    /// Every plain-`http` call goes direct, not only the fast ones: on Linux FoundationNetworking
    /// ends the process (`fatalError` in `_NativeProtocol.transferCompleted`) when a response to
    /// a request with a body carries a trailer field (RFC 9112 §7.1.2), which any server may send;
    /// this transport reads and drops trailer fields. It also stops reading while a streamed
    /// response's consumer is behind, which URLSession on Linux cannot do.
    func route(for request: WebServiceRequest, context: TransportContext) -> Peer {
        guard let url = request.url, url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty,
            !proxyConfigured, !proxyEnvironment.appliesTo(host: host)
        else { return .session }
        return .http1
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
