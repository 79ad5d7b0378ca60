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
                after: answer.response, to: url, method: HTTPMethod(rawValue: outgoing.request.method))
            return answer
        }
        let request = outgoing.request
        let requestHeaders = request.headers
        let method = HTTPMethod(rawValue: request.method)
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
    /// from the stored response, §4.3.1; empty when the cache validates nothing) and carries out
    /// what ``CacheRules/outcome(of:headers:to:stored:requestTime:responseTime:)`` makes of the
    /// answer: a stored response served instead of a 5xx, a 304 freshening the stored response,
    /// a storable answer stored; a successful unsafe request invalidates first (§4.4). A 304
    /// about another representation sends the request once more, without validators.
    func send(validators: HTTPHeaders) async throws(WebServiceError) -> Answer {
        var validators = validators
        var stored = stored
        while true {
            var conditional = outgoing
            if !validators.fields.isEmpty {
                // One assignment: each `setValue` copies and searches the fields on Linux.
                var fields = conditional.request.allHTTPHeaderFields ?? [:]
                for field in validators {
                    for name in fields.keys where name.caseInsensitiveEquals(field.name) { fields[name] = nil }
                    fields[field.name] = field.value
                }
                conditional.request.allHTTPHeaderFields = fields
            }
            let requestTime = Date()
            let answer: Answer
            do {
                answer = try await next.proceed(conditional)
            } catch {
                // No response at all (a connection that failed or dropped, before the response or
                // in its body): stale-if-error or the offline fallback may serve what is stored;
                // not after a cancellation or an error the caller caused
                // (``CacheRules/failure(causedBy:)``).
                if let failure = CacheRules.failure(causedBy: error), let fallback = fallback(failure, stored: stored) {
                    return self.answer(fallback)
                }
                throw error
            }
            let response = answer.response
            let responseTime = Date()
            let outcome = CacheRules.outcome(
                of: response.statusCode, headers: response.headers, to: request, stored: stored?.entry,
                requestTime: requestTime, responseTime: responseTime)
            if case .serveStored(let age) = outcome, let stored {
                return self.answer(CacheStage.response(from: stored, age: age, url: request.url, source: .staleCache))
            }
            cache.invalidate(after: response, to: request.url, method: request.method)
            let identifier = next.call.context.cacheIdentifier
            switch outcome {
            case .serveStored, .passOn:
                return answer
            case .passOnNotModified(let freshened):
                if let freshened, let stored {
                    save(freshened, body: stored.body, replacing: stored, as: stored.identifier)
                }
                return answer
            case .serveRevalidated(let entry):
                guard let stored else { return answer }
                let refreshed = save(entry, body: stored.body, replacing: stored, as: identifier)
                var revalidated = answer
                revalidated.response = RangeServing.answer(
                    CacheStage.response(
                        from: refreshed, age: CacheRules.currentAge(of: entry, now: responseTime),
                        url: request.url, source: .revalidatedCache),
                    to: request.headers)
                return revalidated
            case .repeatWithoutValidators:
                if let stored { cache.store.remove(key, variant: stored.entry.variantKey) }
                stored = nil
                validators = [:]
            case .updateFromHead(let freshened):
                guard let stored else { return answer }
                if let freshened {
                    save(freshened, body: stored.body, replacing: stored, as: stored.identifier)
                } else {
                    cache.store.remove(key, variant: stored.entry.variantKey)
                }
                return answer
            case .store(let entry):
                // It supersedes the variant selected for this request, if any (RFC 9111 §4.3.3:
                // after a validation, "none of the stored responses nominated" are suitable), also
                // when its `Vary` makes it another variant.
                cache.store.save(
                    StoredResponse(entry: entry, body: response.body, identifier: identifier), for: key,
                    replacing: stored?.entry)
                return answer
            }
        }
    }

    /// Saves `entry` with `body` in place of `stored`, under `identifier`; returns what it saved.
    @discardableResult
    private func save(_ entry: CacheEntry, body: Data, replacing stored: StoredResponse, as identifier: String?)
        -> StoredResponse
    {
        let saved = StoredResponse(entry: entry, body: body, identifier: identifier)
        cache.store.save(saved, for: key, replacing: stored.entry)
        return saved
    }

    private func fallback(_ failure: CacheFailure, stored: StoredResponse?) -> TransportResponse? {
        guard let stored,
            case .cached(let age, _) = CacheRules.decideAfterFailure(
                failure, request: request, entry: stored.entry, now: Date())
        else { return nil }
        return CacheStage.response(from: stored, age: age, url: request.url, source: .staleCache)
    }
}
