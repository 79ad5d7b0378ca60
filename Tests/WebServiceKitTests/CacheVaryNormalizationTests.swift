import Foundation
import XCTest

@testable import WebServiceKit

/// Issue 22, item 6: the request fields a `Vary` nominates are compared after the normalisation
/// each field's definition allows (RFC 9111 §4.1, RFC 9110 §12.5).
final class CacheVaryNormalizationTests: XCTestCase {
    private struct Case {
        var field: String
        var first: [String]
        var second: [String]
        var match: Bool
        var why: String
    }

    private let cases: [Case] = [
        // Accept-Encoding (RFC 9110 §12.5.3): codings case-insensitive (§8.4.1), order meaningless.
        Case(field: "Accept-Encoding", first: ["gzip, br"], second: ["br,gzip"], match: true, why: "reordered"),
        Case(
            field: "Accept-Encoding", first: ["GZIP;Q=1.000"], second: ["gzip"], match: true, why: "q=1 is the default"),
        Case(
            field: "Accept-Encoding", first: ["gzip;q=0.5, br"], second: ["br , gzip ; q=0.50"], match: true,
            why: "weights compared as numbers"),
        Case(field: "Accept-Encoding", first: ["gzip"], second: ["gzip", "br"], match: false, why: "another coding"),
        Case(field: "Accept-Encoding", first: ["gzip;q=0"], second: ["gzip"], match: false, why: "q=0 refuses"),
        Case(
            field: "Accept-Encoding", first: ["gzip", "br"], second: ["br, gzip"], match: true, why: "lines combined"),
        Case(
            field: "Accept-Encoding", first: ["gzip;level=9, br"], second: ["br, gzip;level=9"], match: false,
            why: "an undefined parameter: the generic rule, order kept"),
        Case(
            field: "Accept-Encoding", first: ["gzip;q=2, br"], second: ["br, gzip;q=2"], match: false,
            why: "an invalid weight: the generic rule"),
        Case(
            field: "Accept-Charset", first: ["UTF-8, iso-8859-1;q=0.5"], second: ["iso-8859-1;q=0.5,utf-8"],
            match: true, why: "as Accept-Encoding"),
        // Accept-Language (§12.5.4): case-insensitive tags, but the order of equal weights kept.
        Case(
            field: "Accept-Language", first: ["en, de"], second: ["de,en"], match: false,
            why: "equal weights: order is a priority to some origins (§12.5.4)"),
        Case(field: "Accept-Language", first: ["en-US, de"], second: ["en-us,DE"], match: true, why: "case"),
        Case(
            field: "Accept-Language", first: ["de;q=0.5, en"], second: ["en, de;q=0.5"], match: true,
            why: "different weights: put in order of weight"),
        Case(
            field: "Accept-Language", first: ["en;q=0.8, de;q=0.8"], second: ["de;q=0.8, en;q=0.8"], match: false,
            why: "equal explicit weights keep their order"),
        Case(field: "Accept-Language", first: ["en", "de"], second: ["en, de"], match: true, why: "lines combined"),
        Case(field: "Accept-Language", first: ["en"], second: ["en;q=1"], match: true, why: "default weight"),
        // Accept (§12.5.1).
        Case(
            field: "Accept", first: ["text/html, application/json;q=0.9"],
            second: ["Application/JSON;Q=0.9,text/html"], match: true, why: "type case, order"),
        Case(
            field: "Accept", first: ["text/plain;charset=\"utf-8\""], second: ["text/plain; Charset=utf-8"],
            match: true, why: "a quoted token is the token (§5.6.6), parameter names case-insensitive"),
        Case(
            field: "Accept", first: ["text/plain;charset=UTF-8"], second: ["text/plain;charset=utf-8"], match: false,
            why: "parameter values keep their case"),
        Case(
            field: "Accept", first: ["application/json"], second: ["application/xml"], match: false, why: "another type"
        ),
        Case(
            field: "Accept", first: ["text/*;q=0.5, */*;q=0.1"], second: ["*/*;q=0.1, TEXT/*;q=.5"], match: false,
            why: "`.5` is no qvalue: the second is left as written"),
        // Any other field: whitespace and lines only.
        Case(field: "X-Variant", first: ["a, b"], second: ["a,b"], match: true, why: "whitespace"),
        Case(field: "X-Variant", first: ["a, b"], second: ["b, a"], match: false, why: "order kept"),
        Case(field: "X-Variant", first: ["A"], second: ["a"], match: false, why: "case kept"),
        Case(field: "X-Variant", first: [""], second: [], match: false, why: "empty is not absent"),
    ]

    func testFieldsMatchAsTheirDefinitionsAllow() {
        for item in cases {
            let first = CacheRules.normalizedFieldValue(named: item.field, item.first)
            let second = CacheRules.normalizedFieldValue(named: item.field, item.second)
            XCTAssertEqual(first == second, item.match, "\(item.field) \(item.first) \(item.second): \(item.why)")
            // The same through selection: a response stored for the first request, asked for by
            // the second.
            let entry = CacheEntry(
                method: .get, url: URL(string: "https://api.example.com/doc")!,
                requestHeaders: headers(item.field, item.first), status: 200,
                responseHeaders: ["Cache-Control": "max-age=60", "Vary": item.field.lowercased()],
                requestTime: Date(), responseTime: Date())
            XCTAssertEqual(
                CacheRules.varyMatches(entry, headers(item.field, item.second)), item.match,
                "selection: \(item.field) \(item.first) \(item.second)")
        }
    }

    func testTheNormalFormIsCanonical() {
        XCTAssertEqual(
            CacheRules.normalizedFieldValue(named: "accept-encoding", ["BR;q=0.50", " gzip ", "*;q=0"]),
            "*;q=0, br;q=0.5, gzip")
        XCTAssertEqual(
            CacheRules.normalizedFieldValue(named: "Accept-Language", ["fr-CH, fr;q=0.9, en;q=0.8, de;Q=0.9"]),
            "fr-ch, fr;q=0.9, de;q=0.9, en;q=0.8")
        XCTAssertEqual(
            CacheRules.normalizedFieldValue(named: "Accept", ["text/html;level=1;q=0.7 , */*;q=0.001"]),
            "*/*;q=0.001, text/html;level=1;q=0.7")
        XCTAssertNil(CacheRules.normalizedFieldValue(named: "Accept", []))
    }

    func testQualityValuesFollowTheGrammar() {
        let values: [(String, Int?)] = [
            ("1", 1000), ("1.", 1000), ("1.000", 1000), ("1.001", nil), ("0", 0), ("0.5", 500), ("0.123", 123),
            ("0.1234", nil), ("", nil), ("2", nil), (".5", nil), ("0,5", nil), ("-0", nil), ("0.5 ", nil),
            ("9999999999999999999999", nil),
        ]
        for (text, expected) in values {
            XCTAssertEqual(CacheRules.qualityValue(text), expected, text)
        }
    }

    /// Hostile values neither trap nor match what they should not.
    func testHostileValuesNeverTrap() {
        let hostile = [
            "\"", "a;", ";", ";;;", "=", "text/", "/", "*/*;q=", "*/*;=1", "x;q=0.5;q=0.5", "text/plain;a=\"b",
            String(repeating: ",", count: 10_000), String(repeating: "a;q=0.1,", count: 2_000), "\u{0}", "é;q=1",
        ]
        for field in ["Accept", "Accept-Encoding", "Accept-Language", "Accept-Charset", "X-Other"] {
            for value in hostile {
                _ = CacheRules.normalizedFieldValue(named: field, [value])
            }
        }
        XCTAssertNotEqual(
            CacheRules.normalizedFieldValue(named: "Accept", ["text/plain;a=\"b"]),
            CacheRules.normalizedFieldValue(named: "Accept", ["text/plain;a=b"]))
    }

    /// The secondary key tells apart a field the request lacked, an empty one, and names.
    func testVariantKeysAreDistinct() {
        func key(_ vary: String?, _ fields: [String: String]) -> String {
            var headers: HTTPHeaders = [:]
            if let vary { headers["Vary"] = vary }
            return CacheRules.variantKey(responseHeaders: headers, varyingRequestHeaders: fields)
        }
        XCTAssertEqual(key(nil, [:]), "")
        let keys = [
            key("Accept-Language", [:]), key("Accept-Language", ["accept-language": ""]),
            key("Accept-Language", ["accept-language": "en"]), key("Accept", ["accept": "en"]),
            key("Accept, Accept-Language", ["accept-language": "en"]),
            key("Accept, Accept-Language", ["accept": "en"]),
        ]
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertEqual(
            key("accept-language, Accept", ["accept": "a"]), key("Accept, Accept-Language, accept", ["accept": "a"]),
            "names sorted and listed once")
    }

    private func headers(_ name: String, _ values: [String]) -> HTTPHeaders {
        HTTPHeaders(values.map { HTTPHeaders.Field(name: name, value: $0) })
    }
}
