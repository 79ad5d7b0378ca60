import Foundation

/// Whether and what to store (RFC 9111 §3).
extension CacheRules {
    /// The final status codes whose caching requirements this cache implements: those RFC 9110
    /// §15 defines, without 206 (Partial Content: ranges are not stored, §3.3–3.4) and 304 (Not
    /// Modified: it validates a stored response, §4.3.3, and is not stored itself). Only 206, 304
    /// and responses with `must-understand` need an understood status to be stored (§3).
    static let understoodStatuses: Set<Int> = Set(200...204).union([
        205, 300, 301, 302, 303, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414,
        415, 416, 417, 421, 422, 426, 500, 501, 502, 503, 504, 505,
    ])

    /// Whether the response may be stored (§3). All of:
    /// - the method is `GET`, the only one whose responses this cache reuses (`HEAD` answers
    ///   freshen stored `GET` responses instead, ``headResponseFreshens(_:headResponseHeaders:)``);
    /// - the status is final (200–599; RFC 9110 §15 has no status outside 100–599);
    /// - "if the response status code is 206 or 304, or the must-understand cache directive (see
    ///   Section 5.2.2.3) is present: the cache understands the response status code"
    ///   (``understoodStatuses``). Any other status may be stored with explicit freshness: a 299,
    ///   499 or 599 with `max-age` or `Expires` is;
    /// - no `no-store` in the request (§5.2.1.5) or the response (§5.2.2.5), except that a
    ///   response with `must-understand` and an understood status ignores `no-store` (§5.2.2.3:
    ///   "the cache SHOULD ignore the no-store directive if it understands and implements the
    ///   status code's caching requirements");
    /// - no `Vary: *`, which never matches a later request (§4.1);
    /// - not a 416 (Range Not Satisfiable) to a request with `Range`: it describes that range,
    ///   not the resource (partial responses are not stored either, ``RangeServing``);
    /// - the response has explicit freshness (`max-age`, `Expires`), says `public` or `private`
    ///   (this is a private cache), or has a heuristically cacheable status (§3, RFC 9110 §15.1).
    ///
    /// `private` does not prevent storing: this cache is private (§5.2.2.7). Nor does a request
    /// `Authorization`: §3.5 restricts shared caches only, and the cache belongs to one user.
    static func isStorable(method: HTTPMethod, requestHeaders: HTTPHeaders, status: Int, responseHeaders: HTTPHeaders)
        -> Bool
    {
        guard method == .get, (200...599).contains(status) else { return false }
        // A 416 answers the request's range, not the resource (RFC 9110 §15.5.17); stored under
        // the URI, it would answer later requests without that range (RangeServing).
        if status == 416, requestHeaders.contains("Range") { return false }
        let response = CacheControl(responseHeaders)
        let understood = understoodStatuses.contains(status)
        if status == 206 || status == 304 || response.mustUnderstand {
            guard understood else { return false }
        }
        guard !CacheControl(requestHeaders).noStore, !response.noStore || response.mustUnderstand,
            !varyFieldNames(responseHeaders).contains("*")
        else { return false }
        return response.maxAge != nil || responseHeaders.contains("Expires") || response.isPublic
            || response.isPrivate || !response.privateFieldNames.isEmpty
            || heuristicallyCacheableStatuses.contains(status)
    }

    /// The hop-by-hop fields (RFC 9110 §7.6.1) and those specific to the proxy the request went
    /// through, which "MUST NOT be stored" (§3.1), lowercased.
    static let unstoredFieldNames: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade", "proxy-authenticate",
        "proxy-authentication-info", "proxy-authorization",
    ]

    /// The response fields to store (§3.1): all but `Connection`, the fields it names, the other
    /// hop-by-hop fields and the proxy-specific ones (``unstoredFieldNames``). Order is kept.
    static func headersToStore(_ headers: HTTPHeaders) -> HTTPHeaders {
        let dropped = unstoredFieldNames.union(connectionOptions(headers))
        return HTTPHeaders(headers.fields.filter { !dropped.contains($0.name.lowercased()) })
    }

    /// The lowercased field names the `Connection` fields list (RFC 9110 §7.6.1).
    static func connectionOptions(_ headers: HTTPHeaders) -> Set<String> {
        Set(headers.listElements(for: "Connection"))
    }
}
