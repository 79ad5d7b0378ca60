import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache layer's behaviour with canned responses: fallback, failures, eviction.
final class CachingTransportTests: XCTestCase {
    private func client(_ stubs: StubTransport, memoryLimit: Int = 1 << 20) -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache(memoryLimit: memoryLimit)
        return client
    }

    func testOfflineFallbackServesAStaleResponseWhenTheServerIsUnreachable() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "news", cache: .offlineFallback)
        stubs.stub(
            call,
            with: .init(headers: ["Cache-Control": "max-age=0", "Content-Type": "text/plain"], body: Data("v1".utf8)),
            .failure(.notConnectedToInternet))
        let client = client(stubs)
        _ = try await client.response(for: call)
        let offline = try await client.response(for: call)
        XCTAssertEqual(offline.value, "v1")
        XCTAssertEqual(offline.source, .staleCache)
        let automatic = WebServiceCall<String>(relativePath: "news")
        stubs.stub(automatic, with: .failure(.notConnectedToInternet))
        do {
            _ = try await client.response(for: automatic)
            XCTFail("without the fallback policy a failure is a failure")
        } catch {
            guard case .transport = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testAFailedTransferStoresNothing() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<Data>(relativePath: "big", cache: .maxAge(60))
        stubs.stub(call, with: .failure(.networkConnectionLost), .init(body: Data("complete".utf8)))
        let client = client(stubs)
        _ = try? await client.response(for: call)
        XCTAssertEqual(client.cache?.byteCount, 0, "a partial response never enters the cache")
        let second = try await client.response(for: call)
        XCTAssertEqual(second.source, .network)
        let source1 = try await client.response(for: call).source
        XCTAssertEqual(source1, .cache)
    }

    func testLeastRecentlyUsedResponsesAreEvictedPastTheLimit() async throws {
        let stubs = StubTransport(fallback: .init(headers: ["Cache-Control": "max-age=60"], body: Data(count: 400)))
        let client = client(stubs, memoryLimit: 1000)
        for name in ["a", "b", "a", "c"] {
            _ = try await client.response(for: WebServiceCall<Data>(relativePath: name))
        }
        XCTAssertLessThanOrEqual(client.cache?.byteCount ?? .max, 1000)
        let source2 = try await client.response(for: WebServiceCall<Data>(relativePath: "a")).source
        XCTAssertEqual(source2, .cache)
        let source3 = try await client.response(for: WebServiceCall<Data>(relativePath: "b")).source
        XCTAssertEqual(source3, .network)
    }

    func testCallsWithoutACacheAreUntouched() async throws {
        let stubs = StubTransport(fallback: .init(headers: ["Cache-Control": "max-age=60"], body: Data("x".utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: "a"))
        let source4 = try await client.response(for: WebServiceCall<Data>(relativePath: "a")).source
        XCTAssertEqual(source4, .network)
        XCTAssertEqual(stubs.requests.count, 2)
    }
}

final class CacheIdentifierTests: XCTestCase {
    func testResponsesAreRemovedByIdentifierPrefix() async throws {
        let stubs = StubTransport(fallback: .init(headers: ["Cache-Control": "max-age=600"], body: Data("p".utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        let profile = WebServiceCall<Data>(relativePath: "users/%%0%%", cacheIdentifier: "user-%%0%%/profile")
        let other = WebServiceCall<Data>(relativePath: "settings", cacheIdentifier: "settings")
        for user in ["1", "2"] { _ = try await client.response(for: profile, user) }
        _ = try await client.response(for: other)
        client.cache?.removeResponses(identifiedBy: "user-1")
        let user1 = try await client.response(for: profile, "1")
        let user2 = try await client.response(for: profile, "2")
        let settings = try await client.response(for: other)
        XCTAssertEqual(user1.source, .network)
        XCTAssertEqual(user2.source, .cache)
        XCTAssertEqual(settings.source, .cache)
        client.cache?.removeResponses(identifiedBy: "")
        let afterAll = try await client.response(for: other)
        XCTAssertEqual(afterAll.source, .network)
    }

    func testMalformedIdentifierTemplateIsAnInvalidCall() {
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a", cacheIdentifier: "user-%%x%%").validate())
    }

    func testHeaderWithTwoWildcardsAndANilConsumesBoth() async throws {
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["X-Pair": "%%0%%-%%1%%"])
        let request = try await sentRequest(call, [Optional<String>.none, "b"]).get()
        XCTAssertNil(request.value(forHTTPHeaderField: "X-Pair"))
    }
}

/// RFC 9111 §4.3.5: HEAD responses update a stored GET.
final class HeadUpdatesGetTests: XCTestCase {
    private func client(_ stubs: StubTransport) -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        return client
    }

    private let get = WebServiceCall<Data>(relativePath: "doc")
    private let head = WebServiceCall<EmptyResponse>(method: .head, relativePath: "doc")

    func testMatchingHeadFreshensTheStoredHeaders() async throws {
        let stubs = StubTransport()
        stubs.stub(get, with: .init(headers: ["Cache-Control": "max-age=600", "ETag": "\"a\""], body: Data("v1".utf8)))
        stubs.stub(head, with: .init(headers: ["Cache-Control": "max-age=600", "ETag": "\"a\"", "X-Note": "fresh"]))
        let client = client(stubs)
        _ = try await client.response(for: get)
        _ = try await client.response(for: head)
        let cached = try await client.response(for: get)
        XCTAssertEqual(cached.source, .cache)
        XCTAssertEqual(cached.body, Data("v1".utf8))
        XCTAssertEqual(cached.headers["X-Note"], "fresh")
    }

    func testHeadWithOtherValidatorsDropsTheStoredResponse() async throws {
        let stubs = StubTransport()
        stubs.stub(
            get, with: .init(headers: ["Cache-Control": "max-age=600", "ETag": "\"a\""], body: Data("v1".utf8)),
            .init(headers: ["Cache-Control": "max-age=600", "ETag": "\"b\""], body: Data("v2".utf8)))
        stubs.stub(head, with: .init(headers: ["ETag": "\"b\""]))
        let client = client(stubs)
        _ = try await client.response(for: get)
        _ = try await client.response(for: head)
        let next = try await client.response(for: get)
        XCTAssertEqual(next.source, .network)
        XCTAssertEqual(next.body, Data("v2".utf8))
    }
}
