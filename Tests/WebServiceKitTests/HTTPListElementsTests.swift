import Foundation
import XCTest

@testable import WebServiceKit

/// Comma-separated list fields (RFC 9110 §5.6.1): `Connection`, `Vary`, codings.
final class HTTPListElementsTests: XCTestCase {
    func testElementsOfEveryFieldTrimmedOfOWSAndLoweredInASCII() {
        let headers = HTTPHeaders([
            .init(name: "Connection", value: " Keep-Alive ,\tUpgrade,, "),
            .init(name: "connection", value: "CLOSE"),
            .init(name: "Vary", value: "Accept"),
        ])
        XCTAssertEqual(headers.listElements(for: "Connection"), ["keep-alive", "upgrade", "close"])
        XCTAssertEqual(headers.listElements(for: "Vary"), ["accept"])
        XCTAssertEqual(headers.listElements(for: "Missing"), [])
    }

    /// Only SP and HTAB are optional whitespace (§5.6.3), and only ASCII letters are lowered: a
    /// no-break space or a KELVIN SIGN never makes `close` or `chunked` of another value, as it
    /// would with Foundation's trimming or Unicode case mapping.
    func testNoUnicodeTrimmingOrCaseMapping() {
        let headers = HTTPHeaders([
            .init(name: "Connection", value: "\u{00A0}close"),
            .init(name: "Transfer-Encoding", value: "chun\u{212A}ed"),
        ])
        XCTAssertEqual(headers.listElements(for: "Connection"), ["\u{00A0}close"])
        XCTAssertFalse(headers.listElements(for: "Connection").contains("close"))
        XCTAssertEqual(headers.listElements(for: "Transfer-Encoding"), ["chun\u{212A}ed"])
        XCTAssertEqual(
            HTTPHeaders.listElementBytes(["a , b", ""]).map { String(decoding: $0, as: UTF8.self) }, ["a", "b"])
    }
}
