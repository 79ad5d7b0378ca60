import WebServiceGenKit
import XCTest

final class OpenAPIJSONPointerTests: XCTestCase {
    func testParsesAndRendersBothForms() throws {
        let pointer = try JSONPointer(parsing: "#/paths/~1pets~1{id}/get/a~0b")
        XCTAssertEqual(pointer.tokens, ["paths", "/pets/{id}", "get", "a~b"])
        XCTAssertEqual(pointer.description, "/paths/~1pets~1{id}/get/a~0b")
        XCTAssertEqual(try JSONPointer(parsing: pointer.description), pointer)
        XCTAssertEqual(try JSONPointer(parsing: pointer.fragment), pointer)
        XCTAssertEqual(try JSONPointer(parsing: "/a/b").tokens, ["a", "b"])
        XCTAssertEqual(try JSONPointer(parsing: "").tokens, [])
        XCTAssertEqual(try JSONPointer(parsing: "#").tokens, [])
        XCTAssertEqual(try JSONPointer(parsing: "/").tokens, [""])
        XCTAssertEqual(try JSONPointer(parsing: "/a//b").tokens, ["a", "", "b"])
        // ~01 is ~1 (a tilde then 1), not a slash.
        XCTAssertEqual(try JSONPointer(parsing: "/~01").tokens, ["~1"])
    }

    func testFragmentsArePercentDecodedAndEncoded() throws {
        let pointer = try JSONPointer(parsing: "#/components/schemas/Caf%C3%A9%20Menu/100%25")
        XCTAssertEqual(pointer.tokens, ["components", "schemas", "Café Menu", "100%"])
        XCTAssertEqual(pointer.fragment, "#/components/schemas/Caf%C3%A9%20Menu/100%25")
        // The plain form is not percent-decoded.
        XCTAssertEqual(try JSONPointer(parsing: "/a%20b").tokens, ["a%20b"])
    }

    func testBuildsByAppending() {
        let pointer = JSONPointer.root.appending("paths").appending("/pets").appending("get").appending("parameters")
            .appending(0)
        XCTAssertEqual(pointer.description, "/paths/~1pets/get/parameters/0")
        XCTAssertEqual(JSONPointer.root.description, "")
        XCTAssertEqual(JSONPointer.root.fragment, "#")
    }

    func testSyntaxErrors() {
        XCTAssertThrowsError(try JSONPointer(parsing: "a/b")) { error in
            XCTAssertEqual(error as? JSONPointerError, .missingLeadingSlash("a/b"))
        }
        XCTAssertThrowsError(try JSONPointer(parsing: "#a")) { error in
            XCTAssertEqual(error as? JSONPointerError, .missingLeadingSlash("#a"))
        }
        XCTAssertThrowsError(try JSONPointer(parsing: "/a~2")) { error in
            XCTAssertEqual(error as? JSONPointerError, .invalidEscape("/a~2"))
        }
        XCTAssertThrowsError(try JSONPointer(parsing: "/a~")) { error in
            XCTAssertEqual(error as? JSONPointerError, .invalidEscape("/a~"))
        }
        XCTAssertThrowsError(try JSONPointer(parsing: "#/a%ZZ")) { error in
            XCTAssertEqual(error as? JSONPointerError, .invalidPercentEncoding("#/a%ZZ"))
        }
    }

    func testEvaluates() throws {
        let document = try YAMLReader.value(from: #"{"a/b": [10, {"~": "x"}], "": 1, "m": {"0": "zero"}}"#)
        XCTAssertEqual(try JSONPointer(parsing: "").evaluate(in: document), document)
        XCTAssertEqual(try JSONPointer(parsing: "/a~1b/0").evaluate(in: document), .int(10))
        XCTAssertEqual(try JSONPointer(parsing: "/a~1b/1/~0").evaluate(in: document), .string("x"))
        XCTAssertEqual(try JSONPointer(parsing: "/").evaluate(in: document), .int(1))
        XCTAssertEqual(try JSONPointer(parsing: "/m/0").evaluate(in: document), .string("zero"))
    }

    func testEvaluationErrors() throws {
        let document = try YAMLReader.value(from: #"{"a": [1, 2], "s": "text"}"#)
        let a = JSONPointer(tokens: ["a"])
        func error(_ text: String) -> JSONPointerError? {
            do {
                _ = try JSONPointer(parsing: text).evaluate(in: document)
                XCTFail("expected an error for \(text)")
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error("/b"), .noMember(.root, "b"))
        XCTAssertEqual(error("/a/01"), .invalidIndex(a, "01"))
        XCTAssertEqual(error("/a/-"), .invalidIndex(a, "-"))
        XCTAssertEqual(error("/a/x"), .invalidIndex(a, "x"))
        XCTAssertEqual(error("/a/2"), .indexOutOfRange(a, 2, count: 2))
        XCTAssertEqual(error("/a/99999999999999999999999"), .invalidIndex(a, "99999999999999999999999"))
        XCTAssertEqual(error("/s/x"), .notAContainer(JSONPointer(tokens: ["s"]), "x"))
        XCTAssertEqual(
            error("/a/2")?.description, "the array at '/a' has 2 elements, no element 2")
    }
}
