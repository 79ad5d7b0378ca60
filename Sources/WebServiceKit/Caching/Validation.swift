import Foundation

/// Validating, updating and serving a stored response (RFC 9111 §3.2, §4.3, §5.1).
extension CacheRules {
    /// The fields that turn a request into a validation of `entry` (§4.3.1): `If-None-Match`
    /// with its `ETag` (the cache "MUST send the relevant entity tags") and `If-Modified-Since`
    /// with its `Last-Modified` ("SHOULD send"), written as an IMF-fixdate (RFC 9110 §5.6.7; an
    /// invalid `Last-Modified` is not sent, servers ignore it, RFC 9110 §13.1.3). The `Date` of a
    /// response without `Last-Modified` is not used as a substitute: `Last-Modified` values are
    /// the most interoperable (RFC 9110 §13.1.3). Empty when the entry has neither validator.
    static func conditionalHeaders(for entry: CacheEntry) -> HTTPHeaders {
        var headers: HTTPHeaders = [:]
        // A stored value with CR, LF, NUL or another control character (a tampered disk entry, a
        // transport that let one through) is not echoed: it would inject fields (RFC 9110 §5.5).
        if let etag = entry.responseHeaders["ETag"]?.trimmingCharacters(in: .whitespaces), !etag.isEmpty,
            HeaderValidation.problem(in: etag) == nil
        {
            headers["If-None-Match"] = etag
        }
        if let lastModified = entry.date("Last-Modified") {
            headers["If-Modified-Since"] = HTTPDate.format(lastModified)
        }
        return headers
    }

    /// The stored fields that a 304 or `HEAD` response does not update, lowercased (§3.2): those
    /// not stored at all (§3.1), `Content-Length` (the 304 has no content; it describes no body),
    /// and `Content-Encoding`, which the transport has already decoded from the stored body:
    /// caches that "store the results of processing the received response ... MAY omit these
    /// header fields from updating stored responses".
    static let nonUpdatedFieldNames: Set<String> = unstoredFieldNames.union(["content-length", "content-encoding"])

    /// The stored fields updated by the fields of a 304 (Not Modified) or `HEAD` response
    /// (§3.2, §4.3.4): each field of `fresh` replaces every stored field of that name, except
    /// ``nonUpdatedFieldNames`` and the fields the 304's `Connection` names. Stored fields keep
    /// their order; the updated ones follow. The body stays as stored.
    static func merge304(stored: HTTPHeaders, fresh: HTTPHeaders) -> HTTPHeaders {
        let excluded = nonUpdatedFieldNames.union(connectionOptions(fresh))
        let updates = fresh.fields.filter { !excluded.contains($0.name.lowercased()) }
        let updatedNames = Set(updates.map { $0.name.lowercased() })
        return HTTPHeaders(stored.fields.filter { !updatedNames.contains($0.name.lowercased()) } + updates)
    }

    /// Whether a 304 (Not Modified) answer may freshen `entry` (§4.3.4). The 304 is identified
    /// with the stored response by its validators: its `ETag`, when it has one, must match the
    /// stored one (weak comparison, RFC 9110 §8.8.3.2); otherwise its `Last-Modified`, when it has
    /// one, must equal the stored one.
    ///
    /// A 304 without validators: when it answers the validation the cache sent
    /// (`answersCacheValidation`, the stored response's own validators, for the one response
    /// stored under the key) it freshens that response, as servers that send only `Date` in a
    /// 304 expect. When it answers the caller's own conditional request, §4.3.4 applies to the
    /// letter: it identifies the stored response only "if ... that stored response also lacks a
    /// validator". When this returns `false` after the cache's validation, the stored response
    /// cannot be used: the caller drops it and repeats the request without validators.
    static func notModifiedFreshens(
        _ entry: CacheEntry, notModifiedHeaders headers: HTTPHeaders, answersCacheValidation: Bool = true
    ) -> Bool {
        if let etag = headers["ETag"] {
            return entry.responseHeaders["ETag"].map { weakMatch($0, etag) } ?? false
        }
        if let lastModified = headers["Last-Modified"] {
            return sameDate(entry.responseHeaders["Last-Modified"], lastModified, reference: entry.responseTime)
        }
        return answersCacheValidation
            || (!entry.responseHeaders.contains("ETag") && !entry.responseHeaders.contains("Last-Modified"))
    }

    /// Whether a 200 answer to a `HEAD` request freshens the stored `GET` response `entry` with
    /// ``merge304(stored:fresh:)`` (`true`), or shows it changed, so that it must be treated as
    /// stale (`false`) (§4.3.5): every validator the `HEAD` response has (`ETag`,
    /// `Last-Modified`) and its `Content-Length`, if any, must match the stored ones.
    static func headResponseFreshens(_ entry: CacheEntry, headResponseHeaders headers: HTTPHeaders) -> Bool {
        let stored = entry.responseHeaders
        if let etag = headers["ETag"], !(stored["ETag"].map { weakMatch($0, etag) } ?? false) { return false }
        if let lastModified = headers["Last-Modified"],
            !sameDate(stored["Last-Modified"], lastModified, reference: entry.responseTime)
        {
            return false
        }
        if let length = headers["Content-Length"] {
            return stored["Content-Length"]?.trimmingCharacters(in: .whitespaces)
                == length.trimmingCharacters(in: .whitespaces)
        }
        return true
    }

    /// The header fields of the stored response served from the cache at age `age`: `Age` set
    /// (§5.1, ``ageFieldValue(_:)``) and the fields named by a `no-cache="..."` directive left out,
    /// since they "MUST NOT be sent in the response to a subsequent request without successful
    /// revalidation" (§5.2.2.4).
    static func headersForCachedResponse(_ entry: CacheEntry, age: TimeInterval) -> HTTPHeaders {
        let withheld = entry.cacheControl.noCacheFieldNames
        var headers = HTTPHeaders(entry.responseHeaders.fields.filter { !withheld.contains($0.name.lowercased()) })
        headers["Age"] = ageFieldValue(age)
        return headers
    }

    /// Weak comparison of two entity tags (RFC 9110 §8.8.3.2): their opaque tags are equal,
    /// whether or not either is weak (`W/`).
    static func weakMatch(_ lhs: String, _ rhs: String) -> Bool {
        func opaqueTag(_ tag: String) -> Substring {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : Substring(trimmed)
        }
        return opaqueTag(lhs) == opaqueTag(rhs)
    }

    /// Whether two HTTP-date values name the same instant (both valid) or are the same text.
    private static func sameDate(_ stored: String?, _ received: String, reference: Date) -> Bool {
        guard let stored else { return false }
        if stored.trimmingCharacters(in: .whitespaces) == received.trimmingCharacters(in: .whitespaces) { return true }
        guard let storedDate = HTTPDate.parse(stored, relativeTo: reference),
            let receivedDate = HTTPDate.parse(received, relativeTo: reference)
        else { return false }
        return storedDate == receivedDate
    }
}
