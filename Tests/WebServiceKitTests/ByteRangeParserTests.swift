import Foundation
import XCTest

@testable import WebServiceKit

/// The `Range` field parser (RFC 9110 §14.1.1, §14.1.2, §14.2) and the range arithmetic the cache
/// serves a 206 with.
final class ByteRangeParserTests: XCTestCase {
    private func parse(_ value: String) -> RangeRequest { RangeRequest(fieldValue: value) }

    func testValidByteRanges() {
        let cases: [(String, [ByteRangeSpec])] = [
            ("bytes=0-99", [.from(first: 0, last: 99)]),
            ("bytes=100-", [.from(first: 100, last: nil)]),
            ("bytes=-50", [.suffix(length: 50)]),
            ("bytes=-0", [.suffix(length: 0)]),
            // §14.1: the unit is case-insensitive.
            ("BYTES=5-5", [.from(first: 5, last: 5)]),
            // §5.6.1: OWS around the list's commas; §5.6.1.2: empty elements ignored.
            ("bytes=0-1, 4-5", [.from(first: 0, last: 1), .from(first: 4, last: 5)]),
            ("bytes=,0-1,,\t,-3 ,", [.from(first: 0, last: 1), .suffix(length: 3)]),
            // Leading zeros are digits like any other.
            ("bytes=007-0010", [.from(first: 7, last: 10)]),
            // Overlapping and descending ranges are syntactically valid (§14.2 lets a server refuse them).
            ("bytes=50-60,0-100", [.from(first: 50, last: 60), .from(first: 0, last: 100)]),
        ]
        for (value, specs) in cases {
            XCTAssertEqual(parse(value), .bytes(specs), value)
        }
    }

    func testHugeNumbersSaturateWithoutTrapping() {
        let huge = String(repeating: "9", count: 400)
        XCTAssertEqual(parse("bytes=\(huge)-"), .bytes([.from(first: .max, last: nil)]))
        XCTAssertEqual(parse("bytes=-\(huge)"), .bytes([.suffix(length: .max)]))
        XCTAssertEqual(parse("bytes=0-\(huge)"), .bytes([.from(first: 0, last: .max)]))
        XCTAssertEqual(parse("bytes=9223372036854775807-9223372036854775808"), .bytes([.from(first: .max, last: .max)]))
        // Compared as numbers of any length, not as saturated values: the last is before the first.
        XCTAssertEqual(parse("bytes=\(huge)-\(huge.dropLast())"), .invalid)
        XCTAssertEqual(parse("bytes=\(huge)-\(huge)"), .bytes([.from(first: .max, last: .max)]))
        XCTAssertEqual(parse("bytes=00000000000000000000000000001-1"), .bytes([.from(first: 1, last: 1)]))
    }

    func testInvalidFieldsAreInvalid() {
        let invalid = [
            "", "bytes", "bytes=", "bytes=,", "bytes= , ", "=0-1", "by tes=0-1", "bytes=a-b", "bytes=1-a",
            "bytes=5-2", "bytes=-", "bytes=--1", "bytes=1--2", "bytes=0-1-2", "bytes=+1-2", "bytes=-+1",
            "bytes=0 -1", "bytes=0- 1", "bytes=0x10-", "bytes=0-1,x", "bytes=0-1;q=1", "bytes=١-٢",
            "\"bytes\"=0-1",
        ]
        for value in invalid {
            XCTAssertEqual(parse(value), .invalid, value.debugDescription)
        }
    }

    func testOtherUnitsAreKeptForTheOrigin() {
        XCTAssertEqual(parse("items=0-9"), .otherUnit("0-9"))
        XCTAssertEqual(parse("bytesx=0-9"), .otherUnit("0-9"))
        XCTAssertEqual(parse(" Pages =x"), .otherUnit("x"))
    }

    func testSeveralLinesAreOneList() {
        XCTAssertEqual(
            RangeRequest(HTTPHeaders([.init(name: "Range", value: "bytes=0-1"), .init(name: "range", value: "3-4")])),
            .bytes([.from(first: 0, last: 1), .from(first: 3, last: 4)]))
        XCTAssertEqual(
            RangeRequest(
                HTTPHeaders([.init(name: "Range", value: "bytes=0-1"), .init(name: "Range", value: "bytes=3-4")])),
            .invalid)
        XCTAssertNil(RangeRequest(["Accept": "*/*"]))
    }

    /// §14.1.2: satisfiable when the first position is below the length, or a suffix is longer
    /// than zero; last positions and suffixes past the end are clamped.
    func testResolution() {
        let cases: [(ByteRangeSpec, Int64, ClosedRange<Int64>?)] = [
            (.from(first: 0, last: 99), 1000, 0...99),
            (.from(first: 0, last: 99), 50, 0...49),
            (.from(first: 100, last: nil), 1000, 100...999),
            (.from(first: 999, last: nil), 1000, 999...999),
            (.from(first: 1000, last: nil), 1000, nil),
            (.from(first: .max, last: .max), 1000, nil),
            (.from(first: 0, last: .max), 1000, 0...999),
            (.suffix(length: 50), 1000, 950...999),
            (.suffix(length: 5000), 1000, 0...999),
            (.suffix(length: .max), 1000, 0...999),
            (.suffix(length: 0), 1000, nil),
            (.from(first: 0, last: nil), 0, nil),
            (.suffix(length: 1), 0, nil),
            (.from(first: 0, last: 0), 1, 0...0),
        ]
        for (spec, length, expected) in cases {
            XCTAssertEqual(spec.resolved(length: length), expected, "\(spec) of \(length)")
        }
    }

    /// §13.1.5: a strong entity tag that matches strongly, or the exact `Last-Modified` when it is
    /// a strong validator (§8.8.2.2: `Date` at least a second later).
    func testIfRange() {
        let headers: HTTPHeaders = [
            "ETag": "\"v1\"", "Last-Modified": "Tue, 01 Jan 2030 00:00:00 GMT", "Date": "Tue, 01 Jan 2030 00:00:05 GMT",
        ]
        XCTAssertTrue(RangeServing.ifRangeMatches([], headers))
        XCTAssertTrue(RangeServing.ifRangeMatches(["\"v1\""], headers))
        XCTAssertTrue(RangeServing.ifRangeMatches([" \"v1\" "], headers))
        XCTAssertFalse(RangeServing.ifRangeMatches(["\"v2\""], headers))
        XCTAssertFalse(RangeServing.ifRangeMatches(["W/\"v1\""], headers), "a weak tag never matches")
        XCTAssertFalse(RangeServing.ifRangeMatches(["\"v1\"", "\"v1\""], headers))
        XCTAssertFalse(RangeServing.ifRangeMatches(["\"v1"], headers))
        XCTAssertTrue(RangeServing.ifRangeMatches(["Tue, 01 Jan 2030 00:00:00 GMT"], headers))
        XCTAssertFalse(RangeServing.ifRangeMatches(["Tue, 01 Jan 2030 00:00:01 GMT"], headers))
        XCTAssertFalse(RangeServing.ifRangeMatches(["yesterday"], headers))
        var weakStored = headers
        weakStored["ETag"] = "W/\"v1\""
        XCTAssertFalse(RangeServing.ifRangeMatches(["\"v1\""], weakStored), "a weak stored tag never matches")
        var weakDate = headers
        weakDate["Date"] = "Tue, 01 Jan 2030 00:00:00 GMT"
        XCTAssertFalse(
            RangeServing.ifRangeMatches(["Tue, 01 Jan 2030 00:00:00 GMT"], weakDate),
            "a Last-Modified equal to Date is weak")
        weakDate["Date"] = nil
        XCTAssertFalse(RangeServing.ifRangeMatches(["Tue, 01 Jan 2030 00:00:00 GMT"], weakDate))
    }

    /// A body is cut into ranges only when it is known to be the bytes the origin counts.
    func testBodyIsRepresentationData() {
        XCTAssertTrue(RangeServing.bodyIsRepresentationData(["Content-Length": "10"], bodyLength: 10))
        XCTAssertTrue(RangeServing.bodyIsRepresentationData(["Content-Length": " 10 "], bodyLength: 10))
        XCTAssertFalse(RangeServing.bodyIsRepresentationData(["Content-Length": "12"], bodyLength: 10))
        XCTAssertFalse(RangeServing.bodyIsRepresentationData([:], bodyLength: 10), "decoded, or chunked")
        XCTAssertTrue(RangeServing.bodyIsRepresentationData(["Content-Encoding": "x-custom"], bodyLength: 10))
        XCTAssertFalse(
            RangeServing.bodyIsRepresentationData(
                ["Content-Encoding": "x-custom", "Content-Length": "9"], bodyLength: 10))
    }

    /// Neither a 206 nor a 416 to a request with `Range` is stored; a 416 without one (a server's
    /// oddity) follows the usual rules, and a 200 to a `Range` request is a full response.
    func testPartialAnswersAreNotStorable() {
        let fresh: HTTPHeaders = ["Cache-Control": "max-age=60"]
        let ranged: HTTPHeaders = ["Range": "bytes=5-"]
        XCTAssertFalse(CacheRules.isStorable(method: .get, requestHeaders: ranged, status: 206, responseHeaders: fresh))
        XCTAssertFalse(CacheRules.isStorable(method: .get, requestHeaders: ranged, status: 416, responseHeaders: fresh))
        XCTAssertTrue(CacheRules.isStorable(method: .get, requestHeaders: [:], status: 416, responseHeaders: fresh))
        XCTAssertTrue(CacheRules.isStorable(method: .get, requestHeaders: ranged, status: 200, responseHeaders: fresh))
    }
}
