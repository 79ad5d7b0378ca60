import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests with a streamed body, and downloads to a file, over plain HTTP/1.1 itself, on
/// a thread of its own.
///
/// Foundation's `URLSession` on Linux sends every stream chunked (never with `Content-Length`,
/// which some servers require) and spends a callback, a timer and a copy on each 64 KiB; this
/// path sends the length up front and writes 512 KiB at a time. Its download tasks reopen their
/// file for every 16 KiB; this path writes the body to the call's file as it reads it. It takes
/// only requests it can carry exactly as the session would: `http` URLs with a body stream or a
/// file to download to, no proxy configured or in the environment. Cookies follow the session configuration; the session's additional header
/// fields are sent. Responses are never decompressed, so no `Accept-Encoding` is offered.
final class DirectTransport: Sendable {
    private let additionalHeaders: [String: String]
    private let cookies: CookieJar?
    private let proxyConfigured: Bool

    init(configuration: URLSessionConfiguration) {
        var headers: [String: String] = [:]
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String { headers[name] = "\(value)" }
        }
        additionalHeaders = headers
        cookies =
            configuration.httpShouldSetCookies
            ? configuration.httpCookieStorage.map {
                CookieJar(storage: $0, policy: configuration.httpCookieAcceptPolicy)
            }
            : nil
        proxyConfigured = !(configuration.connectionProxyDictionary ?? [:]).isEmpty
    }

    /// Whether this path carries `request`.
    func handles(_ request: URLRequest, context: TransportContext) -> Bool {
        guard request.httpBodyStream != nil || context.download != nil, let url = request.url,
            url.scheme?.lowercased() == "http",
            let host = url.host, !host.isEmpty, !proxyConfigured
        else { return false }
        return !ProxyEnvironment.current.appliesTo(host: host)
    }

    func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse {
        guard let url = request.url else { throw URLError(.badURL) }
        // A streamed body, a body in memory (a download call may send one), or none.
        let body = request.httpBodyStream ?? request.httpBody.map { InputStream(data: $0) }
        let length = request.httpBodyStream != nil ? context.uploadLength : request.httpBody.map { Int64($0.count) }
        let deadline = request.timeoutInterval > 0 ? DispatchTime.now() + request.timeoutInterval : nil
        let connection = try SocketConnection(deadline: deadline)
        var extra = additionalHeaders
        if request.value(forHTTPHeaderField: "Cookie") == nil, let cookie = cookies?.header(for: url) {
            extra["Cookie"] = cookie
        }
        let exchange = UnsafeSendable(
            DirectExchange(
                request: request, url: url, body: body, length: length, extraHeaders: extra, context: context,
                connection: connection))
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportResponse, any Error>) in
                let thread = Thread {
                    continuation.resume(with: Result { try exchange.value.run() })
                }
                thread.name = "WebServiceKit.direct"
                thread.start()
            }
        } onCancel: {
            connection.cancel()
        }
        cookies?.store(from: response.headers, for: url)
        return response
    }
}

/// An exchange handed to the thread that runs it; only that thread touches it afterwards.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The session's cookie storage, used as the session would use it.
private struct CookieJar: @unchecked Sendable {  // HTTPCookieStorage is thread-safe
    let storage: HTTPCookieStorage
    let policy: HTTPCookie.AcceptPolicy

    func header(for url: URL) -> String? {
        guard let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    func store(from headers: HTTPHeaders, for url: URL) {
        guard policy != .never else { return }
        for value in headers.values(for: "Set-Cookie") {
            let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": value], for: url)
            storage.setCookies(cookies, for: url, mainDocumentURL: nil)
        }
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
