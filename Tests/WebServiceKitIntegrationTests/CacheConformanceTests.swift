import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The RFC 9111 rules of issue 22 against a real server on 127.0.0.1: the fault server's
/// `/script` answers each request of a test with the next step of a scripted conversation (the
/// header fields exactly as written, two `Age` lines included) and `/script-log` shows what
/// each request carried, so a test sees both what the cache served and what it sent.
final class CacheConformanceTests: XCTestCase {
    private typealias Step = ScriptStep

    /// A client with an empty cache, on the fault server.
    private func client() throws -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        client.cache = HTTPCache()
        return client
    }

    private func text(_ body: Data) -> String { String(decoding: body, as: UTF8.self) }

    // MARK: - Item 1: Age (RFC 9111 §5.1)

    /// A list-valued `Age` counts by its first member; a first member that is not a number makes
    /// the field ignored, whatever follows it.
    func testListValuedAgeCountsByItsFirstMember() async throws {
        let cases: [(age: [[String]], servedFromCache: Bool)] = [
            ([["Age", "0, 7200"]], true),
            ([["Age", "0"], ["Age", "7200"]], true),
            ([["Age", "7200, 0"]], false),
            ([["Age", "7200"], ["Age", "0"]], false),
            ([["Age", "7200;foo=bar"]], true),
            ([["Age", "7200;foo=bar, 7200"]], true),
            ([["Age", "7200;foo=bar"], ["Age", "7200"]], true),
        ]
        let client = try client()
        for (age, servedFromCache) in cases {
            let tag = FaultScript.newTag("cache")
            let steps = [Step(headers: [["Cache-Control", "max-age=3600"]] + age, body: "stored")]
            let call = WebServiceCall<Data>(relativePath: try FaultScript.path(steps, tag: tag))
            _ = try await client.response(for: call)
            let second = try await client.response(for: call)
            XCTAssertEqual(second.source, servedFromCache ? .cache : .network, "\(age)")
            let sent = try await FaultScript.requests(tag).count
            XCTAssertEqual(sent, servedFromCache ? 1 : 2, "\(age)")
            if servedFromCache {
                // The answer from the cache carries one Age of its own, counted from 0 (the first
                // member, or nothing for an ignored field): under max-age, not 7200 and more.
                XCTAssertEqual(second.headers.values(for: "Age").count, 1, "\(age)")
                XCTAssertLessThan(Int(second.headers["Age"] ?? "") ?? .max, 3600, "\(age)")
            }
        }
    }

    // MARK: - Item 2: Expires (RFC 9111 §5.3, RFC 9110 §5.6.7)

    /// An `Expires` off the HTTP-date grammar is already expired; the obsolete asctime format,
    /// whose one-digit day follows two spaces, is the grammar.
    func testExpiresOffTheGrammarIsAlreadyExpired() async throws {
        let cases: [(expires: String, servedFromCache: Bool)] = [
            ("Thu, 18 Aug 2050 02:01:18 GMT", true),
            ("Thu, 18  Aug  2050 02:01:18 GMT", false),
            ("Thu, 18 Aug 2050  02:01:18 GMT", false),
            ("Thu, 8 Aug 2050 02:01:18 GMT", false),
            ("Thursday, 18-Aug-50 02:01:18 GMT", true),
            ("Thu Aug  4 02:01:18 2050", true),
            ("Thu Aug 4 02:01:18 2050", false),
            ("thu, 18 aug 2050 02:01:18 gmt", true),
        ]
        let client = try client()
        for (expires, servedFromCache) in cases {
            let tag = FaultScript.newTag("cache")
            let call = WebServiceCall<Data>(
                relativePath: try FaultScript.path([Step(headers: [["Expires", expires]], body: "stored")], tag: tag))
            _ = try await client.response(for: call)
            let second = try await client.response(for: call)
            XCTAssertEqual(second.source, servedFromCache ? .cache : .network, expires)
            let sent = try await FaultScript.requests(tag).count
            XCTAssertEqual(sent, servedFromCache ? 1 : 2, expires)
        }
    }

    // MARK: - Item 3: statuses the cache does not know (RFC 9111 §3, §5.2.2.3)

    /// 299, 499 and 599 with explicit freshness are stored and served; with `must-understand`
    /// they are not, and an understood status with `must-understand` ignores `no-store`.
    func testExplicitFreshnessStoresAnyFinalStatusUnlessMustUnderstand() async throws {
        let cases: [(status: Int, cacheControl: [[String]], stored: Bool)] = [
            (299, [["Cache-Control", "max-age=600"]], true),
            (499, [["Cache-Control", "max-age=600"]], true),
            (599, [["Expires", "Thu, 18 Aug 2050 02:01:18 GMT"]], true),
            (299, [["Cache-Control", "max-age=600, must-understand"]], false),
            (599, [["Cache-Control", "max-age=600, must-understand, no-store"]], false),
            (200, [["Cache-Control", "max-age=600, must-understand, no-store"]], true),
            (299, [], false),
        ]
        let client = try client()
        for (status, fields, stored) in cases {
            let tag = FaultScript.newTag("cache")
            let call = WebServiceCall<Data>(
                relativePath: try FaultScript.path(
                    [Step(status: status, headers: fields, body: "s\(status)")], tag: tag),
                successCodes: [200..<600])
            let first = try await client.response(for: call)
            let second = try await client.response(for: call)
            XCTAssertEqual(first.statusCode, status)
            XCTAssertEqual(second.statusCode, status)
            XCTAssertEqual(text(second.body), "s\(status)")
            XCTAssertEqual(second.source, stored ? .cache : .network, "\(status) \(fields)")
            let sent = try await FaultScript.requests(tag).count
            XCTAssertEqual(sent, stored ? 1 : 2, "\(status) \(fields)")
        }
    }

    // MARK: - Item 4: a 304 about another representation (RFC 9111 §4.3.4)

    /// The cache validated its stored `"v1"`; the server's 304 names `"v2"`. The caller, who asked
    /// no question, gets the full answer of a repeated request without the cache's validators.
    func testMismatched304RepeatsTheRequestWithoutTheCachesValidators() async throws {
        let tag = FaultScript.newTag("cache")
        let steps = [
            Step(headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=0"]], body: "one"),
            Step(status: 304, headers: [["ETag", "\"v2\""], ["Cache-Control", "max-age=0"]]),
            Step(headers: [["ETag", "\"v2\""], ["Cache-Control", "max-age=600"]], body: "two"),
        ]
        let client = try client()
        let call = WebServiceCall<Data>(relativePath: try FaultScript.path(steps, tag: tag))
        let first = try await client.response(for: call)
        XCTAssertEqual(text(first.body), "one")
        let second = try await client.response(for: call)
        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(text(second.body), "two")
        XCTAssertEqual(second.source, .network)
        XCTAssertEqual(second.headers["ETag"], "\"v2\"")
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 3)
        XCTAssertEqual(sent.dropFirst().first?["if-none-match"], "\"v1\"", "the cache validated its response")
        XCTAssertNil(sent.last?["if-none-match"], "the repeat carries no validator of the cache")
        let third = try await client.response(for: call)
        XCTAssertEqual(third.source, .cache, "the repeated answer was stored")
        XCTAssertEqual(text(third.body), "two")
    }

    // MARK: - Item 5: the application's own conditional request (RFC 9111 §4.3.2)

    /// The caller's If-None-Match (or If-Modified-Since) gets the server's 304, not the stored
    /// body; the 304 still freshens the stored response it names.
    func testTheCallersOwnConditionalRequestGetsThe304() async throws {
        let lastModified = "Wed, 01 Jan 2025 00:00:00 GMT"
        let conditions: [[String: String]] = [["If-None-Match": "\"v1\""], ["If-Modified-Since": lastModified]]
        let client = try client()
        for condition in conditions {
            let tag = FaultScript.newTag("cache")
            let steps = [
                Step(
                    headers: [["ETag", "\"v1\""], ["Last-Modified", lastModified], ["Cache-Control", "max-age=0"]],
                    body: "one"),
                Step(status: 304, headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=600"]]),
            ]
            let path = try FaultScript.path(steps, tag: tag)
            let plain = WebServiceCall<Data>(relativePath: path)
            let conditional = WebServiceCall<Data>(
                relativePath: path, headers: condition, successCodes: [200..<300, 304])
            _ = try await client.response(for: plain)
            let answer = try await client.response(for: conditional)
            XCTAssertEqual(answer.statusCode, 304, "\(condition)")
            XCTAssertEqual(answer.source, .network, "\(condition)")
            XCTAssertTrue(answer.body.isEmpty, "\(condition)")
            let sent = try await FaultScript.requests(tag)
            XCTAssertEqual(sent.count, 2)
            let field = condition.keys.first?.lowercased() ?? ""
            XCTAssertEqual(sent.last?[field], condition.values.first, "the caller's own validator went out")
            XCTAssertEqual(sent.last?.keys.filter { $0.hasPrefix("if-") }.count, 1, "and none of the cache's")
            // The 304 named the stored "v1" and made it fresh for 600 s (RFC 9111 §4.3.4).
            let later = try await client.response(for: plain)
            XCTAssertEqual(later.source, .cache, "\(condition)")
            XCTAssertEqual(text(later.body), "one")
        }
    }

    /// With a fresh stored response, the cache evaluates the caller's conditions itself (RFC 9111
    /// §4.3.2, a SHOULD): a match is a 304 the cache makes, a mismatch the stored 200, and the
    /// server hears of neither; `If-Match` is the origin's to evaluate and goes to it.
    func testTheCacheAnswersTheCallersConditionsFromAFreshStoredResponse() async throws {
        let lastModified = "Wed, 01 Jan 2025 00:00:00 GMT"
        let client = try client()
        let tag = FaultScript.newTag("cache")
        let steps = [
            Step(
                headers: [["ETag", "\"v1\""], ["Last-Modified", lastModified], ["Cache-Control", "max-age=600"]],
                body: "one"),
            Step(status: 412, headers: [["ETag", "\"v1\""]]),
        ]
        let path = try FaultScript.path(steps, tag: tag)
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: path))
        let cases: [([String: String], Int)] = [
            (["If-None-Match": "\"v1\""], 304), (["If-None-Match": "W/\"v0\", \"v1\""], 304),
            (["If-None-Match": "\"v2\""], 200), (["If-Modified-Since": lastModified], 304),
            (["If-Modified-Since": "Tue, 31 Dec 2024 23:59:59 GMT"], 200),
        ]
        for (condition, status) in cases {
            let call = WebServiceCall<Data>(relativePath: path, headers: condition, successCodes: [200..<300, 304])
            let answer = try await client.response(for: call)
            XCTAssertEqual(answer.statusCode, status, "\(condition)")
            XCTAssertEqual(answer.source, .cache, "\(condition)")
            XCTAssertEqual(text(answer.body), status == 304 ? "" : "one", "\(condition)")
        }
        let asked = try await FaultScript.requests(tag).count
        XCTAssertEqual(asked, 1, "the server answered only the first request")

        let guarded = WebServiceCall<Data>(
            relativePath: path, headers: ["If-Match": "\"v0\""], successCodes: [200..<300, 412])
        let refused = try await client.response(for: guarded)
        XCTAssertEqual(refused.statusCode, 412)
        XCTAssertEqual(refused.source, .network)
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent.last?["if-match"], "\"v0\"")
    }

    // MARK: - Item 8: request no-store (RFC 9111 §5.2.1.5) and Pragma (RFC 7234 §5.4)

    /// A request with `no-store` goes to the server without validators and its answer is not
    /// stored; the response stored before stays and serves the next plain request.
    func testRequestNoStoreIsNotAnsweredFromTheCache() async throws {
        let tag = FaultScript.newTag("cache")
        let steps = [
            Step(headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=600"]], body: "one"),
            Step(headers: [["ETag", "\"v2\""], ["Cache-Control", "max-age=600"]], body: "two"),
        ]
        let client = try client()
        let path = try FaultScript.path(steps, tag: tag)
        let plain = WebServiceCall<Data>(relativePath: path)
        _ = try await client.response(for: plain)
        let noStore = try await client.response(
            for: WebServiceCall<Data>(relativePath: path, headers: ["Cache-Control": "no-store"]))
        XCTAssertEqual(noStore.source, .network)
        XCTAssertEqual(text(noStore.body), "two")
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 2)
        XCTAssertNil(sent.last?["if-none-match"])
        let later = try await client.response(for: plain)
        XCTAssertEqual(later.source, .cache)
        XCTAssertEqual(text(later.body), "one", "the no-store answer was not stored")
        do {
            _ = try await client.response(
                for: WebServiceCall<Data>(relativePath: path, headers: ["Cache-Control": "no-store, only-if-cached"]))
            XCTFail("no-store with only-if-cached has nothing to answer with")
        } catch {
            XCTAssertEqual(error.statusCode, 504)
        }
        let total = try await FaultScript.requests(tag).count
        XCTAssertEqual(total, 2)
    }

    /// `Pragma: no-cache` without `Cache-Control` is `Cache-Control: no-cache`: the stored
    /// response is validated. Beside a `Cache-Control` field it is ignored.
    func testPragmaNoCacheWithoutCacheControlValidates() async throws {
        let tag = FaultScript.newTag("cache")
        let steps = [
            Step(headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=600"]], body: "one"),
            Step(status: 304, headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=600"]]),
        ]
        let client = try client()
        let path = try FaultScript.path(steps, tag: tag)
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: path))
        let pragma = try await client.response(
            for: WebServiceCall<Data>(relativePath: path, headers: ["Pragma": "no-cache"]))
        XCTAssertEqual(pragma.source, .revalidatedCache)
        XCTAssertEqual(text(pragma.body), "one")
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent.last?["if-none-match"], "\"v1\"")
        let both = try await client.response(
            for: WebServiceCall<Data>(
                relativePath: path, headers: ["Pragma": "no-cache", "Cache-Control": "max-stale=0"]))
        XCTAssertEqual(both.source, .cache, "Cache-Control present: Pragma is not read")
        let total = try await FaultScript.requests(tag).count
        XCTAssertEqual(total, 2)
    }
}
