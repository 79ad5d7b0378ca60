import Foundation

/// The cache's decisions (RFC 9111) over arbitrary stored and request header fields: storing,
/// freshness, age, reuse, validation, 304 updates, serving after a failure and invalidation.
///
/// Input: a 16-byte prefix (status, clock offsets, cache policy), then header fields separated by
/// 0xFF, each `Name: value`; the fields before one that is just `--` are the response's, those
/// after it the request's.
///
/// Beyond not crashing:
/// - a response with `no-store` (and no `must-understand`) or `Vary: *` is never storable; the
///   stored fields never include hop-by-hop ones or those `Connection` names;
/// - freshness lifetime and age are finite and not negative; the lifetime is `max-age` when
///   there is one (within 2³¹ s, RFC 9111 §1.2.2);
/// - the decision respects the directives: `disabled`/`forceNetwork` always go to the network
///   without validators; a request `no-cache` (unless the response is immutable and fresh,
///   RFC 8246) and, outside `maxAge`, a response `no-cache` never serve from the cache; a
///   response served while it is revalidated (`stale-while-revalidate`) is stale within its
///   window and allowed by both sides; `must-revalidate` never serves a stale response, nor (outside
///   `maxAge`) one after a failure; a served response has a finite age whose `Age` field is
///   digits;
/// - validators are valid field values when the stored ones are, and `If-Modified-Since` names
///   the stored `Last-Modified`;
/// - a response served from the cache lacks the fields `no-cache="…"` names; a 304 update keeps
///   no hop-by-hop field and carries every other field of the 304;
/// - invalidation only ever names URIs of the request's origin.
enum CacheDecisionTarget {
    static let url = URL(string: "https://api.example.com/v1/items?page=2")!
    /// 2024-01-01T00:00:00Z.
    static let base = Date(timeIntervalSince1970: 1_704_067_200)

    /// The response side (``CacheRules/outcome(of:headers:to:stored:requestTime:responseTime:)``)
    /// for the same fields as a response to `request`, with `stored` or nothing stored: the stored
    /// response is served for a 5xx only; a 304 is never stored; what is stored is what the
    /// storability rule allows.
    static func checkOutcome(status: Int, headers: HTTPHeaders, request: CacheRequest, stored: CacheEntry, now: Date) {
        for candidate in [Optional(stored), nil] {
            let outcome = CacheRules.outcome(
                of: status, headers: headers, to: request, stored: candidate, requestTime: now, responseTime: now)
            switch outcome {
            case .serveStored(let age):
                fuzzCheck([500, 502, 503, 504].contains(status) && candidate != nil, "served stored for \(status)")
                fuzzCheck(age.isFinite && age >= 0, "age \(age)")
            case .store(let entry):
                fuzzCheck(status != 304, "a 304 stored")
                fuzzCheck(
                    CacheRules.isStorable(
                        method: request.method, requestHeaders: request.headers, status: status,
                        responseHeaders: headers),
                    "stored what may not be")
                fuzzCheck(entry.status == status, "stored another status")
            case .serveRevalidated, .repeatWithoutValidators:
                fuzzCheck(status == 304 && candidate != nil, "a revalidation outcome for \(status)")
            case .passOnNotModified:
                fuzzCheck(status == 304, "a caller's 304 outcome for \(status)")
            case .updateFromHead:
                fuzzCheck(request.method == .head, "a HEAD outcome for \(request.method)")
            case .passOn:
                break
            }
        }
    }

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let status = Int(input.integer(UInt16.self) % 600)
        let requestTime = base.addingTimeInterval(TimeInterval(input.integer(Int32.self)))
        let responseTime = requestTime.addingTimeInterval(TimeInterval(input.integer(UInt16.self)))
        let now = responseTime.addingTimeInterval(TimeInterval(input.integer(Int32.self)))
        let policy = cachePolicy(
            kind: input.byte(), seconds: input.integer(UInt32.self), bits: input.integer(UInt16.self))
        let (responseHeaders, requestHeaders) = headers(fuzzFields(input.rest()))

        let storable = CacheRules.isStorable(
            method: .get, requestHeaders: requestHeaders, status: status, responseHeaders: responseHeaders)
        let responseDirectives = CacheControl(responseHeaders)
        if responseDirectives.noStore && !responseDirectives.mustUnderstand {
            fuzzCheck(!storable, "a no-store response is storable")
        }
        if CacheRules.varyFieldNames(responseHeaders).contains("*") { fuzzCheck(!storable, "Vary: * is storable") }

        let entry = CacheEntry(
            method: .get, url: url, requestHeaders: requestHeaders, status: status, responseHeaders: responseHeaders,
            requestTime: requestTime, responseTime: responseTime)
        checkStoredFields(entry.responseHeaders, received: responseHeaders)

        let lifetime = CacheRules.freshnessLifetime(of: entry)
        fuzzCheck(lifetime.isFinite && lifetime >= 0, "lifetime \(lifetime)")
        if let maxAge = responseDirectives.maxAge {
            fuzzCheck(lifetime == maxAge, "lifetime \(lifetime), max-age \(maxAge)")
        }
        let age = CacheRules.currentAge(of: entry, now: now)
        fuzzCheck(age.isFinite && age >= 0, "age \(age)")

        let request = CacheRequest(method: .get, url: url, headers: requestHeaders, policy: policy)
        let decision = CacheRules.decide(request: request, entry: entry, now: now)
        checkDecision(decision, request: request, entry: entry, now: now)
        for failure in [CacheFailure.unreachable, .status(503), .status(status)] {
            if let fallback = CacheRules.decideAfterFailure(failure, request: request, entry: entry, now: now) {
                fuzzCheck(!request.cacheControl.noCache, "served after a failure despite a request no-cache")
                // `maxAge` overrides the response's headers, in the fallback too (CacheRulesTests).
                if case .maxAge = policy.kind {
                } else {
                    fuzzCheck(!responseDirectives.mustRevalidate, "served after a failure despite must-revalidate")
                    fuzzCheck(!responseDirectives.noCache, "served after a failure despite a response no-cache")
                }
                checkServed(fallback, entry: entry)
            }
        }

        let fresh = entry.freshened(
            with304Headers: requestHeaders, requestHeaders: requestHeaders, requestTime: now, responseTime: now)
        checkStoredFields(
            fresh.responseHeaders, received: CacheRules.merge304(stored: entry.responseHeaders, fresh: requestHeaders))
        let excluded = CacheRules.nonUpdatedFieldNames.union(CacheRules.connectionOptions(requestHeaders))
        for field in requestHeaders.fields where !excluded.contains(field.name.lowercased()) {
            fuzzCheck(fresh.responseHeaders.values(for: field.name).contains(field.value), "304 lost \(field.name)")
        }
        checkPreconditions(requestHeaders, entry: entry)
        // `Retry-After` from the same response fields (the retry stage reads it): a wait, when
        // there is one, is finite and never negative.
        if let wait = RetryAfter.seconds(in: responseHeaders, now: now) {
            fuzzCheck(wait.isFinite && wait >= 0, "Retry-After wait \(wait)")
        }
        _ = CacheRules.notModifiedFreshens(entry, notModifiedHeaders: requestHeaders)
        _ = CacheRules.headResponseFreshens(entry, headResponseHeaders: requestHeaders)
        checkOutcome(status: status, headers: responseHeaders, request: request, stored: entry, now: now)

        for uri in CacheRules.urisToInvalidate(
            requestURL: url, method: .post, status: 201, responseHeaders: responseHeaders)
        {
            fuzzCheck(CacheRules.sameOrigin(uri, url), "invalidates \(uri), another origin")
        }
    }

    static func cachePolicy(kind: UInt8, seconds: UInt32, bits: UInt16) -> CachePolicy {
        // The high bit of `kind` takes the seconds as a raw Double (NaN, infinities, negatives).
        let value = kind & 0x80 != 0 ? Double(bitPattern: UInt64(seconds) << 32 | UInt64(bits)) : Double(seconds)
        switch kind & 0x7F % 7 {
        case 0: return .automatic
        case 1: return .disabled
        case 2: return .maxAge(value)
        case 3: return .forceNetwork
        case 4: return .forceCache
        case 5: return .maxStale(value)
        default: return .offlineFallback
        }
    }

    static func headers(_ fields: [String]) -> (response: HTTPHeaders, request: HTTPHeaders) {
        var response: [HTTPHeaders.Field] = []
        var request: [HTTPHeaders.Field] = []
        var inRequest = false
        for line in fields where !line.isEmpty {
            if line == "--" {
                inRequest = true
                continue
            }
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let name = String(line[..<colon])
            let value =
                colon == line.endIndex
                ? "" : String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            let field = HTTPHeaders.Field(name: name, value: value)
            if inRequest { request.append(field) } else { response.append(field) }
        }
        return (HTTPHeaders(response), HTTPHeaders(request))
    }

    private static func checkStoredFields(_ stored: HTTPHeaders, received: HTTPHeaders) {
        let dropped = CacheRules.unstoredFieldNames.union(CacheRules.connectionOptions(received))
        for field in stored.fields {
            fuzzCheck(!dropped.contains(field.name.lowercased()), "stored the hop-by-hop field \(field.name)")
        }
    }

    private static func checkDecision(_ decision: CacheDecision, request: CacheRequest, entry: CacheEntry, now: Date) {
        checkStaleWhileRevalidate(request: request, entry: entry, now: now)
        switch request.policy.kind {
        case .disabled, .forceNetwork:
            fuzzCheck(decision == .network(conditionalHeaders: [:]), "\(request.policy) gave \(decision)")
            return
        default: break
        }
        switch decision {
        case .cached:
            // RFC 8246 §2: a fresh immutable response is served despite a reload.
            fuzzCheck(
                !request.cacheControl.noCache || CacheRules.isImmutableAndFresh(entry, now: now),
                "served despite a request no-cache")
            if case .maxAge = request.policy.kind {
            } else {
                let directives = entry.cacheControl
                fuzzCheck(!directives.noCache, "served despite a response no-cache")
                if directives.mustRevalidate, case .cached(_, let stale) = decision {
                    fuzzCheck(!stale, "served stale despite must-revalidate")
                }
            }
            checkServed(decision, entry: entry)
        case .network(let conditional):
            checkConditional(conditional, entry: entry)
        case .unsatisfiable:
            break
        }
    }

    /// `stale-while-revalidate` serves only a stale response, within its window, that the
    /// response and the request allow to be served without waiting (RFC 5861 §3).
    private static func checkStaleWhileRevalidate(request: CacheRequest, entry: CacheEntry, now: Date) {
        guard let age = CacheRules.staleWhileRevalidate(request: request, entry: entry, now: now) else { return }
        let stored = entry.cacheControl
        fuzzCheck(age.isFinite && age >= 0, "served while revalidating at age \(age)")
        fuzzCheck(!stored.noCache && !stored.mustRevalidate, "served while revalidating despite \(stored)")
        fuzzCheck(!request.cacheControl.noCache, "served while revalidating despite a request no-cache")
        let staleness = age - CacheRules.freshnessLifetime(of: entry)
        fuzzCheck(
            staleness >= 0 && staleness <= (stored.staleWhileRevalidate ?? -1),
            "served while revalidating \(staleness) s stale")
    }

    private static func checkServed(_ decision: CacheDecision, entry: CacheEntry) {
        guard case .cached(let age, _) = decision else { return }
        fuzzCheck(age.isFinite && age >= 0, "served at age \(age)")
        let served = CacheRules.headersForCachedResponse(entry, age: age)
        let ageField = served["Age"] ?? ""
        fuzzCheck(!ageField.isEmpty && ageField.utf8.allSatisfy { (0x30...0x39).contains($0) }, "Age: \(ageField)")
        for name in entry.cacheControl.noCacheFieldNames {
            fuzzCheck(!served.contains(name), "served \(name) despite no-cache=\"\(name)\"")
        }
    }

    /// The caller's conditions evaluated by the cache (RFC 9111 §4.3.2): never for a request with
    /// `If-Match` / `If-Unmodified-Since`; an `If-None-Match` naming the stored `ETag` (the cache's
    /// own validator, written back) is a 304; every entity tag read back is quoted `etagc`; the
    /// 304's fields are a subset of what a cached answer carries.
    private static func checkPreconditions(_ headers: HTTPHeaders, entry: CacheEntry) {
        let outcome = CacheRules.evaluatePreconditions(headers, against: entry)
        if headers.contains("If-Match") || headers.contains("If-Unmodified-Since") {
            fuzzCheck(outcome == nil, "evaluated a condition of the origin's")
        }
        for value in headers.values(for: "If-None-Match") + headers.values(for: "ETag") {
            for tag in EntityTag.opaqueTags(in: value) ?? [] {
                fuzzCheck(RangeServing.isStrongEntityTag(String(tag)), "entity tag \(tag.debugDescription)")
            }
        }
        if let etag = entry.responseHeaders["ETag"], let tags = EntityTag.opaqueTags(in: etag), tags.count == 1 {
            var own = HTTPHeaders()
            own["If-None-Match"] = etag
            fuzzCheck(
                CacheRules.evaluatePreconditions(own, against: entry) == .notModified,
                "the stored ETag \(etag.debugDescription) does not match itself")
        }
        let notModified = CacheRules.notModifiedHeaders(for: entry, age: 5)
        let served = CacheRules.headersForCachedResponse(entry, age: 5)
        for field in notModified.fields {
            fuzzCheck(served.values(for: field.name).contains(field.value), "304 invented \(field.name)")
        }
    }

    private static func checkConditional(_ headers: HTTPHeaders, entry: CacheEntry) {
        if let etag = headers["If-None-Match"], HeaderValidation.problem(in: entry.responseHeaders["ETag"] ?? "") == nil
        {
            fuzzCheck(HeaderValidation.problem(in: etag) == nil, "If-None-Match: \(etag.debugDescription)")
        }
        if let since = headers["If-Modified-Since"] {
            let lastModified = entry.date("Last-Modified")
            fuzzCheck(lastModified != nil, "If-Modified-Since without a valid Last-Modified")
            fuzzCheck(
                HTTPDate.parse(since, relativeTo: entry.responseTime) == lastModified,
                "If-Modified-Since: \(since) for Last-Modified: \(entry.responseHeaders["Last-Modified"] ?? "")")
        }
    }
}
