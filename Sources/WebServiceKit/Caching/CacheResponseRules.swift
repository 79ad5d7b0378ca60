import Foundation

/// What the cache does with a response the network gave to one of its requests: the response
/// side of RFC 9111, as pure rules beside the request side's ``CacheRules/decide(request:entry:now:)``.
/// ``CacheExchange/send(validators:)`` carries the outcome out (the store, the answer) and
/// decides nothing itself.
enum CacheResponseOutcome: Sendable, Hashable {
    /// A 500, 502, 503 or 504 the stored response answers instead (`stale-if-error`, RFC 5861
    /// §4, or the policy's offline fallback), `age` seconds old.
    case serveStored(age: TimeInterval)
    /// A 304 to the caller's own `If-None-Match` / `If-Modified-Since`: it answers the caller's
    /// question and goes back as it came (RFC 9111 §4.3.2); `freshened` is the stored response
    /// it identifies, freshened by it (§4.3.4), to save; `nil` when it freshens none.
    case passOnNotModified(freshened: CacheEntry?)
    /// A 304 to the cache's validation: the stored response, freshened by it (§4.3.4), is saved
    /// and served.
    case serveRevalidated(CacheEntry)
    /// A 304 about another representation than the stored one, which is out of date: the stored
    /// variant is removed and the request repeated as the caller wrote it, without validators;
    /// its answer is served (§4.3.4: the caller, who asked no question, must not get a 304).
    case repeatWithoutValidators
    /// A HEAD answered 200: it freshens the stored GET (`freshened`), or, when its validators do
    /// not match, the stored response is out of date and removed (`nil`) (§4.3.5).
    case updateFromHead(freshened: CacheEntry?)
    /// A storable response, saved in place of the variant selected for the request (§3, §4.3.3).
    case store(CacheEntry)
    /// Nothing to store or change.
    case passOn
}

extension CacheRules {
    /// The outcome of a response with `status` and `headers` to `request`, sent with the cache's
    /// validators or without, when `stored` was the variant selected for it (`nil`: none), sent
    /// at `requestTime` and received at `responseTime`. The rules, in order:
    ///
    /// 1. A 500, 502, 503 or 504 that the stored response may answer after a failure
    ///    (``decideAfterFailure(_:request:entry:now:)``): served instead.
    /// 2. A 304 to a request with the caller's own preconditions: passed on, freshening the
    ///    stored `GET` it identifies and that would be selected (never for `no-store`, §5.2.1.5).
    /// 3. A 304 with a stored response, not after `no-store`: it freshens the stored one when it
    ///    names it (``notModifiedFreshens(_:notModifiedHeaders:answersCacheValidation:)``), else
    ///    the request goes again without validators.
    /// 4. A HEAD answered 200 with a stored `GET`, not after `no-store`: freshens or removes it.
    /// 5. A storable response (``isStorable(method:requestHeaders:status:responseHeaders:)``) is
    ///    stored.
    static func outcome(
        of status: Int, headers: HTTPHeaders, to request: CacheRequest, stored: CacheEntry?, requestTime: Date,
        responseTime: Date
    ) -> CacheResponseOutcome {
        if [500, 502, 503, 504].contains(status), let stored,
            case .cached(let age, _) = decideAfterFailure(
                .status(status), request: request, entry: stored, now: responseTime)
        {
            return .serveStored(age: age)
        }
        func freshened(_ entry: CacheEntry) -> CacheEntry {
            entry.freshened(
                with304Headers: headers, requestHeaders: request.headers, requestTime: requestTime,
                responseTime: responseTime)
        }
        if status == 304, hasPreconditions(request.headers) {
            guard let stored, request.method == .get, selects(stored, for: request), !request.cacheControl.noStore,
                notModifiedFreshens(stored, notModifiedHeaders: headers, answersCacheValidation: false)
            else { return .passOnNotModified(freshened: nil) }
            return .passOnNotModified(freshened: freshened(stored))
        }
        if status == 304, let stored, !request.cacheControl.noStore {
            guard notModifiedFreshens(stored, notModifiedHeaders: headers) else { return .repeatWithoutValidators }
            return .serveRevalidated(freshened(stored))
        }
        if request.method == .head, status == 200, let stored, stored.method == .get, !request.cacheControl.noStore {
            return .updateFromHead(
                freshened: headResponseFreshens(stored, headResponseHeaders: headers) ? freshened(stored) : nil)
        }
        if isStorable(method: request.method, requestHeaders: request.headers, status: status, responseHeaders: headers)
        {
            return .store(
                CacheEntry(
                    method: request.method, url: request.url, requestHeaders: request.headers, status: status,
                    responseHeaders: headers, requestTime: requestTime, responseTime: responseTime))
        }
        return .passOn
    }
}
