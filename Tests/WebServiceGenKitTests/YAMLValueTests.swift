import WebServiceGenKit
import XCTest

/// ``YAMLNode/value()``: YAML 1.2's core schema (§10.3.2) into ``YAMLValue``, and a real OpenAPI document.
final class YAMLValueTests: XCTestCase {
    private func plain(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> YAMLValue {
        try XCTUnwrap(try yamlValue("- " + text, file: file, line: line).arrayValue?.first, file: file, line: line)
    }

    func testNull() throws {
        for text in ["null", "Null", "NULL", "~", ""] { XCTAssertEqual(try plain(text), .null, text) }
        for text in ["nULL", "none", "nil", "'null'", "\"~\""] {
            XCTAssertEqual(try plain(text).stringValue != nil, true, text)
        }
    }

    func testBool() throws {
        for text in ["true", "True", "TRUE"] { XCTAssertEqual(try plain(text), .bool(true), text) }
        for text in ["false", "False", "FALSE"] { XCTAssertEqual(try plain(text), .bool(false), text) }
        // YAML 1.1's booleans are strings in YAML 1.2.
        for text in ["yes", "no", "on", "off", "y", "n", "Yes", "tRUE"] {
            XCTAssertEqual(try plain(text), .string(text), text)
        }
    }

    func testInt() throws {
        let cases: [(String, Int64)] = [
            ("0", 0), ("-0", 0), ("+12", 12), ("007", 7), ("-42", -42), ("0o17", 15), ("0o0", 0), ("0x1F", 31),
            ("0xff", 255), ("0x0", 0), ("9223372036854775807", .max), ("-9223372036854775808", .min),
            ("0x7FFFFFFFFFFFFFFF", .max), ("0o777777777777777777777", .max),
        ]
        for (text, value) in cases { XCTAssertEqual(try plain(text), .int(value), text) }
        // Not ints in YAML 1.2: YAML 1.1's octal, binary and separators; a signed or upper-case base.
        for text in ["0b101", "1_000", "0O17", "0X1F", "-0x1", "+0o7", "0x", "0o", "0o8", "1:30", "12e"] {
            XCTAssertEqual(try plain(text), .string(text), text)
        }
    }

    func testIntegersBeyondInt64AreDoubles() throws {
        XCTAssertEqual(try plain("9223372036854775808"), .double(9_223_372_036_854_775_808))
        XCTAssertEqual(try plain("-9223372036854775809"), .double(-0x1p63))
        XCTAssertEqual(try plain("18446744073709551615"), .double(0x1p64))
        XCTAssertEqual(try plain("0x8000000000000000"), .double(9_223_372_036_854_775_808))
        XCTAssertEqual(try plain("0x" + String(repeating: "f", count: 40)), .double(0x1p160))
        XCTAssertEqual(try plain("1" + String(repeating: "0", count: 30)), .double(1e30))
        // Rounded once, to the nearest double: 2^64 + 2^11 + 1 is nearer to 2^64 + 2^12.
        XCTAssertEqual(try plain("0x10000000000000801"), .double(0x1.0000000000001p64))
        // The node keeps the text.
        XCTAssertEqual(try yamlNode("99999999999999999999").scalarText, "99999999999999999999")
    }

    func testFloat() throws {
        let cases: [(String, Double)] = [
            ("1.5", 1.5), ("-2.5e3", -2500), ("1e5", 100_000), ("1E+05", 100_000), ("1e-5", 0.00001), (".5", 0.5),
            ("5.", 5), ("+.5", 0.5), ("-.5", -0.5), ("1.e3", 1000), ("0.1", 0.1), ("4.9e-324", .leastNonzeroMagnitude),
            ("1e400", .infinity), ("-1e400", -.infinity), ("1e-400", 0),
            (".inf", .infinity), (".Inf", .infinity), ("+.INF", .infinity), ("-.inf", -.infinity),
        ]
        for (text, value) in cases { XCTAssertEqual(try plain(text), .double(value), text) }
        for text in [".nan", ".NaN", ".NAN"] {
            guard case .double(let value) = try plain(text) else { return XCTFail(text) }
            XCTAssertTrue(value.isNaN, text)
        }
        for text in [".", "e5", ".e3", "1e", "-.nan", ".INf", "1.2.3", "+", "1,5"] {
            XCTAssertEqual(try plain(text), .string(text), text)
        }
    }

    func testQuotedAndBlockScalarsAreStrings() throws {
        XCTAssertEqual(
            try yamlValue("- '1'\n- \"true\"\n- |\n  null\n- >-\n  12\n"),
            .array([.string("1"), .string("true"), .string("null\n"), .string("12")]))
    }

    func testTagsDecide() throws {
        XCTAssertEqual(
            try yamlValue(
                "- !!str 1\n- !!int '0x10'\n- !!float 1\n- !!float '-.inf'\n- !!bool \"true\"\n- !!null ''\n- ! 1\n- !x 1"
            ),
            .array([
                .string("1"), .int(16), .double(1), .double(-.infinity), .bool(true), .null, .string("1"), .string("1"),
            ]))
        XCTAssertEqual(try yamlNode("- 1\n- ! 1").elements?.map(\.resolvedTag), [YAMLTag.int, YAMLTag.string])
    }

    func testKeysAreTheirText() throws {
        XCTAssertEqual(
            try yamlValue(
                "200: ok\n0x1F: hex\n~: tilde\ntrue: yes\n1.50: x\n'quoted': q\n\"a\\tb\": t\n!custom c: d\n"),
            object([
                "200": .string("ok"), "0x1F": .string("hex"), "~": .string("tilde"), "true": .string("yes"),
                "1.50": .string("x"),
                "quoted": .string("q"), "a\tb": .string("t"), "c": .string("d"),
            ]))
    }

    func testMembersKeepTheOrderOfTheText() throws {
        let keys = (0..<50).map { "k\(($0 * 37) % 50)" }
        let value = try yamlValue(keys.map { "\($0): 1" }.joined(separator: "\n"))
        guard case .object(let members) = value else { return XCTFail("\(value)") }
        XCTAssertEqual(members.map(\.key), keys)
        XCTAssertEqual(value["k37"], .int(1))
        XCTAssertNil(value["nope"])
    }

    func testAnOpenAPIDocument() throws {
        let text = """
            openapi: 3.1.0
            info:
              title: Petstore
              version: "1.0.0"
              description: |
                A sample API.
                Second line.
            servers:
              - url: https://petstore.example.com/v1
            paths:
              /pets/{petId}:
                get:
                  operationId: showPetById
                  tags: [pets]
                  parameters:
                    - name: petId
                      in: path
                      required: true
                      schema:
                        type: string
                  responses:
                    200:
                      description: Expected response to a valid request
                      content:
                        application/json:
                          schema:
                            $ref: "#/components/schemas/Pet"
                    default: &error
                      description: unexpected error
                  x-codegen: {enabled: yes, limit: ~, ratio: 0.5}
            components:
              schemas:
                Pet:
                  type: object
                  required:
                  - id
                  - name
                  properties:
                    id: {type: integer, format: int64, maximum: 18446744073709551615}
                    name:
                      type: string
                      pattern: '^[a-z]+(?:-[a-z]+)*$'
              responses:
                Error: *error

            """
        let value = try yamlValue(text)
        XCTAssertEqual(value["openapi"], .string("3.1.0"))
        XCTAssertEqual(value["info"]?["version"], .string("1.0.0"))
        XCTAssertEqual(value["info"]?["description"], .string("A sample API.\nSecond line.\n"))
        XCTAssertEqual(value["servers"], .array([object(["url": .string("https://petstore.example.com/v1")])]))
        let get = value["paths"]?["/pets/{petId}"]?["get"]
        XCTAssertEqual(get?["tags"], .array([.string("pets")]))
        XCTAssertEqual(
            get?["parameters"],
            .array([
                object([
                    "name": .string("petId"), "in": .string("path"), "required": .bool(true),
                    "schema": object(["type": .string("string")]),
                ])
            ]))
        XCTAssertEqual(
            get?["responses"]?["200"]?["content"]?["application/json"]?["schema"],
            object(["$ref": .string("#/components/schemas/Pet")]))
        XCTAssertEqual(get?["x-codegen"], object(["enabled": .string("yes"), "limit": .null, "ratio": .double(0.5)]))
        let pet = value["components"]?["schemas"]?["Pet"]
        XCTAssertEqual(pet?["required"], .array([.string("id"), .string("name")]))
        XCTAssertEqual(pet?["properties"]?["id"]?["maximum"], .double(0x1p64))
        XCTAssertEqual(pet?["properties"]?["name"]?["pattern"], .string("^[a-z]+(?:-[a-z]+)*$"))
        XCTAssertEqual(
            value["components"]?["responses"]?["Error"], object(["description": .string("unexpected error")]))
        // The node tree tells where each part is.
        let node = try yamlNode(text)
        let petId = try XCTUnwrap(node["paths"]?["/pets/{petId}"]?["get"]?["parameters"]?.elements?.first)
        XCTAssertEqual([petId.line, petId.column], [16, 11])
    }

    func testJSONIsYAML() throws {
        let json = #"{"a": [1, 2.5, -3e2, true, false, null, "x\u00e9\n"], "b": {"c": {}}, "d": []}"#
        XCTAssertEqual(
            try yamlValue(json),
            object([
                "a": .array([.int(1), .double(2.5), .double(-300), .bool(true), .bool(false), .null, .string("xé\n")]),
                "b": object(["c": .object([])]), "d": .array([]),
            ]))
    }
}

extension YAMLValue {
    fileprivate var arrayValue: [YAMLValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
