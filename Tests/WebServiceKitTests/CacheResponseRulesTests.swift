import Foundation
import XCTest

@testable import WebServiceKit

/// The response side of the cache as pure rules (``CacheRules/outcome(of:headers:to:stored:requestTime:responseTime:)``):
/// one row per rule and per way out of it, at a fixed time. The stage carries the outcomes out;
/// `CacheConformanceTests` checks them against a real server.
final class CacheResponseRulesTests: XCTestCase {
    private static let now = CacheRulesTests.now
    private static let url = CacheRulesTests.url

    /// A stored GET answer received 100 s ago.
    private static func stored(_ fields: [String: String], method: HTTPMethod = .get) -> CacheEntry {
        CacheEntry(
            method: method, url: url, requestHeaders: [:], status: 200, responseHeaders: HTTPHeaders(fields),
            requestTime: now - 100, responseTime: now - 100)
    }

    private func outcome(
        _ status: Int, _ headers: [String: String] = [:], request: CacheRequest = CacheRequest(url: url),
        stored: CacheEntry?
    ) -> CacheResponseOutcome {
        CacheRules.outcome(
            of: status, headers: HTTPHeaders(headers), to: request, stored: stored, requestTime: Self.now - 1,
            responseTime: Self.now)
    }

    private func freshened(_ entry: CacheEntry, by headers: [String: String], request: CacheRequest) -> CacheEntry {
        entry.freshened(
            with304Headers: HTTPHeaders(headers), requestHeaders: request.headers, requestTime: Self.now - 1,
            responseTime: Self.now)
    }

    func testEachRuleAndEachWayOut() {
        let tagged = Self.stored(["ETag": "\"a\"", "Cache-Control": "max-age=60, stale-if-error=3600"])
        let plain = CacheRequest(url: Self.url)
        let own = CacheRequest(url: Self.url, headers: ["If-None-Match": "\"a\""])
        let noStore = CacheRequest(url: Self.url, headers: ["Cache-Control": "no-store"])
        let head = CacheRequest(method: .head, url: Self.url)
        let cases: [(String, CacheResponseOutcome, CacheResponseOutcome)] = [
            // 1. A 5xx the stored response may answer (RFC 5861 §4): 40 s stale, within 3,600.
            ("503, stale-if-error", outcome(503, stored: tagged), .serveStored(age: 100)),
            ("503, nothing stored", outcome(503, stored: nil), .passOn),
            (
                "501 is no failure the store answers, and is heuristically cacheable (RFC 9110 §15.1)",
                outcome(501, stored: tagged),
                .store(
                    CacheEntry(
                        method: .get, url: Self.url, requestHeaders: [:], status: 501, responseHeaders: [:],
                        requestTime: Self.now - 1, responseTime: Self.now))
            ),
            // 2. The caller's own conditional request.
            (
                "caller's 304 freshens what it names", outcome(304, ["ETag": "\"a\""], request: own, stored: tagged),
                .passOnNotModified(freshened: freshened(tagged, by: ["ETag": "\"a\""], request: own))
            ),
            (
                "caller's 304 about another tag", outcome(304, ["ETag": "\"b\""], request: own, stored: tagged),
                .passOnNotModified(freshened: nil)
            ),
            // 3. The cache's validation.
            (
                "304 names the stored one", outcome(304, ["ETag": "\"a\""], stored: tagged),
                .serveRevalidated(freshened(tagged, by: ["ETag": "\"a\""], request: plain))
            ),
            ("304 names another", outcome(304, ["ETag": "\"b\""], stored: tagged), .repeatWithoutValidators),
            ("304 after no-store", outcome(304, ["ETag": "\"a\""], request: noStore, stored: tagged), .passOn),
            ("304 to nothing stored", outcome(304, stored: nil), .passOn),
            // 4. HEAD (§4.3.5).
            (
                "HEAD with the same tag", outcome(200, ["ETag": "\"a\""], request: head, stored: tagged),
                .updateFromHead(freshened: freshened(tagged, by: ["ETag": "\"a\""], request: head))
            ),
            (
                "HEAD with another tag", outcome(200, ["ETag": "\"b\""], request: head, stored: tagged),
                .updateFromHead(freshened: nil)
            ),
            // 5. Storable or not.
            (
                "a fresh 200", outcome(200, ["Cache-Control": "max-age=60"], stored: nil),
                .store(
                    CacheEntry(
                        method: .get, url: Self.url, requestHeaders: [:], status: 200,
                        responseHeaders: ["Cache-Control": "max-age=60"], requestTime: Self.now - 1,
                        responseTime: Self.now))
            ),
            ("a 200 with no-store", outcome(200, ["Cache-Control": "no-store"], stored: nil), .passOn),
            (
                "a POST's 200",
                outcome(
                    200, ["Cache-Control": "max-age=60"], request: CacheRequest(method: .post, url: Self.url),
                    stored: nil), .passOn
            ),
        ]
        for (name, got, expected) in cases { XCTAssertEqual(got, expected, name) }
    }
}
