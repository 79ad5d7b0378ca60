import Foundation

/// Several responses per URL (RFC 9111 §4.1): the primary cache key is the URI (§2,
/// ``CacheRules/cacheKey(for:)``); each response stored for it is a *variant*, told apart by its
/// secondary key, the request fields its `Vary` nominates (``CacheEntry/variantKey``).
///
/// - A lookup selects among the URL's variants those whose nominated fields match the request
///   (``CacheRules/selects(_:for:)``) and uses the most recent (``CacheRules/isMoreRecent(_:than:)``).
/// - Storing a response replaces the variant with the same secondary key, and no other.
/// - Invalidation (§4.4) and ``HTTPCache/removeResponse(for:)`` remove every variant of the URL.
/// - At most ``CacheRules/variantLimit`` variants are kept per URL; storing one more removes the
///   least recently used of them first, so that a server varying on a field the client sends with
///   ever new values cannot grow one URL without limit. The store's byte limit counts every
///   variant.
extension CacheRules {
    /// The most variants kept for one URL.
    static let variantLimit = 8

    /// The secondary key of a response stored with `responseHeaders` for a request whose
    /// nominated fields were `varyingRequestHeaders` (§4.1): each name its `Vary` lists (sorted,
    /// once) with the request's normalised value or a mark for a field the request lacked.
    /// Empty for a response without `Vary`. Lengths prefix names and values, so that no two
    /// different sets of fields give the same key.
    static func variantKey(responseHeaders: HTTPHeaders, varyingRequestHeaders: [String: String]) -> String {
        variantKey(varyFieldNames: varyFieldNames(responseHeaders), varyingRequestHeaders: varyingRequestHeaders)
    }

    /// ``variantKey(responseHeaders:varyingRequestHeaders:)`` from the names `Vary` lists.
    static func variantKey(varyFieldNames: [String], varyingRequestHeaders: [String: String]) -> String {
        guard !varyFieldNames.isEmpty else { return "" }
        let names = Set(varyFieldNames).sorted()
        var key = ""
        for name in names {
            key += "\(name.utf8.count):\(name)"
            if let value = varyingRequestHeaders[name] {
                key += "=\(value.utf8.count):\(value);"
            } else {
                key += "!;"
            }
        }
        return key
    }

    /// Whether `entry` is more recent than `other`, for choosing among several selected variants:
    /// §4.1, "the most recent response (as determined by the Date header field) can be used".
    /// When both `Date` values are valid and differ, they decide; otherwise (equal to the second,
    /// or absent or invalid) the later reception does, which compares the client's clock with
    /// itself.
    static func isMoreRecent(_ entry: CacheEntry, than other: CacheEntry) -> Bool {
        if let date = entry.date("Date"), let otherDate = other.date("Date"), date != otherDate {
            return date > otherDate
        }
        return entry.responseTime > other.responseTime
    }
}

extension CacheRules {
    /// ``selects(_:for:)`` for one request against many variants: each request field a `Vary`
    /// names is normalised once (``normalizedFieldValue(named:_:)``), not once per variant
    /// compared. A lookup among 8 variants of a URL otherwise normalised the request's field 8
    /// times.
    struct VariantSelector {
        let request: CacheRequest
        /// The request's cache key, made only when a stored URL differs from the request's.
        private var requestKey: String?
        private var normalized: [String: String?] = [:]

        init(_ request: CacheRequest) { self.request = request }

        /// Whether `entry` may answer the request: what ``CacheRules/selects(_:for:)`` decides.
        mutating func selects(_ entry: CacheEntry) -> Bool {
            guard entry.method == .get else { return false }
            if entry.url != request.url {
                let key = requestKey ?? cacheKey(for: request.url)
                requestKey = key
                guard cacheKey(for: entry.url) == key else { return false }
            }
            for name in entry.varyFieldNames {
                guard name != "*" else { return false }
                let value: String?
                if let known = normalized[name] {
                    value = known
                } else {
                    value = normalizedFieldValue(named: name, request.headers.values(for: name))
                    normalized[name] = .some(value)
                }
                guard entry.varyingRequestHeaders[name] == value else { return false }
            }
            return true
        }
    }
}

extension CacheEntry {
    /// The entry's secondary key among the responses stored for its URL
    /// (``CacheRules/variantKey(responseHeaders:varyingRequestHeaders:)``).
    var variantKey: String {
        CacheRules.variantKey(varyFieldNames: varyFieldNames, varyingRequestHeaders: varyingRequestHeaders)
    }
}

extension HTTPCache {
    /// A response the cache holds, as ``HTTPCache/entries(identifiedBy:)`` lists it.
    public struct Entry: Sendable, Hashable {
        /// The URL the response was stored for.
        public let url: URL
        /// The response's status code.
        public let statusCode: Int
        /// The cache identifier of the call that stored it (``CallFields/cacheIdentifier``), if
        /// it had one.
        public let cacheIdentifier: String?
        /// When the response was received, or last confirmed by the server (a 304 or a `HEAD`
        /// answer that freshened it).
        public let storedDate: Date
        /// The size of the stored body in bytes.
        public let bodyByteCount: Int
        /// The request fields the response's `Vary` names, lowercased, with the normalised values
        /// the request that stored it had (absent ones left out): what tells the variants of one
        /// URL apart. Empty for a response without `Vary`.
        public let varyingRequestFields: [String: String]

        init(
            url: URL, statusCode: Int, cacheIdentifier: String?, storedDate: Date, bodyByteCount: Int,
            varyingRequestFields: [String: String] = [:]
        ) {
            self.url = url
            self.statusCode = statusCode
            self.cacheIdentifier = cacheIdentifier
            self.storedDate = storedDate
            self.bodyByteCount = bodyByteCount
            self.varyingRequestFields = varyingRequestFields
        }

        init(_ entry: CacheEntry, identifier: String?, bodyByteCount: Int) {
            self.init(
                url: entry.url, statusCode: entry.status, cacheIdentifier: identifier, storedDate: entry.responseTime,
                bodyByteCount: bodyByteCount, varyingRequestFields: entry.varyingRequestHeaders)
        }
    }
}

/// Whether a response stored with `identifier` is chosen by an identifier prefix: every response
/// when `prefix` is `nil`, otherwise those whose identifier starts with it (as
/// ``HTTPCache/removeResponses(identifiedBy:)`` chooses).
func cacheIdentifier(_ identifier: String?, matches prefix: String?) -> Bool {
    guard let prefix else { return true }
    return identifier?.hasPrefix(prefix) ?? false
}
