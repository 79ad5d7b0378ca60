import Foundation

/// The caller's own conditional request answered by the cache (RFC 9111 §4.3.2): "When a cache
/// receives a request that can be satisfied by a stored response and that includes conditional
/// header fields, the cache SHOULD use the stored response to evaluate the conditions". A
/// condition met by the stored response is answered with a 304 the cache makes; one it does not
/// meet, with the stored response itself, as the origin would answer.
extension CacheRules {
    /// What the stored response says of the caller's preconditions.
    enum PreconditionOutcome: Equatable {
        /// The stored representation matches: a 304 (Not Modified).
        case notModified
        /// It does not: the stored response, as for an unconditional request.
        case selected
    }

    /// How the caller's `If-None-Match` / `If-Modified-Since` come out against `entry`, evaluated
    /// in the order of RFC 9110 §13.2.2 (a present `If-None-Match` decides alone; then
    /// `If-Modified-Since`); `nil` when the cache must leave them to the server:
    /// - `If-Match` or `If-Unmodified-Since` are present: they guard changes at the origin and
    ///   "only apply to an origin server" (§4.3.2);
    /// - a field the grammar does not read (an `If-None-Match` that is not `*` or a list of entity
    ///   tags; an `If-Modified-Since` that is not one valid HTTP-date, which a recipient "MUST
    ///   ignore", RFC 9110 §13.1.3): the server decides what it means.
    ///
    /// `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2) against the stored `ETag`; `*`
    /// matches the stored representation. `If-Modified-Since` compares the stored `Last-Modified`,
    /// or without one its `Date`, or the time it was received (§4.3.2).
    static func evaluatePreconditions(_ headers: HTTPHeaders, against entry: CacheEntry) -> PreconditionOutcome? {
        guard !headers.contains("If-Match"), !headers.contains("If-Unmodified-Since") else { return nil }
        let ifNoneMatch = headers.values(for: "If-None-Match")
        if !ifNoneMatch.isEmpty {
            guard let condition = IfNoneMatch(ifNoneMatch) else { return nil }
            switch condition {
            case .any: return .notModified
            case .tags(let tags):
                // A stored response without a (readable) entity tag matches none.
                guard let stored = entry.responseHeaders["ETag"].flatMap({ EntityTag.opaqueTags(in: $0) }),
                    stored.count == 1
                else { return .selected }
                return tags.contains(stored[0]) ? .notModified : .selected
            }
        }
        let ifModifiedSince = headers.values(for: "If-Modified-Since")
        guard ifModifiedSince.count == 1,
            let since = HTTPDate.parse(ifModifiedSince[0], relativeTo: entry.responseTime)
        else { return nil }
        let modified = entry.date("Last-Modified") ?? entry.date("Date") ?? entry.responseTime
        return modified <= since ? .notModified : .selected
    }

    /// The request without the caller's `If-None-Match` and `If-Modified-Since`: the request
    /// whose answer the stored response would be, which decides whether the cache may evaluate
    /// them at all (§4.3.2: "a request that can be satisfied by a stored response").
    static func withoutPreconditions(_ request: CacheRequest) -> CacheRequest {
        var request = request
        request.headers["If-None-Match"] = nil
        request.headers["If-Modified-Since"] = nil
        return request
    }

    /// The fields of the 304 the cache makes from `entry` at age `age`: those a 200 would have
    /// carried that RFC 9110 §15.4.5 requires (`Cache-Control`, `Content-Location`, `Date`,
    /// `ETag`, `Expires`, `Vary`), `Last-Modified` when there is no `ETag` (it guides the
    /// caller's cache), and `Age`.
    static func notModifiedHeaders(for entry: CacheEntry, age: TimeInterval) -> HTTPHeaders {
        let all = headersForCachedResponse(entry, age: age)
        var kept: Set<String> = ["cache-control", "content-location", "date", "etag", "expires", "vary", "age"]
        if !all.contains("ETag") { kept.insert("last-modified") }
        return HTTPHeaders(all.fields.filter { kept.contains($0.name.lowercased()) })
    }
}

/// An `If-None-Match` field (RFC 9110 §13.1.2): `*`, or a list of entity tags.
enum IfNoneMatch: Equatable {
    /// `*`: any current representation.
    case any
    /// The opaque tags listed (quotes kept, `W/` dropped: the weak comparison ignores it).
    case tags([Substring])

    /// The field's values read together, or `nil` when they are neither `*` nor a list of entity
    /// tags.
    init?(_ values: [String]) {
        let text = values.joined(separator: ",")
        if text.trimmingCharacters(in: .whitespaces) == "*" {
            self = .any
            return
        }
        guard let tags = EntityTag.opaqueTags(in: text), !tags.isEmpty else { return nil }
        self = .tags(tags)
    }
}

/// Entity tags (RFC 9110 §8.8.3): `entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE`, `etagc = %x21 /
/// %x23-7E / obs-text`.
enum EntityTag {
    /// The opaque tags (quotes included, `W/` dropped) of a comma-separated list of entity tags,
    /// empty elements and whitespace around them allowed (§5.6.1); `nil` when anything else is in
    /// it. A comma may stand inside a tag (`etagc` allows it), so the list is read tag by tag,
    /// not split on commas.
    static func opaqueTags(in text: String) -> [Substring]? {
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        var tags: [Substring] = []
        func skip(_ accepted: (Unicode.Scalar) -> Bool) {
            while index < scalars.endIndex, accepted(scalars[index]) { index = scalars.index(after: index) }
        }
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
        while true {
            skip { isWhitespace($0) || $0 == "," }
            guard index < scalars.endIndex else { break }
            if scalars[index] == "W", scalars.index(after: index) < scalars.endIndex,
                scalars[scalars.index(after: index)] == "/"
            {
                index = scalars.index(index, offsetBy: 2)
            }
            guard index < scalars.endIndex, scalars[index] == "\"" else { return nil }
            let start = index
            index = scalars.index(after: index)
            skip { $0 == "!" || ("#"..."~").contains($0) || $0.value >= 0x80 }
            guard index < scalars.endIndex, scalars[index] == "\"" else { return nil }
            index = scalars.index(after: index)
            tags.append(Substring(scalars[start..<index]))
            skip(isWhitespace)
            guard index == scalars.endIndex || scalars[index] == "," else { return nil }
        }
        return tags
    }
}
