import Foundation
import WebServiceKit
import XCTest

/// `StyledFormRequestSerializer`: form bodies by OpenAPI's Encoding Object rules, each member
/// written as a query parameter of its style would be.
final class StyledFormRequestSerializerTests: XCTestCase {
    struct Form: Encodable {
        let q: String
        let tags: [String]
        let empty: [String]
        let missing: String?
        let filter: [String: Int]
    }

    func body(_ value: Any, _ styles: [String: ParameterStyle] = [:]) throws -> String {
        let serialized = try StyledFormRequestSerializer(styles: styles).serialize(value, charset: .utf8)
        XCTAssertEqual(serialized.contentType, "application/x-www-form-urlencoded")
        return String(decoding: serialized.data, as: UTF8.self)
    }

    func testEachMemberIsWrittenByItsStyle() throws {
        let form = Form(q: "a b&c=d+e", tags: ["x", "y z"], empty: [], missing: nil, filter: ["min": 1])
        // form, exploding: a list repeats its field, an object's members are fields of their own.
        XCTAssertEqual(try body(form), "q=a%20b%26c%3Dd%2Be&tags=x&tags=y%20z&min=1")
        XCTAssertEqual(
            try body(form, ["tags": .form("tags", explode: false), "filter": .deepObject("filter")]),
            "q=a%20b%26c%3Dd%2Be&tags=x,y%20z&filter%5Bmin%5D=1")
        XCTAssertEqual(try body(form, ["tags": .pipeDelimited("tags")]), "q=a%20b%26c%3Dd%2Be&tags=x%7Cy%20z&min=1")
        XCTAssertEqual(
            try body(form, ["q": .form("q", allowReserved: true)]), "q=a%20b%26c%3Dd%2Be&tags=x&tags=y%20z&min=1")
        XCTAssertEqual(try body(["b": "2", "a": "1"]), "a=1&b=2")
    }

    func testWhatHasNoFormIsATypedErrorNamingTheMember() {
        struct Nested: Encodable { let deep: [[Int]] }
        XCTAssertThrowsError(try body(Nested(deep: [[1]]))) { error in
            XCTAssertTrue("\(error)".contains("deep"), "\(error)")
        }
        XCTAssertThrowsError(
            try body(Form(q: "", tags: [], empty: [], missing: nil, filter: [:]), ["q": .deepObject("q")])
        ) {
            error in
            XCTAssertTrue("\(error)".contains("member q"), "\(error)")
        }
        XCTAssertThrowsError(try body(42)) { error in XCTAssertTrue("\(error)".contains("form body"), "\(error)") }
    }
}
