import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 22, item 7, as pure rules at a fixed `now`: `stale-while-revalidate` (RFC 5861 §3),
/// which failures `stale-if-error` stands in for (RFC 5861 §4), and `immutable` (RFC 8246).
final class StaleDirectivesRulesTests: XCTestCase {
    private static let now = CacheRulesTests.now
    private static let url = CacheRulesTests.url

    /// A response received 100 s ago with `cacheControl` and an `ETag`.
    private static func entry(_ cacheControl: String, extra: [(String, String)] = []) -> CacheEntry {
        let fields = [("Cache-Control", cacheControl), ("ETag", "\"v1\"")] + extra
        return CacheEntry(
            method: .get, url: url, requestHeaders: [:], status: 200,
            responseHeaders: HTTPHeaders(fields.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }),
            requestTime: now - 100, responseTime: now - 100)
    }

    private static func request(_ headers: HTTPHeaders = [:], policy: CachePolicy = .automatic) -> CacheRequest {
        CacheRequest(url: url, headers: headers, policy: policy)
    }

    // MARK: - stale-while-revalidate

    /// Stale by 40 s (age 100, lifetime 60): served within a window of 40 or more, not 39.
    func testStaleWhileRevalidateWindow() {
        let cases: [(cacheControl: String, age: TimeInterval?)] = [
            ("max-age=60, stale-while-revalidate=100", 100),
            ("max-age=60, stale-while-revalidate=40", 100),
            ("max-age=60, stale-while-revalidate=39", nil),
            ("max-age=600, stale-while-revalidate=100", nil),  // fresh: served as fresh, no revalidation
            ("max-age=60", nil),
            ("max-age=60, stale-while-revalidate=100, must-revalidate", nil),
            ("max-age=60, stale-while-revalidate=100, no-cache", nil),
        ]
        for (cacheControl, age) in cases {
            XCTAssertEqual(
                CacheRules.staleWhileRevalidate(
                    request: Self.request(), entry: Self.entry(cacheControl), now: Self.now),
                age, cacheControl)
        }
    }

    /// A request that says what freshness it wants, or a policy that decides it, waits for the
    /// server.
    func testStaleWhileRevalidateOnlyForRequestsThatFollowTheHeaders() {
        let entry = Self.entry("max-age=60, stale-while-revalidate=100")
        let cases: [(headers: HTTPHeaders, policy: CachePolicy, age: TimeInterval?)] = [
            ([:], .automatic, 100),
            ([:], .maxStale(10), 100),
            ([:], .offlineFallback, 100),
            ([:], .maxAge(10), nil),
            ([:], .forceNetwork, nil),
            ([:], .disabled, nil),
            (["Cache-Control": "no-cache"], .automatic, nil),
            (["Pragma": "no-cache"], .automatic, nil),
            (["Cache-Control": "max-age=3600"], .automatic, nil),
            (["Cache-Control": "min-fresh=1"], .automatic, nil),
            (["Cache-Control": "no-store"], .automatic, nil),
            (["If-None-Match": "\"v1\""], .automatic, nil),
            // A single range is cut from the stale answer (RangeServing), as from a fresh one.
            (["Range": "bytes=0-1"], .automatic, 100),
            (["Range": "bytes=0-1, 4-5"], .automatic, nil),
        ]
        for (headers, policy, age) in cases {
            XCTAssertEqual(
                CacheRules.staleWhileRevalidate(
                    request: Self.request(headers, policy: policy), entry: entry, now: Self.now),
                age, "\(headers) \(policy)")
        }
        let post = CacheRequest(method: .post, url: Self.url)
        XCTAssertNil(CacheRules.staleWhileRevalidate(request: post, entry: entry, now: Self.now))
    }

    // MARK: - stale-if-error: which errors

    func testServerSideFailuresStandInForAnUnreachableServer() {
        for code in [URLError.Code.networkConnectionLost, .cannotConnectToHost, .timedOut, .badServerResponse] {
            XCTAssertEqual(CacheRules.failure(causedBy: .transport(URLError(code))), .unreachable, "\(code)")
        }
        let callers: [WebServiceError] = [
            .cancelled(reason: nil), .cancelled(reason: "user"), .transport(URLError(.badURL)),
            .transport(URLError(.unsupportedURL)), .transport(URLError(.cannotOpenFile)),
            .transport(URLError(.fileDoesNotExist)), .responseTooLarge(limit: 10, statusCode: 200),
            .invalidHeader(name: "X", reason: "CR"), .intercepted(URLError(.networkConnectionLost)),
        ]
        for error in callers {
            XCTAssertNil(CacheRules.failure(causedBy: error), "\(error)")
        }
    }

    // MARK: - immutable

    /// A reload (`no-cache`, `Pragma: no-cache`, `max-age=0`) does not revalidate a fresh
    /// immutable response; a stale one, or one without `immutable`, is revalidated.
    func testImmutableIgnoresReloadsWhileFresh() {
        let validate = CacheDecision.network(conditionalHeaders: ["If-None-Match": "\"v1\""])
        let fresh = CacheDecision.cached(age: 100, stale: false)
        let cases: [(cacheControl: String, request: HTTPHeaders, expected: CacheDecision)] = [
            ("max-age=3600, immutable", ["Cache-Control": "no-cache"], fresh),
            ("max-age=3600, immutable", ["Pragma": "no-cache"], fresh),
            ("max-age=3600, immutable", ["Cache-Control": "max-age=0"], fresh),
            ("max-age=3600, immutable", [:], fresh),
            ("max-age=3600", ["Cache-Control": "no-cache"], validate),
            ("max-age=3600", ["Cache-Control": "max-age=0"], validate),
            ("max-age=60, immutable", ["Cache-Control": "no-cache"], validate),
            ("max-age=60, immutable", [:], validate),
            ("max-age=3600, immutable, no-cache", [:], validate),
        ]
        for (cacheControl, headers, expected) in cases {
            XCTAssertEqual(
                CacheRules.decide(request: Self.request(headers), entry: Self.entry(cacheControl), now: Self.now),
                expected, "\(cacheControl) / \(headers)")
        }
    }

    /// The explicit override (RFC 8246 §2, "a force reload") is ``CachePolicy/forceNetwork``.
    func testForceNetworkOverridesImmutable() {
        XCTAssertEqual(
            CacheRules.decide(
                request: Self.request(policy: .forceNetwork), entry: Self.entry("max-age=3600, immutable"),
                now: Self.now),
            .network(conditionalHeaders: [:]))
    }
}
