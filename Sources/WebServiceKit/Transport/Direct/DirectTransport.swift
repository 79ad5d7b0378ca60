import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests to `http` URLs over plain HTTP/1.1 itself: GET and HEAD requests without a
/// body on kept-alive connections, requests with a streamed body and downloads to a file on a
/// connection and a thread of their own.
///
/// Foundation's `URLSession` on Linux passes every request through libcurl's thread, a work
/// queue and the delegate queue: some 20 thread switches and 450 µs of CPU for a small GET on
/// loopback. A GET on a kept-alive connection here takes one thread hand-off each way. Foundation
/// also sends every stream chunked (never with `Content-Length`, which some servers require) and
/// spends a callback, a timer and a copy on each 64 KiB; this path sends the length up front and
/// writes 512 KiB at a time. Its download tasks reopen their file for every 16 KiB; this path
/// writes the body to the call's file as it reads it.
///
/// It takes only requests it can carry as the session would: `http` URLs, no proxy configured or
/// in the environment, no `Accept-Encoding` other than `identity` asked for. Responses are never
/// decompressed, so no `Accept-Encoding` is offered; a GET or HEAD whose response comes encoded
/// anyway throws ``EncodedResponse``, and the caller sends it through the session, which decodes
/// it (GET and HEAD are safe to repeat, RFC 9110 §9.2.1). Cookies follow the session
/// configuration; the session's additional header fields are sent, and `Accept` and
/// `User-Agent` as Foundation sends them when the request has none.
final class DirectTransport: Sendable {
    private let additionalHeaders: [String: String]
    private let cookies: CookieJar?
    private let proxyConfigured: Bool
    /// Read once, when the transport is made: building the environment's dictionary on every
    /// call would cost more than the rest of a kept-alive GET's bookkeeping.
    private let proxyEnvironment = ProxyEnvironment.current
    /// Every connection of this path, kept-alive or not, counts against its caps
    /// (``ConnectionPool/limits(for:)``).
    let pool: ConnectionPool

    /// A transport for `configuration`; `limits` replaces the pool's caps and idle timeout (for
    /// tests).
    init(configuration: URLSessionConfiguration, cookies: CookieJar?, limits: ConnectionPool.Limits? = nil) {
        pool = ConnectionPool(limits: limits ?? ConnectionPool.limits(for: configuration))
        // What Foundation's libcurl sends when a request has neither.
        var headers = ["Accept": "*/*", "User-Agent": "\(ProcessInfo.processInfo.processName) WebServiceKit"]
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String { headers[name] = "\(value)" }
        }
        additionalHeaders = headers
        self.cookies = cookies
        proxyConfigured = !(configuration.connectionProxyDictionary ?? [:]).isEmpty
    }

    /// How this path carries a request.
    enum Route {
        /// A GET or HEAD without a body, on a kept-alive connection.
        case keptAlive
        /// A streamed body or a download to a file, on a connection and a thread of its own.
        case ownConnection
    }

    /// How this path carries `request`; `nil` when the session should.
    func route(for request: URLRequest, context: TransportContext) -> Route? {
        guard let url = request.url, url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty,
            !proxyConfigured, !proxyEnvironment.appliesTo(host: host)
        else { return nil }
        if request.httpBodyStream != nil || context.download != nil { return .ownConnection }
        return Self.keepsAlive(request) ? .keptAlive : nil
    }

    /// Whether `request` goes over a kept-alive connection: a GET or HEAD without a body.
    /// Downloads to a file keep a connection of their own.
    private static func keepsAlive(_ request: URLRequest) -> Bool {
        guard request.httpBodyStream == nil, request.httpBody?.isEmpty ?? true else { return false }
        // URLRequest's method is GET unless set (the library sets it only for other methods).
        guard let method = request.httpMethod else { return true }
        return method == "GET" || method == "HEAD"
    }

    /// Sends `request` the way ``route(for:context:)`` chose.
    func send(_ request: URLRequest, context: TransportContext, route: Route) async throws -> TransportResponse {
        guard let url = request.url else { throw URLError(.badURL) }
        if route == .keptAlive { return try await sendKeptAlive(request, url: url, context: context) }
        // A streamed body, a body in memory (a download call may send one), or none.
        let body = request.httpBodyStream ?? request.httpBody.map { InputStream(data: $0) }
        let length = request.httpBodyStream != nil ? context.uploadLength : request.httpBody.map { Int64($0.count) }
        let deadline = request.timeoutInterval > 0 ? DispatchTime.now() + request.timeoutInterval : nil
        // The connection is the call's own, and counts against the pool's caps while it is open.
        let origin = Self.origin(of: url)
        try await pool.place(to: origin, deadline: deadline)
        defer { pool.releasePlace(to: origin) }
        let connection = try SocketConnection(deadline: deadline)
        defer { connection.close() }
        let extra = extraHeaders(for: request, url: url)
        let exchange = UnsafeSendable(
            DirectExchange(
                request: request, url: url, body: body, length: length, extraHeaders: extra, context: context,
                connection: connection))
        let response = try await blocking(cancelling: connection) { work in
            let thread = Thread(block: work)
            thread.name = "WebServiceKit.direct"
            thread.start()
        } run: {
            try exchange.value.run()
        }
        cookies?.store(from: response.headers, for: url)
        return response
    }

    /// The key of `url`'s origin in the pool: host and port (the scheme is always `http` here).
    private static func origin(of url: URL) -> String { "\(url.host?.lowercased() ?? ""):\(url.port ?? 80)" }

    /// A GET or HEAD over a kept-alive connection to the URL's origin: an idle one from the
    /// pool, or a new one, once the pool's caps allow (the call waits in order until then). A
    /// pooled connection the server closed meanwhile is dropped, and the request goes on a new
    /// one in its place (RFC 9112 §9.3.1 lets a client retry an idempotent request after a
    /// connection closed before any response).
    private func sendKeptAlive(_ request: URLRequest, url: URL, context: TransportContext) async throws
        -> TransportResponse
    {
        let origin = Self.origin(of: url)
        let deadline = request.timeoutInterval > 0 ? DispatchTime.now() + request.timeoutInterval : nil
        var connection = try await pool.connection(to: origin, deadline: deadline)
        // After the wait for a connection: cookies stored meanwhile go with the request.
        let extra = extraHeaders(for: request, url: url)
        while true {
            connection.socket.deadline = deadline
            let exchange = UnsafeSendable(
                DirectExchange(
                    request: request, url: url, body: nil, length: nil, extraHeaders: extra, context: context,
                    connection: connection.socket, keepsAlive: true))
            let outcome: DirectExchange.Outcome
            do {
                let current = connection
                outcome = try await blocking(cancelling: current.socket) {
                    current.queue.async(execute: $0)
                } run: {
                    try exchange.value.exchange()
                }
            } catch is DirectExchange.StaleConnection {
                // Its place goes to a new connection.
                connection.socket.close()
                do {
                    connection = KeptAliveConnection(try SocketConnection(deadline: nil))
                } catch {
                    pool.release(connection, to: origin, reusable: false)
                    throw error
                }
                continue
            } catch {
                pool.release(connection, to: origin, reusable: false)
                throw error
            }
            pool.release(
                connection, to: origin, reusable: outcome.leavesConnectionReusable && !connection.socket.isCancelled)
            let response = outcome.response
            cookies?.store(from: response.headers, for: url)
            return response
        }
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

    /// The session's additional fields, and its cookies for `url` unless the request has some.
    private func extraHeaders(for request: URLRequest, url: URL) -> [String: String] {
        var extra = additionalHeaders
        if let cookie = cookies?.header(for: request) {
            extra["Cookie"] = cookie
        }
        return extra
    }
}

/// An exchange handed to the thread that runs it; only that thread touches it afterwards.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
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
