import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import XCTest

/// JSON values, ids, id generators and error codes.
final class JSONRPCValueTests: XCTestCase {
    func testValuesRoundTripAndRead() throws {
        let json = #"{"a":[1,2.5,"x",true,null],"b":{"c":-7},"big":9007199254740993}"#
        let value = try JSONDecoder().decode(JSONRPCValue.self, from: Data(json.utf8))
        XCTAssertEqual(
            value,
            ["a": [1, 2.5, "x", true, nil], "b": ["c": -7], "big": .integer(9_007_199_254_740_993)])
        XCTAssertEqual(value["a"]?[1]?.doubleValue, 2.5)
        XCTAssertEqual(value["a"]?[2]?.stringValue, "x")
        XCTAssertEqual(value["a"]?[3]?.boolValue, true)
        XCTAssertEqual(value["a"]?[4]?.isNull, true)
        XCTAssertEqual(value["b"]?["c"]?.intValue, -7)
        XCTAssertNil(value["a"]?[9])
        XCTAssertEqual(value["big"]?.intValue, 9_007_199_254_740_993, "integers keep every digit")
        XCTAssertEqual(value.description, #"{"a":[1,2.5,"x",true,null],"b":{"c":-7},"big":9007199254740993}"#)
        let again = try JSONDecoder().decode(JSONRPCValue.self, from: JSONEncoder().encode(value))
        XCTAssertEqual(again, value)

        struct Point: Codable, Equatable { let x: Int; let y: Double }
        let point = try JSONRPCValue(encoding: Point(x: 1, y: 0.5))
        XCTAssertEqual(point, ["x": 1, "y": 0.5])
        XCTAssertEqual(try point.decode(Point.self), Point(x: 1, y: 0.5))
        XCTAssertThrowsError(try JSONRPCValue.string("no").decode(Point.self))
    }

    func testIDsEncodeAsNumbersOrStrings() throws {
        XCTAssertEqual(
            String(decoding: try JSONEncoder().encode([JSONRPCID.number(3), "a\"b"]), as: UTF8.self), #"[3,"a\"b"]"#)
        XCTAssertEqual(try JSONDecoder().decode([JSONRPCID].self, from: Data(#"[3,"x"]"#.utf8)), [3, "x"])
        XCTAssertThrowsError(try JSONDecoder().decode(JSONRPCID.self, from: Data("1.5".utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(JSONRPCID.self, from: Data("true".utf8)))
        XCTAssertEqual(JSONRPCID.string("a\"b").description, #""a\"b""#)
    }

    func testGeneratorsCountAndStayUniqueAcrossThreads() {
        let numbers = JSONRPCNumberIDGenerator()
        XCTAssertEqual([numbers.next(), numbers.next(), numbers.next()], [1, 2, 3])
        XCTAssertEqual(JSONRPCNumberIDGenerator(first: 100).next(), 100)
        let strings = JSONRPCStringIDGenerator(prefix: "req-")
        XCTAssertEqual([strings.next(), strings.next()], ["req-1", "req-2"])
        let uuids = JSONRPCStringIDGenerator.uuids()
        guard case .string(let text) = uuids.next() else { return XCTFail("a UUID string") }
        XCTAssertNotNil(UUID(uuidString: text))

        let shared = JSONRPCNumberIDGenerator()
        let seen = NSLock()
        nonisolated(unsafe) var ids = Set<JSONRPCID>()
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in
            let id = shared.next()
            seen.withLock { _ = ids.insert(id) }
        }
        XCTAssertEqual(ids.count, 1000)
        XCTAssertEqual(ids, Set((1...1000).map { JSONRPCID.number($0) }))
    }

    func testErrorCodes() throws {
        XCTAssertEqual(JSONRPCError.Code.parseError.rawValue, -32700)
        XCTAssertEqual(JSONRPCError.Code.invalidRequest.rawValue, -32600)
        XCTAssertEqual(JSONRPCError.Code.methodNotFound.rawValue, -32601)
        XCTAssertEqual(JSONRPCError.Code.invalidParams.rawValue, -32602)
        XCTAssertEqual(JSONRPCError.Code.internalError.rawValue, -32603)
        XCTAssertTrue(JSONRPCError.Code(rawValue: -32000).isServerError)
        XCTAssertTrue(JSONRPCError.Code(rawValue: -32099).isServerError)
        XCTAssertFalse(JSONRPCError.Code(rawValue: -32100).isServerError)
        XCTAssertTrue(JSONRPCError.Code(rawValue: -32100).isReserved)
        XCTAssertFalse(JSONRPCError.Code(rawValue: 42).isReserved)
        XCTAssertEqual(JSONRPCError.Code(rawValue: -32001).description, "-32001 (server error)")
        let error = try JSONDecoder().decode(
            JSONRPCError.self, from: Data(#"{"code":-32601,"message":"Method not found"}"#.utf8))
        XCTAssertEqual(error, JSONRPCError(code: .methodNotFound, message: "Method not found"))
        XCTAssertEqual(error.description, "JSON-RPC error -32601 (method not found): Method not found")
        XCTAssertNil(try error.decodeData(String.self))
    }
}
