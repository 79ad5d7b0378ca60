import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitTesting
import XCTest

/// A JSON-RPC endpoint whose wildcard arguments are typed: the same request as the untyped
/// endpoint with the same values, and a declaration checked against the templates.
final class TypedJSONRPCEndpointTests: XCTestCase {
    private static let total = JSONRPCMethod<[Int], Int>("total")
    private static let ping = JSONRPCMethod<JSONRPCNoParams, String>("ping")
    private static let tenants = TypedJSONRPCEndpoint<ArgumentList<String, Int>>(
        JSONRPCEndpoint(relativePath: "tenants/%%0%%/rpc", headers: ["X-Shard": "%%1%%"]))

    func testTheTypedEndpointSendsWhatTheUntypedOneDoes() async throws {
        let (client, stubs) = makeStubClient(fallback: jsonStub(#"{"jsonrpc":"2.0","result":3,"id":1}"#))
        try Self.tenants.validate()
        let total = try await client.perform(Self.tenants, Self.total, [1, 2], arguments: "acme corp", 7)
        XCTAssertEqual(total, 3)
        let request = try XCTUnwrap(stubs.requests.first?.request)
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/tenants/acme%20corp/rpc")
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-Shard"), "7")
        XCTAssertEqual(sentBody(stubs), #"{"jsonrpc":"2.0","method":"total","params":[1,2],"id":1}"#)
        stubs.stub(Self.tenants.endpoint.call, with: jsonStub(#"{"jsonrpc":"2.0","result":"pong","id":2}"#))
        let pong = try await client.perform(Self.tenants, Self.ping, arguments: "acme", 1)
        XCTAssertEqual(pong, "pong")
        try await client.notify(Self.tenants, Self.total, [1], arguments: "acme", 1)
        var batch = JSONRPCBatch()
        _ = batch.add(Self.total, [5])
        _ = try? await client.perform(Self.tenants, batch, arguments: "acme", 1)
        XCTAssertEqual(stubs.requests.count, 4)
    }

    func testADeclarationThatDoesNotFitFailsEveryCallNamingIt() async {
        let short = TypedJSONRPCEndpoint<ArgumentList<String>>(
            JSONRPCEndpoint(name: "shards", relativePath: "tenants/%%0%%/shards/%%1%%/rpc"))
        XCTAssertThrowsError(try short.validate()) { error in
            XCTAssertEqual(
                (error as? WebServiceError)?.reason.description,
                "invalid call descriptor: the endpoint's templates use 2 wildcard argument(s) but its declaration "
                    + "names 1 type(s); declare one type per wildcard, %%0%% first")
        }
        let (client, stubs) = makeStubClient()
        do {
            _ = try await client.perform(short, Self.total, [1], arguments: "acme")
            XCTFail("sent")
        } catch {
            XCTAssertEqual(error.call?.name, "shards")
        }
        XCTAssertTrue(stubs.requests.isEmpty)
        struct Opaque: Sendable {}
        let opaque = TypedJSONRPCEndpoint<ArgumentList<Opaque>>(JSONRPCEndpoint(relativePath: "t/%%0%%/rpc"))
        XCTAssertThrowsError(try opaque.validate())
    }
}
