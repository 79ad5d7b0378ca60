import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Swift examples of Docs/JSONRPC.md, compiled and run against StubTransport. Declarations
// are written here exactly as the page shows them. When you change an example, change the page too.

struct Subtraction: Encodable, Sendable {
    let minuend: Int
    let subtrahend: Int
}

struct CharacterCount: Decodable, Sendable {
    let text: String
    let count: Int
}

struct Recording: Encodable, Sendable {
    let channel: String
    let message: String
}

extension JSONRPCMethod where Params == [Int], Result == Int {
    /// Positional params: `"params": [42, 23]`.
    static let subtract = JSONRPCMethod("subtract")
}

extension JSONRPCMethod where Params == Subtraction, Result == Int {
    /// Named params: `"params": {"minuend": 42, "subtrahend": 23}`.
    static let subtractNamed = JSONRPCMethod("subtract")
}

extension JSONRPCMethod where Params == [String: String], Result == CharacterCount {
    static let countCharacters = JSONRPCMethod("count_characters")
}

extension JSONRPCMethod where Params == Recording, Result == JSONRPCValue {
    /// Sent as a notification: its result is never read.
    static let record = JSONRPCMethod("record")
}

extension JSONRPCMethod where Params == JSONRPCNoParams, Result == [String] {
    /// No params: the request has no `params` member.
    static let listMethods = JSONRPCMethod("system.listMethods")
}

extension JSONRPCEndpoint {
    static let rpc = JSONRPCEndpoint(relativePath: "rpc")
    /// Wildcards take the `arguments:` of each call; the body is the argument after them.
    static let tenantRPC = JSONRPCEndpoint(
        relativePath: "tenants/%%0%%/rpc", headers: ["X-Request-Source": "%%1%%"], timeout: 10,
        ids: .strings(prefix: "app-"))
}

final class JSONRPCGuideExamplesTests: XCTestCase {
    /// A stub server: answers each request object in the body by method, as the page's server would.
    private static func answer(_ request: [String: Any]) -> String? {
        guard let id = request["id"] else { return nil }
        let idText = (id as? String).map { "\"\($0)\"" } ?? "\(id)"
        let params = request["params"]
        let result: String
        switch request["method"] as? String {
        case "subtract":
            if let list = params as? [Int], list.count == 2 {
                result = "\(list[0] - list[1])"
            } else if let named = params as? [String: Int], let minuend = named["minuend"],
                let subtrahend = named["subtrahend"]
            {
                result = "\(minuend - subtrahend)"
            } else {
                return
                    #"{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":{"message":"two numbers"}},"id":\#(idText)}"#
            }
        case "count_characters":
            let text = (params as? [String: String])?["text"] ?? ""
            result = #"{"text":"\#(text)","count":\#(text.count)}"#
        case "system.listMethods":
            result = #"["subtract","count_characters"]"#
        default:
            return #"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":\#(idText)}"#
        }
        return #"{"jsonrpc":"2.0","result":\#(result),"id":\#(idText)}"#
    }

    /// A transport that answers JSON-RPC requests and batches (batches backwards).
    final class Server: WebServiceTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var bodies: [String] = []
        var received: [String] { lock.withLock { bodies } }

        func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
            let body = request.httpBody ?? Data()
            lock.withLock { bodies.append(String(decoding: body, as: UTF8.self)) }
            let json = try JSONSerialization.jsonObject(with: body)
            let text: String?
            if let batch = json as? [[String: Any]] {
                let answers = batch.compactMap(JSONRPCGuideExamplesTests.answer).reversed()
                text = answers.isEmpty ? nil : "[" + answers.joined(separator: ",") + "]"
            } else {
                text = JSONRPCGuideExamplesTests.answer(json as? [String: Any] ?? [:])
            }
            return TransportResponse(
                statusCode: text == nil ? 204 : 200, headers: ["Content-Type": "application/json"],
                body: Data((text ?? "").utf8), url: request.url)
        }
    }

    func testTheEndpointSection() async throws {
        let server = Server()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: server)
        let difference = try await client.perform(.rpc, .subtract, [42, 23])  // 19
        let named = try await client.perform(.rpc, .subtractNamed, Subtraction(minuend: 42, subtrahend: 23))
        let count = try await client.perform(
            .tenantRPC, .countCharacters, ["text": "hello"], arguments: ["acme", "ios"])
        let methods = try await client.perform(.rpc, .listMethods)
        XCTAssertEqual(difference, 19)
        XCTAssertEqual(named, 19)
        XCTAssertEqual(count.count, 5)
        XCTAssertEqual(methods, ["subtract", "count_characters"])
        XCTAssertTrue(server.received[2].hasSuffix(#","id":"app-1"}"#), server.received[2])

        let done = expectation(description: "completion")
        let task = client.perform(.rpc, .subtract, [42, 23]) { result in
            switch result {
            case .success(let difference): print(difference)
            case .failure(let error): print(error.jsonRPCError?.message ?? error.description)
            }
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertTrue(task.isFinished)
    }

    func testTheNotificationAndBatchSections() async throws {
        let server = Server()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: server)
        try await client.notify(.rpc, .record, Recording(channel: "audit", message: "signed in"))
        XCTAssertFalse(server.received[0].contains(#""id""#))

        var batch = JSONRPCBatch()
        let difference = batch.add(.subtract, [42, 23])
        let count = batch.add(.countCharacters, ["text": "hello"])
        let invalid = batch.add(.subtract, [1])
        batch.notify(.record, Recording(channel: "audit", message: "batch sent"))

        let responses = try await client.perform(.rpc, batch)
        let value = try responses.value(for: difference)  // 19, or throws that request's error
        switch responses.result(for: count) {  // Result<CharacterCount, WebServiceError>
        case .success(let count): print(count.count)
        case .failure(let error): print(error)
        }
        if case .failure(let error) = responses.result(for: invalid), let failure = error.jsonRPCError {
            print(failure.code)  // -32602 (invalid params)
        }
        XCTAssertEqual(value, 19)
        XCTAssertEqual(try responses.value(for: count).count, 5)
        XCTAssertEqual(responses.errors[2]?.code, .invalidParams)
    }

    func testTheErrorsSection() async throws {
        let server = Server()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: server)
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        do {
            _ = try await client.perform(.rpc, .subtract, [1])
        } catch {
            if let failure = error.jsonRPCError {
                switch failure.code {
                case .methodNotFound: print("not deployed yet")
                case .invalidParams: print("bad params:", failure.data?["message"]?.stringValue ?? "")
                case let code where code.isServerError: print("server error", code.rawValue)
                default: print(failure.message)
                }
            }
        }
        XCTAssertEqual(printed, ["bad params: two numbers"])
    }

    func testTheStubTransportSection() async throws {
        let stubs = StubTransport()
        let rpc = JSONRPCEndpoint(relativePath: "rpc")
        stubs.stub(
            rpc.call,
            with: .text(#"{"jsonrpc":"2.0","result":19,"id":1}"#, contentType: "application/json"),
            .text(#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":2}"#))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let first = try await client.perform(rpc, .subtract, [42, 23])  // 19
        let second = await Task { try await client.perform(rpc, .subtract, [1, 1]) }.result
        // second fails with -32601; stubs.requests holds both request bodies
        XCTAssertEqual(first, 19)
        guard case .failure(let error as WebServiceError) = second else { return XCTFail("\(second)") }
        XCTAssertEqual(error.jsonRPCError?.code, .methodNotFound)
        XCTAssertEqual(stubs.requests.count, 2)
    }
}
