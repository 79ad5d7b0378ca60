import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cookies of a session configuration, kept by the transport for both of its routes (the
/// session and the direct HTTP/1.1 path) as the session would keep them, with two differences
/// that keep a hostile server from breaking a client:
///
/// - a `Set-Cookie` value with CR, LF or NUL, or with a character that is more than one UTF-16
///   unit, is dropped before Foundation's parser sees it: that parser traps on the second kind on
///   Linux (`Set-Cookie: 😀=` kills the process), and RFC 6265 §4.1.1 allows neither;
/// - a stored cookie that could not be sent (CR, LF or NUL in it) is never sent, so one bad cookie
///   in a shared storage never makes every later call to its origin fail.
///
/// The session itself is made with no cookie storage, so that it never parses `Set-Cookie`.
struct CookieJar: @unchecked Sendable {  // HTTPCookieStorage is thread-safe
    let storage: HTTPCookieStorage
    let policy: HTTPCookie.AcceptPolicy

    /// The jar `configuration` asks for: none when it sets no cookies or has no storage.
    init?(configuration: URLSessionConfiguration) {
        guard configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage else { return nil }
        self.init(storage: storage, policy: configuration.httpCookieAcceptPolicy)
    }

    init(storage: HTTPCookieStorage, policy: HTTPCookie.AcceptPolicy) {
        self.storage = storage
        self.policy = policy
    }

    /// The `Cookie` value for `url`, `nil` when no cookie applies.
    func header(for url: URL) -> String? {
        guard let cookies = storage.cookies(for: url)?.filter(\.isSendable), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// The `Cookie` value to add to `request`: `nil` when the request sets its own or no cookie
    /// applies.
    func header(for request: WebServiceRequest) -> String? {
        guard request.value(forHTTPHeaderField: "Cookie") == nil, let url = request.url else { return nil }
        return header(for: url)
    }

    /// Stores the cookies of a response from `url`.
    func store(from headers: HTTPHeaders, for url: URL) {
        guard policy != .never else { return }
        for field in headers.values(for: "Set-Cookie") {
            for value in Self.cookieStrings(field)
            where !ResponseCheck.breaksLines(value) && value.utf16.count == value.count {
                let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": value], for: url)
                storage.setCookies(cookies, for: url, mainDocumentURL: nil)
            }
        }
    }

    /// The cookies of one `Set-Cookie` value. RFC 6265 §3 forbids folding several into one line,
    /// but Foundation on Linux joins repeated fields with `", "`: a comma starts another cookie
    /// when what follows it, up to the next `=`, is a name (no space, `;` or `,`), which an
    /// `Expires` date (`Wed, 21 Oct 2015 …`) never is. So one bad cookie costs only itself.
    static func cookieStrings(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        var pieces: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ","), startsCookie(bytes, at: index + 1) {
                pieces.append(String(decoding: bytes[start..<index], as: UTF8.self))
                start = index + 1
            }
            index += 1
        }
        pieces.append(String(decoding: bytes[start...], as: UTF8.self))
        return pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `bytes` from `index` on read as optional spaces, then `name=`.
    private static func startsCookie(_ bytes: [UInt8], at index: Int) -> Bool {
        var index = index
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        let nameStart = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "="): return index > nameStart
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ";"), UInt8(ascii: ","): return false
            default: index += 1
            }
        }
        return false
    }
}

extension HTTPCookie {
    /// Whether the cookie can go into a `Cookie` field: no CR, LF or NUL in its name or value.
    var isSendable: Bool { !ResponseCheck.breaksLines(name) && !ResponseCheck.breaksLines(value) }
}
