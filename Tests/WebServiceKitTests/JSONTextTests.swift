import Foundation
import XCTest

@testable import WebServiceKit
@testable import WebServiceKitJSONRPC

/// The element scanner a batch's results are decoded through: each element's exact bytes,
/// whatever its strings hold, and `nil` for text that is not one array.
final class JSONTextTests: XCTestCase {
    private func elements(_ text: String) -> [String]? {
        let data = Data(text.utf8)
        return JSONText.arrayElementRanges(of: data)?.map { String(decoding: data[$0], as: UTF8.self) }
    }

    func testElementsOfAnArrayAreTheirOwnBytesTrimmed() {
        XCTAssertEqual(
            elements(#" [ 1 , "two" ,{"a":[3,{"b":4}]},  null,true,-5.5e3 ] "#),
            ["1", #""two""#, #"{"a":[3,{"b":4}]}"#, "null", "true", "-5.5e3"])
        XCTAssertEqual(elements("[]"), [])
        XCTAssertEqual(elements(" [ \n ] "), [])
        XCTAssertEqual(elements("[[],[[]],{}]"), ["[]", "[[]]", "{}"])
    }

    func testBracketsCommasAndQuotesInsideStringsDoNotCount() {
        XCTAssertEqual(
            elements(#"["a,b", "]", "[{", "\"],[", "back\\", "\\\"", {"k]":"v,"}]"#),
            [#""a,b""#, #""]""#, #""[{""#, #""\"],[""#, #""back\\""#, #""\\\"""#, #"{"k]":"v,"}"#])
    }

    func testTextThatIsNotOneArrayHasNoElements() {
        for text in [
            "", "   ", "{}", #""[1]""#, "1", "[1,2", "[1,2]]", "[1] [2]", "[1],", "[,1]", "[1,,2]", "]", #"["open]"#,
        ] {
            XCTAssertNil(elements(text), text)
        }
    }

    func testDeepNestingDoesNotRecurse() {
        let depth = 200_000
        let text = "[" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ",1]"
        XCTAssertEqual(elements(text)?.count, 2)
    }

    func testElementsOfASliceAreIndexedInTheSlice() throws {
        let whole = Data(#"xx[1,{"result":2}]"#.utf8)
        let slice = whole[whole.startIndex + 2..<whole.endIndex]
        let ranges = try XCTUnwrap(JSONText.arrayElementRanges(of: slice))
        XCTAssertEqual(ranges.map { String(decoding: slice[$0], as: UTF8.self) }, ["1", #"{"result":2}"#])
    }

    func testABatchPayloadKeepsWhereEachResponseObjectIs() throws {
        let body = Data(
            #"[{"jsonrpc":"2.0","result":[1,"]"],"id":2} , {"jsonrpc":"2.0","result":{"a":1},"id":1}]"#.utf8)
        let payload = try JSONRPCResponseSerializer(decoder: nil).deserialize(
            body, context: ResponseContext(statusCode: 200, headers: ["Content-Type": "application/json"]))
        let elements = try XCTUnwrap(payload.elements, "results are read from their own objects")
        XCTAssertEqual(
            elements.map { String(decoding: body[$0], as: UTF8.self) },
            [#"{"jsonrpc":"2.0","result":[1,"]"],"id":2}"#, #"{"jsonrpc":"2.0","result":{"a":1},"id":1}"#])
        XCTAssertEqual(try payload.result([String: Int].self, inElement: 1, statusCode: 200), ["a": 1])
    }
}
