import Foundation

/// An origin (RFC 6454 §4): scheme, host and port, with the scheme's default port filled in.
struct Origin: Hashable, Sendable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    }

    func matches(_ url: URL) -> Bool { Origin(url) == self }

    /// Whether the host is this machine: 127.0.0.0/8, `::1` or `localhost` (RFC 6761 §6.3).
    var isLoopback: Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    var description: String { "\(scheme)://\(host):\(port)" }
}
