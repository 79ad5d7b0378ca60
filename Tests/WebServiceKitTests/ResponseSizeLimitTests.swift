import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `WebServiceClient.maximumResponseBodySize` with canned responses: the client's own check of
/// what a transport returns (the real transports stop reading earlier; see FaultMatrixTests).
final class ResponseSizeLimitTests: XCTestCase {
    private static let call = WebServiceCall<Data>(relativePath: "blob")

    private func client(_ stubs: StubTransport, limit: Int?) -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.maximumResponseBodySize = limit
        return client
    }

    func testABodyOverTheLimitFailsWithATypedError() async {
        let stubs = StubTransport()
        stubs.stub(Self.call, with: .init(statusCode: 200, body: Data(count: 11)))
        let client = client(stubs, limit: 10)
        let error = await failure { _ = try await client.perform(Self.call) }
        guard case .responseTooLarge(let limit, let statusCode)? = error?.reason else {
            return XCTFail("expected responseTooLarge, got \(String(describing: error))")
        }
        XCTAssertEqual(limit, 10)
        XCTAssertEqual(statusCode, 200)
        XCTAssertEqual(error?.category, .ignoreData)
        XCTAssertEqual(error?.statusCode, 200)
        XCTAssertEqual(
            error?.reason.description,
            "the response body (status 200) is larger than the 10-byte limit; reading stopped. Raise the client's "
                + "maximumResponseBodySize (for a streamed body, the call's maximumStreamedBodySize) to accept it")
    }

    func testABodyAtTheLimitIsAccepted() async throws {
        let stubs = StubTransport()
        stubs.stub(Self.call, with: .init(statusCode: 200, body: Data(count: 10)))
        let value = try await client(stubs, limit: 10).perform(Self.call)
        XCTAssertEqual(value.count, 10)
    }

    func testNoLimitByDefaultAndNegativeLimitsAreZero() async throws {
        let stubs = StubTransport()
        stubs.stub(Self.call, with: .init(statusCode: 200, body: Data(count: 1 << 20)))
        let client = client(stubs, limit: nil)
        XCTAssertNil(client.maximumResponseBodySize)
        let value = try await client.perform(Self.call)
        XCTAssertEqual(value.count, 1 << 20)
        client.maximumResponseBodySize = -5
        XCTAssertEqual(client.maximumResponseBodySize, 0)
    }

    func testErrorResponsesAreLimitedToo() async {
        let stubs = StubTransport()
        stubs.stub(Self.call, with: .init(statusCode: 500, body: Data(count: 100)))
        let error = await failure { _ = try await self.client(stubs, limit: 10).perform(Self.call) }
        guard case .responseTooLarge(10, 500)? = error?.reason else {
            return XCTFail("expected responseTooLarge, got \(String(describing: error))")
        }
    }

    func testABodyOverTheLimitIsNeverCached() async {
        let stubs = StubTransport()
        stubs.stub(
            Self.call, with: .init(statusCode: 200, headers: ["Cache-Control": "max-age=3600"], body: Data(count: 11)))
        let client = client(stubs, limit: 10)
        let cache = HTTPCache(memoryLimit: 1 << 20)
        client.cache = cache
        let error = await failure { _ = try await client.perform(Self.call) }
        XCTAssertEqual(error?.category, .ignoreData)
        XCTAssertEqual(cache.byteCount, 0)
    }

    func testTheCallbackFormDeliversTheErrorOnce() {
        let stubs = StubTransport()
        stubs.stub(Self.call, with: .init(statusCode: 200, body: Data(count: 11)))
        let client = client(stubs, limit: 10)
        let delivered = expectation(description: "failure")
        delivered.assertForOverFulfill = true
        client.perform(
            Self.call, success: { _ in XCTFail("the call cannot succeed") },
            failure: { error in
                guard case .responseTooLarge = error.reason else { return XCTFail("\(error)") }
                delivered.fulfill()
            })
        wait(for: [delivered], timeout: 60)
    }
}
