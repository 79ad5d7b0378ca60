import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitTesting
import XCTest

/// Deeply nested JSON-RPC values (issue 19 item 10): decoding and encoding stop at
/// ``JSONRPCValue/maximumDepth`` with a typed error, on a small stack, in this debug build.
final class JSONRPCDepthTests: XCTestCase {
    private let limit = JSONRPCValue.maximumDepth

    /// `levels` arrays around `1`, or objects (`{"a":…}`) when `objects` is set.
    private static func nested(_ levels: Int, objects: Bool = false, innermost: String = "1") -> String {
        objects
            ? String(repeating: #"{"a":"#, count: levels) + innermost + String(repeating: "}", count: levels)
            : String(repeating: "[", count: levels) + innermost + String(repeating: "]", count: levels)
    }

    /// Decodes `json`; the description of the value, or the error.
    private static func decode(_ json: String) -> Result<String, DecodingError> {
        Result {
            try JSONDecoder().decode(JSONRPCValue.self, from: Data(json.utf8)).description
        }
        .mapError {
            $0 as? DecodingError ?? DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\($0)"))
        }
    }

    /// The description of a `dataCorrupted` error; nil for any other result.
    private static func corruption(_ result: Result<String, DecodingError>) -> String? {
        guard case .failure(.dataCorrupted(let context)) = result else { return nil }
        return context.debugDescription
    }

    func testArraysAndObjectsAtTheMaximumDepthDecode() async throws {
        let limit = limit
        let results = try await inTaskAndOnSmallStack {
            [
                Self.decode(Self.nested(limit)), Self.decode(Self.nested(limit, objects: true)),
                Self.decode(Self.nested(limit - 1, innermost: "[]")),
            ]
        }
        assertSameText(try results[0].get(), Self.nested(limit))
        assertSameText(try results[1].get(), Self.nested(limit, objects: true))
        assertSameText(try results[2].get(), Self.nested(limit, innermost: ""))
    }

    func testOneLevelMoreIsDataCorrupted() async throws {
        let limit = limit
        let results = try await inTaskAndOnSmallStack {
            [Self.decode(Self.nested(limit + 1)), Self.decode(Self.nested(limit + 1, objects: true))]
        }
        for result in results {
            XCTAssertEqual(
                Self.corruption(result), "The value nests deeper than the maximum depth of 64 arrays and objects.")
        }
    }

    func testHostileNestingIsDataCorrupted() async throws {
        for json in [Self.nested(100_000), Self.nested(100_000, objects: true), Self.nested(400), Self.nested(513)] {
            let result = try await inTaskAndOnSmallStack { Self.decode(json) }
            XCTAssertNotNil(Self.corruption(result), "\(result)")
        }
    }

    func testEncodingStopsAtTheMaximumDepth() async throws {
        let limit = limit
        let (atLimit, pastLimit) = try await inTaskAndOnSmallStack {
            var value = JSONRPCValue.integer(1)
            for _ in 0..<limit { value = .array([value]) }
            let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            do {
                _ = try JSONEncoder().encode(JSONRPCValue.object(["a": value]))
                return (encoded, nil as String?)
            } catch {
                return (encoded, "\(error)")
            }
        }
        assertSameText(atLimit, Self.nested(limit))
        guard let error = pastLimit else { return XCTFail("encoded \(limit + 1) levels") }
        XCTAssertTrue(error.contains("invalidValue"), error)
        XCTAssertTrue(error.contains("maximum depth of 64"), error)
    }

    func testDescriptionOfADeepValueIsWrittenWithoutRecursion() async throws {
        let text = try await inTaskAndOnSmallStack {
            var value = JSONRPCValue.string("x")
            for index in 0..<2_000 { value = index.isMultiple(of: 2) ? .array([value, .null]) : .object(["k": value]) }
            return value.description
        }
        var expected = ""
        for index in (0..<2_000).reversed() { expected += index.isMultiple(of: 2) ? "[" : #"{"k":"# }
        expected += #""x""#
        for index in 0..<2_000 { expected += index.isMultiple(of: 2) ? ",null]" : "}" }
        assertSameText(text, expected)
    }

    // MARK: Through a call

    private func perform(answering body: String) async -> Result<Int, WebServiceError> {
        let (client, _) = makeStubClient(fallback: jsonStub(body))
        do {
            return .success(try await client.perform(JSONRPCEndpoint(relativePath: "rpc"), .subtract, [42, 23]))
        } catch {
            return .failure(error)
        }
    }

    func testErrorDataNestedPastTheLimitFailsTheCallAsDecoding() async throws {
        for levels in [limit - 1, 100_000] {
            let body = #"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":"# + Self.nested(levels) + "}}"
            let result = await perform(answering: body)
            guard case .failure(let error) = result else { return XCTFail("\(levels) levels: \(result)") }
            guard case .decoding = error.reason else { return XCTFail("\(levels) levels: \(error)") }
        }
    }

    func testErrorDataJustUnderTheLimitIsKept() async throws {
        // The data sits two levels down: {"error": {"data": …}}.
        let levels = limit - 2
        let body = #"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":"# + Self.nested(levels) + "}}"
        let result = await perform(answering: body)
        guard case .failure(let error) = result, let failure = error.jsonRPCError else {
            return XCTFail("\(result)")
        }
        assertSameText(failure.data?.description, Self.nested(levels))
    }
}
