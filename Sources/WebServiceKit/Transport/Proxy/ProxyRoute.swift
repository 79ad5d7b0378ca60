import Foundation

/// An HTTP proxy a request goes through: its host and port, and the `Proxy-Authorization` value
/// its credentials give (Basic, RFC 9110 §11.7.1 and RFC 7617), which goes only to the proxy,
/// never to the origin.
///
/// A plain `http` request goes to the proxy in absolute form (RFC 9112 §3.2.2); an `https` one
/// through a `CONNECT` tunnel (RFC 9110 §9.3.6), inside which TLS runs with the origin as if
/// connected directly.
struct ProxyRoute: Sendable, Hashable, CustomStringConvertible {
    var host: String
    var port: Int
    /// `Basic …` from the proxy URL's user and password; `nil` without them.
    var authorization: String?

    /// Where a request goes.
    enum Choice: Sendable, Equatable {
        /// Straight to the origin.
        case direct
        /// Through this proxy.
        case proxy(ProxyRoute)
        /// Through a proxy the library's connections cannot speak to (a SOCKS or an `https://`
        /// proxy, or text that is no URL): URLSession takes the request, and libcurl the proxy.
        case unsupported(String)
    }

    /// The proxy `text` names, as curl reads it: `http://user:password@host:port`, the scheme
    /// optional (`host:port` is an HTTP proxy), the port 1080 by default as curl's (3128 is
    /// squid's, but curl says 1080), the user and password percent-decoded.
    static func parse(_ text: String) -> Choice {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            return .unsupported("the proxy \"\(text)\" is no URL")
        }
        guard components.scheme?.lowercased() == "http" else {
            return .unsupported(
                "a \(components.scheme ?? "") proxy (only http:// proxies go over the library's connections)")
        }
        var authorization: String?
        if let user = components.user {
            let password = components.password ?? ""
            let decoded = (user.removingPercentEncoding ?? user) + ":" + (password.removingPercentEncoding ?? password)
            authorization = "Basic " + Data(decoded.utf8).base64EncodedString()
        }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return .proxy(ProxyRoute(host: bare, port: components.port ?? 1080, authorization: authorization))
    }

    /// The `Proxy-Authorization` value for a request with `fields`: the proxy URL's credentials,
    /// else the request's own field (which is never sent to an origin).
    func authorization(fields: [String: String]) -> String? {
        authorization ?? fields.first { $0.key.caseInsensitiveEquals("proxy-authorization") }?.value
    }

    /// `host:port` (an IPv6 address in brackets): never the credentials.
    var description: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
}
