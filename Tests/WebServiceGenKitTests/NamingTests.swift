import XCTest

@testable import WebServiceGenKit

final class NamingTests: XCTestCase {
    func testTypeNames() {
        XCTAssertEqual(SwiftNaming.typeName("GoogleLocation"), "GoogleLocation")
        XCTAssertEqual(SwiftNaming.typeName("place_details"), "PlaceDetails")
        XCTAssertEqual(SwiftNaming.typeName("user-info.v2"), "UserInfoV2")
        XCTAssertEqual(SwiftNaming.typeName("HTTPBinGetArgs"), "HTTPBinGetArgs")
        XCTAssertEqual(SwiftNaming.typeName("2fa"), "_2fa")
        XCTAssertEqual(SwiftNaming.typeName("Data"), "DataModel")
        XCTAssertEqual(SwiftNaming.typeName("string"), "StringModel")
        XCTAssertEqual(SwiftNaming.typeName("URL"), "URLModel")
    }

    func testMemberNames() {
        XCTAssertEqual(SwiftNaming.memberName("formatted_address"), "formattedAddress")
        XCTAssertEqual(SwiftNaming.memberName("URLString"), "urlString")
        XCTAssertEqual(SwiftNaming.memberName("ID"), "id")
        XCTAssertEqual(SwiftNaming.memberName("Name"), "name")
        XCTAssertEqual(SwiftNaming.memberName("already_camelCase"), "alreadyCamelCase")
        XCTAssertEqual(SwiftNaming.memberName("x-request-id"), "xRequestId")
        XCTAssertEqual(SwiftNaming.memberName("1st"), "_1st")
        XCTAssertEqual(SwiftNaming.memberName("default"), "`default`")
        XCTAssertEqual(SwiftNaming.memberName("class"), "`class`")
        XCTAssertEqual(SwiftNaming.memberName("self"), "selfValue")
        XCTAssertEqual(SwiftNaming.memberName("init"), "initValue")
        XCTAssertEqual(SwiftNaming.memberName("__"), "value")
    }

    func testReservedWordsInGeneratedCode() throws {
        let swift = try generate([
            "R.json": iface(#"{"struct": "Data", "typedef": {"default": "string", "self": "int32", "type": "bool"}}"#)
        ])
        XCTAssertTrue(swift.contains("struct DataModel: Codable, Sendable, Equatable {"))
        XCTAssertTrue(swift.contains("    var `default`: String\n"))
        XCTAssertTrue(swift.contains("    var selfValue: Int32\n"))
        XCTAssertTrue(swift.contains("    var type: Bool\n"))
        XCTAssertTrue(swift.contains("        self.default = `default`\n"))
        XCTAssertTrue(swift.contains("        self.selfValue = selfValue\n"))
        XCTAssertTrue(swift.contains("        case `default`\n"))
        XCTAssertTrue(swift.contains("        case selfValue = \"self\"\n"))
    }

    func testStringLiterals() {
        XCTAssertEqual(SwiftNaming.stringLiteral(#"a"b\c"#), #""a\"b\\c""#)
        XCTAssertEqual(SwiftNaming.stringLiteral("line\nnext\u{1}"), #""line\nnext\u{1}""#)
    }
}
