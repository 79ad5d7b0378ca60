import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `CONNECT` tunnel through an HTTP proxy (RFC 9110 §9.3.6): the request that asks for it, and
/// the reading of the proxy's answer with the response parser every answer goes through. A 2xx
/// makes the connection a tunnel right after the answer's head (RFC 9112 §6.3 item 2), and TLS
/// with the origin begins; any other status refuses it, with a typed error that names the proxy
/// and the origin (never the credentials).
struct ProxyTunnel {
    let proxy: ProxyRoute
    /// The origin's `host:port`, as the request target (authority form, RFC 9112 §3.2.3).
    let authority: String
    private var parser = HTTP1ResponseParser(requestMethod: "CONNECT")
    /// Bytes of the answer read so far, bounded by the parser's head limit.
    private(set) var bytesRead = 0

    /// A tunnel to `host`:`port` through `proxy`.
    init(to host: String, port: Int, through proxy: ProxyRoute) {
        self.proxy = proxy
        authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// The `CONNECT` request, with the proxy's credentials (the proxy URL's, else the request's
    /// own `Proxy-Authorization`, `fields`).
    func request(fields: [String: String]) -> [UInt8] {
        var text = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization = proxy.authorization(fields: fields) {
            text += "Proxy-Authorization: \(authorization)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// What the answer says so far.
    enum Answer: Equatable {
        /// The head is not complete yet: read more.
        case incomplete
        /// A 2xx: the tunnel is open.
        case established
        /// Any other status, or bytes that are no HTTP answer: the error to fail the call with.
        case refused(URLError)
    }

    /// Reads `bytes` of the proxy's answer.
    mutating func receive(_ bytes: UnsafeRawBufferPointer) -> Answer {
        bytesRead += bytes.count
        do {
            for event in try parser.feed(bytes) {
                // 1xx answers before the final one are passed over (RFC 9110 §15.2).
                guard case .head(let head) = event else { continue }
                return answer(to: head)
            }
            return .incomplete
        } catch {
            return .refused(
                URLError(
                    .cannotConnectToHost,
                    reason: "the proxy \(proxy) did not answer CONNECT \(authority) with HTTP: \(error)"))
        }
    }

    /// The proxy ended the connection before its answer's head was whole.
    func ended() -> URLError {
        URLError(
            .cannotConnectToHost,
            reason: "the proxy \(proxy) closed the connection before answering CONNECT \(authority)")
    }

    private func answer(to head: HTTP1ResponseHead) -> Answer {
        switch head.statusCode {
        case 200..<300: return .established
        case 407:
            return .refused(
                URLError(
                    .userAuthenticationRequired,
                    reason: "the proxy \(proxy) answered CONNECT \(authority) with 407 Proxy Authentication Required: "
                        + (proxy.authorization == nil
                            ? "give its user and password in the proxy URL (http://user:password@host:port)"
                            : "it refused the user and password of the proxy URL")))
        default:
            return .refused(
                URLError(
                    .cannotConnectToHost,
                    reason: "the proxy \(proxy) refused the tunnel to \(authority): it answered CONNECT with "
                        + "\(head.statusCode)"))
        }
    }
}
