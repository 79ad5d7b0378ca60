import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request line and header fields of a request (RFC 9112 §3).
struct HTTP1RequestHead {
    /// How the body is delimited (RFC 9112 §6).
    enum Framing: Equatable {
        /// No body, no framing field.
        case none
        /// `Content-Length`.
        case length(Int64)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }

    let bytes: [UInt8]

    /// Fields the connection manages itself; the request's own values of these are replaced.
    static let managedFields: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "expect", "proxy-authorization",
    ]

    /// Writes the head of a request that passed ``RequestCheck``, with the fields the call's
    /// ``BridgeStage`` added: the transport adds only the connection's own (``managedFields``).
    /// Through `forwardProxy` (a plain `http` request to a proxy) the target is in absolute form
    /// (RFC 9112 §3.2.2) and the proxy's credentials go in `Proxy-Authorization`.
    init(
        method: String, url: URL, fields: [String: String], framing: Framing, expectsContinue: Bool,
        keepsAlive: Bool = false, forwardProxy: ProxyRoute? = nil
    ) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        var target = (path.isEmpty ? "/" : path) + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        var host = url.host ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        if let port = url.port, port != 80 { host += ":\(port)" }
        if forwardProxy != nil { target = "\(url.scheme?.lowercased() ?? "http")://\(host)\(target)" }

        // The head written once, straight into its bytes, in one pass over the request's fields:
        // no line of its own for each, and no table of their names, only of the transport's few.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + fields.count * 48)
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        func appendField(_ name: String, _ value: String) {
            append(name)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
            append(value)
            bytes.append(UInt8(ascii: "\r"))
            bytes.append(UInt8(ascii: "\n"))
        }
        append("\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n")
        for (name, value) in fields where !Self.isManaged(name) { appendField(name, value) }
        // The proxy's credentials go to the proxy only: the proxy URL's, else the request's own
        // field; never to an origin.
        if let forwardProxy, let authorization = forwardProxy.authorization(fields: fields) {
            appendField("Proxy-Authorization", authorization)
        }
        switch framing {
        case .none: break
        case .length(let length): append("Content-Length: \(length)\r\n")
        case .chunked: append("Transfer-Encoding: chunked\r\n")
        }
        if expectsContinue { append("Expect: 100-continue\r\n") }
        // HTTP/1.1 connections persist unless a side says `close` (RFC 9112 §9.3).
        append(keepsAlive ? "\r\n" : "Connection: close\r\n\r\n")
        self.bytes = bytes
    }

    /// Whether `name` is one of ``managedFields`` in any ASCII case, without lowercasing it: a
    /// request's every field is asked.
    static func isManaged(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name.caseInsensitiveEquals("host")
        case 19: name.caseInsensitiveEquals("proxy-authorization")
        case 6: name.caseInsensitiveEquals("expect")
        case 10: name.caseInsensitiveEquals("connection")
        case 14: name.caseInsensitiveEquals("content-length")
        case 17: name.caseInsensitiveEquals("transfer-encoding")
        default: false
        }
    }
}
