import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's place in the pipeline: between authentication and the transport, so it sees the
/// request exactly as it would be sent. Every decision comes from ``CacheRules``.
struct CachingTransport: WebServiceTransport {
    let base: any WebServiceTransport
    let cache: HTTPCache

    func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse {
        let policy = context.call.cache
        // Downloads to a file are never cached: their bodies are not in memory to store.
        guard policy != .disabled, context.download == nil, let url = request.url else {
            return try await base.send(request, context: context)
        }
        let requestHeaders = HTTPHeaders(request.allHTTPHeaderFields ?? [:])
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        let cacheRequest = CacheRequest(method: method, url: url, headers: requestHeaders, policy: policy)
        let key = CacheRules.cacheKey(for: url)
        let stored = cache.store.response(for: key)
        switch CacheRules.decide(request: cacheRequest, entry: stored?.entry, now: Date()) {
        case .cached(let age, let stale):
            guard let stored else { break }
            return Self.response(from: stored, age: age, url: url, source: stale ? .staleCache : .cache)
        case .unsatisfiable:
            // RFC 9111 §5.2.1.7: only-if-cached with nothing usable is a 504 (Gateway Timeout).
            return TransportResponse(statusCode: 504, url: url, source: .cache)
        case .network(let conditionalHeaders):
            var outgoing = request
            for field in conditionalHeaders { outgoing.setValue(field.value, forHTTPHeaderField: field.name) }
            return try await exchange(outgoing, cacheRequest, key: key, stored: stored, context: context)
        }
        return try await base.send(request, context: context)
    }

    private func exchange(
        _ request: URLRequest, _ cacheRequest: CacheRequest, key: String, stored: StoredResponse?,
        context: TransportContext
    ) async throws -> TransportResponse {
        let requestTime = Date()
        let response: TransportResponse
        do {
            response = try await base.send(request, context: context)
        } catch let error as URLError where error.code != .cancelled {
            // No response at all: stale-if-error or the offline fallback may serve what is stored.
            if let fallback = fallback(.unreachable, cacheRequest, stored) { return fallback }
            throw error
        }
        let responseTime = Date()
        if [500, 502, 503, 504].contains(response.statusCode),
            let fallback = fallback(.status(response.statusCode), cacheRequest, stored)
        {
            return fallback
        }
        let status = response.statusCode
        for url in CacheRules.urisToInvalidate(
            requestURL: cacheRequest.url, method: cacheRequest.method, status: status, responseHeaders: response.headers
        ) {
            cache.store.remove(CacheRules.cacheKey(for: url))
        }
        if status == 304, let stored {
            // RFC 9111 §4.3.4: a 304 freshens the stored response it matches; the stored body is served.
            guard CacheRules.notModifiedFreshens(stored.entry, notModifiedHeaders: response.headers) else {
                cache.store.remove(key)
                return response
            }
            let entry = stored.entry.freshened(
                with304Headers: response.headers, requestHeaders: cacheRequest.headers, requestTime: requestTime,
                responseTime: responseTime)
            let refreshed = StoredResponse(entry: entry, body: stored.body, identifier: context.cacheIdentifier)
            cache.store.save(refreshed, for: key)
            return Self.response(
                from: refreshed, age: CacheRules.currentAge(of: entry, now: responseTime), url: cacheRequest.url,
                source: .revalidatedCache)
        }
        if cacheRequest.method == .head, status == 200, let stored, stored.entry.method == .get {
            // RFC 9111 §4.3.5: a HEAD answer freshens the stored GET when its validators match;
            // otherwise the stored response is out of date, and is dropped.
            if CacheRules.headResponseFreshens(stored.entry, headResponseHeaders: response.headers) {
                let entry = stored.entry.freshened(
                    with304Headers: response.headers, requestHeaders: cacheRequest.headers, requestTime: requestTime,
                    responseTime: responseTime)
                cache.store.save(
                    StoredResponse(entry: entry, body: stored.body, identifier: stored.identifier), for: key)
            } else {
                cache.store.remove(key)
            }
            return response
        }
        if CacheRules.isStorable(
            method: cacheRequest.method, requestHeaders: cacheRequest.headers, status: status,
            responseHeaders: response.headers)
        {
            let entry = CacheEntry(
                method: cacheRequest.method, url: cacheRequest.url, requestHeaders: cacheRequest.headers,
                status: status,
                responseHeaders: response.headers, requestTime: requestTime, responseTime: responseTime)
            cache.store.save(
                StoredResponse(entry: entry, body: response.body, identifier: context.cacheIdentifier), for: key)
        }
        return response
    }

    private func fallback(_ failure: CacheFailure, _ request: CacheRequest, _ stored: StoredResponse?)
        -> TransportResponse?
    {
        guard let stored,
            case .cached(let age, _) = CacheRules.decideAfterFailure(
                failure, request: request, entry: stored.entry, now: Date())
        else { return nil }
        return Self.response(from: stored, age: age, url: request.url, source: .staleCache)
    }

    private static func response(from stored: StoredResponse, age: TimeInterval, url: URL, source: ResponseSource)
        -> TransportResponse
    {
        TransportResponse(
            statusCode: stored.entry.status, headers: CacheRules.headersForCachedResponse(stored.entry, age: age),
            body: stored.body, url: url, source: source)
    }
}
