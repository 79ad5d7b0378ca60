import Foundation
import XCTest

@testable import WebServiceKit
@testable import WebServiceKitOData

/// OData error bodies nested as deep as Foundation's parsers allow, and far deeper, read on a
/// small stack: the JSON reader keeps the `innererror` as text (Foundation's parser stops at 512
/// levels) and the XML reader follows the elements with a list of names, not by recursion.
final class ODataErrorDepthTests: XCTestCase {
    /// An OData v4 JSON error whose `innererror` nests `levels` objects.
    private static func jsonError(innerLevels levels: Int) -> Data {
        Data(
            (#"{"error":{"code":"c","message":"m","innererror":"# + String(repeating: #"{"a":"#, count: levels) + "1"
                + String(repeating: "}", count: levels) + "}}").utf8)
    }

    /// An Atom/XML OData error whose `innererror` nests `levels` elements.
    private static func xmlError(innerLevels levels: Int) -> Data {
        Data(
            (#"<m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">"#
                + "<m:code>c</m:code><m:message>m</m:message><m:innererror>"
                + String(repeating: "<a>", count: levels) + "x" + String(repeating: "</a>", count: levels)
                + "</m:innererror></m:error>").utf8)
    }

    func testJSONErrorWithInnerErrorAtTheLimitIsRead() async throws {
        // The innererror object sits two levels down: 62 more make the 64 allowed.
        let limit = ODataErrorParsing.maximumJSONDepth
        let (within, beyond, hostile) = try await inTaskAndOnSmallStack {
            (
                ODataErrorParsing.json(Self.jsonError(innerLevels: limit - 2), statusCode: 400),
                ODataErrorParsing.json(Self.jsonError(innerLevels: limit - 1), statusCode: 400),
                ODataErrorParsing.json(Self.jsonError(innerLevels: 509), statusCode: 400)
            )
        }
        let error = try XCTUnwrap(within)
        XCTAssertEqual(error.code, "c")
        XCTAssertEqual(error.message, "m")
        assertSameText(
            error.innerError,
            String(repeating: #"{"a":"#, count: limit - 2) + "1" + String(repeating: "}", count: limit - 2))
        // Not read as OData errors: the handler keeps the start of the body as the message.
        XCTAssertNil(beyond)
        XCTAssertNil(hostile)
    }

    func testDepthScanSkipsStrings() {
        let brackets = Data((#"{"a":"[[[[{{{{\"[[[[","b":[1]}"#).utf8)
        XCTAssertFalse(ODataErrorParsing.nestsDeeper(than: 2, brackets))
        XCTAssertTrue(ODataErrorParsing.nestsDeeper(than: 1, brackets))
        // An escaped backslash does not escape the quote after it.
        let backslash = Data((#"{"a":"\\","b":[[1]]}"#).utf8)
        XCTAssertFalse(ODataErrorParsing.nestsDeeper(than: 3, backslash))
        XCTAssertTrue(ODataErrorParsing.nestsDeeper(than: 2, backslash))
    }

    func testXMLErrorWithDeepInnerErrorIsRead() async throws {
        // The reader follows elements with a list of names, not by recursion, at any depth.
        let errors = try await inTaskAndOnSmallStack {
            [100, 100_000].map { ODataErrorParsing.xml(Self.xmlError(innerLevels: $0), statusCode: 400) }
        }
        for error in errors {
            XCTAssertEqual(error?.code, "c")
            XCTAssertEqual(error?.message, "m")
        }
    }
}
