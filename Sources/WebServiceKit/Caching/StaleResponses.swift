import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The directives that let a stored response be served past, or without, the usual checks:
/// `stale-while-revalidate` and `stale-if-error` (RFC 5861) and `immutable` (RFC 8246).
extension CacheRules {
    /// The age to serve the stale stored response with while the cache revalidates it in the
    /// background (`stale-while-revalidate`, RFC 5861 §3), or `nil` when the request must wait
    /// for the server as usual.
    ///
    /// RFC 5861 §3: the directive "indicates that caches MAY serve the response in which it
    /// appears after it becomes stale, up to the indicated number of seconds", and such a cache
    /// "SHOULD attempt to revalidate it while still serving stale responses". So, all of:
    /// - the call follows the response's headers (``CachePolicy/automatic``,
    ///   ``CachePolicy/maxStale(_:)``, ``CachePolicy/offlineFallback``): under
    ///   ``CachePolicy/maxAge(_:)`` the policy, not the headers, says how long a response lasts,
    ///   and the other policies never validate;
    /// - the request would use the stored response (``usesCache(_:)``, ``selects(_:for:)``) and
    ///   says nothing about the freshness it wants: no `no-cache` or `Pragma: no-cache` (a
    ///   reload), `max-age` (§5.2.1.1: without `max-stale` "the client does not wish to receive a
    ///   stale response"), `min-fresh`, `no-store` or `only-if-cached`;
    /// - the response allows serving it stale at all: no `no-cache` (§5.2.2.4) and no
    ///   `must-revalidate` (§5.2.2.2);
    /// - it is stale, by at most its `stale-while-revalidate` seconds (the current age minus the
    ///   freshness lifetime, as `max-stale` counts it).
    static func staleWhileRevalidate(request: CacheRequest, entry: CacheEntry, now: Date) -> TimeInterval? {
        switch request.policy.kind {
        case .automatic, .maxStale, .offlineFallback: break
        case .disabled, .forceNetwork, .forceCache, .maxAge: return nil
        }
        let stored = entry.cacheControl
        // The stored directive first: most responses have none, and the request's directives are
        // parsed only for those that do.
        guard let window = stored.staleWhileRevalidate, !stored.noCache, !stored.mustRevalidate,
            usesCache(request), selects(entry, for: request)
        else { return nil }
        let asked = request.cacheControl
        guard !asked.noCache, !asked.noStore, !asked.onlyIfCached, asked.maxAge == nil, asked.minFresh == nil
        else { return nil }
        let age = currentAge(of: entry, now: now)
        let staleness = age - freshnessLifetime(of: entry)
        guard staleness >= 0, staleness <= window else { return nil }
        return age
    }

    /// Whether the stored response is `immutable` (RFC 8246) and fresh by its own headers, so
    /// that a reload does not revalidate it: RFC 8246 §2, "clients SHOULD NOT issue a conditional
    /// request during the response's freshness lifetime (e.g., upon a reload) unless explicitly
    /// overridden by the user (e.g., a force reload)".
    ///
    /// The reloads it overrides are the request's `no-cache` (and `Pragma: no-cache`) and its
    /// `max-age` (`max-age=0` is how a reload asks). The explicit override, the force reload, is
    /// ``CachePolicy/forceNetwork``, which always asks the server. A response that says
    /// `no-cache` is validated all the same: it asks for it itself.
    static func isImmutableAndFresh(_ entry: CacheEntry, now: Date) -> Bool {
        let stored = entry.cacheControl
        return stored.immutable && !stored.noCache && currentAge(of: entry, now: now) < freshnessLifetime(of: entry)
    }

    /// The failure a stored response may stand in for (``decideAfterFailure(_:request:entry:now:)``),
    /// when a request sent to the server failed with `error`: ``CacheFailure/unreachable`` for a
    /// transport failure that the server or the network caused, `nil` for anything else.
    ///
    /// RFC 5861 §4 lets `stale-if-error` serve a stale response "when an error is encountered",
    /// that is a 500, 502, 503 or 504 "or [when] it is unable to contact the server". A connection
    /// dropped before the response or in the middle of its body is that: both the direct HTTP/1.1
    /// path and the session report it as `.transport(URLError(.networkConnectionLost))` (the
    /// session's libcurl "transfer closed with N bytes remaining" included). So are a host that
    /// cannot be reached or found, a timeout and a response too broken to read
    /// (`.badServerResponse`, `.cannotDecodeContentData`).
    ///
    /// Never a stand-in: a cancelled call (``WebServiceError/cancelled(reason:)``, the caller's
    /// wish), and the errors the caller caused: a URL or scheme the transport cannot send
    /// (`.badURL`, `.unsupportedURL`), a body it cannot read (`.cannotOpenFile`,
    /// `.fileDoesNotExist`), a response over the caller's size limit
    /// (``WebServiceError/responseTooLarge(limit:statusCode:)``), a refused header or request,
    /// an interceptor's refusal.
    static func failure(causedBy error: WebServiceError) -> CacheFailure? {
        guard case .transport(let underlying) = error.reason, serverSideTransportFailures.contains(underlying.code)
        else {
            return nil
        }
        return .unreachable
    }

    /// The transport failures that are the server's or the network's doing
    /// (``failure(causedBy:)``). `.unknown` is among them: a transport's error that is not a
    /// `URLError` arrives as one (``WebServiceTransport`` throws `URLError` for failures to get a
    /// response).
    static let serverSideTransportFailures: Set<URLError.Code> = [
        .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .timedOut,
        .notConnectedToInternet, .badServerResponse, .cannotParseResponse, .zeroByteResource,
        .cannotDecodeContentData, .cannotDecodeRawData, .secureConnectionFailed, .resourceUnavailable,
        .cannotLoadFromNetwork, .internationalRoamingOff, .callIsActive, .dataNotAllowed, .unknown,
    ]
}
