import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stored response that the call fails to decode is dropped from the cache.
final class UndecodableResponseCacheTests: XCTestCase {
    private struct Value: Decodable, Sendable { let ok: Bool }

    func testAResponseThatDoesNotDecodeIsNotKept() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<Value>(relativePath: "value")
        let headers: HTTPHeaders = ["Cache-Control": "max-age=3600", "Content-Type": "application/json"]
        stubs.stub(
            call, with: .init(headers: headers, body: Data("{\"ok\": tru".utf8)),
            .init(headers: headers, body: Data("{\"ok\": true}".utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let cache = HTTPCache(memoryLimit: 1 << 20)
        client.cache = cache
        do {
            _ = try await client.perform(call)
            XCTFail("the first body is not JSON")
        } catch {
            guard case .decoding = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(cache.byteCount, 0, "the undecodable response was removed")
        let second = try await client.response(for: call)
        XCTAssertEqual(second.source, .network, "the next call asked the server again")
        XCTAssertTrue(second.value.ok)
        let third = try await client.response(for: call)
        XCTAssertEqual(third.source, .cache, "a good response is kept as before")
        XCTAssertEqual(stubs.requests.count, 2)
    }
}
