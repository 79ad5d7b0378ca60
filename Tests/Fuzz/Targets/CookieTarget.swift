import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Set-Cookie` values from a server, stored and sent back by the direct transport's cookie jar
/// (Foundation's `HTTPCookie` parses them; the jar keeps out what could not be sent).
///
/// Input: fields split at 0xFF (see ``fuzzFields(_:)``): the first picks the request URL (a path,
/// on one of a few hosts), each other one is a `Set-Cookie` field value, as a server may send
/// several.
///
/// Invariants, beyond never trapping: the `Cookie` field the jar makes for any URL of the origin
/// (the same path, the root, another path, a subdomain) holds no CR, LF or NUL, so a stored
/// cookie can never break a later request to its origin (RFC 9110 §5.5, RFC 6265 §5.4).
enum CookieTarget {
    static let hosts = ["example.com", "a.example.com", "127.0.0.1", "localhost"]
    /// One in-memory storage for the whole run, emptied after each input.
    static let storage: HTTPCookieStorage = {
        guard let storage = URLSessionConfiguration.ephemeral.httpCookieStorage else {
            fatalError("an ephemeral configuration has no cookie storage")
        }
        return storage
    }()

    static func run(_ bytes: [UInt8]) {
        var fields = fuzzFields(bytes)
        let first = fields.isEmpty ? "" : fields.removeFirst()
        let host = hosts[Int(first.utf8.first ?? 0) % hosts.count]
        let path = first.utf8.dropFirst().filter { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }
        guard let root = URL(string: "http://\(host)/") else { return }
        let url = URL(string: "http://\(host)/\(String(decoding: path, as: UTF8.self))") ?? root
        let jar = CookieJar(storage: storage, policy: .always)
        jar.store(from: HTTPHeaders(fields.map { HTTPHeaders.Field(name: "Set-Cookie", value: $0) }), for: url)
        let others = ["http://\(host)/", "http://\(host)/other/path", "http://sub.\(host)/"].compactMap(
            URL.init(string:))
        for target in [url] + others {
            guard let header = jar.header(for: target) else { continue }
            fuzzCheck(
                !ResponseCheck.breaksLines(header), "a Cookie field with CR, LF or NUL: \(header.debugDescription)")
        }
        for cookie in storage.cookies ?? [] { storage.deleteCookie(cookie) }
    }
}
