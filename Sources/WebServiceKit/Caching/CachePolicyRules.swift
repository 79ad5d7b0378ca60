import Foundation

/// The rules of the HTTP cache (RFC 9111, a private cache used by one user), as pure functions
/// over values: whether to store a response, whether a stored one may be served, how to validate
/// it, how to update it and what to invalidate. No I/O, no clock: callers pass `now`.
///
/// The decision made for every call is ``decide(request:entry:now:)``, in the manner of OkHttp's
/// `CacheStrategy`; the other rules are in `Storability.swift`, `Freshness.swift`,
/// `Validation.swift` and `Invalidation.swift`.
enum CacheRules {}

/// A request as the cache sees it.
struct CacheRequest: Sendable, Hashable {
    /// The request method.
    var method: HTTPMethod
    /// The target URI.
    var url: URL
    /// The request header fields: `Cache-Control`, `Pragma`, the fields `Vary` may nominate.
    var headers: HTTPHeaders
    /// The call's cache policy.
    var policy: CachePolicy

    /// A request; `policy` defaults to ``CachePolicy/automatic``.
    init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], policy: CachePolicy = .automatic) {
        self.method = method
        self.url = url
        self.headers = headers
        self.policy = policy
    }

    /// The request's cache directives. `Pragma: no-cache` counts as `Cache-Control: no-cache`
    /// when the request has no `Cache-Control` field, and is ignored beside one.
    ///
    /// That is RFC 7234 §5.4's rule ("When the Cache-Control header field is not present in a
    /// request, caches MUST consider the no-cache request pragma directive as having the same
    /// effect as if "Cache-Control: no-cache" were present"). RFC 9111 §5.4 only deprecates
    /// `Pragma` ("support for Cache-Control is now widespread"), without a rule of its own; the
    /// cache keeps the old one, which an HTTP/1.0-minded caller means, and which costs at most a
    /// validation a cache may always make. A response's `Pragma` means nothing (§5.4: its meaning
    /// "in responses was never specified").
    var cacheControl: CacheControl {
        let values = headers.values(for: "Cache-Control")
        guard values.isEmpty else { return CacheControl(fieldValues: values) }
        let pragmaNoCache = headers.listElements(for: "Pragma").contains("no-cache")
        return pragmaNoCache ? CacheControl(fieldValues: ["no-cache"]) : CacheControl()
    }
}

/// What to do with a request.
enum CacheDecision: Sendable, Hashable {
    /// Send the request, adding `conditionalHeaders`. They are empty when there is nothing to
    /// validate; otherwise they hold `If-None-Match` / `If-Modified-Since` (RFC 9111 §4.3.1) and
    /// a 304 answer freshens the stored response (``CacheEntry/freshened(with304Headers:requestHeaders:requestTime:responseTime:)``).
    case network(conditionalHeaders: HTTPHeaders)
    /// Serve the stored response, `age` seconds old (its `Age` field, §5.1); `stale` when it is
    /// past its freshness lifetime, which the client may log (RFC 9111 dropped the `Warning`
    /// field, so none is added).
    case cached(age: TimeInterval, stale: Bool)
    /// `only-if-cached` (or ``CachePolicy/forceCache``) and nothing usable is stored: the client
    /// answers 504 (Gateway Timeout) without sending the request (§5.2.1.7).
    case unsatisfiable
}

/// Why a request sent to the server got no usable answer.
enum CacheFailure: Sendable, Hashable {
    /// No response: the host could not be reached, the connection failed or timed out.
    case unreachable
    /// The server answered with this status code.
    case status(Int)
}

extension CacheRules {
    /// How to answer `request`, given what is stored for its URL (`entry`).
    ///
    /// In order:
    /// 1. ``CachePolicy/disabled`` and ``CachePolicy/forceNetwork`` always go to the network,
    ///    without validators.
    /// 2. Only `GET` requests without a `Range` the cache leaves to the server
    ///    (``usesCache(_:)``), conditional fields of their own or a request
    ///    `no-store` use the cache, and only an entry selected for them (§4.1: same URI, `GET`,
    ///    `Vary` fields matching). Otherwise: the network, or ``CacheDecision/unsatisfiable`` for
    ///    `only-if-cached`.
    /// 3. A request `no-cache` (or `Pragma: no-cache`, ``CacheRequest/cacheControl``) validates
    ///    (§5.2.1.4), unless the stored response is `immutable` and fresh
    ///    (``isImmutableAndFresh(_:now:)``, RFC 8246 §2), which ignores the request's `no-cache`
    ///    and `max-age` as well.
    /// 4. Under ``CachePolicy/maxAge(_:)`` the entry is fresh for that many seconds after it was
    ///    received, whatever its headers say. Otherwise a response `no-cache` validates
    ///    (§5.2.2.4) and the freshness lifetime comes from the headers (§4.2.1).
    /// 5. The request's `max-age` caps the lifetime (§5.2.1.1) and its `min-fresh` is added to
    ///    the age (§5.2.1.3). A fresh entry is served (§4.2).
    /// 6. A stale entry is served only within `max-stale` (§5.2.1.2, ``CachePolicy/maxStale(_:)``,
    ///    unbounded for ``CachePolicy/forceCache``) and never with `must-revalidate` (§5.2.2.2,
    ///    §4.2.4). Otherwise it is validated, or the request is unsatisfiable.
    static func decide(request: CacheRequest, entry: CacheEntry?, now: Date) -> CacheDecision {
        switch request.policy.kind {
        case .disabled, .forceNetwork: return .network(conditionalHeaders: [:])
        default: break
        }
        let directives = request.cacheControl
        let onlyIfCached = directives.onlyIfCached || request.policy.kind == .forceCache
        guard let entry, usesCache(request), !directives.noStore, selects(entry, for: request) else {
            return onlyIfCached ? .unsatisfiable : .network(conditionalHeaders: [:])
        }
        let validate: CacheDecision =
            onlyIfCached ? .unsatisfiable : .network(conditionalHeaders: conditionalHeaders(for: entry))
        let reuse = Reuse(entry: entry, policy: request.policy, now: now)
        // RFC 8246 §2: a reload (the request's `no-cache` or `max-age`) does not revalidate an
        // `immutable` response while it is fresh; ``CachePolicy/forceNetwork`` does (step 1).
        let honoursReload = !isImmutableAndFresh(entry, now: now)
        if (honoursReload && directives.noCache) || reuse.requiresValidation { return validate }

        let lifetime = min(reuse.lifetime, honoursReload ? directives.maxAge ?? .infinity : .infinity)
        let requiredAge = reuse.measuredAge + (directives.minFresh ?? 0)
        let acceptable: Bool
        if !reuse.forbidsStale, let allowance = staleAllowance(directives, policy: request.policy) {
            acceptable = requiredAge - lifetime <= allowance
        } else {
            acceptable = requiredAge < lifetime
        }
        return acceptable ? .cached(age: reuse.age, stale: reuse.isStale) : validate
    }

    /// Whether the stored response may stand in for the server's answer when the request failed
    /// (`failure`), and how: ``CacheDecision/cached(age:stale:)``, or `nil` to report the failure.
    ///
    /// A stale response may be served when the cache is disconnected or when `stale-if-error`
    /// allows it (RFC 9111 §4.2.4; RFC 5861 §4: no response, or 500, 502, 503, 504), within the
    /// larger of the request's and the response's `stale-if-error`, or however stale under
    /// ``CachePolicy/offlineFallback`` when the server was unreachable. Never when the response
    /// says `no-cache` or `must-revalidate` ("the cache MUST generate an error response rather
    /// than reuse the stale response", §5.2.2.2), nor when the request says `no-cache`: the
    /// caller asked for the server's answer.
    static func decideAfterFailure(
        _ failure: CacheFailure, request: CacheRequest, entry: CacheEntry?, now: Date
    ) -> CacheDecision? {
        switch request.policy.kind {
        case .disabled, .forceNetwork: return nil
        default: break
        }
        let directives = request.cacheControl
        guard let entry, usesCache(request), !directives.noStore, selects(entry, for: request) else { return nil }
        let reuse = Reuse(entry: entry, policy: request.policy, now: now)
        guard !directives.noCache, !reuse.requiresValidation, !reuse.forbidsStale else { return nil }

        let allowance = failureAllowance(failure, directives: directives, entry: entry, policy: request.policy)
        guard let allowance, reuse.measuredAge - reuse.lifetime <= allowance else { return nil }
        return .cached(age: reuse.age, stale: reuse.isStale)
    }

    /// How stale a response may stand in after `failure`: the larger `stale-if-error` of the
    /// request and the response when the failure is an error in the sense of RFC 5861 §4 (no
    /// response, 500, 502, 503, 504), unbounded under ``CachePolicy/offlineFallback`` when the
    /// server was unreachable; `nil` when nothing allows it.
    private static func failureAllowance(
        _ failure: CacheFailure, directives: CacheControl, entry: CacheEntry, policy: CachePolicy
    ) -> TimeInterval? {
        if failure == .unreachable, policy.kind == .offlineFallback { return .infinity }
        if case .status(let status) = failure, ![500, 502, 503, 504].contains(status) { return nil }
        return [directives.staleIfError, entry.cacheControl.staleIfError].compactMap { $0 }.max()
    }

    /// How stale a response the request accepts: the larger of its `max-stale` and the policy's;
    /// `nil` when neither allows staleness.
    private static func staleAllowance(_ directives: CacheControl, policy: CachePolicy) -> TimeInterval? {
        let fromPolicy: TimeInterval? =
            switch policy.kind {
            case .maxStale(let seconds): max(0, seconds)
            case .forceCache: .infinity
            default: nil
            }
        return [directives.maxStale, fromPolicy].compactMap { $0 }.max()
    }

    /// Whether the request may be answered from the cache at all: a `GET` without preconditions
    /// of its own, which the caller will want the server to evaluate: the cache forwards them
    /// unchanged, adds none of its own, and passes the server's 304 back (§4.3.2). A `Range`
    /// field is allowed when it asks one byte range (served from a stored 200 as a 206) or is
    /// invalid (ignored, RFC 9110 §14.2); several ranges or another unit go to the server
    /// (``RangeServing``). `If-Range` is no precondition of that kind: it only chooses between
    /// the range and the full response (RFC 9110 §13.1.5), and the cache evaluates it.
    ///
    /// A request `no-store` is checked by the callers, which have its directives parsed: such a
    /// request is not answered from the cache either. §5.2.1.5 allows it ("if a request
    /// containing this directive is satisfied from a cache, the no-store request directive does
    /// not apply to the already stored response") without requiring it; this cache takes
    /// `no-store` as the caller's wish to have nothing to do with stored answers (as Fetch's
    /// `no-store` cache mode does) and sends the request unconditionally, keeping what is stored.
    static func usesCache(_ request: CacheRequest) -> Bool {
        request.method == .get && RangeServing.cacheMayAnswer(request.headers) && !hasPreconditions(request.headers)
    }

    /// The precondition fields (RFC 9110 §13.1) that a server answers with 304 or 412; not
    /// `If-Range`, which never makes one (§13.1.5).
    static let preconditionFieldNames = [
        "If-Match", "If-None-Match", "If-Modified-Since", "If-Unmodified-Since",
    ]

    /// Whether `headers` hold a precondition field of the caller's own: the cache then adds none
    /// of its validators (``usesCache(_:)``), and a 304 answers the caller's question.
    static func hasPreconditions(_ headers: HTTPHeaders) -> Bool {
        preconditionFieldNames.contains(where: headers.contains)
    }
}

/// The freshness of a stored response under a policy: the numbers ``CacheRules/decide(request:entry:now:)``
/// compares.
private struct Reuse {
    /// The response's current age (§4.2.3), reported in its `Age` field.
    let age: TimeInterval
    /// The age compared with the lifetime: ``age``, or under ``CachePolicy/maxAge(_:)`` the time
    /// since the response was received.
    let measuredAge: TimeInterval
    /// The freshness lifetime (§4.2.1), or the ``CachePolicy/maxAge(_:)`` seconds.
    let lifetime: TimeInterval
    /// The response says `no-cache`: serve it only after validation (§5.2.2.4).
    let requiresValidation: Bool
    /// The response says `must-revalidate`: never serve it stale (§5.2.2.2).
    let forbidsStale: Bool

    init(entry: CacheEntry, policy: CachePolicy, now: Date) {
        age = CacheRules.currentAge(of: entry, now: now)
        if case .maxAge(let seconds) = policy.kind {
            measuredAge = max(0, now.timeIntervalSince(entry.responseTime))
            lifetime = seconds
            requiresValidation = false
            forbidsStale = false
        } else {
            let directives = entry.cacheControl
            measuredAge = age
            lifetime = CacheRules.freshnessLifetime(of: entry)
            requiresValidation = directives.noCache
            // `proxy-revalidate` and `s-maxage` bind shared caches only (§5.2.2.8, §5.2.2.10).
            forbidsStale = directives.mustRevalidate
        }
    }

    /// Whether the response is past its freshness lifetime (§4.2: fresh while lifetime > age).
    var isStale: Bool { measuredAge >= lifetime }
}

// MARK: - Selecting a stored response (§4.1)

extension CacheRules {
    /// Whether `entry` may answer `request` (§4): the same target URI, a `GET` response, and
    /// every request field its `Vary` nominates matching (§4.1).
    static func selects(_ entry: CacheEntry, for request: CacheRequest) -> Bool {
        entry.method == .get
            && (entry.url == request.url || cacheKey(for: entry.url) == cacheKey(for: request.url))
            && varyMatches(entry, request.headers)
    }

    /// The key stored responses are found by: the URI without its fragment, with the scheme and
    /// host lowercased, the default port dropped and an empty path written `/` (RFC 9110 §4.2.3).
    static func cacheKey(for url: URL) -> String {
        let text = url.absoluteString
        // Most URLs are normal already; building URLComponents and setting four of its parts
        // cost about 15,000 instructions, a cache hit computes three keys.
        return isNormalKey(text) ? text : normalizedKey(for: url)
    }

    /// ``cacheKey(for:)`` the long way, through URLComponents.
    static func normalizedKey(for url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.port == defaultPort(of: components.scheme) { components.port = nil }
        if components.percentEncodedPath.isEmpty, components.host != nil { components.percentEncodedPath = "/" }
        return components.string ?? url.absoluteString
    }

    /// Whether `text` is a URL that ``cacheKey(for:)`` would give back unchanged: `scheme://`
    /// in lowercase, an authority of lowercase host characters (no user information, no IPv6
    /// literal, no percent-encoding) and a port other than the scheme's default, then a path
    /// starting with `/`, and no fragment. Anything else takes the URLComponents way.
    static func isNormalKey(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isNormalKey)
    }

    private static func isNormalKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isLowerAlphanumeric(_ byte: UInt8) -> Bool { (97...122).contains(byte) || (48...57).contains(byte) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[..<colon].allSatisfy({ isLowerAlphanumeric($0) || $0 == 43 || $0 == 45 || $0 == 46 }),
            colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
            !bytes.contains(UInt8(ascii: "#"))
        else { return false }
        let hostStart = colon + 3
        // An empty path is written `/` in the key.
        guard
            let pathStart = bytes[hostStart...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
            ),
            bytes[pathStart] == UInt8(ascii: "/")
        else { return false }
        let hostEnd = bytes[hostStart..<pathStart].firstIndex(of: UInt8(ascii: ":")) ?? pathStart
        guard hostEnd > hostStart,
            bytes[hostStart..<hostEnd].allSatisfy({ isLowerAlphanumeric($0) || $0 == 45 || $0 == 46 || $0 == 95 })
        else { return false }
        guard hostEnd < pathStart else { return true }
        // 1 to 65535 without a leading zero (URLComponents drops a port that is no Int), and not
        // the scheme's default.
        let port = bytes[(hostEnd + 1)..<pathStart]
        guard (1...5).contains(port.count), port.allSatisfy({ (48...57).contains($0) }), port.first != 48 else {
            return false
        }
        let number = port.reduce(0) { $0 * 10 + Int($1 - 48) }
        let scheme = bytes[..<colon]
        if number == 80, scheme.elementsEqual("http".utf8) { return false }
        if number == 443, scheme.elementsEqual("https".utf8) { return false }
        return number <= 65535
    }

    /// 80 for `http`, 443 for `https`.
    static func defaultPort(of scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// The lowercased field names listed by the `Vary` fields of `responseHeaders`; `*` included.
    static func varyFieldNames(_ responseHeaders: HTTPHeaders) -> [String] {
        responseHeaders.listElements(for: "Vary")
    }

    /// The request fields nominated by the `Vary` of `responseHeaders`, normalised by
    /// ``normalizedFieldValue(named:_:)``, for ``CacheEntry/varyingRequestHeaders``.
    static func varyingRequestHeaders(of requestHeaders: HTTPHeaders, nominatedBy responseHeaders: HTTPHeaders)
        -> [String: String]
    {
        var nominated: [String: String] = [:]
        for name in varyFieldNames(responseHeaders) where name != "*" {
            nominated[name] = normalizedFieldValue(named: name, requestHeaders.values(for: name))
        }
        return nominated
    }

    /// Whether the request fields nominated by the entry's `Vary` match `requestHeaders` (§4.1):
    /// equal after normalisation (``normalizedFieldValue(named:_:)``), or absent from both
    /// requests. `Vary: *` never matches.
    static func varyMatches(_ entry: CacheEntry, _ requestHeaders: HTTPHeaders) -> Bool {
        entry.varyFieldNames.allSatisfy { name in
            name != "*"
                && entry.varyingRequestHeaders[name]
                    == normalizedFieldValue(named: name, requestHeaders.values(for: name))
        }
    }

    /// The non-empty, trimmed elements of a list value, split at commas outside quoted strings.
    static func listElements(_ value: String) -> [String] {
        var elements: [String] = []
        var current: [UInt8] = []
        var inQuotes = false
        var escaped = false
        func finish() {
            let element = String(decoding: current, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if !element.isEmpty { elements.append(element) }
            current = []
        }
        for byte in value.utf8 {
            if escaped {
                escaped = false
            } else if inQuotes && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == UInt8(ascii: ","), !inQuotes {
                finish()
                continue
            }
            current.append(byte)
        }
        finish()
        return elements
    }
}
