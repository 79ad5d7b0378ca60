import WebServiceGenKit
import XCTest

/// Every kind of malformed YAML is a ``YAMLError`` naming the line and column of the problem and
/// what was expected there.
final class YAMLErrorTests: XCTestCase {
    func testBlockStructure() {
        assertYAMLError("a: b: c", 1, 5, "a mapping value ':' is not allowed here")
        assertYAMLError("a: 1\n b: 2", 2, 3, "a mapping value ':' is not allowed here")
        assertYAMLError(
            "a:\n  - b\n  c: d", 3, 3, "expected '-' or the end of the block sequence started at line 2, column 3")
        assertYAMLError("- a\nb: c", 2, 1, "expected '-' or the end of the block sequence")
        assertYAMLError("a: 1\n- b", 2, 1, "expected a key or the end of the block mapping")
        assertYAMLError("key: x\n  - y\nother", 3, 6, "expected ':' after the key at line 3, column 1")
        assertYAMLError(String(repeating: "k", count: 1100) + ": v", 1, 1101, "at most 1024 characters")
        assertYAMLError("a:\n\t- b", 2, 1, "a tab in the indentation")
        assertYAMLError("\"a\"b", 1, 4, "expected the end of the text after the document's root node")
    }

    func testFlowCollections() {
        assertYAMLError(
            "a: [1, 2", 1, 9,
            "expected ',' or ']' in the flow sequence started at line 1, column 4, found the end of the text")
        // A plain scalar goes on over lines in a flow collection: `1 c`, then ':'.
        assertYAMLError(
            "a: {b: 1\nc: 2", 2, 2, "expected ',' or '}' in the flow mapping started at line 1, column 4, found ':'")
        assertYAMLError("[a, b}", 1, 6, "expected ',' or ']'")
        assertYAMLError("{a: 1]", 1, 6, "expected ',' or '}'")
        assertYAMLError("]", 1, 1, "expected a node")
        assertYAMLError(
            "[a, - b]", 1, 5, "expected a node (a scalar, a collection or an alias) in the flow collection, found '-'")
    }

    func testScalars() {
        assertYAMLError("\"abc", 1, 5, "the quoted scalar that starts at line 1, column 1 has no closing quote")
        assertYAMLError("'abc\n", 2, 1, "has no closing quote")
        assertYAMLError("key: \"unterminated\n---\nx\"", 2, 1, "a document marker inside the quoted scalar")
        assertYAMLError(#"a: "x\qy""#, 1, 6, #"unknown escape '\q'"#)
        assertYAMLError(#""\x4g""#, 1, 2, #"expected 2 hexadecimal digits in the escape '\x', found 'g'"#)
        assertYAMLError(#""\u12""#, 1, 2, #"expected 4 hexadecimal digits"#)
        assertYAMLError(#""\uD800""#, 1, 2, "is not a Unicode scalar")
        assertYAMLError(#""\U00110000""#, 1, 2, "is not a Unicode scalar")
        assertYAMLError("a: |0\n x", 1, 5, "expected an indentation indicator from 1 to 9, found '0'")
        assertYAMLError("a: |x", 1, 5, "expected a chomping ('-', '+') or indentation (1-9) indicator")
        assertYAMLError("a: | x", 1, 6, "expected a comment or a line break after the block scalar's header")
        assertYAMLError("a: `b", 1, 4, "'@' and '`' are reserved")
        assertYAMLError("- @a", 1, 3, "found '@', which cannot start any token")
    }

    func testAnchorsAndAliases() {
        assertYAMLError("a: *nope", 1, 4, "the alias '*nope' names no anchor defined before it")
        assertYAMLError("&x [a, *x]", 1, 8, "the alias '*x' is inside the node anchored '&x'")
        assertYAMLError("a: &", 1, 5, "expected the name of an anchor")
        assertYAMLError("a: *", 1, 5, "expected the name of an alias")
    }

    func testTags() {
        assertYAMLError("!x!y a", 1, 1, "the tag handle '!x!' is not defined")
        assertYAMLError("!<tag", 1, 6, "expected '>' to end the verbatim tag")
        assertYAMLError("!a/b!c x", 1, 3, "expected '!' to end the tag handle")
        assertYAMLError("!%zz x", 1, 2, "expected two hexadecimal digits after '%'")
        assertYAMLError("- !!int 1.5", 1, 3, "the scalar '1.5' is not an int (the tag !!int)")
        assertYAMLError("!!bool yes", 1, 1, "is not a bool")
        assertYAMLError("!!null x", 1, 1, "is not null")
        assertYAMLError("!!float abc", 1, 1, "is not a float")
        assertYAMLError("!!map x", 1, 1, "is not a mapping")
        assertYAMLError("!!map [a]", 1, 1, "a sequence cannot have the tag !!map")
        assertYAMLError("a:\n  !!str\n  - b", 2, 3, "a sequence cannot have the tag !!str")
        assertYAMLError("!!seq {a: 1}", 1, 1, "a mapping cannot have the tag !!seq")
    }

    func testDocumentsAndDirectives() {
        assertYAMLError("a\n---\nb", 2, 1, "a second document starts here")
        assertYAMLError("--- a\n--- b", 2, 1, "a second document")
        assertYAMLError("a: 1\n...\n---\n", 3, 1, "a second document")
        assertYAMLError("a: 1\n... x", 2, 5, "expected a comment or a line break after '...'")
        assertYAMLError("...\na", 1, 1, "expected a node")
        assertYAMLError("%YAML 1.2\na", 2, 1, "expected '---' to start the document after its directives")
        assertYAMLError("%YAML 1.2\n%YAML 1.2\n---\na", 2, 1, "a second %YAML directive")
        assertYAMLError("%TAG !e! x\n%TAG !e! y\n---\na", 2, 1, "a second %TAG directive for the handle '!e!'")
        assertYAMLError("%YAML 2.0\n---\n", 1, 1, "the document is YAML 2.x")
        assertYAMLError("%YAML 1.x\n---", 1, 9, "expected a digit in the YAML version, found 'x'")
        assertYAMLError("%YAML 1.2 x\n---", 1, 11, "expected a comment or a line break after the directive")
        assertYAMLError("%YAML 1234567890.2\n---", 1, 16, "the YAML version number is too long")
        assertYAMLError("a: %x", 1, 4, "a directive must start a line")
    }

    func testDuplicateKeys() {
        assertYAMLError("a: 1\nb: 2\na: 3", 3, 1, "the key 'a' is already in this mapping, at line 1, column 1")
        assertYAMLError("{a: 1, a: 2}", 1, 8, "the key 'a' is already in this mapping, at line 1, column 2")
        // Equal under the core schema: the same int, null, bool or float.
        assertYAMLError("1: a\n0x1: b", 2, 1, "already in this mapping")
        assertYAMLError("1: a\n+01: b", 2, 1, "already in this mapping")
        assertYAMLError("~: a\nnull: b", 2, 1, "already in this mapping")
        assertYAMLError("true: a\nTrue: b", 2, 1, "already in this mapping")
        assertYAMLError("1.0: a\n1.00: b", 2, 1, "already in this mapping")
        assertYAMLError(".nan: a\n.NaN: b", 2, 1, "already in this mapping")
        assertYAMLError("a: 1\n!!str a: 2", 2, 1, "already in this mapping")
        assertYAMLError("? [a, b]\n: 1\n? [a, b]\n: 2", 3, 3, "already in this mapping")
        assertYAMLError("? {x: 1, y: 2}\n? {y: 2, x: 1}", 2, 3, "already in this mapping")
        assertYAMLError("- &k a\n- {*k : 1, a: 2}", 2, 12, "already in this mapping")
        // Keys that YAML tells apart but JSON cannot: an error of the value only.
        XCTAssertNoThrow(try YAMLReader.node(from: "1: a\n'1': b"))
        assertYAMLError(
            "1: a\n'1': b", 2, 1, "the key '1' is the text of another key of this mapping, at line 1, column 1",
            value: true)
        assertYAMLError("1: a\n1.0: b\n!x 1: c", 3, 1, "the text of another key", value: true)
    }

    func testKeysWithoutJSONForm() {
        assertYAMLError("? [a]\n: b", 1, 3, "a mapping key that is a sequence has no JSON form", value: true)
        assertYAMLError("{? {a: 1} : b}", 1, 4, "a mapping key that is a mapping has no JSON form", value: true)
    }

    func testIntegersBeyondDouble() {
        let huge = "1" + String(repeating: "0", count: 400)
        assertYAMLError("a: " + huge, 1, 4, "is beyond the range of a Double", value: true)
        assertYAMLError(
            "a: 0x" + String(repeating: "f", count: 300), 1, 4, "is beyond the range of a Double", value: true)
    }

    func testCharactersAndEncodings() {
        assertYAMLError("a: b\u{1}", 1, 5, "the character U+0001 is not allowed")
        assertYAMLError("a:\n  b\u{7F}", 2, 4, "the character U+007F")
        assertYAMLError("\u{FEFF}a\r\nb\u{FFFE}", 2, 2, "the character U+FFFE")
        XCTAssertThrowsError(try YAMLReader.node(fromUTF8: [0x61, 0x3A, 0x20, 0xC3])) { error in
            XCTAssertEqual(
                error as? YAMLError, YAMLError("malformed UTF-8: the text must be UTF-8", line: 1, column: 4))
        }
        XCTAssertThrowsError(try YAMLReader.node(fromUTF8: Array("a\n\n- ".utf8) + [0xED, 0xA0, 0x80])) { error in
            XCTAssertEqual((error as? YAMLError).map { [$0.line, $0.column] }, [3, 3])
        }
        XCTAssertThrowsError(try YAMLReader.node(fromUTF8: [0xFF, 0xFE, 0x61, 0x00])) { error in
            XCTAssertEqual((error as? YAMLError)?.message.contains("UTF-16"), true)
        }
        // Malformed UTF-16 and UTF-32: an odd byte, a lone or reversed surrogate, past U+10FFFF.
        let malformed: [([UInt8], String, [Int])] = [
            ([0x61, 0x00, 0x0A, 0x00, 0x62], "malformed UTF-16", [2, 1]),
            ([0x00, 0x61, 0x00, 0x3A, 0xD8, 0x3D, 0x00, 0x61], "malformed UTF-16", [1, 3]),
            ([0x61, 0x00, 0x00, 0xDC], "malformed UTF-16", [1, 2]),
            ([0x00, 0x00, 0x00, 0x61, 0x00, 0x11, 0x00, 0x00], "malformed UTF-32", [1, 2]),
            ([0x61, 0x00, 0x00, 0x00, 0x62, 0x00, 0x00], "malformed UTF-32", [1, 2]),
        ]
        for (bytes, message, place) in malformed {
            XCTAssertThrowsError(try YAMLReader.node(fromEncoded: bytes), "\(bytes)") { error in
                XCTAssertEqual((error as? YAMLError)?.message.hasPrefix(message), true, "\(bytes): \(error)")
                XCTAssertEqual((error as? YAMLError).map { [$0.line, $0.column] }, place, "\(bytes)")
            }
        }
    }

    func testDescription() {
        XCTAssertEqual(
            yamlError("[a")?.description,
            "1:3: expected ',' or ']' in the flow sequence started at line 1, column 1, found the end of the text")
    }
}
