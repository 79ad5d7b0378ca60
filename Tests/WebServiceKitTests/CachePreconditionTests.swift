import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 9111 §4.3.2: the caller's own `If-None-Match` / `If-Modified-Since` evaluated by the cache
/// against a stored response that would answer the request, in RFC 9110 §13.2.2's order; what
/// the cache must leave to the server (§4.3.2's "only apply to an origin server", an unreadable
/// field, a stored response that would not be served) goes to it.
final class CachePreconditionTests: XCTestCase {
    private static let lastModified = "Tue, 14 Nov 2023 22:13:20 GMT"
    private static let stored: StubTransport.Stub = .init(
        headers: [
            "ETag": "\"v1\"", "Cache-Control": "max-age=600", "Last-Modified": lastModified,
            "Content-Type": "text/plain", "Content-Location": "/item.txt", "Vary": "Accept-Language",
        ],
        body: Data("stored".utf8))

    private func storedItem(_ stub: StubTransport.Stub = stored) async throws -> (WebServiceClient, StubTransport) {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/item" }, with: stub, .init(body: Data("from the server".utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: "item"))
        XCTAssertEqual(stubs.requests.count, 1)
        return (client, stubs)
    }

    private func conditional(_ headers: [String: String]) -> WebServiceCall<Data> {
        WebServiceCall<Data>(relativePath: "item", headers: headers, successCodes: [200..<300, 304])
    }

    func testAMatchingIfNoneMatchIsAnsweredWithA304ByTheCache() async throws {
        for value in ["\"v1\"", "W/\"v1\"", "\"a\", \"v1\"", "\"a,b\" , W/\"v1\"", "*", ",\"v1\","] {
            let (client, stubs) = try await storedItem()
            let answer = try await client.response(for: conditional(["If-None-Match": value]))
            XCTAssertEqual(answer.statusCode, 304, value)
            XCTAssertEqual(answer.source, .cache, value)
            XCTAssertTrue(answer.body.isEmpty, value)
            XCTAssertEqual(stubs.requests.count, 1, "\(value): the server is not asked")
            // RFC 9110 §15.4.5: the fields a 200 would have carried that a 304 must.
            XCTAssertEqual(answer.headers["ETag"], "\"v1\"")
            XCTAssertEqual(answer.headers["Cache-Control"], "max-age=600")
            XCTAssertEqual(answer.headers["Content-Location"], "/item.txt")
            XCTAssertEqual(answer.headers["Vary"], "Accept-Language")
            XCTAssertNotNil(answer.headers["Age"])
            XCTAssertNil(answer.headers["Content-Type"], "no representation metadata")
            XCTAssertNil(answer.headers["Last-Modified"], "an ETag is there")
        }
    }

    func testANonMatchingIfNoneMatchGetsTheStoredResponse() async throws {
        for value in ["\"v2\"", "W/\"v2\", \"v3\"", "\"V1\""] {
            let (client, stubs) = try await storedItem()
            let answer = try await client.response(for: conditional(["If-None-Match": value]))
            XCTAssertEqual(answer.statusCode, 200, value)
            XCTAssertEqual(answer.source, .cache, value)
            XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), "stored")
            XCTAssertEqual(stubs.requests.count, 1, value)
        }
    }

    /// A present `If-None-Match` decides alone (§13.2.2 step 3): an `If-Modified-Since` beside it
    /// is not evaluated.
    func testIfNoneMatchWinsOverIfModifiedSince() async throws {
        let (client, _) = try await storedItem()
        let answer = try await client.response(
            for: conditional(["If-None-Match": "\"v2\"", "If-Modified-Since": Self.lastModified]))
        XCTAssertEqual(answer.statusCode, 200)
    }

    func testIfModifiedSinceComparesTheStoredLastModified() async throws {
        let cases: [(String, Int)] = [
            (Self.lastModified, 304),
            ("Tue, 14 Nov 2023 22:13:21 GMT", 304),
            ("Tue, 14 Nov 2023 22:13:19 GMT", 200),
            ("Tuesday, 14-Nov-23 22:13:20 GMT", 304),
        ]
        for (since, status) in cases {
            let (client, stubs) = try await storedItem()
            let answer = try await client.response(for: conditional(["If-Modified-Since": since]))
            XCTAssertEqual(answer.statusCode, status, since)
            XCTAssertEqual(answer.source, .cache, since)
            XCTAssertEqual(stubs.requests.count, 1, since)
        }
    }

    /// Without `Last-Modified`, the stored `Date` (§4.3.2); a 304 then carries `Last-Modified`
    /// only if there was one, and without an `ETag` it would carry it.
    func testIfModifiedSinceWithoutLastModifiedUsesTheStoredDate() async throws {
        // A `Date` of now, so that the stored response is fresh (an old one would make it stale).
        let date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let dated = StubTransport.Stub(
            headers: ["Cache-Control": "max-age=600", "Date": HTTPDate.format(date)], body: Data("stored".utf8))
        let (client, _) = try await storedItem(dated)
        let before = try await client.response(
            for: conditional(["If-Modified-Since": HTTPDate.format(date.addingTimeInterval(-1))]))
        XCTAssertEqual(before.statusCode, 200)
        XCTAssertEqual(before.source, .cache)
        let after = try await client.response(for: conditional(["If-Modified-Since": HTTPDate.format(date)]))
        XCTAssertEqual(after.statusCode, 304)
        XCTAssertEqual(after.source, .cache)
        XCTAssertEqual(after.headers["Date"], HTTPDate.format(date))

        let noETag = StubTransport.Stub(
            headers: ["Cache-Control": "max-age=600", "Last-Modified": Self.lastModified], body: Data("x".utf8))
        let (other, _) = try await storedItem(noETag)
        let notModified = try await other.response(for: conditional(["If-Modified-Since": Self.lastModified]))
        XCTAssertEqual(notModified.statusCode, 304)
        XCTAssertEqual(notModified.headers["Last-Modified"], Self.lastModified)
    }

    /// What the cache leaves to the server: the origin's own conditions, fields it cannot read,
    /// and a stored response the request would not be served (stale, another Vary variant).
    func testWhatTheServerDecides() async throws {
        let forwarded: [[String: String]] = [
            ["If-Match": "\"v1\""],
            ["If-None-Match": "\"v1\"", "If-Unmodified-Since": Self.lastModified],
            ["If-None-Match": "v1"],
            ["If-None-Match": "\"v1"],
            ["If-None-Match": "\"v1\" \"v2\""],
            ["If-Modified-Since": "yesterday"],
            ["If-None-Match": "\"v1\"", "Cache-Control": "no-cache"],
            ["If-None-Match": "\"v1\"", "Accept-Language": "de"],
        ]
        for headers in forwarded {
            let (client, stubs) = try await storedItem()
            let answer = try await client.response(for: conditional(headers))
            XCTAssertEqual(answer.source, .network, "\(headers)")
            XCTAssertEqual(stubs.requests.count, 2, "\(headers)")
            for (name, value) in headers {
                XCTAssertEqual(stubs.requests.last?.request.value(forHTTPHeaderField: name), value, "sent as written")
            }
        }
        let stale = StubTransport.Stub(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"], body: Data())
        let (client, stubs) = try await storedItem(stale)
        let answer = try await client.response(for: conditional(["If-None-Match": "\"v1\""]))
        XCTAssertEqual(answer.source, .network)
        XCTAssertEqual(stubs.requests.count, 2)
    }

    /// The parsers against the grammar: entity-tag lists (a comma may stand inside a tag) and
    /// `*`.
    func testIfNoneMatchGrammar() {
        XCTAssertEqual(IfNoneMatch(["*"]), .any)
        XCTAssertEqual(IfNoneMatch([" * "]), .any)
        XCTAssertEqual(IfNoneMatch(["\"a\", W/\"b\""]), .tags(["\"a\"", "\"b\""]))
        XCTAssertEqual(IfNoneMatch(["\"a\"", "\"b\""]), .tags(["\"a\"", "\"b\""]))
        XCTAssertEqual(IfNoneMatch(["\"a,b\""]), .tags(["\"a,b\""]))
        XCTAssertEqual(IfNoneMatch(["\"\""]), .tags(["\"\""]))
        for bad in ["", "a", "\"a", "\"a\"b", "w/\"a\"", "W/ \"a\"", "\"a\" ; x", "*, \"a\"", "\"a b\"", "\"a\"\"b\""] {
            XCTAssertNil(IfNoneMatch([bad]), bad)
        }
    }
}
