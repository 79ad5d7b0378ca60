import Foundation
import XCTest

@testable import WebServiceKit

/// The JSON body writer (`JSONBodyWriter`) writes what `JSONEncoder()` writes, the oracle here
/// (byte for byte but for the order of an object's members, which `JSONEncoder` on Linux takes
/// from a hashed dictionary: `canonicalJSON`), for chosen values, for every case of
/// `JSONBodySample` (the `json-body` fuzz target's values, in `Tests/Fuzz/Support`) and for
/// 20,000 random ones; and where it does not follow a value, the serializer sends
/// `JSONEncoder`'s bytes or error.
final class JSONBodyWriterTests: XCTestCase {
    private func assertSameAsJSONEncoder(
        _ value: some Encodable, written expectWritten: Bool = true, file: StaticString = #filePath, line: UInt = #line
    ) {
        let expected = (try? JSONEncoder().encode(value)).map { canonicalJSON([UInt8]($0)) }
        let written = JSONBodyWriter.write(value)
        if expectWritten {
            XCTAssertNotNil(written, "the writer left \(value) to JSONEncoder", file: file, line: line)
        }
        if let written {
            XCTAssertNotNil(canonicalJSON(written), "not JSON: \(String(decoding: written, as: UTF8.self))")
            XCTAssertEqual(
                canonicalJSON(written).map { String(decoding: $0, as: UTF8.self) },
                expected.map { String(decoding: $0 ?? [], as: UTF8.self) }, file: file, line: line)
        }
        let sent = (try? JSONBodyEncoding.encode(value, with: JSONEncoder())).map { canonicalJSON([UInt8]($0)) }
        XCTAssertEqual(sent, expected, file: file, line: line)
    }

    func testPrimitivesAndFoundationTypesAsJSONEncoderWritesThem() {
        assertSameAsJSONEncoder([
            1.0, 0.1, 1e20, 1e21, 1e-7, 123456789012345678.0, -0.0, .leastNonzeroMagnitude, 1e16, 1e15,
        ])
        assertSameAsJSONEncoder([Double.greatestFiniteMagnitude, -Double.leastNormalMagnitude, 2.5e-8])
        assertSameAsJSONEncoder([Float(1.0), Float(0.1), Float(1e20), Float(3.4e38), Float(-1.5e-40)])
        assertSameAsJSONEncoder([Int.min, Int.max, 0, -1])
        assertSameAsJSONEncoder([UInt64.max, 0])
        assertSameAsJSONEncoder([Int8.min, Int8.max])
        assertSameAsJSONEncoder([UInt8.max])
        assertSameAsJSONEncoder(["a/b\u{7f}\u{0}\u{1}\u{1f}\"\\\n\t\u{8}\u{c}\r é 😀 \u{2028}", ""])
        assertSameAsJSONEncoder(Data([1, 2, 3, 255, 0xFB, 0xFF]))
        assertSameAsJSONEncoder(URL(string: "https://example.com/a%20b?q=1#f")!)
        assertSameAsJSONEncoder(Decimal(string: "12.340")!)
        assertSameAsJSONEncoder(Decimal(string: "-0.000000000000000000000000001")!)
        assertSameAsJSONEncoder(Date(timeIntervalSinceReferenceDate: 1.5))
        assertSameAsJSONEncoder(Date(timeIntervalSinceReferenceDate: 86_400))
        assertSameAsJSONEncoder([1: "a", 2: "b"])
        assertSameAsJSONEncoder(["x": [true, false], "y": []])
        assertSameAsJSONEncoder(Int?.none)
        assertSameAsJSONEncoder("top")
    }

    /// A synthesized `Encodable` struct: the everyday body, its members in the order they are
    /// declared (`JSONEncoder` on Linux: in a hashed order that changes between processes).
    func testSynthesizedStructures() {
        struct Item: Encodable {
            let name: String
            let value: Int
            let note: String?
            let tags: [String]
            let ratio: Double
        }
        struct Body: Encodable {
            let items: [Item]
            let owner: [String: String]
            let empty: [Item]
        }
        let items = (0..<20).map {
            Item(
                name: "item \($0) / \"quoted\"", value: $0 * 1_000_003, note: $0 % 2 == 0 ? nil : "n\($0)",
                tags: ["a", "b"], ratio: Double($0) / 3)
        }
        assertSameAsJSONEncoder(Body(items: items, owner: ["name": "kit"], empty: []))
        let one = Body(items: [items[1]], owner: [:], empty: [])
        XCTAssertEqual(
            JSONBodyWriter.write(one).map { String(decoding: $0, as: UTF8.self) },
            #"{"items":[{"name":"item 1 \/ \"quoted\"","value":1000003,"note":"n1","tags":["a","b"],"#
                + #""ratio":0.3333333333333333}],"owner":{},"empty":[]}"#)
    }

    /// A class and its superclass asking for the same keyed container: one object, as
    /// `JSONEncoder` merges it.
    func testASuperclassAndSubclassShareTheirObject() {
        class Base: Encodable {
            var id = 7
        }
        final class Derived: Base {
            let name = "derived"
            enum Keys: CodingKey { case name }
            override func encode(to encoder: any Encoder) throws {
                try super.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(name, forKey: .name)
            }
        }
        assertSameAsJSONEncoder(Derived())
    }

    /// What the writer leaves to `JSONEncoder`: the serializer's bytes or error are still its.
    func testWhatTheWriterLeavesToJSONEncoder() {
        for sample: JSONBodySample in [
            .object([("a", .int(1)), ("a", .int(2))], asksTwice: false),
            .superEncoded(.int(3)),
            .staleContainer("x"),
            .nothing,
            .double(.nan),
            .float(.infinity),
            .decimal(.nan),
        ] {
            XCTAssertNil(JSONBodyWriter.write(sample), "\(sample)")
            assertSameAsJSONEncoder(sample, written: false)
        }
        XCTAssertThrowsError(try JSONBodyEncoding.encode(JSONBodySample.double(.nan), with: JSONEncoder())) {
            XCTAssertTrue($0 is EncodingError, "JSONEncoder's own error: \($0)")
        }
        var deep = JSONBodySample.int(1)
        for _ in 0..<300 { deep = .array([deep]) }
        XCTAssertNil(JSONBodyWriter.write(deep), "deeper than the writer's limit")
        assertSameAsJSONEncoder(deep, written: false)
    }

    /// Every other way of writing in `JSONBodySample`, nested, is written by the writer itself.
    func testContainersNestedEveryWay() {
        let samples: [JSONBodySample] = [
            .object([("a", .array([.int(1), .nothing])), ("b", .single(.string("s")))], asksTwice: true),
            .concreteMembers(-4, 2.5, "c/d", true, 255),
            .optionalMembers(nil, "x"),
            .optionalMembers(3, nil),
            .nestedInObject("k", [("a", .null), ("b", .array([]))], [.bool(false), .object([], asksTwice: false)]),
            .nestedInArray([("é", .data(Data([0xFF])))], [.url(URL(string: "https://example.com/x")!)]),
            .stringKeyed(["a": 1, "b": 2, "c/d": 3]),
            .intKeyed([3: "c", 1: "a"]),
            .single(.single(.array([.date(Date(timeIntervalSinceReferenceDate: -1))]))),
            .array([.nothing, .object([("x", .nothing)], asksTwice: false)]),
        ]
        for sample in samples { assertSameAsJSONEncoder(sample) }
    }

    /// 20,000 random samples (a fixed seed): the writer's bytes equal `JSONEncoder`'s whenever it
    /// writes, and it writes most of them.
    func testRandomSamplesMatchJSONEncoder() {
        var generator = SplitMix64(seed: 0x5EED_0B0D)
        var written = 0
        let count = 20_000
        for _ in 0..<count {
            let bytes = (0..<Int(generator.next() % 96)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let sample = JSONBodySample.make(bytes)
            let expected = (try? JSONEncoder().encode(sample)).flatMap { canonicalJSON([UInt8]($0)) }
            guard let bytesWritten = JSONBodyWriter.write(sample) else { continue }
            written += 1
            XCTAssertNotNil(expected, "JSONEncoder fails where the writer wrote; bytes \(bytes)")
            XCTAssertEqual(canonicalJSON(bytesWritten), expected, "bytes \(bytes)")
            if canonicalJSON(bytesWritten) != expected { return }
        }
        XCTAssertGreaterThan(written, count / 2, "the writer should write most samples itself")
    }

    /// The serializer uses the writer only for an encoder at its default settings.
    func testAnEncoderWithSettingsIsUsedAsItIs() throws {
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        XCTAssertFalse(JSONBodyEncoding.hasDefaultSettings(sorted))
        let dates = JSONEncoder()
        dates.dateEncodingStrategy = .iso8601
        XCTAssertFalse(JSONBodyEncoding.hasDefaultSettings(dates))
        let keys = JSONEncoder()
        keys.keyEncodingStrategy = .convertToSnakeCase
        XCTAssertFalse(JSONBodyEncoding.hasDefaultSettings(keys))
        XCTAssertTrue(JSONBodyEncoding.hasDefaultSettings(JSONEncoder()))
        let body = try JSONRequestSerializer(encoder: dates).serialize(
            ["when": Date(timeIntervalSince1970: 0)], charset: .utf8)
        XCTAssertEqual(String(decoding: body.data, as: UTF8.self), #"{"when":"1970-01-01T00:00:00Z"}"#)
    }
}
