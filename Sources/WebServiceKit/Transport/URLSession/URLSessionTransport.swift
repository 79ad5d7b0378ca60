import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that sends every request through a `URLSession` whose own cache is off (the
/// library caches by RFC 9111 itself) and which never follows redirects on its own.
///
/// ``RoutingTransport``, the client's default, uses it for every request its ``HTTP1Transport``
/// does not take (on Linux: `https` and requests a proxy carries). Use it on its own to send everything through `URLSession`, as on Apple platforms:
///
/// ```swift
/// let transport = URLSessionTransport(sessionConfiguration: .ephemeral)
/// ```
///
/// Redirects come back to the client, which follows them itself (``WebServiceClient/maximumRedirects``)
/// so that credentials never travel to another origin: Foundation on Linux copies `Authorization`
/// into a redirect to any host.
///
/// The request's `timeoutInterval` is a deadline for the whole exchange, enforced here: Foundation
/// only bounds the time between two packets with it (on Linux in whole seconds, which
/// ``withFoundationTimeout(_:)`` keeps from rounding to nothing).
///
/// Response bodies are written into the call's ``ResponseBodySink`` as they arrive, which counts
/// progress and enforces the size limit; a call that downloads to a file (``DownloadedFile``)
/// runs as a download task, whose file the sink moves next to the destination when it is
/// complete: the body is never in memory.
public final class URLSessionTransport: WebServiceTransport {
    /// The session requests run on.
    public let session: URLSession
    private let router: TaskRouter
    /// The configuration's additional fields and cookies, which the client's bridge stage adds
    /// (the session is made without them); a routing transport shares them with its HTTP/1.1 peer.
    public let bridge: RequestBridge?
    /// Set only by the deprecated ``init(configuration:usesDirectHTTP1:)``: the routing transport
    /// this one stands for, whose session peer owns ``session``.
    private let routing: RoutingTransport?

    /// ``RoutingTransport/usesDirectHTTP1ByDefault``.
    @available(*, deprecated, renamed: "RoutingTransport.usesDirectHTTP1ByDefault")
    public static var usesDirectHTTP1ByDefault: Bool { RoutingTransport.usesDirectHTTP1ByDefault }

    /// Creates a transport over a new session made from `configuration`, with Foundation's
    /// `urlCache` removed, that sends every request through that session. Cookies follow the
    /// configuration (`.default` shares `HTTPCookieStorage.shared`; `.ephemeral` keeps them in
    /// memory per transport).
    public convenience init(sessionConfiguration configuration: URLSessionConfiguration) {
        let (configuration, bridge) = Self.prepared(configuration)
        self.init(prepared: configuration, bridge: bridge)
    }

    /// The transport that ``RoutingTransport/init(configuration:usesDirectHTTP1:)`` makes: on
    /// Linux (`usesDirectHTTP1`), requests to plain `http` URLs go over ``HTTP1Transport``, the
    /// rest through the session; with `usesDirectHTTP1: false`, everything goes through the
    /// session, as ``init(sessionConfiguration:)`` does.
    @available(
        *, deprecated,
        message:
            "use RoutingTransport(configuration:usesDirectHTTP1:) for the same routes, or URLSessionTransport(sessionConfiguration:) for URLSession alone"
    )
    public convenience init(
        configuration: URLSessionConfiguration = .default,
        usesDirectHTTP1: Bool = RoutingTransport.usesDirectHTTP1ByDefault
    ) {
        guard usesDirectHTTP1 else {
            self.init(sessionConfiguration: configuration)
            return
        }
        let peers = RoutingTransport.peers(for: configuration, usesDirectHTTP1: true)
        let routing = RoutingTransport(session: peers.session, http1: peers.http1, configuration: peers.configuration)
        self.init(standingFor: routing, session: peers.session)
    }

    /// A transport that sends through `routing`, whose session peer is `peer`.
    private init(standingFor routing: RoutingTransport, session peer: URLSessionTransport) {
        session = peer.session
        router = peer.router
        bridge = peer.bridge
        self.routing = routing
    }

    /// Creates a transport like ``init(sessionConfiguration:)`` whose session trusts servers as
    /// `serverTrust` says (on Apple platforms, in the session's server-trust challenge).
    ///
    /// - Throws: ``ServerTrustError/unenforceable(_:)`` when this platform's `URLSession` cannot
    ///   enforce the policy (on Linux, anything but ``ServerTrustPolicy/system``).
    public convenience init(
        sessionConfiguration configuration: URLSessionConfiguration, serverTrust: ServerTrustPolicy
    ) throws(ServerTrustError) {
        try serverTrust.checkEnforceable(direct: false)
        let (configuration, bridge) = Self.prepared(configuration)
        self.init(prepared: configuration, bridge: bridge, serverTrust: serverTrust)
    }

    /// A transport over a session made from `configuration` (``prepared(_:)``), with `bridge`,
    /// trusting servers as `serverTrust` says (checked as enforceable by the caller).
    init(
        prepared configuration: URLSessionConfiguration, bridge: RequestBridge, serverTrust: ServerTrustPolicy = .system
    ) {
        self.bridge = bridge
        router = TaskRouter(serverTrust: serverTrust)
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
        routing = nil
    }

    /// A copy of `configuration` for the session, and the bridge of its fields and cookies.
    static func prepared(_ configuration: URLSessionConfiguration) -> (URLSessionConfiguration, RequestBridge) {
        // A copy: the caller's configuration object stays as it was.
        let configuration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The transport keeps the cookies (for both peers of a routing transport): Foundation's own
        // `Set-Cookie` parser traps on values a server can send (``CookieJar``), so the session
        // never parses them. FoundationNetworking parses every `Set-Cookie` line as it arrives
        // unless the policy is `.never`, whatever the storage.
        let cookies = CookieJar(configuration: configuration)
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        // The client's bridge stage adds them, above the cache and the log.
        let bridge = RequestBridge(configuration: configuration, cookies: cookies)
        configuration.httpAdditionalHeaders = nil
        return (configuration, bridge)
    }

    // The session belongs to the routing transport's peer when this one stands for it.
    deinit { if routing == nil { session.finishTasksAndInvalidate() } }

    public func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        if let routing { return try await routing.send(request, context: context) }
        return try await sendThroughSession(request, context: context)
    }

    private func sendThroughSession(_ request: WebServiceRequest, context: TransportContext) async throws
        -> TransportResponse
    {
        let exchange = TaskExchange(context: context)
        let deadline = request.timeoutInterval
        let request = Self.withFoundationTimeout(request).urlRequest
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportResponse, any Error>) in
                // A download to a file is a download task: Foundation writes the body to disk on
                // its own thread as it arrives (a data task would queue every chunk for the
                // delegate, and the chunks pile up in memory when the delegate falls behind); the
                // sink takes the finished file. Without progress to report or a size limit, a
                // data task hands its whole body to a completion handler: one delegate-queue
                // operation per call instead of one per chunk plus one at the end (the session's
                // delegate still refuses redirects and challenges). Otherwise the delegate writes
                // each chunk into the call's sink as it arrives, which enforces the limit.
                let task: URLSessionTask
                let sink = context.responseBody
                if sink.downloadsToFile {
                    task = session.downloadTask(with: request)
                } else if context.reportsProgress || sink.maximumSize != nil || sink.stream != nil {
                    task = session.dataTask(with: request)
                } else {
                    let router = router
                    task = session.dataTask(with: request) { [weak exchange] body, response, error in
                        guard let finished = exchange?.complete(response: response, error: error, body: body)
                        else { return }
                        router.unregister(finished)
                    }
                }
                router.register(exchange, for: task, context: context)
                exchange.start(
                    task, continuation: continuation, timeout: deadline,
                    seesHead: sink.downloadsToFile || context.reportsProgress || sink.maximumSize != nil
                        || sink.stream != nil)
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}

extension URLSessionTransport {
    /// The request as Foundation gets it, when its deadline (`timeoutInterval`, 0 for none) is
    /// under a second: this transport enforces the deadline itself, and Foundation on Linux arms
    /// a watchdog of `Int(timeoutInterval) * 1000` ms, restarted by every read, once the field was
    /// set. A request without a deadline (a streamed call's, whose idle time ``LiveBody`` bounds)
    /// or with one under a second would fail with `URLError(.timedOut)` about a millisecond after
    /// the first pause in its response. Foundation gets 2 s instead (past the deadline, which
    /// fires first), or 30 days for no deadline. Other requests go as they are.
    static func withFoundationTimeout(_ request: WebServiceRequest) -> WebServiceRequest {
        let deadline = request.timeoutInterval
        guard !(deadline >= 1) else { return request }
        var request = request
        request.timeoutInterval = deadline > 0 ? 2 : noDeadlineTimeout
        return request
    }

    /// What Foundation gets for a request without a deadline: 30 days, in seconds.
    static let noDeadlineTimeout: TimeInterval = 30 * 24 * 3600
}
