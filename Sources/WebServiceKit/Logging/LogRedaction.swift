import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What logs hide: the values of secret header fields and query parameters.
///
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are always redacted, at every
/// level; ``headers`` and ``queryParameters`` add your own. Names compare ignoring case. A redacted
/// value is logged as ``placeholder``:
///
/// ```swift
/// client.logRedaction = LogRedaction(headers: ["X-Api-Key"], queryParameters: ["api_key"])
/// // --> GET https://api.example.com/items?api_key=[redacted]
/// // X-Api-Key: [redacted]
/// ```
///
/// A password in the URL (`https://user:secret@host/`) is always redacted too. The values hidden
/// in a call are also replaced wherever else they appear in its messages (a body that echoes the
/// request's headers, an error that quotes its URL), when they are at least six characters long.
/// Secrets that are not in a redacted field, such as a password in a form body, are not
/// recognised: log such calls at `.headers` or less.
public struct LogRedaction: Sendable, Hashable {
    /// The header fields redacted whatever ``headers`` says.
    public static let alwaysRedactedHeaders: Set<String> = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
    ]

    /// What a redacted value is logged as.
    public static let placeholder = "[redacted]"

    /// Header fields to redact in addition to ``alwaysRedactedHeaders``, in any case.
    public var headers: Set<String> { didSet { names = NameCache(nil) } }
    /// Query parameters whose values to redact, in any case (compared with the percent-decoded
    /// name).
    public var queryParameters: Set<String> { didSet { names = NameCache(nil) } }
    /// The names lowercased, worked out once per value of the lists (on first use), not per call.
    private var names = NameCache(nil)

    /// Creates a redaction list.
    ///
    /// - Parameters:
    ///   - headers: Header fields to redact in addition to ``alwaysRedactedHeaders``.
    ///   - queryParameters: Query parameters whose values to redact.
    public init(headers: Set<String> = [], queryParameters: Set<String> = []) {
        self.headers = headers
        self.queryParameters = queryParameters
    }

    /// Whether the value of the header field `name` is redacted.
    public func redactsHeader(_ name: String) -> Bool { Matcher(self).redactsHeader(name) }

    /// Whether the value of the query parameter `name` (percent-decoded) is redacted.
    public func redactsQueryParameter(_ name: String) -> Bool { Matcher(self).redactsQueryParameter(name) }

    public static func == (left: LogRedaction, right: LogRedaction) -> Bool {
        left.headers == right.headers && left.queryParameters == right.queryParameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(headers)
        hasher.combine(queryParameters)
    }

    /// The lowercased names, shared by the copies of one value of the lists.
    private typealias NameCache = Locked<(headers: Set<String>, queryParameters: Set<String>)?>

    /// The lowercased names, worked out on the first call after a change of the lists.
    fileprivate var lowercasedNames: (headers: Set<String>, queryParameters: Set<String>) {
        names.withLock { cached in
            if let cached { return cached }
            let lowercased = (
                headers: Matcher.alwaysRedacted.union(headers.lazy.map { $0.lowercased() }),
                queryParameters: Set(queryParameters.lazy.map { $0.lowercased() })
            )
            cached = lowercased
            return lowercased
        }
    }
}

extension LogRedaction {
    /// The redaction list with names lowercased once, for one call's messages.
    struct Matcher: Sendable {
        fileprivate static let alwaysRedacted = Set(LogRedaction.alwaysRedactedHeaders.map { $0.lowercased() })
        /// Shorter values are hidden only in their own field, not searched for elsewhere.
        static let minimumScrubbedLength = 6

        let headers: Set<String>
        let queryParameters: Set<String>

        /// The matcher of `redaction`: O(1) but for the first one after a change of its lists.
        init(_ redaction: LogRedaction) {
            (headers, queryParameters) = redaction.lowercasedNames
        }

        func redactsHeader(_ name: String) -> Bool { headers.contains(name.lowercased()) }

        /// Whether the header field `name`, already lowercased, is redacted.
        func redactsLowercasedHeader(_ name: String) -> Bool { headers.contains(name) }

        func redactsQueryParameter(_ name: String) -> Bool {
            !queryParameters.isEmpty && queryParameters.contains(name.lowercased())
        }

        /// `url` with its password and redacted query values replaced; the hidden values go to
        /// `secrets`.
        func redact(_ url: URL, secrets: inout Secrets) -> String {
            var text = url.absoluteString
            var fragment = ""
            if let hash = text.firstIndex(of: "#") {
                fragment = String(text[hash...])
                text = String(text[..<hash])
            }
            var query: String?
            if let mark = text.firstIndex(of: "?") {
                query = String(text[text.index(after: mark)...])
                text = String(text[..<mark])
            }
            text = redactPassword(in: text, secrets: &secrets)
            guard let query else { return text + fragment }
            return text + "?" + redactQuery(query, secrets: &secrets) + fragment
        }

        private func redactPassword(in text: String, secrets: inout Secrets) -> String {
            guard let scheme = text.range(of: "://") else { return text }
            let authorityEnd = text[scheme.upperBound...].firstIndex(of: "/") ?? text.endIndex
            let authority = text[scheme.upperBound..<authorityEnd]
            guard let at = authority.lastIndex(of: "@"),
                let colon = authority[..<at].firstIndex(of: ":")
            else { return text }
            let password = text[authority.index(after: colon)..<at]
            guard !password.isEmpty else { return text }
            secrets.insert(String(password))
            return text.replacingCharacters(in: password.startIndex..<password.endIndex, with: LogRedaction.placeholder)
        }

        private func redactQuery(_ query: String, secrets: inout Secrets) -> String {
            guard !queryParameters.isEmpty else { return query }
            let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> Substring in
                guard let equals = item.firstIndex(of: "=") else { return item }
                let name = item[..<equals]
                let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name)
                guard redactsQueryParameter(decoded) else { return item }
                let value = item[item.index(after: equals)...]
                guard !value.isEmpty else { return item }
                secrets.insert(String(value))
                return name + "=" + LogRedaction.placeholder
            }
            return items.joined(separator: "&")
        }

        /// The secrets `request` carries: its URL's password, its redacted query values and the
        /// values of its redacted header fields.
        func secrets(of request: WebServiceRequest) -> Secrets {
            var secrets = Secrets()
            if let url = request.url { _ = redact(url, secrets: &secrets) }
            for (name, value) in request.allHTTPHeaderFields ?? [:] where redactsHeader(name) {
                collect(field: name, value: value, into: &secrets)
            }
            return secrets
        }

        /// The value of a redacted field, and the parts of it that are worth searching for
        /// elsewhere: the credentials after an authentication scheme, the values of cookies.
        /// `lowercasedName` is `name` lowercased, when the caller has it already.
        func collect(field name: String, lowercasedName: String? = nil, value: String, into secrets: inout Secrets) {
            secrets.insert(value)
            let lowercased = lowercasedName ?? name.lowercased()
            if lowercased == "cookie" || lowercased == "set-cookie" {
                // `Set-Cookie: name=value; Path=/`: only the first pair is the cookie.
                let pairs = value.split(separator: ";")
                for pair in lowercased == "cookie" ? pairs[...] : pairs.prefix(1) {
                    if let equals = pair.firstIndex(of: "=") {
                        secrets.insert(pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
                    }
                }
            } else if let space = value.firstIndex(of: " ") {
                // `Basic dXNlcjpwYXNzd2Q=`, `Bearer eyJ…`: the credentials themselves.
                let credentials = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
                if !credentials.contains(" ") && !credentials.contains(",") { secrets.insert(credentials) }
            }
        }
    }

    /// The values hidden in one exchange, searched for in the rest of its messages.
    ///
    /// Inserting costs O(1) amortised (plus the value's length). The first scrub after a change
    /// builds a ``SecretSearch`` over all the values, O(total length), shared by the copies of
    /// that value of the set; each scrub then costs O(length of the message), whatever the number
    /// of secrets.
    struct Secrets: Sendable {
        /// The values, in the order of their insertion.
        private(set) var values: [String] = []
        /// The same values, for membership (`String` equality: canonical equivalence).
        private var members: Set<String> = []
        /// The search over ``values``, built by the first scrub that needs it.
        private var search = Locked<SecretSearch?>(nil)

        mutating func insert(_ value: String) {
            let count = values.count
            add(value)
            // Only a value with a `%` can decode to another.
            if value.utf8.contains(UInt8(ascii: "%")), let decoded = value.removingPercentEncoding, decoded != value {
                add(decoded)
            }
            if values.count != count { forgetSearch() }
        }

        /// Drops the search: one built for fewer values, or shared with a copy, is not this set's
        /// any more.
        private mutating func forgetSearch() {
            if isKnownUniquelyReferenced(&search) {
                search.withLock { $0 = nil }
            } else {
                search = Locked(nil)
            }
        }

        /// Makes room for `count` more values without growing the set step by step.
        mutating func reserveCapacity(_ count: Int) {
            members.reserveCapacity(members.count + count)
            values.reserveCapacity(values.count + count)
        }

        private mutating func add(_ candidate: String) {
            // At least so many Characters, without counting all of a long value's.
            guard
                candidate.index(
                    candidate.startIndex, offsetBy: Matcher.minimumScrubbedLength, limitedBy: candidate.endIndex)
                    != nil,
                members.insert(candidate).inserted
            else { return }
            values.append(candidate)
        }

        mutating func formUnion(_ other: Secrets) {
            if values.isEmpty {
                self = other
                return
            }
            let count = values.count
            // `other` holds the decoded forms already.
            for value in other.values { add(value) }
            if values.count != count { forgetSearch() }
        }

        /// `text` with every hidden value replaced by the placeholder.
        ///
        /// Searched code unit by code unit, as a `.literal` search would: a search by `Character`
        /// misses a value that a combining mark follows in `text` (`"…789\u{301}"` ends in another
        /// Character than `"…789"`), and would leave it in the log. Occurrences that overlap (one
        /// value containing another, a value's end being another's beginning, a value repeated
        /// over itself) are replaced by one placeholder; occurrences that only touch, by one each.
        func scrub(_ text: String) -> String { scrubbed(text, truncated: false) ?? text }

        /// `body` with every hidden value replaced by the placeholder when it is UTF-8 text that
        /// holds one; otherwise `body` as it is.
        func scrub(body: Data) -> Data {
            guard !values.isEmpty, let text = String(data: body, encoding: .utf8) else { return body }
            return scrubbed(text, truncated: false).map { Data($0.utf8) } ?? body
        }

        /// `text` scrubbed, and without a hidden value's beginning where `text` was cut short: its
        /// longest end that begins a hidden value, when at least half ``Matcher/minimumScrubbedLength``
        /// bytes long, is replaced too.
        func scrub(truncated text: String) -> String { scrubbed(text, truncated: true) ?? text }

        /// `text` scrubbed; `nil` when there is nothing to replace.
        private func scrubbed(_ text: String, truncated: Bool) -> String? {
            guard !values.isEmpty else { return nil }
            let search = self.search.withLock { built in
                if let built { return built }
                let search = SecretSearch(values)
                built = search
                return search
            }
            var text = text
            return text.withUTF8 { bytes -> String? in
                let ranges = search.rangesToHide(
                    in: bytes, truncated: truncated, minimumTailLength: Matcher.minimumScrubbedLength / 2)
                guard !ranges.isEmpty else { return nil }
                let placeholder = LogRedaction.placeholder.utf8
                var result: [UInt8] = []
                result.reserveCapacity(bytes.count + ranges.count * placeholder.count)
                var start = 0
                for range in ranges {
                    result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<range.lowerBound]))
                    result.append(contentsOf: placeholder)
                    start = range.upperBound
                }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
                // Every range starts and ends on a scalar boundary (see SecretSearch): valid UTF-8.
                return String(decoding: result, as: UTF8.self)
            }
        }
    }
}
