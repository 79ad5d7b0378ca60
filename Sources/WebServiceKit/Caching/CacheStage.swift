import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's place among the stages (``CallStages``): below the follow-ups and the request
/// check, so it sees the request exactly as it would be sent, and above the log, so the log shows
/// what goes on the wire. Every decision comes from ``CacheRules``; the client's ``HTTPCache`` is
/// the one store of all its calls.
struct CacheStage: CallStage {
    /// A client with a cache, a call that uses it. Downloads to a file are never cached: their
    /// bodies are not in memory to store.
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool {
        call.cache != nil && call.descriptor.cache != .disabled && call.context.download == nil
    }

    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        let call = next.call
        let policy = call.descriptor.cache
        guard let cache = call.cache, let url = outgoing.request.url else { return try await next.proceed(outgoing) }
        if call.descriptor.streamsResponse {
            // A streamed response is never stored or served from the store (its body is the
            // consumer's, as it arrives); a successful unsafe request still invalidates (§4.4).
            let answer = try await next.proceed(outgoing)
            cache.invalidate(
                after: answer.response, to: url, method: HTTPMethod(rawValue: outgoing.request.httpMethod ?? "GET"))
            return answer
        }
        let request = outgoing.request
        let requestHeaders = HTTPHeaders(request.allHTTPHeaderFields ?? [:])
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        let cacheRequest = CacheRequest(method: method, url: url, headers: requestHeaders, policy: policy)
        let key = CacheRules.cacheKey(for: url)
        // The URL's variant selected for this request (RFC 9111 §4.1), the most recent if several;
        // a single byte range it cannot answer goes to the server (RangeServing).
        var selector = CacheRules.VariantSelector(cacheRequest)
        let stored = RangeServing.usable(cache.store.response(for: key) { selector.selects($0) }, for: requestHeaders)
        let exchange = CacheExchange(
            cache: cache, outgoing: outgoing, request: cacheRequest, key: key, stored: stored, next: next)
        if let answer = exchange.answerPreconditions() { return answer }
        switch CacheRules.decide(request: cacheRequest, entry: stored?.entry, now: Date()) {
        case .cached(let age, let stale):
            guard let stored else { break }
            return exchange.answer(
                Self.response(from: stored, age: age, url: url, source: stale ? .staleCache : .cache))
        case .unsatisfiable:
            // RFC 9111 §5.2.1.7: only-if-cached with nothing usable is a 504 (Gateway Timeout).
            return exchange.answer(TransportResponse(statusCode: 504, url: url, source: .cache))
        case .network(let conditionalHeaders):
            // A 304 that names another representation than the stored one makes the cache repeat
            // the request (RFC 9111 §4.3.4). A streamed body was opened for this attempt above
            // this stage and cannot be sent twice: such a request (a GET with a body, rare) is
            // not validated, so that it never needs repeating; its full answer replaces the
            // stored one.
            let validators = request.httpBodyStream == nil ? conditionalHeaders : [:]
            // RFC 5861 §3: within `stale-while-revalidate`, the stale answer now, the validation
            // in the background.
            if let stale = exchange.staleWhileRevalidating(validators: validators) { return stale }
            return try await exchange.send(validators: validators)
        }
        return try await next.proceed(outgoing)
    }

    static func response(from stored: StoredResponse, age: TimeInterval, url: URL, source: ResponseSource)
        -> TransportResponse
    {
        TransportResponse(
            statusCode: stored.entry.status, headers: CacheRules.headersForCachedResponse(stored.entry, age: age),
            body: stored.body, url: url, source: source)
    }
}

/// One request the cache sends to the network, or answers itself.
struct CacheExchange {
    let cache: HTTPCache
    let outgoing: Outgoing
    let request: CacheRequest
    let key: String
    let stored: StoredResponse?
    let next: StageChain
    /// A revalidation that runs after its call ended (`stale-while-revalidate`): nobody gets its
    /// answer.
    var inBackground = false

    /// An answer given without the network; the log below never saw it, so it is logged here
    /// (not in the background, where it goes to nobody).
    func answer(_ response: TransportResponse) -> Answer {
        let response = RangeServing.answer(response, to: request.headers)
        if !inBackground { next.call.log?.answered(outgoing, with: response) }
        return Answer(request: outgoing.request, response: response)
    }

    /// The answer to the caller's own `If-None-Match` / `If-Modified-Since` from the stored
    /// response (RFC 9111 §4.3.2), when the stored response would answer the request without
    /// them: a 304 the cache makes, or the stored response; `nil` to leave the conditions to the
    /// server (``CacheRules/evaluatePreconditions(_:against:)``).
    func answerPreconditions() -> Answer? {
        guard let stored, CacheRules.hasPreconditions(request.headers),
            let outcome = CacheRules.evaluatePreconditions(request.headers, against: stored.entry),
            case .cached(let age, let stale) = CacheRules.decide(
                request: CacheRules.withoutPreconditions(request), entry: stored.entry, now: Date())
        else { return nil }
        let source: ResponseSource = stale ? .staleCache : .cache
        switch outcome {
        case .notModified:
            return answer(
                TransportResponse(
                    statusCode: 304, headers: CacheRules.notModifiedHeaders(for: stored.entry, age: age),
                    url: request.url, source: source))
        case .selected:
            return answer(CacheStage.response(from: stored, age: age, url: request.url, source: source))
        }
    }

    /// Sends the request with the cache's `validators` added (`If-None-Match`, `If-Modified-Since`
    /// from the stored response, §4.3.1; empty when the cache validates nothing) and makes of the
    /// answer what RFC 9111 says: a 304 freshens the stored response, a storable answer is
    /// stored, a successful unsafe request invalidates.
    func send(validators: HTTPHeaders) async throws(WebServiceError) -> Answer {
        var conditional = outgoing
        for field in validators {
            conditional.request.setValue(field.value, forHTTPHeaderField: field.name)
        }
        let requestTime = Date()
        let answer: Answer
        do {
            answer = try await next.proceed(conditional)
        } catch {
            // No response at all (a connection that failed or dropped, before the response or in
            // its body): stale-if-error or the offline fallback may serve what is stored; not
            // after a cancellation or an error the caller caused (``CacheRules/failure(causedBy:)``).
            if let failure = CacheRules.failure(causedBy: error), let fallback = fallback(failure) {
                return self.answer(fallback)
            }
            throw error
        }
        let response = answer.response
        let responseTime = Date()
        if [500, 502, 503, 504].contains(response.statusCode), let fallback = fallback(.status(response.statusCode)) {
            return self.answer(fallback)
        }
        let context = next.call.context
        let cacheRequest = request
        let status = response.statusCode
        cache.invalidate(after: response, to: cacheRequest.url, method: cacheRequest.method)
        if status == 304, CacheRules.hasPreconditions(cacheRequest.headers) {
            // The caller's own If-None-Match / If-Modified-Since (the cache added no validator to
            // it, ``CacheRules/usesCache(_:)``): the 304 answers the caller's question and goes
            // back as it is (§4.3.2); it may still freshen the stored response it identifies
            // (§4.3.4).
            freshen(by: answer, requestTime: requestTime, responseTime: responseTime)
            return answer
        }
        // Otherwise the 304 answers the cache's validation, or no question at all (a server that
        // sends 304 to an unconditional request): the caller, who asked none, gets the stored
        // response or the repeated request's answer. Not after a request `no-store`, whose
        // answer may touch nothing stored: that 304 goes back as it came.
        if status == 304, let stored, !cacheRequest.cacheControl.noStore {
            // RFC 9111 §4.3.4: a 304 freshens the stored response it matches; the stored body is served.
            guard CacheRules.notModifiedFreshens(stored.entry, notModifiedHeaders: response.headers) else {
                // The 304 is about another representation than the stored one, which is out of
                // date; the caller, who asked no question, must not get a 304. The request is
                // repeated as the caller wrote it, without the cache's validators, and its answer
                // is served (and stored, when it may be).
                cache.store.remove(key, variant: stored.entry.variantKey)
                let unconditional = CacheExchange(
                    cache: cache, outgoing: outgoing, request: request, key: key, stored: nil, next: next,
                    inBackground: inBackground)
                return try await unconditional.send(validators: [:])
            }
            let entry = stored.entry.freshened(
                with304Headers: response.headers, requestHeaders: cacheRequest.headers, requestTime: requestTime,
                responseTime: responseTime)
            let refreshed = StoredResponse(entry: entry, body: stored.body, identifier: context.cacheIdentifier)
            cache.store.save(refreshed, for: key, replacing: stored.entry)
            var revalidated = answer
            revalidated.response = CacheStage.response(
                from: refreshed, age: CacheRules.currentAge(of: entry, now: responseTime), url: cacheRequest.url,
                source: .revalidatedCache)
            revalidated.response = RangeServing.answer(revalidated.response, to: cacheRequest.headers)
            return revalidated
        }
        if cacheRequest.method == .head, status == 200, let stored, stored.entry.method == .get,
            !cacheRequest.cacheControl.noStore
        {
            // RFC 9111 §4.3.5: a HEAD answer freshens the stored GET when its validators match;
            // otherwise the stored response is out of date, and is dropped.
            if CacheRules.headResponseFreshens(stored.entry, headResponseHeaders: response.headers) {
                let entry = stored.entry.freshened(
                    with304Headers: response.headers, requestHeaders: cacheRequest.headers, requestTime: requestTime,
                    responseTime: responseTime)
                cache.store.save(
                    StoredResponse(entry: entry, body: stored.body, identifier: stored.identifier), for: key,
                    replacing: stored.entry)
            } else {
                cache.store.remove(key, variant: stored.entry.variantKey)
            }
            return answer
        }
        if CacheRules.isStorable(
            method: cacheRequest.method, requestHeaders: cacheRequest.headers, status: status,
            responseHeaders: response.headers)
        {
            let entry = CacheEntry(
                method: cacheRequest.method, url: cacheRequest.url, requestHeaders: cacheRequest.headers,
                status: status,
                responseHeaders: response.headers, requestTime: requestTime, responseTime: responseTime)
            // It supersedes the variant selected for this request, if any (RFC 9111 §4.3.3: after
            // a validation, "none of the stored responses nominated" are suitable), also when its
            // `Vary` makes it another variant.
            cache.store.save(
                StoredResponse(entry: entry, body: response.body, identifier: context.cacheIdentifier), for: key,
                replacing: stored?.entry)
        }
        return answer
    }

    /// Freshens the stored response with the caller's own 304 when it identifies it (§4.3.4,
    /// ``CacheRules/notModifiedFreshens(_:notModifiedHeaders:answersCacheValidation:)`` to the
    /// letter) and would be selected for the request (a `GET` with the same `Vary` fields); never
    /// for a request with `no-store`, no part of whose response may be stored (§5.2.1.5).
    private func freshen(by answer: Answer, requestTime: Date, responseTime: Date) {
        guard let stored, request.method == .get, CacheRules.selects(stored.entry, for: request),
            !request.cacheControl.noStore,
            CacheRules.notModifiedFreshens(
                stored.entry, notModifiedHeaders: answer.response.headers, answersCacheValidation: false)
        else { return }
        let entry = stored.entry.freshened(
            with304Headers: answer.response.headers, requestHeaders: request.headers, requestTime: requestTime,
            responseTime: responseTime)
        cache.store.save(
            StoredResponse(entry: entry, body: stored.body, identifier: stored.identifier), for: key,
            replacing: stored.entry)
    }

    private func fallback(_ failure: CacheFailure) -> TransportResponse? {
        guard let stored,
            case .cached(let age, _) = CacheRules.decideAfterFailure(
                failure, request: request, entry: stored.entry, now: Date())
        else { return nil }
        return CacheStage.response(from: stored, age: age, url: request.url, source: .staleCache)
    }
}
