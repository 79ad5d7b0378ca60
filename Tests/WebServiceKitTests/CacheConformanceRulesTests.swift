import Foundation
import XCTest

@testable import WebServiceKit

/// The RFC 9111 rules of issue 22 (items 1–5 and 8), as pure rules at a fixed `now`; their
/// stage-level behaviour is in ``CacheConformanceStageTests`` and, against a real server, in
/// `CacheConformanceTests`.
final class CacheConformanceRulesTests: XCTestCase {
    private static let now = CacheRulesTests.now
    private static let url = CacheRulesTests.url

    /// A response received 100 s ago (request sent at the same time) with `fields`, in order.
    private static func entry(_ fields: [(String, String)], status: Int = 200) -> CacheEntry {
        CacheEntry(
            method: .get, url: url, requestHeaders: [:], status: status,
            responseHeaders: HTTPHeaders(fields.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }),
            requestTime: now - 100, responseTime: now - 100)
    }

    // MARK: - Item 1: Age (§5.1)

    func testAgeIsTheFirstMemberOfTheListAndAnInvalidOneIsIgnored() {
        let cases: [(fields: [String], expected: TimeInterval?)] = [
            (["60"], 60),
            (["0, 7200"], 0),
            (["7200, 0"], 7200),
            (["0", "7200"], 0),
            (["7200", "0"], 7200),
            ([" 60 ,5"], 60),
            ([", 60"], 60),
            (["", "60"], 60),
            ([",,"], nil),
            (["7200;foo=bar"], nil),
            (["7200;foo=bar, 60"], nil),
            (["7200;foo=bar", "60"], nil),
            (["-5"], nil),
            (["1.5"], nil),
            (["ten, 5"], nil),
            (["+5"], nil),
            (["99999999999999999999"], 2_147_483_648),
            ([], nil),
        ]
        for (values, expected) in cases {
            let headers = HTTPHeaders(values.map { HTTPHeaders.Field(name: "Age", value: $0) })
            XCTAssertEqual(CacheRules.ageValue(headers), expected, "\(values)")
        }
    }

    func testAgeListDecidesFreshness() {
        let request = CacheRequest(url: Self.url)
        func decision(_ ages: [String]) -> CacheDecision {
            let entry = Self.entry([("Cache-Control", "max-age=3600")] + ages.map { ("Age", $0) })
            return CacheRules.decide(request: request, entry: entry, now: Self.now)
        }
        XCTAssertEqual(decision(["0, 7200"]), .cached(age: 100, stale: false))
        XCTAssertEqual(decision(["0", "7200"]), .cached(age: 100, stale: false))
        XCTAssertEqual(decision(["7200, 0"]), .network(conditionalHeaders: [:]))
        XCTAssertEqual(decision(["7200;foo=bar, 7200"]), .cached(age: 100, stale: false), "the field is ignored")
        XCTAssertEqual(decision(["1000, 5"]), .cached(age: 1100, stale: false))
    }

    // MARK: - Item 2: HTTP dates and Expires (RFC 9110 §5.6.7, RFC 9111 §5.3)

    /// Sun, 06 Nov 1994 08:49:37 GMT.
    private static let november6 = Date(timeIntervalSince1970: 784_111_777)

    func testExactGrammarTakesTheThreeFormatsAsWritten() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun Nov 06 08:49:37 1994", "sun, 06 nov 1994 08:49:37 gmt", "SUNDAY, 06-NOV-94 08:49:37 GMT",
            " Sun, 06 Nov 1994 08:49:37 GMT\t", "Mon, 06 Nov 1994 08:49:37 GMT",
        ] {
            XCTAssertEqual(HTTPDate.parse(text, relativeTo: Self.now, grammar: .exact), Self.november6, text)
            XCTAssertEqual(HTTPDate.parse(text, relativeTo: Self.now), Self.november6, "lenient: \(text)")
        }
    }

    /// Values a robust reader takes (so `Date` and `Last-Modified` keep working) that the exact
    /// grammar refuses, so that such an `Expires` means "already expired".
    func testExactGrammarRefusesWhatTheLenientOneForgives() {
        for text in [
            "Sun, 06  Nov  1994 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994  08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37  GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sunday, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 6-Nov-94 08:49:37 GMT", "Sun Nov 6 08:49:37 1994",
            "Sun Nov   6 08:49:37 1994", "Sunday Nov  6 08:49:37 1994", "Sun  Nov  6 08:49:37 1994",
            "Sun Nov  6  08:49:37 1994",
        ] {
            XCTAssertNil(HTTPDate.parse(text, relativeTo: Self.now, grammar: .exact), text)
            XCTAssertEqual(HTTPDate.parse(text, relativeTo: Self.now), Self.november6, "lenient: \(text)")
        }
        for text in ["Sun, 06\tNov 1994 08:49:37 GMT", "Sun Nov  16 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC"] {
            XCTAssertNil(HTTPDate.parse(text, relativeTo: Self.now, grammar: .exact), text)
        }
    }

    func testExpiresWithDoubleSpacesIsAlreadyExpired() {
        let doubleSpaced = Self.entry([("Expires", "Thu, 18  Aug  2050 02:01:18 GMT")])
        XCTAssertEqual(CacheRules.freshnessLifetime(of: doubleSpaced), 0)
        let exact = Self.entry([("Expires", "Thu, 18 Aug 2050 02:01:18 GMT")])
        XCTAssertGreaterThan(CacheRules.freshnessLifetime(of: exact), 700_000_000)
        let asctime = Self.entry([("Expires", "Thu Aug  4 02:01:18 2050")])
        XCTAssertGreaterThan(CacheRules.freshnessLifetime(of: asctime), 700_000_000)
        // An invalid Expires is explicit expiration: no heuristic either (§4.2.2).
        let withLastModified = Self.entry([
            ("Expires", "Thu, 18  Aug  2050 02:01:18 GMT"), ("Last-Modified", HTTPDate.format(Self.now - 100_000)),
        ])
        XCTAssertEqual(CacheRules.freshnessLifetime(of: withLastModified), 0)
        // Date and Last-Modified are still read robustly.
        let lenientDate = Self.entry([("Last-Modified", "Sun, 06  Nov  1994 08:49:37 GMT")])
        XCTAssertEqual(lenientDate.date("Last-Modified"), Self.november6)
    }

    // MARK: - Item 3: storing statuses the cache does not understand (§3, §5.2.2.3)

    func testExplicitFreshnessStoresAnyFinalStatusUnlessMustUnderstand() {
        let cases: [(status: Int, response: HTTPHeaders, expected: Bool)] = [
            (299, ["Cache-Control": "max-age=60"], true),
            (499, ["Cache-Control": "max-age=60"], true),
            (599, ["Expires": "Thu, 18 Aug 2050 02:01:18 GMT"], true),
            (299, ["Cache-Control": "public"], true),
            (299, ["Cache-Control": "private"], true),
            (299, [:], false),
            (299, ["Cache-Control": "max-age=60, must-understand"], false),
            (599, ["Cache-Control": "max-age=60, must-understand, no-store"], false),
            (200, ["Cache-Control": "max-age=60, must-understand, no-store"], true),
            (404, ["Cache-Control": "must-understand"], true),
            (206, ["Cache-Control": "max-age=60"], false),
            (304, ["Cache-Control": "max-age=60"], false),
            (199, ["Cache-Control": "max-age=60"], false),
            (600, ["Cache-Control": "max-age=60"], false),
            (299, ["Cache-Control": "max-age=60, no-store"], false),
        ]
        for (status, response, expected) in cases {
            let storable = CacheRules.isStorable(
                method: .get, requestHeaders: [:], status: status, responseHeaders: response)
            XCTAssertEqual(storable, expected, "\(status) \(response)")
        }
    }

    // MARK: - Items 4 and 5: identifying a stored response by a 304 (§4.3.4)

    func testA304WithoutValidatorsIdentifiesOnlyWhatTheCacheAskedOrAValidatorlessResponse() {
        let tagged = Self.entry([("ETag", "\"v1\"")])
        let bare = Self.entry([("Cache-Control", "max-age=0")])
        let noValidators: HTTPHeaders = ["Cache-Control": "max-age=60"]
        XCTAssertTrue(CacheRules.notModifiedFreshens(tagged, notModifiedHeaders: noValidators))
        XCTAssertFalse(
            CacheRules.notModifiedFreshens(tagged, notModifiedHeaders: noValidators, answersCacheValidation: false))
        XCTAssertTrue(
            CacheRules.notModifiedFreshens(bare, notModifiedHeaders: noValidators, answersCacheValidation: false))
        XCTAssertTrue(
            CacheRules.notModifiedFreshens(
                tagged, notModifiedHeaders: ["ETag": "\"v1\""], answersCacheValidation: false))
        XCTAssertFalse(
            CacheRules.notModifiedFreshens(
                tagged, notModifiedHeaders: ["ETag": "\"v2\""], answersCacheValidation: false))
    }

    // MARK: - Item 8: request no-store (§5.2.1.5), Pragma (RFC 7234 §5.4; RFC 9111 §5.4 deprecates it)

    func testRequestNoStoreDoesNotUseTheStoredResponse() {
        let entry = Self.entry([("Cache-Control", "max-age=3600"), ("ETag", "\"v1\"")])
        let noStore = CacheRequest(url: Self.url, headers: ["Cache-Control": "no-store"])
        XCTAssertEqual(
            CacheRules.decide(request: noStore, entry: entry, now: Self.now), .network(conditionalHeaders: [:]))
        let onlyIfCached = CacheRequest(url: Self.url, headers: ["Cache-Control": "no-store, only-if-cached"])
        XCTAssertEqual(CacheRules.decide(request: onlyIfCached, entry: entry, now: Self.now), .unsatisfiable)
        let staleIfError = CacheRequest(url: Self.url, headers: ["Cache-Control": "no-store, stale-if-error=99999"])
        XCTAssertNil(CacheRules.decideAfterFailure(.unreachable, request: staleIfError, entry: entry, now: Self.now))
        let plain = CacheRequest(url: Self.url)
        XCTAssertEqual(CacheRules.decide(request: plain, entry: entry, now: Self.now), .cached(age: 100, stale: false))
    }

    func testPragmaNoCacheCountsOnlyWithoutCacheControl() {
        let entry = Self.entry([("Cache-Control", "max-age=3600"), ("ETag", "\"v1\"")])
        let validate = CacheDecision.network(conditionalHeaders: ["If-None-Match": "\"v1\""])
        for pragma in ["no-cache", "No-Cache", "x-ext, no-cache"] {
            let request = CacheRequest(url: Self.url, headers: ["Pragma": pragma])
            XCTAssertEqual(CacheRules.decide(request: request, entry: entry, now: Self.now), validate, pragma)
        }
        for pragma in ["x-no-cache", "nocache"] {
            let request = CacheRequest(url: Self.url, headers: ["Pragma": pragma])
            XCTAssertEqual(
                CacheRules.decide(request: request, entry: entry, now: Self.now), .cached(age: 100, stale: false),
                pragma)
        }
        let both = CacheRequest(url: Self.url, headers: ["Pragma": "no-cache", "Cache-Control": "max-stale=0"])
        XCTAssertEqual(CacheRules.decide(request: both, entry: entry, now: Self.now), .cached(age: 100, stale: false))
        // "the meaning of "Pragma: no-cache" in responses was never specified" (§5.4): ignored.
        let pragmaResponse = Self.entry([("Cache-Control", "max-age=3600"), ("Pragma", "no-cache")])
        XCTAssertEqual(
            CacheRules.decide(request: CacheRequest(url: Self.url), entry: pragmaResponse, now: Self.now),
            .cached(age: 100, stale: false))
    }
}
