import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Items 4, 5 and 8 through the cache stage, with canned answers: what the caller gets and what
/// each request carried.
final class CacheConformanceStageTests: XCTestCase {
    private func client(_ stubs: StubTransport) -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        return client
    }

    private func field(_ name: String, of request: StubTransport.RecordedRequest?) -> String? {
        request?.request.value(forHTTPHeaderField: name)
    }

    func testMismatched304IsRepeatedWithoutValidators() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/item" },
            with: .init(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"], body: Data("one".utf8)),
            .status(304, headers: ["ETag": "\"v2\""]),
            .init(headers: ["ETag": "\"v2\"", "Cache-Control": "max-age=60"], body: Data("two".utf8)))
        let client = client(stubs)
        let call = WebServiceCall<String>(relativePath: "item")
        _ = try await client.response(for: call)
        let second = try await client.response(for: call)
        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(second.value, "two")
        XCTAssertEqual(second.source, .network)
        let requests = stubs.requests
        XCTAssertEqual(requests.count, 3)
        XCTAssertEqual(field("If-None-Match", of: requests.dropFirst().first), "\"v1\"")
        XCTAssertNil(field("If-None-Match", of: requests.last))
        let third = try await client.response(for: call)
        XCTAssertEqual(third.source, .cache)
        XCTAssertEqual(third.value, "two")
    }

    /// A server that answers the repeat with 304 again is broken; the caller gets that 304 rather
    /// than a loop or a stored body the server disowned.
    func testA304ToTheRepeatIsReturnedOnce() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/item" },
            with: .init(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"], body: Data("one".utf8)),
            .status(304, headers: ["ETag": "\"v2\""]))
        let client = client(stubs)
        let call = WebServiceCall<Data>(relativePath: "item", successCodes: [200..<300, 304])
        _ = try await client.response(for: call)
        let second = try await client.response(for: call)
        XCTAssertEqual(second.statusCode, 304)
        XCTAssertEqual(stubs.requests.count, 3)
    }

    /// A 304 to a request that was not conditional at all (the stored response has no validator
    /// to send) answers no question of the caller's: the stored response it freshens is served.
    func testA304ToAnUnconditionalRequestServesTheStoredResponse() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/item" },
            with: .init(headers: ["Cache-Control": "max-age=0"], body: Data("one".utf8)),
            .status(304, headers: ["Cache-Control": "max-age=60"]))
        let client = client(stubs)
        let call = WebServiceCall<String>(relativePath: "item")
        _ = try await client.response(for: call)
        let second = try await client.response(for: call)
        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(second.value, "one")
        XCTAssertEqual(second.source, .revalidatedCache)
        XCTAssertNil(field("If-None-Match", of: stubs.requests.last))
        XCTAssertNil(field("If-Modified-Since", of: stubs.requests.last))
    }

    func testTheCallersConditionalRequestGetsThe304AndFreshensWhatItNames() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/item" },
            with: .init(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"], body: Data("one".utf8)),
            .status(304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"]))
        let client = client(stubs)
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: "item"))
        let conditional = WebServiceCall<Data>(
            relativePath: "item", headers: ["If-None-Match": "\"v1\""], successCodes: [200..<300, 304])
        let answer = try await client.response(for: conditional)
        XCTAssertEqual(answer.statusCode, 304)
        XCTAssertEqual(answer.source, .network)
        XCTAssertTrue(answer.body.isEmpty)
        let later = try await client.response(for: WebServiceCall<Data>(relativePath: "item"))
        XCTAssertEqual(later.source, .cache, "the 304 named the stored response and made it fresh")
        XCTAssertEqual(String(decoding: later.body, as: UTF8.self), "one")
        XCTAssertEqual(stubs.requests.count, 2)
    }

    /// The caller's 304 names another representation: it passes through and leaves the stored
    /// response as it was (stale here), so the next plain call validates it.
    func testTheCallersConditionalRequestFor304OfAnotherRepresentationFreshensNothing() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/item" },
            with: .init(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"], body: Data("one".utf8)),
            .status(304, headers: ["ETag": "\"other\"", "Cache-Control": "max-age=60"]),
            .status(304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"]))
        let client = client(stubs)
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: "item"))
        let conditional = WebServiceCall<Data>(
            relativePath: "item", headers: ["If-None-Match": "\"other\""], successCodes: [200..<300, 304])
        let answer = try await client.response(for: conditional)
        XCTAssertEqual(answer.statusCode, 304)
        let later = try await client.response(for: WebServiceCall<Data>(relativePath: "item"))
        XCTAssertEqual(later.source, .revalidatedCache)
        XCTAssertEqual(field("If-None-Match", of: stubs.requests.last), "\"v1\"")
    }

    func testRequestNoStoreGoesToTheServerAndKeepsWhatIsStored() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/item" },
            with: .init(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"], body: Data("one".utf8)),
            .init(headers: ["ETag": "\"v2\"", "Cache-Control": "max-age=60"], body: Data("two".utf8)))
        let client = client(stubs)
        let plain = WebServiceCall<String>(relativePath: "item")
        _ = try await client.response(for: plain)
        let noStore = try await client.response(
            for: WebServiceCall<String>(relativePath: "item", headers: ["Cache-Control": "no-store"]))
        XCTAssertEqual(noStore.value, "two")
        XCTAssertEqual(noStore.source, .network)
        XCTAssertNil(field("If-None-Match", of: stubs.requests.last))
        let later = try await client.response(for: plain)
        XCTAssertEqual(later.source, .cache)
        XCTAssertEqual(later.value, "one")
        XCTAssertEqual(stubs.requests.count, 2)
    }
}

/// A GET whose body is streamed cannot be repeated after a mismatched 304, so it is never validated.
final class CacheStreamedBodyTests: XCTestCase {
    func testAStaleResponseIsNotValidatedForARequestWithAStreamedBody() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/item" },
            with: .init(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"], body: Data("one".utf8)),
            .init(headers: ["ETag": "\"v2\"", "Cache-Control": "max-age=0"], body: Data("two".utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        let streamed = WebServiceCall<String>(relativePath: "item", bodyParameter: 0)
        let body = RequestBody.stream(length: 5) { InputStream(data: Data("hello".utf8)) }
        _ = try await client.response(for: WebServiceCall<String>(relativePath: "item"))
        let answer = try await client.response(for: streamed, body)
        XCTAssertEqual(answer.value, "two")
        XCTAssertNotNil(stubs.requests.last?.uploadLength, "the request had a streamed body")
        XCTAssertNil(stubs.requests.last?.request.value(forHTTPHeaderField: "If-None-Match"))
    }
}
