import Foundation
import XCTest

@testable import WebServiceKit

/// The HTTP cache rules (RFC 9111), at a fixed `now`: decisions, freshness, storability,
/// validation, invalidation, and the `Cache-Control` and HTTP-date parsers.
final class CacheRulesTests: XCTestCase {
    /// Sat, 01 Mar 2025 12:00:00 GMT.
    static let now = Date(timeIntervalSince1970: 1_740_830_400)
    static let url = URL(string: "https://api.example.com/v1/items?page=1")!

    /// The IMF-fixdate of `seconds` before ``now``.
    static func ago(_ seconds: TimeInterval) -> String { HTTPDate.format(now - seconds) }

    // MARK: - Decisions

    /// A stored response, described relative to ``now``.
    struct Stored {
        var status = 200
        var headers: HTTPHeaders = [:]
        /// Seconds before `now` the request was sent.
        var requestedAgo: TimeInterval = 100
        /// Seconds before `now` the response was received.
        var receivedAgo: TimeInterval = 100
        /// The request that produced the response, for `Vary`.
        var requestHeaders: HTTPHeaders = [:]
        var method: HTTPMethod = .get
        var url = CacheRulesTests.url

        var entry: CacheEntry {
            CacheEntry(
                method: method, url: url, requestHeaders: requestHeaders, status: status, responseHeaders: headers,
                requestTime: CacheRulesTests.now - requestedAgo, responseTime: CacheRulesTests.now - receivedAgo)
        }
    }

    /// One row of the decision table.
    struct DecisionCase {
        var name: String
        /// The RFC section the row checks.
        var section: String
        var stored: Stored? = Stored()
        var method: HTTPMethod = .get
        var url = CacheRulesTests.url
        var request: HTTPHeaders = [:]
        var policy: CachePolicy = .automatic
        var expected: CacheDecision
    }

    static let fresh = CacheDecision.cached(age: 100, stale: false)
    static let unconditional = CacheDecision.network(conditionalHeaders: [:])
    static let etag: HTTPHeaders = ["ETag": "\"v1\""]
    static let ifNoneMatch = CacheDecision.network(conditionalHeaders: ["If-None-Match": "\"v1\""])

    static func stored(_ headers: HTTPHeaders, status: Int = 200) -> Stored { Stored(status: status, headers: headers) }

    /// `headers` with the stored response's `ETag`.
    static func tagged(_ headers: HTTPHeaders) -> Stored { Stored(headers: HTTPHeaders(headers.fields + etag.fields)) }

    static let decisionCases: [DecisionCase] = [
        // Freshness lifetime and age arithmetic.
        DecisionCase(
            name: "max-age, fresh", section: "RFC 9111 §4.2.1",
            stored: stored(["Cache-Control": "max-age=3600", "Date": ago(100)]), expected: fresh),
        DecisionCase(
            name: "max-age exceeded, no validator", section: "RFC 9111 §4.2",
            stored: stored(["Cache-Control": "max-age=60"]), expected: unconditional),
        DecisionCase(
            name: "max-age exceeded, ETag", section: "RFC 9111 §4.3.1",
            stored: tagged(["Cache-Control": "max-age=60"]), expected: ifNoneMatch),
        DecisionCase(
            name: "max-age exceeded, Last-Modified", section: "RFC 9111 §4.3.1",
            stored: stored(["Cache-Control": "max-age=60", "Last-Modified": ago(5000)]),
            expected: .network(conditionalHeaders: ["If-Modified-Since": ago(5000)])),
        DecisionCase(
            name: "max-age exceeded, ETag and Last-Modified", section: "RFC 9111 §4.3.1",
            stored: stored(["Cache-Control": "max-age=60", "ETag": "W/\"v2\"", "Last-Modified": ago(5000)]),
            expected: .network(conditionalHeaders: ["If-None-Match": "W/\"v2\"", "If-Modified-Since": ago(5000)])),
        DecisionCase(
            name: "RFC 850 Last-Modified sent as IMF-fixdate", section: "RFC 9110 §5.6.7",
            stored: stored(["Cache-Control": "max-age=0", "Last-Modified": "Saturday, 01-Mar-25 10:00:00 GMT"]),
            expected: .network(conditionalHeaders: ["If-Modified-Since": ago(7200)])),
        DecisionCase(
            name: "invalid Last-Modified is no validator", section: "RFC 9110 §13.1.3",
            stored: stored(["Cache-Control": "max-age=0", "Last-Modified": "last week"]), expected: unconditional),
        DecisionCase(
            name: "Age adds to the age", section: "RFC 9111 §4.2.3",
            stored: stored(["Cache-Control": "max-age=3600", "Age": "1000"]),
            expected: .cached(age: 1100, stale: false)),
        DecisionCase(
            name: "Age makes it stale", section: "RFC 9111 §4.2.3",
            stored: tagged(["Cache-Control": "max-age=3600", "Age": "3550"]), expected: ifNoneMatch),
        DecisionCase(
            name: "response delay corrects Age", section: "RFC 9111 §4.2.3",
            stored: Stored(headers: ["Cache-Control": "max-age=3600", "Age": "10"], requestedAgo: 130),
            expected: .cached(age: 140, stale: false)),
        DecisionCase(
            name: "apparent age from Date", section: "RFC 9111 §4.2.3",
            stored: stored(["Cache-Control": "max-age=3600", "Date": ago(150)]),
            expected: .cached(age: 150, stale: false)),
        DecisionCase(
            name: "corrected Age beats apparent age", section: "RFC 9111 §4.2.3",
            stored: stored(["Cache-Control": "max-age=3600", "Date": ago(150), "Age": "80"]),
            expected: .cached(age: 180, stale: false)),
        DecisionCase(
            name: "Date in the future: apparent age 0", section: "RFC 9111 §4.2.3",
            stored: stored(["Cache-Control": "max-age=3600", "Date": ago(-1000)]), expected: fresh),
        DecisionCase(
            name: "missing Date is response_time", section: "RFC 9110 §6.6.1",
            stored: stored(["Cache-Control": "max-age=3600"]), expected: fresh),
        DecisionCase(
            name: "invalid Date is response_time", section: "RFC 9110 §6.6.1",
            stored: stored(["Date": "yesterday", "Expires": ago(-100)]), expected: fresh),
        DecisionCase(
            name: "invalid Age counts as 0", section: "RFC 9111 §5.1",
            stored: stored(["Cache-Control": "max-age=3600", "Age": "ten"]), expected: fresh),
        DecisionCase(
            name: "Expires minus Date", section: "RFC 9111 §4.2.1",
            stored: stored(["Date": ago(100), "Expires": ago(-200)]), expected: fresh),
        DecisionCase(
            name: "Expires uses the server's clock", section: "RFC 9111 §4.2.1",
            stored: stored(["Date": ago(1100), "Expires": ago(-100)]), expected: .cached(age: 1100, stale: false)),
        DecisionCase(
            name: "Expires in the past", section: "RFC 9111 §5.3",
            stored: tagged(["Date": ago(100), "Expires": ago(50)]), expected: ifNoneMatch),
        DecisionCase(
            name: "Expires: 0 is in the past", section: "RFC 9111 §5.3",
            stored: tagged(["Expires": "0", "Last-Modified": ago(100_000)]),
            expected: .network(conditionalHeaders: ["If-None-Match": "\"v1\"", "If-Modified-Since": ago(100_000)])),
        DecisionCase(
            name: "Expires: -1 is in the past", section: "RFC 9111 §5.3",
            stored: stored(["Expires": "-1"]), expected: unconditional),
        DecisionCase(
            name: "max-age wins over Expires", section: "RFC 9111 §5.3",
            stored: stored(["Cache-Control": "max-age=3600", "Expires": ago(1000)]), expected: fresh),
        DecisionCase(
            name: "max-age=0", section: "RFC 9111 §5.2.2.1",
            stored: tagged(["Cache-Control": "max-age=0"]), expected: ifNoneMatch),
        DecisionCase(
            name: "non-numeric max-age is stale, Expires ignored", section: "RFC 9111 §4.2.1",
            stored: tagged(["Cache-Control": "max-age=soon", "Expires": ago(-3600)]), expected: ifNoneMatch),
        DecisionCase(
            name: "negative max-age is stale", section: "RFC 9111 §4.2.1",
            stored: tagged(["Cache-Control": "max-age=-5"]), expected: ifNoneMatch),
        DecisionCase(
            name: "duplicate max-age: most restrictive", section: "RFC 9111 §4.2.1",
            stored: tagged(["Cache-Control": "max-age=3600, max-age=10"]), expected: ifNoneMatch),
        DecisionCase(
            name: "s-maxage ignored by a private cache", section: "RFC 9111 §5.2.2.10",
            stored: tagged(["Cache-Control": "s-maxage=3600"]), expected: ifNoneMatch),

        // Heuristic freshness.
        DecisionCase(
            name: "heuristic: 10% of Date - Last-Modified", section: "RFC 9111 §4.2.2",
            stored: stored(["Date": ago(100), "Last-Modified": ago(5100)]), expected: fresh),
        DecisionCase(
            name: "heuristic lifetime exceeded", section: "RFC 9111 §4.2.2",
            stored: stored(["Date": ago(100), "Last-Modified": ago(600)]),
            expected: .network(conditionalHeaders: ["If-Modified-Since": ago(600)])),
        DecisionCase(
            name: "heuristic capped at a day", section: "RFC 9111 §4.2.2",
            stored: Stored(headers: ["Last-Modified": ago(31_536_000)], requestedAgo: 90_000, receivedAgo: 90_000),
            expected: .network(conditionalHeaders: ["If-Modified-Since": ago(31_536_000)])),
        DecisionCase(
            name: "heuristic under the cap", section: "RFC 9111 §4.2.2",
            stored: Stored(headers: ["Last-Modified": ago(31_536_000)], requestedAgo: 80_000, receivedAgo: 80_000),
            expected: .cached(age: 80_000, stale: false)),
        DecisionCase(
            name: "no Last-Modified, no heuristic", section: "RFC 9111 §4.2.2",
            stored: stored(["Date": ago(100)]), expected: unconditional),
        DecisionCase(
            name: "302 is not heuristically cacheable", section: "RFC 9110 §15.1",
            stored: stored(["Cache-Control": "private", "Last-Modified": ago(100_000)], status: 302),
            expected: .network(conditionalHeaders: ["If-Modified-Since": ago(100_000)])),
        DecisionCase(
            name: "public allows the heuristic for 302", section: "RFC 9111 §4.2.2",
            stored: stored(["Cache-Control": "public", "Last-Modified": ago(100_000)], status: 302), expected: fresh),
        DecisionCase(
            name: "404 is heuristically cacheable", section: "RFC 9110 §15.1",
            stored: stored(["Last-Modified": ago(100_000)], status: 404), expected: fresh),
        DecisionCase(
            name: "no heuristic with an explicit (invalid) Expires", section: "RFC 9111 §4.2.2",
            stored: stored(["Expires": "never", "Last-Modified": ago(100_000)]),
            expected: .network(conditionalHeaders: ["If-Modified-Since": ago(100_000)])),
        DecisionCase(
            name: "Last-Modified after Date", section: "RFC 9111 §4.2.2",
            stored: stored(["Date": ago(100), "Last-Modified": ago(-500)]),
            expected: .network(conditionalHeaders: ["If-Modified-Since": ago(-500)])),

        // Vary.
        DecisionCase(
            name: "Vary: nominated fields match", section: "RFC 9111 §4.1",
            stored: Stored(
                headers: ["Cache-Control": "max-age=3600", "Vary": "Accept-Language"],
                requestHeaders: ["Accept-Language": "en"]),
            request: ["Accept-Language": "en"], expected: fresh),
        DecisionCase(
            name: "Vary: nominated field differs", section: "RFC 9111 §4.1",
            stored: Stored(
                headers: ["Cache-Control": "max-age=3600", "Vary": "Accept-Language", "ETag": "\"v1\""],
                requestHeaders: ["Accept-Language": "en"]),
            request: ["Accept-Language": "fr"], expected: unconditional),
        DecisionCase(
            name: "Vary: field absent from both requests", section: "RFC 9111 §4.1",
            stored: stored(["Cache-Control": "max-age=3600", "Vary": "Accept-Language"]), expected: fresh),
        DecisionCase(
            name: "Vary: field absent from the new request only", section: "RFC 9111 §4.1",
            stored: Stored(
                headers: ["Cache-Control": "max-age=3600", "Vary": "Accept-Language"],
                requestHeaders: ["Accept-Language": "en"]),
            expected: unconditional),
        DecisionCase(
            name: "Vary: field absent from the stored request only", section: "RFC 9111 §4.1",
            stored: stored(["Cache-Control": "max-age=3600", "Vary": "Accept-Language"]),
            request: ["Accept-Language": "en"], expected: unconditional),
        DecisionCase(
            name: "Vary: * never matches", section: "RFC 9111 §4.1",
            stored: stored(["Cache-Control": "max-age=3600", "Vary": "*"]), expected: unconditional),
        DecisionCase(
            name: "Vary: whitespace and field lines normalised", section: "RFC 9111 §4.1",
            stored: Stored(
                headers: ["Cache-Control": "max-age=3600", "Vary": "accept-encoding"],
                requestHeaders: ["Accept-Encoding": " gzip,deflate "]),
            request: HTTPHeaders([
                .init(name: "accept-encoding", value: "gzip"), .init(name: "Accept-Encoding", value: "deflate"),
            ]),
            expected: fresh),
        DecisionCase(
            name: "Vary: one of several fields differs", section: "RFC 9111 §4.1",
            stored: Stored(
                headers: ["Cache-Control": "max-age=3600", "Vary": "Accept, Accept-Language"],
                requestHeaders: ["Accept": "application/json", "Accept-Language": "en"]),
            request: ["Accept": "application/json", "Accept-Language": "de"], expected: unconditional),

        // Request directives.
        DecisionCase(
            name: "request max-age below the age", section: "RFC 9111 §5.2.1.1",
            stored: tagged(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "max-age=50"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "request max-age above the age", section: "RFC 9111 §5.2.1.1",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "max-age=200"],
            expected: fresh),
        DecisionCase(
            name: "request max-age=0", section: "RFC 9111 §5.2.1.1",
            stored: tagged(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "max-age=0"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "min-fresh satisfied", section: "RFC 9111 §5.2.1.3",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "min-fresh=3000"],
            expected: fresh),
        DecisionCase(
            name: "min-fresh not satisfied", section: "RFC 9111 §5.2.1.3",
            stored: tagged(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "min-fresh=3500"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "max-stale covers the staleness", section: "RFC 9111 §5.2.1.2",
            stored: stored(["Cache-Control": "max-age=60"]), request: ["Cache-Control": "max-stale=40"],
            expected: .cached(age: 100, stale: true)),
        DecisionCase(
            name: "max-stale too small", section: "RFC 9111 §5.2.1.2",
            stored: tagged(["Cache-Control": "max-age=60"]), request: ["Cache-Control": "max-stale=39"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "max-stale without a value", section: "RFC 9111 §5.2.1.2",
            stored: Stored(headers: ["Cache-Control": "max-age=60"], requestedAgo: 999_999, receivedAgo: 999_999),
            request: ["Cache-Control": "max-stale"], expected: .cached(age: 999_999, stale: true)),
        DecisionCase(
            name: "max-stale with an invalid value accepts nothing", section: "RFC 9111 §5.2.1.2",
            stored: tagged(["Cache-Control": "max-age=60"]), request: ["Cache-Control": "max-stale=lots"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "max-stale and min-fresh", section: "RFC 9111 §5.2.1.2",
            stored: tagged(["Cache-Control": "max-age=60"]), request: ["Cache-Control": "max-stale=50, min-fresh=20"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "max-stale does not beat must-revalidate", section: "RFC 9111 §5.2.2.2",
            stored: tagged(["Cache-Control": "max-age=60, must-revalidate"]), request: ["Cache-Control": "max-stale"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "proxy-revalidate binds shared caches only", section: "RFC 9111 §5.2.2.8",
            stored: stored(["Cache-Control": "max-age=60, proxy-revalidate"]), request: ["Cache-Control": "max-stale"],
            expected: .cached(age: 100, stale: true)),
        DecisionCase(
            name: "request no-cache validates a fresh response", section: "RFC 9111 §5.2.1.4",
            stored: tagged(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "no-cache"],
            expected: ifNoneMatch),
        DecisionCase(
            name: "Pragma: no-cache without Cache-Control", section: "RFC 7234 §5.4 (RFC 9111 §5.4 deprecates it)",
            stored: tagged(["Cache-Control": "max-age=3600"]), request: ["Pragma": "no-cache"], expected: ifNoneMatch),
        DecisionCase(
            name: "Pragma ignored beside Cache-Control", section: "RFC 7234 §5.4 (RFC 9111 §5.4 deprecates it)",
            stored: stored(["Cache-Control": "max-age=3600"]),
            request: ["Pragma": "no-cache", "Cache-Control": "max-age=500"], expected: fresh),
        DecisionCase(
            name: "only-if-cached, fresh", section: "RFC 9111 §5.2.1.7",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "only-if-cached"],
            expected: fresh),
        DecisionCase(
            name: "only-if-cached, stale", section: "RFC 9111 §5.2.1.7",
            stored: tagged(["Cache-Control": "max-age=60"]), request: ["Cache-Control": "only-if-cached"],
            expected: .unsatisfiable),
        DecisionCase(
            name: "only-if-cached, nothing stored", section: "RFC 9111 §5.2.1.7", stored: nil,
            request: ["Cache-Control": "only-if-cached"], expected: .unsatisfiable),
        DecisionCase(
            name: "only-if-cached with max-stale", section: "RFC 9111 §5.2.1.7",
            stored: stored(["Cache-Control": "max-age=60"]), request: ["Cache-Control": "only-if-cached, max-stale"],
            expected: .cached(age: 100, stale: true)),
        DecisionCase(
            name: "only-if-cached and no-cache", section: "RFC 9111 §5.2.1.7",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Cache-Control": "only-if-cached, no-cache"],
            expected: .unsatisfiable),
        DecisionCase(
            name: "the caller's own precondition goes through", section: "RFC 9111 §4.3.2",
            stored: tagged(["Cache-Control": "max-age=3600"]), request: ["If-None-Match": "\"v0\""],
            expected: unconditional),
        DecisionCase(
            name: "one byte range is served (RangeServing cuts it)", section: "RFC 9110 §14.2",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Range": "bytes=0-10"],
            expected: .cached(age: 100, stale: false)),
        DecisionCase(
            name: "several byte ranges go to the server", section: "RFC 9110 §14.2",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Range": "bytes=0-10,20-30"],
            expected: unconditional),
        DecisionCase(
            name: "a range unit the cache does not know goes to the server", section: "RFC 9110 §14.2",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Range": "items=0-10"],
            expected: unconditional),
        DecisionCase(
            name: "an invalid Range is ignored", section: "RFC 9110 §14.2",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Range": "bytes=10-0"],
            expected: .cached(age: 100, stale: false)),
        DecisionCase(
            name: "If-Range is evaluated by the cache, not forwarded as a precondition", section: "RFC 9110 §13.1.5",
            stored: stored(["Cache-Control": "max-age=3600"]), request: ["Range": "bytes=0-10", "If-Range": "\"v1\""],
            expected: .cached(age: 100, stale: false)),
        DecisionCase(
            name: "POST is not served from the cache", section: "RFC 9111 §4",
            stored: stored(["Cache-Control": "max-age=3600"]), method: .post, expected: unconditional),
        DecisionCase(
            name: "HEAD is not served from a GET response", section: "RFC 9111 §4.3.5",
            stored: stored(["Cache-Control": "max-age=3600"]), method: .head, expected: unconditional),
        DecisionCase(
            name: "nothing stored", section: "RFC 9111 §4", stored: nil, expected: unconditional),
        DecisionCase(
            name: "entry of another URI", section: "RFC 9111 §4",
            stored: stored(["Cache-Control": "max-age=3600"]),
            url: URL(string: "https://api.example.com/v1/items?page=2")!, expected: unconditional),
        DecisionCase(
            name: "URI compared after normalisation", section: "RFC 9110 §4.2.3",
            stored: stored(["Cache-Control": "max-age=3600"]),
            url: URL(string: "HTTPS://API.Example.com:443/v1/items?page=1#top")!, expected: fresh),

        // Response directives.
        DecisionCase(
            name: "response no-cache validates a fresh response", section: "RFC 9111 §5.2.2.4",
            stored: tagged(["Cache-Control": "max-age=3600, no-cache"]), expected: ifNoneMatch),
        DecisionCase(
            name: "qualified no-cache serves the rest", section: "RFC 9111 §5.2.2.4",
            stored: stored(["Cache-Control": "max-age=3600, no-cache=\"Set-Cookie\""]), expected: fresh),
        DecisionCase(
            name: "must-revalidate, fresh", section: "RFC 9111 §5.2.2.2",
            stored: stored(["Cache-Control": "max-age=3600, must-revalidate"]), expected: fresh),
        DecisionCase(
            name: "must-revalidate, stale", section: "RFC 9111 §5.2.2.2",
            stored: tagged(["Cache-Control": "max-age=60, must-revalidate"]), expected: ifNoneMatch),
        DecisionCase(
            name: "private: a private cache serves it", section: "RFC 9111 §5.2.2.7",
            stored: stored(["Cache-Control": "private, max-age=3600"]), expected: fresh),
        DecisionCase(
            name: "immutable, fresh", section: "RFC 8246 §2",
            stored: stored(["Cache-Control": "max-age=3600, immutable"]), expected: fresh),

        // Per-call policies.
        DecisionCase(
            name: "maxAge serves despite no-cache", section: "out-of-band (RFC 9111 §4.2.4)",
            stored: stored(["Cache-Control": "no-cache"]), policy: .maxAge(300), expected: fresh),
        DecisionCase(
            name: "maxAge serves without freshness information", section: "out-of-band (RFC 9111 §4.2.4)",
            stored: stored([:]), policy: .maxAge(300), expected: fresh),
        DecisionCase(
            name: "maxAge despite must-revalidate and max-age=0", section: "out-of-band (RFC 9111 §4.2.4)",
            stored: stored(["Cache-Control": "max-age=0, must-revalidate"]), policy: .maxAge(300), expected: fresh),
        DecisionCase(
            name: "maxAge counts from reception, reports the full age", section: "RFC 9111 §5.1",
            stored: stored(["Age": "1000"]), policy: .maxAge(300), expected: .cached(age: 1100, stale: false)),
        DecisionCase(
            name: "maxAge elapsed", section: "RFC 9111 §4.3.1",
            stored: tagged(["Cache-Control": "max-age=3600"]), policy: .maxAge(50), expected: ifNoneMatch),
        DecisionCase(
            name: "maxAge and request no-cache", section: "RFC 9111 §5.2.1.4",
            stored: tagged([:]), request: ["Cache-Control": "no-cache"], policy: .maxAge(300), expected: ifNoneMatch),
        DecisionCase(
            name: "disabled ignores a fresh entry", section: "policy",
            stored: stored(["Cache-Control": "max-age=3600"]), policy: .disabled, expected: unconditional),
        DecisionCase(
            name: "disabled ignores only-if-cached", section: "policy", stored: nil,
            request: ["Cache-Control": "only-if-cached"], policy: .disabled, expected: unconditional),
        DecisionCase(
            name: "forceNetwork: no validators", section: "policy",
            stored: tagged(["Cache-Control": "max-age=3600"]), policy: .forceNetwork, expected: unconditional),
        DecisionCase(
            name: "forceCache serves stale", section: "RFC 9111 §5.2.1.7",
            stored: Stored(headers: ["Cache-Control": "max-age=60"], requestedAgo: 86_400, receivedAgo: 86_400),
            policy: .forceCache, expected: .cached(age: 86_400, stale: true)),
        DecisionCase(
            name: "forceCache, nothing stored", section: "RFC 9111 §5.2.1.7", stored: nil, policy: .forceCache,
            expected: .unsatisfiable),
        DecisionCase(
            name: "forceCache, must-revalidate and stale", section: "RFC 9111 §5.2.2.2",
            stored: stored(["Cache-Control": "max-age=60, must-revalidate"]), policy: .forceCache,
            expected: .unsatisfiable),
        DecisionCase(
            name: "forceCache, no-cache response", section: "RFC 9111 §5.2.2.4",
            stored: stored(["Cache-Control": "max-age=3600, no-cache"]), policy: .forceCache,
            expected: .unsatisfiable),
        DecisionCase(
            name: "maxStale covers the staleness", section: "RFC 9111 §5.2.1.2",
            stored: stored(["Cache-Control": "max-age=60"]), policy: .maxStale(60),
            expected: .cached(age: 100, stale: true)),
        DecisionCase(
            name: "maxStale too small", section: "RFC 9111 §5.2.1.2",
            stored: tagged(["Cache-Control": "max-age=60"]), policy: .maxStale(10), expected: ifNoneMatch),
        DecisionCase(
            name: "maxStale and a larger request max-stale", section: "RFC 9111 §5.2.1.2",
            stored: stored(["Cache-Control": "max-age=60"]), request: ["Cache-Control": "max-stale=50"],
            policy: .maxStale(10), expected: .cached(age: 100, stale: true)),
        DecisionCase(
            name: "offlineFallback validates a stale response while online", section: "RFC 9111 §4.2.4",
            stored: tagged(["Cache-Control": "max-age=60"]), policy: .offlineFallback, expected: ifNoneMatch),
        DecisionCase(
            name: "offlineFallback serves a fresh response", section: "RFC 9111 §4.2",
            stored: stored(["Cache-Control": "max-age=3600"]), policy: .offlineFallback, expected: fresh),
    ]

    func testDecisionTable() {
        XCTAssertGreaterThanOrEqual(Self.decisionCases.count, 60)
        for row in Self.decisionCases {
            let request = CacheRequest(method: row.method, url: row.url, headers: row.request, policy: row.policy)
            let decision = CacheRules.decide(request: request, entry: row.stored?.entry, now: Self.now)
            XCTAssertEqual(decision, row.expected, "\(row.name) [\(row.section)]")
        }
    }

    // MARK: - Serving stale responses after a failure

    struct FailureCase {
        var name: String
        var section: String
        var stored: Stored? = Stored(headers: ["Cache-Control": "max-age=60"])
        var request: HTTPHeaders = [:]
        var policy: CachePolicy = .automatic
        var failure: CacheFailure = .unreachable
        var expected: CacheDecision?
    }

    static let staleBy40 = CacheDecision.cached(age: 100, stale: true)

    static let failureCases: [FailureCase] = [
        FailureCase(
            name: "offline fallback, unreachable", section: "RFC 9111 §4.2.4", policy: .offlineFallback,
            expected: staleBy40),
        FailureCase(
            name: "offline fallback, server error", section: "RFC 9111 §4.2.4", policy: .offlineFallback,
            failure: .status(503), expected: nil),
        FailureCase(
            name: "automatic, no stale-if-error", section: "RFC 9111 §4.2.4", expected: nil),
        FailureCase(
            name: "stale-if-error, unreachable", section: "RFC 5861 §4",
            stored: stored(["Cache-Control": "max-age=60, stale-if-error=300"]), expected: staleBy40),
        FailureCase(
            name: "stale-if-error, 500", section: "RFC 5861 §4",
            stored: stored(["Cache-Control": "max-age=60, stale-if-error=300"]), failure: .status(500),
            expected: staleBy40),
        FailureCase(
            name: "stale-if-error, 404 is no error", section: "RFC 5861 §4",
            stored: stored(["Cache-Control": "max-age=60, stale-if-error=300"]), failure: .status(404),
            expected: nil),
        FailureCase(
            name: "stale-if-error too small", section: "RFC 5861 §4",
            stored: stored(["Cache-Control": "max-age=60, stale-if-error=30"]), expected: nil),
        FailureCase(
            name: "request stale-if-error", section: "RFC 5861 §4", request: ["Cache-Control": "stale-if-error=40"],
            failure: .status(502), expected: staleBy40),
        FailureCase(
            name: "must-revalidate forbids the fallback", section: "RFC 9111 §5.2.2.2",
            stored: stored(["Cache-Control": "max-age=60, must-revalidate, stale-if-error=300"]),
            policy: .offlineFallback, expected: nil),
        FailureCase(
            name: "no-cache response forbids the fallback", section: "RFC 9111 §4.2.4",
            stored: stored(["Cache-Control": "no-cache"]), policy: .offlineFallback, expected: nil),
        FailureCase(
            name: "request no-cache forbids the fallback", section: "RFC 9111 §5.2.1.4",
            request: ["Cache-Control": "no-cache"], policy: .offlineFallback, expected: nil),
        FailureCase(
            name: "disabled", section: "policy", policy: .disabled, expected: nil),
        FailureCase(
            name: "nothing stored", section: "RFC 9111 §4", stored: nil, policy: .offlineFallback, expected: nil),
        FailureCase(
            name: "maxAge lifetime in the fallback", section: "RFC 5861 §4",
            stored: stored(["Cache-Control": "no-cache, stale-if-error=10"]), policy: .maxAge(95),
            expected: .cached(age: 100, stale: true)),
    ]

    func testFailureFallbackTable() {
        for row in Self.failureCases {
            let request = CacheRequest(url: Self.url, headers: row.request, policy: row.policy)
            let decision = CacheRules.decideAfterFailure(
                row.failure, request: request, entry: row.stored?.entry, now: Self.now)
            XCTAssertEqual(decision, row.expected, "\(row.name) [\(row.section)]")
        }
    }

    // MARK: - Freshness numbers

    func testFreshnessLifetimeAndAge() {
        let entry = Stored(
            headers: ["Date": Self.ago(150), "Expires": Self.ago(-850), "Age": "20"], requestedAgo: 110,
            receivedAgo: 100
        ).entry
        XCTAssertEqual(CacheRules.freshnessLifetime(of: entry), 1000)
        // apparent 50, corrected 20 + 10 = 30: initial age 50, resident 100.
        XCTAssertEqual(CacheRules.currentAge(of: entry, now: Self.now), 150)
        let heuristic = Stored(headers: ["Date": Self.ago(100), "Last-Modified": Self.ago(10_100)]).entry
        XCTAssertEqual(CacheRules.freshnessLifetime(of: heuristic), 1000, accuracy: 1e-6)
        let twoExpires = Stored(headers: ["Date": Self.ago(100), "Expires": Self.ago(-900)]).entry
        var headers = twoExpires.responseHeaders
        headers = HTTPHeaders(headers.fields + [.init(name: "Expires", value: Self.ago(-400))])
        XCTAssertEqual(CacheRules.freshnessLifetime(of: Stored(headers: headers).entry), 500)
        headers = HTTPHeaders(headers.fields + [.init(name: "Expires", value: "0")])
        XCTAssertEqual(CacheRules.freshnessLifetime(of: Stored(headers: headers).entry), 0)
        let clockBack = Stored(headers: ["Cache-Control": "max-age=60"], receivedAgo: -30).entry
        XCTAssertEqual(CacheRules.currentAge(of: clockBack, now: Self.now), 130)  // 130 s delay, no resident time
    }

    func testAgeFieldValue() {
        XCTAssertEqual(CacheRules.ageFieldValue(100.9), "100")
        XCTAssertEqual(CacheRules.ageFieldValue(-5), "0")
        XCTAssertEqual(CacheRules.ageFieldValue(1e12), "2147483648")
        XCTAssertEqual(CacheRules.ageFieldValue(.infinity), "2147483648")
        XCTAssertEqual(CacheRules.ageFieldValue(.nan), "0")
    }

    // MARK: - Storability

    struct StorabilityCase {
        var name: String
        var section: String
        var method: HTTPMethod = .get
        var request: HTTPHeaders = [:]
        var status = 200
        var response: HTTPHeaders = [:]
        var expected: Bool
    }

    static let storabilityCases: [StorabilityCase] = [
        StorabilityCase(name: "200 without directives", section: "RFC 9111 §3", expected: true),
        StorabilityCase(
            name: "POST", section: "RFC 9111 §3", method: .post, response: ["Cache-Control": "max-age=60"],
            expected: false),
        StorabilityCase(name: "HEAD", section: "RFC 9111 §4.3.5", method: .head, expected: false),
        StorabilityCase(
            name: "response no-store", section: "RFC 9111 §5.2.2.5",
            response: ["Cache-Control": "max-age=60, no-store"],
            expected: false),
        StorabilityCase(
            name: "request no-store", section: "RFC 9111 §5.2.1.5", request: ["Cache-Control": "no-store"],
            expected: false),
        StorabilityCase(
            name: "must-understand overrides no-store", section: "RFC 9111 §5.2.2.3",
            response: ["Cache-Control": "no-store, must-understand, max-age=60"], expected: true),
        StorabilityCase(
            name: "private", section: "RFC 9111 §5.2.2.7", response: ["Cache-Control": "private"], expected: true),
        StorabilityCase(
            name: "request with Authorization", section: "RFC 9111 §3.5", request: ["Authorization": "Bearer t"],
            response: ["Cache-Control": "max-age=60"], expected: true),
        StorabilityCase(
            name: "Vary: *", section: "RFC 9111 §4.1", response: ["Cache-Control": "max-age=60", "Vary": "*"],
            expected: false),
        StorabilityCase(
            name: "206 not stored", section: "RFC 9111 §3.3", status: 206, response: ["Cache-Control": "max-age=60"],
            expected: false),
        StorabilityCase(name: "304 not stored", section: "RFC 9111 §4.3.3", status: 304, expected: false),
        StorabilityCase(name: "1xx not final", section: "RFC 9111 §3", status: 103, expected: false),
        StorabilityCase(name: "unknown status", section: "RFC 9111 §3", status: 299, expected: false),
        StorabilityCase(name: "404 heuristically cacheable", section: "RFC 9110 §15.1", status: 404, expected: true),
        StorabilityCase(name: "410 heuristically cacheable", section: "RFC 9110 §15.1", status: 410, expected: true),
        StorabilityCase(name: "201 without freshness", section: "RFC 9111 §3", status: 201, expected: false),
        StorabilityCase(
            name: "201 with max-age", section: "RFC 9111 §3", status: 201, response: ["Cache-Control": "max-age=60"],
            expected: true),
        StorabilityCase(
            name: "302 with Expires", section: "RFC 9111 §3", status: 302, response: ["Expires": "0"], expected: true),
        StorabilityCase(
            name: "500 with public", section: "RFC 9111 §3", status: 500, response: ["Cache-Control": "public"],
            expected: true),
        StorabilityCase(name: "503 without freshness", section: "RFC 9111 §3", status: 503, expected: false),
        StorabilityCase(
            name: "no-cache is storable", section: "RFC 9111 §5.2.2.4", response: ["Cache-Control": "no-cache"],
            expected: true),
        StorabilityCase(
            name: "s-maxage alone does not make 201 storable", section: "RFC 9111 §3", status: 201,
            response: ["Cache-Control": "s-maxage=60"], expected: false),
    ]

    func testStorabilityTable() {
        for row in Self.storabilityCases {
            let storable = CacheRules.isStorable(
                method: row.method, requestHeaders: row.request, status: row.status, responseHeaders: row.response)
            XCTAssertEqual(storable, row.expected, "\(row.name) [\(row.section)]")
        }
    }

    func testHeadersToStoreDropsHopByHopAndConnectionFields() {
        let received: HTTPHeaders = [
            "Content-Type": "application/json", "Connection": "keep-alive, X-Trace", "Keep-Alive": "timeout=5",
            "X-Trace": "abc", "Transfer-Encoding": "chunked", "TE": "trailers", "Upgrade": "h2c",
            "Proxy-Connection": "keep-alive", "Proxy-Authenticate": "Basic", "proxy-authentication-info": "x",
            "Proxy-Authorization": "Basic Zm9v", "ETag": "\"v1\"", "Age": "3", "Set-Cookie": "a=1",
        ]
        let stored = CacheRules.headersToStore(received)
        XCTAssertEqual(stored.fields.map(\.name), ["Content-Type", "ETag", "Age", "Set-Cookie"])
        XCTAssertEqual(CacheRules.headersToStore(["connection": "close", "Date": "x"]).fields.map(\.name), ["Date"])
    }

    // MARK: - Validation and 304

    func testMerge304ReplacesFieldsButKeepsContentLengthAndConnectionFields() {
        let stored = HTTPHeaders([
            .init(name: "Content-Type", value: "application/json"), .init(name: "Content-Length", value: "120"),
            .init(name: "Content-Encoding", value: "gzip"), .init(name: "ETag", value: "\"v1\""),
            .init(name: "Cache-Control", value: "max-age=60"), .init(name: "Link", value: "<a>"),
            .init(name: "Link", value: "<b>"), .init(name: "Date", value: Self.ago(1000)),
        ])
        let fresh = HTTPHeaders([
            .init(name: "date", value: Self.ago(0)), .init(name: "Cache-Control", value: "max-age=600"),
            .init(name: "Content-Length", value: "0"), .init(name: "Content-Encoding", value: "br"),
            .init(name: "Connection", value: "X-Hop"), .init(name: "X-Hop", value: "1"),
            .init(name: "Link", value: "<c>"), .init(name: "X-New", value: "n"), .init(name: "Keep-Alive", value: "5"),
        ])
        let merged = CacheRules.merge304(stored: stored, fresh: fresh)
        XCTAssertEqual(
            merged.fields.map { "\($0.name): \($0.value)" },
            [
                "Content-Type: application/json", "Content-Length: 120", "Content-Encoding: gzip", "ETag: \"v1\"",
                "date: \(Self.ago(0))", "Cache-Control: max-age=600", "Link: <c>", "X-New: n",
            ])
    }

    func testFreshenedEntryTakesTheValidationTimes() {
        let entry = Stored(
            headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "Vary": "Accept"],
            requestHeaders: ["Accept": "text/plain"]
        ).entry
        let freshened = entry.freshened(
            with304Headers: ["Cache-Control": "max-age=600", "Date": Self.ago(10)],
            requestHeaders: ["Accept": "text/plain"], requestTime: Self.now - 11, responseTime: Self.now - 10)
        XCTAssertEqual(freshened.responseTime, Self.now - 10)
        XCTAssertEqual(freshened.varyingRequestHeaders, ["accept": "text/plain"])
        XCTAssertEqual(freshened.responseHeaders["ETag"], "\"v1\"")
        let request = CacheRequest(url: Self.url, headers: ["Accept": "text/plain"])
        XCTAssertEqual(
            CacheRules.decide(request: request, entry: freshened, now: Self.now), .cached(age: 11, stale: false))
    }

    func testNotModifiedSelection() {
        let entry = Stored(headers: ["ETag": "\"v1\"", "Last-Modified": Self.ago(5000)]).entry
        XCTAssertTrue(CacheRules.notModifiedFreshens(entry, notModifiedHeaders: ["ETag": "\"v1\""]))
        XCTAssertTrue(CacheRules.notModifiedFreshens(entry, notModifiedHeaders: ["ETag": "W/\"v1\""]))
        XCTAssertFalse(CacheRules.notModifiedFreshens(entry, notModifiedHeaders: ["ETag": "\"v2\""]))
        XCTAssertTrue(CacheRules.notModifiedFreshens(entry, notModifiedHeaders: ["Last-Modified": Self.ago(5000)]))
        XCTAssertFalse(CacheRules.notModifiedFreshens(entry, notModifiedHeaders: ["Last-Modified": Self.ago(10)]))
        XCTAssertTrue(CacheRules.notModifiedFreshens(entry, notModifiedHeaders: ["Date": Self.ago(0)]))
        let untagged = Stored(headers: ["Last-Modified": Self.ago(5000)]).entry
        XCTAssertFalse(CacheRules.notModifiedFreshens(untagged, notModifiedHeaders: ["ETag": "\"v1\""]))
    }

    func testHeadResponseFreshening() {
        let entry = Stored(headers: ["ETag": "\"v1\"", "Content-Length": "12"]).entry
        XCTAssertTrue(
            CacheRules.headResponseFreshens(entry, headResponseHeaders: ["ETag": "\"v1\"", "Content-Length": "12"]))
        XCTAssertTrue(CacheRules.headResponseFreshens(entry, headResponseHeaders: ["Cache-Control": "max-age=60"]))
        XCTAssertFalse(CacheRules.headResponseFreshens(entry, headResponseHeaders: ["ETag": "\"v2\""]))
        XCTAssertFalse(CacheRules.headResponseFreshens(entry, headResponseHeaders: ["Content-Length": "13"]))
        XCTAssertFalse(CacheRules.headResponseFreshens(entry, headResponseHeaders: ["Last-Modified": Self.ago(1)]))
    }

    func testHeadersForCachedResponseWithholdsNoCacheFieldsAndSetsAge() {
        let entry = Stored(headers: [
            "Cache-Control": "max-age=60, no-cache=\"Set-Cookie, X-Session\"", "Set-Cookie": "a=1", "x-session": "s",
            "Age": "5", "ETag": "\"v1\"",
        ]).entry
        let served = CacheRules.headersForCachedResponse(entry, age: 105.7)
        XCTAssertEqual(served.fields.map(\.name), ["Cache-Control", "Age", "ETag"])
        XCTAssertEqual(served["Age"], "105")
    }

    // MARK: - Invalidation

    func testInvalidation() {
        let target = URL(string: "https://api.example.com/v1/items")!
        let uris = CacheRules.urisToInvalidate(
            requestURL: target, method: .post, status: 201,
            responseHeaders: ["Location": "/v1/items/7", "Content-Location": "https://API.example.com:443/v1/items/7"])
        XCTAssertEqual(
            uris.map(\.absoluteString), ["https://api.example.com/v1/items", "https://api.example.com/v1/items/7"])
        let otherOrigin = CacheRules.urisToInvalidate(
            requestURL: target, method: .put, status: 200,
            responseHeaders: [
                "Location": "https://evil.example/v1/items", "Content-Location": "http://api.example.com/v1/x",
            ])
        XCTAssertEqual(otherOrigin, [target])
        let otherPort = CacheRules.urisToInvalidate(
            requestURL: target, method: .delete, status: 204,
            responseHeaders: ["Location": "https://api.example.com:8443/v1/items/7"])
        XCTAssertEqual(otherPort, [target])
        let relative = CacheRules.urisToInvalidate(
            requestURL: target, method: .patch, status: 303, responseHeaders: ["Location": "items/9"])
        XCTAssertEqual(relative.map(\.absoluteString).last, "https://api.example.com/v1/items/9")
        XCTAssertEqual(
            CacheRules.urisToInvalidate(requestURL: target, method: "PROPFIND", status: 207, responseHeaders: [:]),
            [target])
        XCTAssertEqual(
            CacheRules.urisToInvalidate(requestURL: target, method: "get", status: 200, responseHeaders: [:]), [target])
        XCTAssertEqual(
            CacheRules.urisToInvalidate(requestURL: target, method: .get, status: 200, responseHeaders: [:]), [])
        XCTAssertEqual(
            CacheRules.urisToInvalidate(requestURL: target, method: .options, status: 200, responseHeaders: [:]), [])
        XCTAssertEqual(
            CacheRules.urisToInvalidate(requestURL: target, method: .post, status: 500, responseHeaders: [:]), [])
        XCTAssertEqual(
            CacheRules.urisToInvalidate(requestURL: target, method: .post, status: 404, responseHeaders: [:]), [])
    }

    func testCacheKey() {
        XCTAssertEqual(
            CacheRules.cacheKey(for: URL(string: "HTTP://Example.COM:80#frag")!), "http://example.com/")
        XCTAssertEqual(
            CacheRules.cacheKey(for: URL(string: "https://example.com:8443/a?b=1")!), "https://example.com:8443/a?b=1")
        XCTAssertNotEqual(
            CacheRules.cacheKey(for: URL(string: "https://example.com/a?b=1")!),
            CacheRules.cacheKey(for: URL(string: "https://example.com/a?b=2")!))
    }

    /// The quick check that keeps a URL's text as its key agrees with the URLComponents way.
    func testCacheKeyQuickPathAgreesWithComponents() {
        let normal = [
            "http://127.0.0.1:8080/cache/3600", "https://api.example.com/v1/items?page=2&x=%2F",
            "http://example.com/", "https://ex-ample.co_uk:8443/a/b;c?d",
        ]
        let other = [
            "HTTP://Example.COM:80#frag", "https://api.example.com:443/v1/items", "https://example.com",
            "http://user:pw@example.com/a", "http://[::1]:8080/x", "http://ex%41mple.com/a", "http://example.com:080/a",
            "http://example.com?q=1", "file:///tmp/a", "http://example.com:/a", "http://example.com/a#",
            "mailto:someone@example.com", "http://EXAMPLE.com/a", "http://example.com:80/",
            "http://example.com:888888888888888888888888/a", "http://example.com:65536/a",
        ]
        for text in normal + other {
            guard let url = URL(string: text) else { continue }
            XCTAssertEqual(CacheRules.cacheKey(for: url), CacheRules.normalizedKey(for: url), text)
            if CacheRules.isNormalKey(url.absoluteString) {
                XCTAssertEqual(CacheRules.normalizedKey(for: url), url.absoluteString, text)
            }
        }
        for text in normal { XCTAssertTrue(CacheRules.isNormalKey(text), "\(text) takes the quick path") }
        XCTAssertEqual(other.filter(CacheRules.isNormalKey), [], "these take the URLComponents way")
    }

    // MARK: - Cache-Control

    func testCacheControlParser() {
        func cc(_ values: String...) -> CacheControl { CacheControl(fieldValues: values) }
        XCTAssertEqual(cc("max-age=60").maxAge, 60)
        XCTAssertEqual(cc("MAX-AGE=60").maxAge, 60, "names are case-insensitive")
        XCTAssertEqual(cc("max-age=\"60\"").maxAge, 60, "quoted arguments accepted")
        XCTAssertEqual(cc("max-age = 60").maxAge, 60, "whitespace around = tolerated")
        XCTAssertEqual(cc("max-age=-1").maxAge, 0, "negative is invalid: 0")
        XCTAssertEqual(cc("max-age=abc").maxAge, 0, "non-numeric is invalid: 0")
        XCTAssertEqual(cc("max-age=1.5").maxAge, 0, "fractions are invalid: 0")
        XCTAssertEqual(cc("max-age").maxAge, 0, "missing argument is invalid: 0")
        XCTAssertEqual(cc("max-age=").maxAge, 0, "empty argument is invalid: 0")
        XCTAssertEqual(cc("max-age=60 junk").maxAge, 0, "trailing junk is invalid: 0")
        XCTAssertEqual(cc("max-age=99999999999999999999").maxAge, 2_147_483_648, "clamped to 2^31")
        XCTAssertEqual(cc("max-age=600, max-age=60").maxAge, 60, "duplicates: the smallest")
        XCTAssertEqual(cc("max-age=600", "max-age=60").maxAge, 60, "across field lines")
        XCTAssertNil(cc("no-store").maxAge)

        let noCache = cc("no-cache=\"Set-Cookie, X-Foo\"")
        XCTAssertFalse(noCache.noCache)
        XCTAssertEqual(noCache.noCacheFieldNames, ["set-cookie", "x-foo"])
        XCTAssertEqual(cc("no-cache=Set-Cookie").noCacheFieldNames, ["set-cookie"], "token form")
        XCTAssertTrue(cc("no-cache").noCache)
        XCTAssertTrue(cc("no-cache=\"a\", no-cache").noCache, "plain wins")
        XCTAssertEqual(cc("no-cache=\"a\", no-cache").noCacheFieldNames, [])
        XCTAssertTrue(cc("no-cache=\"Set-Cookie").noCache, "unterminated quote: plain")
        XCTAssertTrue(cc("no-cache=\"\"").noCache, "empty list: plain")
        XCTAssertEqual(cc("no-cache=\"a\"", "no-cache=b").noCacheFieldNames, ["a", "b"], "lists merged")

        let privateList = cc("private=\"Authorization\"")
        XCTAssertFalse(privateList.isPrivate)
        XCTAssertEqual(privateList.privateFieldNames, ["authorization"])
        XCTAssertTrue(cc("PRIVATE").isPrivate)

        let flags = cc(
            "no-store, must-revalidate, proxy-revalidate, public, no-transform, only-if-cached, immutable, must-understand"
        )
        XCTAssertTrue(
            flags.noStore && flags.mustRevalidate && flags.proxyRevalidate && flags.isPublic && flags.noTransform
                && flags.onlyIfCached && flags.immutable && flags.mustUnderstand)

        XCTAssertEqual(cc("max-stale").maxStale, .infinity)
        XCTAssertEqual(cc("max-stale=30").maxStale, 30)
        XCTAssertEqual(cc("max-stale, max-stale=30").maxStale, 30)
        XCTAssertEqual(cc("max-stale=x").maxStale, 0)
        XCTAssertEqual(cc("min-fresh=10, min-fresh=20").minFresh, 20, "min-fresh: the largest")
        XCTAssertNil(cc("min-fresh=soon").minFresh, "invalid min-fresh ignored")
        XCTAssertEqual(cc("s-maxage=30").sharedMaxAge, 30)
        XCTAssertEqual(cc("stale-while-revalidate=30, stale-if-error=600").staleWhileRevalidate, 30)
        XCTAssertEqual(cc("stale-while-revalidate=30, stale-if-error=600").staleIfError, 600)

        let unknown = cc("community=\"UCI\", max-age=5, x-ext=\"a,b\\\"c\"")
        XCTAssertEqual(unknown.maxAge, 5)
        XCTAssertEqual(
            unknown.unknownDirectives,
            [.init(name: "community", argument: "UCI"), .init(name: "x-ext", argument: "a,b\"c")])
        XCTAssertTrue(cc("x-ext=\"max-age=0, no-store\"").directives.count == 1, "commas in quotes")
        XCTAssertFalse(cc("x-ext=\"max-age=0, no-store\"").noStore)

        let junk = cc(",, ;;; =5, \"quoted\", max-age=7,, @@, no-store ,", "\u{00e9}t\u{00e9}, \0, public")
        XCTAssertEqual(junk.maxAge, 7)
        XCTAssertTrue(junk.noStore && junk.isPublic)
        XCTAssertEqual(cc("").directives, [])
        XCTAssertEqual(cc("\"unterminated").directives, [])
        for garbage in ["=", "\"", "\\", "a=\"\\", "max-age=\"", String(repeating: "x=\"", count: 1000)] {
            _ = cc(garbage)
        }
        XCTAssertTrue(cc("max-age=60").contains("MAX-AGE"))
    }

    func testRequestPragmaMapping() {
        let pragma = CacheRequest(url: Self.url, headers: ["Pragma": "foo, No-Cache"]).cacheControl
        XCTAssertTrue(pragma.noCache)
        let both = CacheRequest(url: Self.url, headers: ["Pragma": "no-cache", "Cache-Control": "max-stale"])
        XCTAssertFalse(both.cacheControl.noCache)
    }

    // MARK: - HTTP dates

    func testHTTPDateFormats() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        let reference = Self.now
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "sun, 06 nov 1994 08:49:37 gmt", "  Sun, 06 Nov 1994 08:49:37 GMT ", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun Nov 06 08:49:37 1994", "Sunday, 06 Nov 1994 08:49:37 GMT",
        ] {
            XCTAssertEqual(HTTPDate.parse(text, relativeTo: reference), expected, text)
        }
        XCTAssertEqual(HTTPDate.format(expected), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.format(Self.now), "Sat, 01 Mar 2025 12:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(Date(timeIntervalSince1970: 0.999)), "Thu, 01 Jan 1970 00:00:00 GMT")
        XCTAssertEqual(HTTPDate.format(Date(timeIntervalSince1970: -1)), "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    func testHTTPDateYear2038AndLater() {
        let after2038 = Date(timeIntervalSince1970: 2_147_483_648)  // Tue, 19 Jan 2038 03:14:08 GMT
        XCTAssertEqual(HTTPDate.format(after2038), "Tue, 19 Jan 2038 03:14:08 GMT")
        XCTAssertEqual(HTTPDate.parse("Tue, 19 Jan 2038 03:14:08 GMT", relativeTo: Self.now), after2038)
        let farFuture = HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT", relativeTo: Self.now)
        XCTAssertEqual(farFuture, Date(timeIntervalSince1970: 253_402_300_799))
        XCTAssertEqual(
            HTTPDate.parse("Thu, 29 Feb 2052 00:00:00 GMT", relativeTo: Self.now).map(HTTPDate.format),
            "Thu, 29 Feb 2052 00:00:00 GMT")
        for seconds in stride(from: -2_000_000_000.0, through: 60_000_000_000, by: 987_654_321) {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(HTTPDate.parse(HTTPDate.format(date), relativeTo: Self.now), date, "\(seconds)")
        }
    }

    func testRFC850TwoDigitYears() {
        // Now is 2025: years up to 2075 are taken as in this century, later ones in the last.
        XCTAssertEqual(
            HTTPDate.parse("Monday, 01-Jan-75 00:00:00 GMT", relativeTo: Self.now).map(HTTPDate.format),
            "Tue, 01 Jan 2075 00:00:00 GMT")
        XCTAssertEqual(
            HTTPDate.parse("Monday, 01-Jan-76 00:00:00 GMT", relativeTo: Self.now).map(HTTPDate.format),
            "Thu, 01 Jan 1976 00:00:00 GMT")
        XCTAssertEqual(
            HTTPDate.parse("Saturday, 01-Mar-25 12:00:00 GMT", relativeTo: Self.now), Self.now)
        XCTAssertEqual(
            HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", relativeTo: Date(timeIntervalSince1970: 4_102_444_800))
                .map(HTTPDate.format),
            "Sat, 06 Nov 2094 08:49:37 GMT", "relative to 2100")
    }

    func testInvalidHTTPDates() {
        for text in [
            "", "0", "-1", "yesterday", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 PST",
            "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 29 Feb 2100 00:00:00 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT junk",
            "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sun Nov  6 08:49:37 94", "Sun Nov  6 08:49:37", "2025-03-01T12:00:00Z", "\u{00e9}, 06 Nov 1994",
            String(repeating: "Sun, ", count: 50),
        ] {
            XCTAssertNil(HTTPDate.parse(text, relativeTo: Self.now), text)
        }
        XCTAssertNotNil(HTTPDate.parse("Sun, 06 Nov 1994 23:59:60 GMT", relativeTo: Self.now), "leap second")
    }
}
