import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests over HTTP/1.1 connections of its own, without `URLSession`: every request,
/// whatever its method and body (none, in memory, streamed; a response in memory, streamed or
/// downloaded to a file), on a kept-alive connection of the origin's pool, each decision about it
/// made by one state machine (``HTTP1ConnectionMachine``). On Linux `https` too, over TLS from the
/// system's OpenSSL (``carriesHTTPS``), and HTTP proxies (``carriesProxies``).
///
/// ``RoutingTransport``, the client's default, sends every request here on Linux unless a proxy
/// it cannot speak to applies (SOCKS) or OpenSSL is missing. Use this transport on its own when
/// you want its connections and nothing else:
///
/// ```swift
/// let client = WebServiceClient(serviceRoot: root, transport: HTTP1Transport(configuration: .ephemeral))
/// ```
///
/// Foundation's `URLSession` on Linux passes every request through libcurl's thread, a work
/// queue and the delegate queue: some 20 thread switches and 450 µs of CPU for a small GET on
/// loopback. On Linux every exchange here runs on one of the process's event loops (one thread
/// per core, epoll): no thread waits for its response, and the call resumes straight from the
/// loop; a streamed body is read, and a download written to its file, on a few shared queues off
/// the loop. Elsewhere an exchange blocks the connection's thread while it runs. Foundation
/// also sends every stream chunked (never with `Content-Length`, which some servers require) and
/// spends a callback, a timer and a copy on each 64 KiB; this transport sends the length up front
/// (`Expect: 100-continue` for large bodies) and writes 512 KiB at a time. Its download tasks
/// reopen their file for every 16 KiB; this transport writes the body to the call's file as it
/// reads it.
///
/// Connections, kept-alive or not, follow the configuration's `httpMaximumConnectionsPerHost`
/// per origin (6 by default), with a total cap across origins that follows the process's
/// descriptor limit; ``ConnectionLimits`` sets either. Later calls wait in order, cancellable;
/// idle connections are kept, up to the caps, until 30 s without use. A request that meets a
/// kept-alive connection the server has just closed, before any byte of an answer, goes again on
/// a new one only when it may be sent twice (``maySendAgain(_:context:)``); a POST or PATCH fails
/// instead, saying the server may have seen it.
/// When the process has no descriptor left for a new connection, the call fails with
/// `URLError(.cannotConnectToHost)` saying "too many open files" (see ``ConnectionLimits``).
/// A `gzip` or `deflate` body is decoded as it arrives, and any other coding is passed on
/// unchanged with its `Content-Encoding` field. The transport sends the request's fields as they
/// are, adding only the connection's own (`Host`, `Connection`, the framing, `Expect`): the
/// configuration's additional fields, `Accept`, `User-Agent`, `Accept-Encoding` and its cookies
/// are added above the cache by the client's bridge stage, so its log and cache see them.
///
/// It carries `http` URLs, and `https` ones where ``carriesHTTPS``: any other scheme fails with
/// `URLError(.unsupportedURL)` before a connection is opened. It goes through the HTTP proxy the
/// configuration's `connectionProxyDictionary` names, else the environment's `http_proxy`,
/// `https_proxy` or `all_proxy` (with `no_proxy`), as libcurl reads them: plain `http` in
/// absolute form, `https` through a `CONNECT` tunnel, with Basic credentials from the proxy URL
/// (`http://user:password@host:port`) sent to the proxy only; a 407 or another refusal of the
/// tunnel fails the call with a typed error.
public final class HTTP1Transport: WebServiceTransport {
    /// The configuration's fields and cookies, which the client's bridge stage adds.
    public let bridge: RequestBridge?
    /// Every connection of this transport, kept-alive or not, counts against its caps
    /// (``ConnectionPool/limits(for:)``).
    let pool: ConnectionPool
    /// How `https` origins are trusted (on the event loop, through the system's OpenSSL:
    /// Transport/TLS); `nil`: this transport carries `http` only.
    let serverTrust: ServerTrustPolicy?
    /// A test-only switch that turns certificate verification off (``TLSContext/Trust``), for the
    /// twins of the tests that show a server refused.
    let testOnlySkipsVerification: Bool
    /// The proxies that apply (the configuration's `connectionProxyDictionary`, else the
    /// environment's `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy`), read once.
    let proxies: ProxyEnvironment
    /// The TLS contexts, each made on the first `https` request that needs it: one for the hosts
    /// of the general policy (key `""`), one for each host with a policy of its own.
    private let tlsContexts = Locked<[String: Result<TLSContext, TLSFailure>]>([:])

    /// Creates a transport with the connection caps, additional header fields and cookies of
    /// `configuration` (`.default` shares `HTTPCookieStorage.shared`; `.ephemeral` keeps cookies
    /// in memory per transport).
    ///
    /// - Parameters:
    ///   - configuration: The session configuration whose caps, header fields and cookies apply.
    ///   - connectionLimits: Caps that replace the configuration's: connections per origin,
    ///     connections in all. A cap left `nil` keeps its default.
    ///   - serverTrust: How `https` servers are trusted (``carriesHTTPS``): the system's store by
    ///     default.
    public convenience init(
        configuration: URLSessionConfiguration = .default, connectionLimits: ConnectionLimits = ConnectionLimits(),
        serverTrust: ServerTrustPolicy = .system
    ) {
        self.init(
            configuration: configuration,
            bridge: RequestBridge(configuration: configuration, cookies: CookieJar(configuration: configuration)),
            limits: ConnectionPool.limits(for: configuration, connectionLimits), serverTrust: serverTrust)
    }

    /// A transport for `configuration` with the cookie jar `cookies`; `limits` replaces the pool's
    /// caps and idle timeout.
    convenience init(configuration: URLSessionConfiguration, cookies: CookieJar?, limits: ConnectionPool.Limits? = nil)
    {
        self.init(
            configuration: configuration, bridge: RequestBridge(configuration: configuration, cookies: cookies),
            limits: limits)
    }

    /// A transport with the caps of `configuration` (or `limits`) whose requests get `bridge`'s
    /// fields and cookies (a routing transport's, shared with its session), trusting `https`
    /// servers as `serverTrust` says (`nil`: `http` only).
    init(
        configuration: URLSessionConfiguration, bridge: RequestBridge, limits: ConnectionPool.Limits?,
        serverTrust: ServerTrustPolicy? = .system, testOnlySkipsVerification: Bool = false,
        proxies: ProxyEnvironment? = nil
    ) {
        pool = ConnectionPool(
            limits: limits ?? ConnectionPool.limits(for: configuration), onThreads: Self.runsOnThreads)
        self.proxies = proxies ?? ProxyEnvironment.current.overridden(by: configuration)
        self.bridge = bridge
        self.serverTrust = serverTrust
        self.testOnlySkipsVerification = testOnlySkipsVerification
    }

    /// Whether this platform's HTTP/1.1 transports carry `https`: on Linux, on the event loop,
    /// once the system's OpenSSL has been opened (the first call opens it). Elsewhere, when
    /// OpenSSL cannot be opened, or under the blocking test driver, `https` goes through
    /// URLSession (``RoutingTransport``) and this transport refuses it.
    public static var carriesHTTPS: Bool {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            if case .success = OpenSSLLibrary.shared { return !runsOnThreads }
        #endif
        return false
    }

    /// Whether this platform's HTTP/1.1 transports go through HTTP proxies themselves: on Linux,
    /// on the event loop (plain `http` in absolute form, `https` through a `CONNECT` tunnel).
    /// Elsewhere, and under the blocking test driver, a request a proxy applies to fails with
    /// `URLError(.unsupportedURL)` here, and ``RoutingTransport`` sends it through URLSession.
    public static var carriesProxies: Bool {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            return !runsOnThreads
        #else
            return false
        #endif
    }

    /// Why ``carriesHTTPS`` is `false`, in words; `nil` when it is `true`.
    static var httpsUnavailableReason: String? {
        guard !carriesHTTPS else { return nil }
        #if os(Linux) && canImport(CWebServiceKitSystem)
            if case .failure(let failure) = OpenSSLLibrary.shared { return failure.message }
            return "the blocking test driver (WEBSERVICEKIT_HTTP1_THREADS=1) has no TLS layer"
        #else
            return "this platform's TLS is URLSession's"
        #endif
    }

    /// The TLS context for `host`, made once per policy; its failure (OpenSSL missing, an
    /// authority OpenSSL cannot read) fails each `https` call that needs it.
    private func tls(forHost host: String) throws -> TLSContext {
        #if canImport(CWebServiceKitSystem)
            let policy = serverTrust ?? .system
            let key = policy.hostPolicies[host.lowercased()] == nil ? "" : host.lowercased()
            let result = tlsContexts.withLock { contexts -> Result<TLSContext, TLSFailure> in
                if let stored = contexts[key] { return stored }
                let made = Result { () throws(TLSFailure) -> TLSContext in
                    try TLSContext.client(
                        trust: .init(
                            policy: policy.policy(forHost: host), testOnlySkipsVerification: testOnlySkipsVerification),
                        library: try OpenSSLLibrary.shared.get())
                }
                contexts[key] = made
                return made
            }
            do {
                return try result.get()
            } catch {
                throw error.urlError
            }
        #else
            throw URLError(.unsupportedURL)
        #endif
    }

    /// Whether exchanges run on threads over blocking sockets (``BlockingExchange``) rather than
    /// on the event loop (``HTTP1Exchange``): where there is no event loop; on Linux only when the
    /// environment's `WEBSERVICEKIT_HTTP1_THREADS` is `1`, which `Scripts/test` sets to run the
    /// transport's suites through the blocking driver as well (a test setting, not a tuning knob).
    static let runsOnThreads: Bool = {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            ProcessInfo.processInfo.environment["WEBSERVICEKIT_HTTP1_THREADS"] == "1"
        #else
            true
        #endif
    }()

    /// The caps in force: both set, as ``init(configuration:connectionLimits:)`` resolved them
    /// (`Int.max` per origin: no cap per origin).
    public var connectionLimits: ConnectionLimits {
        let limits = pool.limits
        return ConnectionLimits(perOrigin: limits.perOrigin, total: limits.total)
    }

    /// Sends `request`, which must have an `http` URL, or an `https` one where ``carriesHTTPS``;
    /// throws `URLError(.unsupportedURL)` for any other scheme, before a connection is opened.
    public func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        // Never an `https` request in the clear: only through TLS on the event loop, when asked.
        switch request.url?.scheme?.lowercased() {
        case "http": break
        case "https" where serverTrust != nil && Self.carriesHTTPS: break
        default: throw URLError(.unsupportedURL)
        }
        guard let url = request.url else { throw URLError(.badURL) }
        let deadline = request.timeoutInterval > 0 ? DispatchTime.now() + request.timeoutInterval : nil
        return try await send(request, url: url, deadline: deadline, context: context)
    }

    /// The largest body in memory that goes in one write with its head: 64 KiB. A larger one goes
    /// after the head in pieces of 512 KiB on the same kept-alive connection, listening for an
    /// early answer (a 413 as the body goes out), and asks `Expect: 100-continue` from 1 MiB.
    public static let keptAliveBodyLimit = 64 * 1024

    /// Whether a request may go again on a new connection after a reused one closed before any
    /// byte of its answer: the server may have received and processed it (RFC 9112 §9.3.1), so
    /// only when sending it twice has the effect of sending it once, by its method (RFC 9110
    /// §9.2.2) or because its descriptor says so (``CallFields/isIdempotent``).
    static func maySendAgain(_ method: String, context: TransportContext) -> Bool {
        HTTPMethod.isIdempotent(method) || context.call.isIdempotent
    }

    /// The error of a request that met a reused connection the server closed before any byte of
    /// its answer, and may not go again (``maySendAgain(_:context:)``).
    static func closedBeforeAnswering(_ method: String, reason: String) -> URLError {
        URLError(
            .networkConnectionLost,
            reason:
                "\(reason) as the \(method) request went out on a reused connection, before any byte of an answer: "
                + "the server may or may not have processed it, so it was not sent again (\(method) is not "
                + "idempotent, RFC 9110 §9.2.2). Mark the descriptor isIdempotent when sending it twice is safe "
                + "(an idempotency key), and a retry policy then retries it")
    }

    /// How a request without a stream frames its body in memory: its length, also 0 for a POST,
    /// PUT or PATCH without one (RFC 9110 §8.6: a user agent should send `Content-Length` when the
    /// method gives content a meaning); no field for other methods without a body.
    static func framing(of body: Data?, method: String) -> HTTP1RequestHead.Framing {
        if let body { return .length(Int64(body.count)) }
        switch method {
        case "POST", "PUT", "PATCH": return .length(0)
        default: return .none
        }
    }

    /// What an exchange gives back.
    struct Outcome: Sendable {
        var response: TransportResponse
        /// Whether the connection can carry the next request.
        var leavesConnectionReusable: Bool
    }

    /// Every request, whatever its method and body, goes on a pooled connection of the origin: an
    /// idle one, or a new one once the pool's caps allow (the call waits in order until then).
    /// Its exchange runs ``HTTP1ConnectionMachine``: driven by the connection's event loop on
    /// Linux (``HTTP1Exchange``; no thread waits for the server), elsewhere on the connection's
    /// queue (``BlockingExchange``).
    private func send(
        _ request: WebServiceRequest, url: URL, deadline: DispatchTime?, context: TransportContext
    ) async throws -> TransportResponse {
        let proxy = try self.proxy(for: url)
        // A connection through a proxy is that proxy's: its own key in the pool.
        let origin = Self.origin(of: url) + (proxy.map { " via \($0)" } ?? "")
        let tls = url.scheme?.lowercased() == "https" ? try self.tls(forHost: url.host ?? "") : nil
        let connection = try await pool.connection(to: origin, deadline: deadline)
        let outcome: Outcome
        do {
            switch connection.socket {
            #if os(Linux) && canImport(CWebServiceKitSystem)
                case .loop(let socket):
                    outcome = try await HTTP1Exchange.run(
                        request, url: url, on: socket, deadline: deadline?.uptimeNanoseconds, context: context,
                        tls: tls, proxy: proxy)
            #endif
            case .blocking(let socket, let queue):
                let exchange = UnsafeSendable(
                    try BlockingExchange(request, url: url, on: socket, deadline: deadline, context: context))
                outcome = try await blocking(cancelling: socket) {
                    queue.async(execute: $0)
                } run: {
                    var exchange = exchange.value
                    return try exchange.run()
                }
            }
        } catch {
            pool.release(connection, to: origin, reusable: false)
            throw error
        }
        pool.release(connection, to: origin, reusable: outcome.leavesConnectionReusable)
        return outcome.response
    }

    /// The proxy a request to `url` goes through; `nil`: straight to the origin. Throws
    /// `URLError(.unsupportedURL)` for a proxy this transport cannot use.
    private func proxy(for url: URL) throws -> ProxyRoute? {
        switch proxies.route(for: url) {
        case .direct: return nil
        case .proxy(let route):
            guard Self.carriesProxies else {
                throw URLError(
                    .unsupportedURL,
                    reason: "a proxy (\(route)) applies to \(url.host ?? "the host"), and this platform's HTTP/1.1 "
                        + "transport does not go through proxies: use RoutingTransport, which sends it through URLSession"
                )
            }
            return route
        case .unsupported(let reason):
            throw URLError(
                .unsupportedURL,
                reason: "\(reason): RoutingTransport sends such requests through URLSession, which uses the proxy")
        }
    }

    /// The key of `url`'s origin in the pool: scheme, host and port (RFC 9110 §4.3.1).
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "http"
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Runs the blocking `work` on the thread `start` gives it, and waits for it without blocking
    /// the task; cancelling the task cancels `connection`, which ends any wait of `work` at once.
    private func blocking<Result: Sendable>(
        cancelling connection: SocketConnection, start: (@escaping @Sendable () -> Void) -> Void,
        run work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                start { continuation.resume(with: Swift.Result { try work() }) }
            }
        } onCancel: {
            connection.cancel()
        }
    }
}

/// An exchange handed to the thread that runs it; only that thread touches it afterwards.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
