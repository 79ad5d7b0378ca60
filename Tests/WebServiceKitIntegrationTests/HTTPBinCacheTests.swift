import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The RFC 9111 cache against httpbin, counting the requests that reach the wire.
final class HTTPBinCacheTests: XCTestCase {
    private func client() throws -> (WebServiceClient, CountingTransport) {
        let wire = CountingTransport()
        let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: wire)
        client.cache = HTTPCache()
        return (client, wire)
    }

    func testMaxAgeServesTheSecondCallFromTheCache() async throws {
        let (client, wire) = try client()
        let call = WebServiceCall<Data>(relativePath: "cache/%%0%%")
        let first = try await client.response(for: call, 60)
        let second = try await client.response(for: call, 60)
        XCTAssertEqual(first.source, .network)
        XCTAssertEqual(second.source, .cache)
        XCTAssertEqual(second.body, first.body)
        XCTAssertNotNil(second.headers["Age"])
        XCTAssertEqual(wire.requests, 1)
    }

    func testValidatorsGiveA304AndTheStoredBody() async throws {
        let (client, wire) = try client()
        let call = WebServiceCall<Data>(relativePath: "cache")
        let first = try await client.response(for: call)
        XCTAssertNotNil(first.headers["ETag"] ?? first.headers["Last-Modified"])
        let second = try await client.response(for: call)
        XCTAssertEqual(second.source, .revalidatedCache)
        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(second.body, first.body)
        XCTAssertEqual(wire.requests, 2, "the second call was a conditional request answered with 304")
    }

    func testETagRevalidation() async throws {
        let (client, _) = try client()
        let call = WebServiceCall<Data>(relativePath: "etag/%%0%%")
        _ = try await client.response(for: call, "v1")
        let second = try await client.response(for: call, "v1")
        XCTAssertEqual(second.source, .revalidatedCache)
    }

    func testNoStoreAndPragmaNoCacheAreNeverServedFromTheCache() async throws {
        let (client, wire) = try client()
        for header in ["Cache-Control=no-store", "Pragma=no-cache"] {
            let call = WebServiceCall<Data>(relativePath: "response-headers?\(header)")
            _ = try await client.response(for: call)
            let second = try await client.response(for: call)
            XCTAssertEqual(second.source, .network, header)
        }
        XCTAssertEqual(wire.requests, 4)
    }

    /// ROAD's scenario: the call's maxAge overrides the response's no-cache.
    func testMaxAgePolicyOverridesNoCache() async throws {
        let (client, wire) = try client()
        let call = WebServiceCall<Data>(relativePath: "response-headers?Cache-Control=no-cache", cache: .maxAge(60))
        _ = try await client.response(for: call)
        let second = try await client.response(for: call)
        XCTAssertEqual(second.source, .cache)
        XCTAssertEqual(wire.requests, 1)
    }

    func testDisabledPolicyAndUnsafeMethodInvalidation() async throws {
        let (client, wire) = try client()
        let cached = WebServiceCall<Data>(relativePath: "anything/item", cache: .maxAge(60))
        let disabled = WebServiceCall<Data>(relativePath: "anything/item", cache: .disabled)
        let update = WebServiceCall<Data>(method: .post, relativePath: "anything/item")
        _ = try await client.response(for: cached)
        let source1 = try await client.response(for: cached).source
        XCTAssertEqual(source1, .cache)
        let source2 = try await client.response(for: disabled).source
        XCTAssertEqual(source2, .network)
        _ = try await client.response(for: update, ["change": "1"])
        let source3 = try await client.response(for: cached).source
        XCTAssertEqual(source3, .network, "the POST invalidated the stored GET")
        XCTAssertEqual(wire.requests, 4)
    }

    /// RFC 9111 §4.1: the stored response is reused only for requests with the same nominated fields.
    func testVarySelectsByTheNominatedRequestHeader() async throws {
        let (client, wire) = try client()
        let call = WebServiceCall<Data>(
            relativePath: "response-headers?Cache-Control=max-age%3D60&Vary=X-Variant", headers: ["X-Variant": "%%0%%"])
        let first = try await client.response(for: call, "blue")
        let again = try await client.response(for: call, "blue")
        let other = try await client.response(for: call, "red")
        XCTAssertEqual(first.headers["Vary"], "X-Variant")
        XCTAssertEqual(again.source, .cache)
        XCTAssertEqual(other.source, .network)
        XCTAssertEqual(wire.requests, 2)
    }

    func testForceCacheWithNothingStoredIs504() async throws {
        let (client, wire) = try client()
        let call = WebServiceCall<Data>(relativePath: "cache/60", cache: .forceCache)
        do {
            _ = try await client.response(for: call)
            XCTFail("nothing is stored")
        } catch {
            XCTAssertEqual(error.statusCode, 504)
        }
        XCTAssertEqual(wire.requests, 0)
    }
}
