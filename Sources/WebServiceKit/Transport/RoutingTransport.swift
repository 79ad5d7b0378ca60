import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's default transport: sends each request to one of two peers, ``HTTP1Transport``
/// or ``URLSessionTransport``, which share the configuration's cookies.
///
/// On Linux, every request goes to the HTTP/1.1 transport, whatever its method and body (none,
/// in memory, a stream such as a multipart upload from files, a download to a file), on
/// kept-alive connections (a small GET about three times as fast as the session on loopback):
/// plain `http`, and `https` through TLS on the event loop with the system's OpenSSL, opened at
/// run time (``HTTP1Transport/carriesHTTPS``), which enforces the ``ServerTrustPolicy``. When
/// OpenSSL cannot be opened, `https` goes through the session, and ``routeNotice`` says why. An
/// HTTP proxy (the configuration's, or `http_proxy`, `https_proxy`, `all_proxy`) is the HTTP/1.1
/// transport's too; a request another kind of proxy (SOCKS) would carry goes through the session.
/// On other platforms every request goes through the session
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
    /// Whether the HTTP/1.1 peer carries `https` (``HTTP1Transport/carriesHTTPS``).
    private let http1CarriesHTTPS: Bool
    /// The trust policy the `https` requests must meet; one the session cannot enforce (any but
    /// the system's, on Linux) fails a request the session would carry instead of being ignored.
    private let serverTrust: ServerTrustPolicy
    /// Whether the HTTP/1.1 peer goes through proxies itself (``HTTP1Transport/carriesProxies``).
    private let http1CarriesProxies: Bool
    /// The proxies of the configuration (else the environment's). Read once, when the transport
    /// is made: building the environment's dictionary on every call would cost more than the
    /// rest of a kept-alive GET's bookkeeping.
    private let proxies: ProxyEnvironment
    /// The fields and cookies of the session configuration, one bridge for both peers (the
    /// session peer's; the HTTP/1.1 peer's when the session names none).
    public let bridge: RequestBridge?

    /// Creates a transport whose peers are made from `configuration`: a ``URLSessionTransport``
    /// (its `URLSession` with Foundation's `urlCache` removed) and, when `usesDirectHTTP1`, an
    /// ``HTTP1Transport``. Both use one cookie jar, as the configuration asks (`.default` shares
    /// `HTTPCookieStorage.shared`; `.ephemeral` keeps cookies in memory per transport).
    ///
    /// - Parameter usesDirectHTTP1: Send requests over the HTTP/1.1 transport's own kept-alive
    ///   connections, whatever their method and body: `http`, and `https` where
    ///   ``HTTP1Transport/carriesHTTPS``, through an HTTP proxy where one applies. Requests another
    ///   kind of proxy (SOCKS) would carry still use the session.
    /// - Parameter connectionLimits: The caps, connections per origin and in all, where they
    ///   differ from the defaults (``HTTP1Transport/ConnectionLimits``): the HTTP/1.1 transport's,
    ///   `http` and `https` alike, and the per-origin one is the session's
    ///   `httpMaximumConnectionsPerHost` too, so the requests it carries are capped alike.
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
    /// `https` requests trust servers as `serverTrust` says: on Linux on the HTTP/1.1 peer's TLS
    /// (the system's OpenSSL), on Apple platforms in the session's server-trust challenge.
    ///
    /// - Throws: ``ServerTrustError/unenforceable(_:)`` when no peer of this platform can enforce
    ///   the policy: on Linux, anything but ``ServerTrustPolicy/system`` when OpenSSL cannot be
    ///   opened or `usesDirectHTTP1` is `false` (FoundationNetworking offers no server-trust
    ///   challenge).
    public convenience init(
        configuration: URLSessionConfiguration = .default,
        usesDirectHTTP1: Bool = RoutingTransport.usesDirectHTTP1ByDefault,
        connectionLimits: HTTP1Transport.ConnectionLimits = HTTP1Transport.ConnectionLimits(),
        serverTrust: ServerTrustPolicy
    ) throws(ServerTrustError) {
        try serverTrust.checkEnforceable(direct: usesDirectHTTP1 && HTTP1Transport.carriesHTTPS)
        let peers = Self.peers(
            for: configuration, usesDirectHTTP1: usesDirectHTTP1, connectionLimits: connectionLimits,
            serverTrust: serverTrust)
        self.init(
            session: peers.session, http1: peers.http1, configuration: peers.configuration, serverTrust: serverTrust)
    }

    /// A transport over `session` and `http1` that honours the proxy settings of `configuration`
    /// and `proxyEnvironment`; `http1CarriesHTTPS` says whether `https` may go to `http1`.
    init(
        session: any WebServiceTransport, http1: (any WebServiceTransport)?, configuration: URLSessionConfiguration,
        proxyEnvironment: ProxyEnvironment = .current, serverTrust: ServerTrustPolicy = .system,
        http1CarriesHTTPS: Bool = HTTP1Transport.carriesHTTPS, http1CarriesProxies: Bool = HTTP1Transport.carriesProxies
    ) {
        self.session = session
        self.http1 = http1
        self.http1CarriesHTTPS = http1 != nil && http1CarriesHTTPS
        self.http1CarriesProxies = http1 != nil && http1CarriesProxies
        self.serverTrust = serverTrust
        proxies = proxyEnvironment.overridden(by: configuration)
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
        // One set of caps for every route: the session's per-host cap follows the per-origin one
        // (a request that goes through the session, proxied or without OpenSSL, is capped alike).
        if let perOrigin = connectionLimits.perOrigin {
            configuration.httpMaximumConnectionsPerHost = max(1, perOrigin)
        }
        let session = URLSessionTransport(prepared: configuration, bridge: bridge, serverTrust: serverTrust)
        let http1 =
            usesDirectHTTP1
            ? HTTP1Transport(
                configuration: configuration, bridge: bridge,
                limits: ConnectionPool.limits(for: configuration, connectionLimits), serverTrust: serverTrust) : nil
        return (session, http1, configuration)
    }

    public func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        if let http1, route(for: request, context: context) == .http1 {
            return try await http1.send(request, context: context)
        }
        #if canImport(FoundationNetworking)
            // FoundationNetworking cannot enforce a policy beyond the system's (no server-trust
            // challenge): fail rather than send without it.
            if !serverTrust.isSystem, request.url?.scheme?.lowercased() == "https" {
                throw URLError(
                    .secureConnectionFailed,
                    reason: "this https request would go through URLSession ("
                        + (Self.sessionReason(proxied: proxyApplies(to: request)) ?? "the direct route is off")
                        + "), which cannot enforce the client's ServerTrustPolicy (\(serverTrust.requirements)) "
                        + "on this platform; it was not sent")
            }
        #endif
        return try await session.send(request, context: context)
    }

    /// The peer a request goes to.
    enum Peer: Equatable {
        case http1
        case session
    }

    /// The peer that carries `request`: the HTTP/1.1 transport for every `http` URL, and every
    /// `https` one when it carries TLS, directly or through an HTTP proxy when it carries proxies,
    /// whatever its method and body; the session for everything else (a SOCKS proxy, among
    /// others).
    ///
    /// Every call goes direct, not only the fast ones: on Linux FoundationNetworking ends the
    /// process (`fatalError` in `_NativeProtocol.transferCompleted`) when a response to a request
    /// with a body carries a trailer field (RFC 9112 §7.1.2), which any server may send; this
    /// transport reads and drops trailer fields. It also stops reading while a streamed
    /// response's consumer is behind, which URLSession on Linux cannot do.
    func route(for request: WebServiceRequest, context: TransportContext) -> Peer {
        guard let url = request.url, let host = url.host, !host.isEmpty else { return .session }
        switch url.scheme?.lowercased() {
        case "http": break
        case "https" where http1CarriesHTTPS: break
        default: return .session
        }
        switch proxies.route(for: url) {
        case .direct: return .http1
        case .proxy: return http1CarriesProxies ? .http1 : .session
        case .unsupported: return .session
        }
    }

    /// Whether a proxy (the configuration's or the environment's) would carry `request`.
    private func proxyApplies(to request: WebServiceRequest) -> Bool {
        guard let url = request.url else { return false }
        return proxies.route(for: url) != .direct
    }

    /// Why an `https` request goes through the session, for its error: a proxy, or OpenSSL's
    /// absence; `nil` when the direct route was turned off.
    private static func sessionReason(proxied: Bool) -> String? {
        if proxied { return "a proxy the library's connections cannot use applies to it" }
        return HTTP1Transport.httpsUnavailableReason.map { "the direct route has no TLS: \($0)" }
    }

    /// Why `https` cannot take the direct route on this platform although plain `http` does
    /// (OpenSSL could not be opened), in a line for your log; `nil` otherwise. Each such request's
    /// metrics name the `session` route.
    public static var routeNotice: String? {
        guard usesDirectHTTP1ByDefault, let reason = HTTP1Transport.httpsUnavailableReason else { return nil }
        return "https goes through URLSession, not the library's own connections: \(reason)"
    }
}
