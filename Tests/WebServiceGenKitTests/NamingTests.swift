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

    /// Only a whole generated name is checked against the reserved names: a URI segment, a message
    /// name, a method name or a key that is `encoder`, `data` or `url` is an ordinary part of a longer
    /// name (issue 22, item 20: it used to put `Model` inside every name built from it).
    func testReservedNamesAreCheckedOnTheWholeGeneratedName() throws {
        XCTAssertEqual(SwiftNaming.typeNamePart("encoder"), "Encoder")
        XCTAssertEqual(SwiftNaming.typeNamePart("2fa"), "2fa")
        XCTAssertEqual(SwiftNaming.typeNamePart(""), "")

        let http = try load([
            "m.http": """
            MESSAGE /stream/encoder { GET REQUEST { INT32 q; } GET RESPONSE { STRING s; } }
            MESSAGE /user/$id/data { POST REQUEST { STRING note; } POST RESPONSE { BOOL ok; } }
            MESSAGE(Decoder) /decode { GET RESPONSE { STRING text; } }
            MESSAGE(Data) /whole { GET RESPONSE { STRING text; } }
            """
        ])
        XCTAssertEqual(http.endpoints.map(\.name), ["GetStreamEncoder", "PostUserIdData", "GetDecoder", "GetData"])
        XCTAssertEqual(
            http.structures.map(\.name).sorted(),
            [
                "GetDataResponse", "GetDecoderResponse", "GetStreamEncoderResponse", "PostUserIdDataRequest",
                "PostUserIdDataResponse",
            ])

        let iface = try load([
            "I.json": iface(
                """
                {"struct": "Page", "typedef": {"url": {"host": "string"}, "data": [{"n": "int32"}]}},
                {"post": "encoder", "endpoint": "enc", "request": {"text": "string"}, "response": {"a": "int32", "b": "int32"}},
                {"get": "fetch", "endpoint": "f", "response": {"data": {"x": "int32"}}}
                """)
        ])
        XCTAssertEqual(
            iface.structures.map(\.name).sorted(),
            ["EncoderRequest", "EncoderResponse", "FetchData", "Page", "PageDataItem", "PageUrl"])

        let swift = try generate([
            "m.http": "MESSAGE /stream/encoder { GET RESPONSE { STRING s; } }\nSTRUCT Encoder { STRING e; }"
        ])
        XCTAssertTrue(swift.contains("struct GetStreamEncoderResponse: Codable, Sendable, Equatable {"))
        XCTAssertTrue(swift.contains("static let getStreamEncoder = WebServiceCall("))
        // A whole name that clashes still gets `Model`.
        XCTAssertTrue(swift.contains("struct EncoderModel: Codable, Sendable, Equatable {"))
        XCTAssertFalse(swift.contains("GetStreamEncoderModel"))
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
