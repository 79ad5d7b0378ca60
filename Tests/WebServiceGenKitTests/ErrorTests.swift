import WebServiceGenKit
import XCTest

/// Every error, with the exact place it reports.
final class ErrorTests: XCTestCase {
    // MARK: JSON syntax

    func testMalformedJSON() {
        assertError(
            ["a.json": "{\"iface\": [\n  {\"struct\": \"A\",}\n]}"], "a.json", 2, 18,
            "expected a string key in the object, found '}'")
        assertError(
            ["a.json": "{\"iface\": [\n  {\"struct\" \"A\"}]}"], "a.json", 2, 13,
            "expected ':' after the key 'struct', found '\"'")
        assertError(["a.json": "{\"iface\": [1 2]}"], "a.json", 1, 14, "expected ',' or ']' in the array, found '2'")
        assertError(["a.json": "{\"iface\": [\"abc]}"], "a.json", 1, 12, "unterminated string")
        assertError(["a.json": "{\"iface\": [\"a\\qb\"]}"], "a.json", 1, 14, "invalid escape '\\q' in string")
        assertError(["a.json": "{\"iface\": [tru]}"], "a.json", 1, 12, "expected a JSON value, found 'tru'")
        assertError(["a.json": "{\"iface\": [01]}"], "a.json", 1, 13, "expected ',' or ']' in the array, found '1'")
        assertError(["a.json": "{\"iface\": []} x"], "a.json", 1, 15, "unexpected 'x' after the JSON document")
        assertError(["a.json": "{\"iface\": [\n"], "a.json", 2, 1, "expected a JSON value, found end of file")
        assertError(
            ["a.json": "{\"iface\": [],\n \"iface\": []}"], "a.json", 2, 2,
            "duplicate key 'iface' (first at line 1, column 2)")
    }

    // MARK: ifacegen structure

    func testIfaceGenStructureErrors() {
        assertError(
            ["a.json": "{\"ifaces\": []}"], "a.json", 1, 1,
            "not an ifacegen IDL file: the top level needs an \"iface\" array")
        assertError(["a.json": "{\"iface\": {}}"], "a.json", 1, 11, "\"iface\" must be an array, not an object")
        assertError(
            ["a.json": iface("  \"A\"")], "a.json", 2, 3, "an item of \"iface\" must be an object, not a string")
        assertError(
            ["a.json": iface("  {\"name\": \"A\"}")], "a.json", 2, 3,
            "an item of \"iface\" needs \"import\", \"struct\", \"procedure\" or an HTTP method key (\"get\", \"post\"…)"
        )
        assertError(["a.json": iface("  {\"struct\": \"A\"}")], "a.json", 2, 3, "the struct 'A' has no \"typedef\"")
        assertError(
            ["a.json": iface("  {\"struct\": \"A\", \"typedef\": {}, \"extra\": 1}")], "a.json", 2, 34,
            "unknown key 'extra' in the declaration of struct 'A'")
        assertError(
            ["a.json": iface("  {\"struct\": \"A\", \"typedef\": {\"x\": [\"int32\", \"bool\"]}}")], "a.json", 2, 36,
            "an array type has exactly one element, the item type; this one has 2")
        assertError(
            ["a.json": iface("  {\"struct\": \"A\", \"typedef\": {\"x\": 5}}")], "a.json", 2, 36,
            "a type is a type name, an object or a one-element array, not a number")
    }

    func testUnknownTypesAndDuplicates() {
        assertError(
            ["a.json": iface("  {\"struct\": \"A\", \"typedef\": {\n    \"loc\": \"GoogleLocaton\"}}")], "a.json", 3,
            12,
            "unknown type 'GoogleLocaton'")
        assertError(
            [
                "a.json": iface(
                    "  {\"struct\": \"A\", \"typedef\": {\"x\": \"int32\"}},\n  {\"struct\": \"A\", \"typedef\": {}}")
            ],
            "a.json", 3, 14, "duplicate struct 'A'; first declared at a.json:2:14")
        assertError(
            ["a.json": iface("  {\"struct\": \"A\", \"typedef\": {\"a_b\": \"int32\", \"aB\": \"int32\"}}")], "a.json",
            2, 47,
            "the fields 'a_b' and 'aB' of 'A' would both be the Swift property 'aB'")
        assertError(
            ["a.json": iface("  {\"struct\": \"A\", \"extends\": \"Nope\", \"typedef\": {}}")], "a.json", 2, 30,
            "'A' extends the unknown struct 'Nope'")
        assertError(
            [
                "a.json": iface(
                    "  {\"struct\": \"A\", \"extends\": \"B\", \"typedef\": {}},\n  {\"struct\": \"B\", \"extends\": \"A\", \"typedef\": {}}"
                )
            ], "a.json", 3, 30, "'extends' cycle: A extends B extends A")
        assertError(
            [
                "a.json": iface(
                    "  {\"struct\": \"B\", \"typedef\": {\"x\": \"int32\"}},\n  {\"struct\": \"A\", \"extends\": \"B\", \"typedef\": {\"x\": \"bool\"}}"
                )
            ], "a.json", 3, 47, "the field 'x' of 'A' is also declared in its parent 'B' (at a.json:2:31)")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"response\": \"string\"},\n  {\"post\": \"a\"}")], "a.json", 3, 12,
            "duplicate call 'a' (from 'a'); first declared at a.json:2:11")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"response\": \"Missing\"}")], "a.json", 2, 28,
            "unknown type 'Missing'")
    }

    // MARK: ifacegen methods and templates

    func testMethodErrors() {
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"post\": \"b\"}")], "a.json", 2, 16,
            "a method declares one of \"procedure\" or an HTTP method, not both 'get' and 'post'")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"custom_params\": {}}")], "a.json", 2, 16,
            "custom parameter section 'custom_params' of method 'a' is not supported (use url_params or request)")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"url_params\": {\"n\": {\"x\": \"int32\"}}}")], "a.json", 2, 36,
            "the url parameter 'n' must have a scalar type or a list of one, such as \"string\" or [\"int32\"]")
    }

    func testTemplateErrors() {
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"endpoint\": \"/users/${id\"}")], "a.json", 2, 36,
            "unterminated '${' in the endpoint: no closing '}'")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"endpoint\": \"users/${}\"}")], "a.json", 2, 35,
            "empty parameter '${}' in the endpoint")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"endpoint\": \"users/${a b}\"}")], "a.json", 2, 35,
            "invalid parameter name 'a b' in the endpoint")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"endpoint\": \"users/${x}\", \"url_params\": {\"id\": \"string\"}}")],
            "a.json",
            2, 35, "the endpoint refers to ${x}, which is not among the url_params of 'a'")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"endpoint\": \"u/${id}\", \"url_params\": {\"id\": \"string?\"}}")],
            "a.json", 2,
            54, "the url parameter 'id' fills a path segment, so it must be a non-optional scalar")
        assertError(
            ["a.json": iface("  {\"get\": \"a\", \"endpoint\": \"a%%0%%\"}")], "a.json", 2, 30,
            "'%%' in an endpoint would be read as a WebServiceKit wildcard")
    }

    // MARK: Imports

    func testMissingImport() {
        assertError(
            ["a.json": iface("  {\"import\": \"gone.json\"}")], "a.json", 2, 14,
            "cannot read 'gone.json': no such file or not readable")
    }

    // MARK: HTTPIDL

    func testHTTPIDLSyntaxErrors() {
        assertError(
            ["a.http": "MESSAGE /a {\n  GET REQUEST {\n    INT32 x = y\n  }\n}"], "a.http", 3, 16,
            "expected ';' after the key 'y'")
        assertError(["a.http": "MESAGE /a {}"], "a.http", 1, 1, "expected MESSAGE or STRUCT, found 'MESAGE'")
        assertError(
            ["a.http": "MESSAGE a {}"], "a.http", 1, 9, "expected the message's URI starting with '/', found 'a'")
        assertError(
            ["a.http": "MESSAGE /a {\n  FETCH REQUEST {}\n}"], "a.http", 2, 3,
            "expected an HTTP method (GET, POST…) or '}', found 'FETCH'")
        assertError(
            ["a.http": "MESSAGE /a {\n  GET REPLY {}\n}"], "a.http", 2, 7,
            "expected REQUEST or RESPONSE after GET, found 'REPLY'")
        assertError(
            ["a.http": "STRUCT S {\n  ARRAY<STRING x;\n}"], "a.http", 2, 16, "expected '>' to close ARRAY<…>, found 'x'"
        )
        assertError(
            ["a.http": "STRUCT S { INT32 ; }"], "a.http", 1, 10, "a STRUCT declares named fields: TYPE name [= key];")
        assertError(["a.http": "/* open\nSTRUCT S {}"], "a.http", 1, 1, "unterminated comment")
        assertError(
            ["a.http": "STRUCT S { STRING a; STRING; }"], "a.http", 1, 22,
            "an unnamed parameter ('TYPE;') must be the only one in its block")
        assertError(
            ["a.http": "STRUCT S {\n  DICT<BOOL, STRING> d;\n}"], "a.http", 2, 8,
            "a DICT's key type must be STRING or an integer type")
        assertError(["a.http": "STRUCT GET {}"], "a.http", 1, 8, "'GET' is a keyword and cannot name a struct")
        assertError(["a.http": "STRUCT S {\n  Missing m;\n}"], "a.http", 2, 3, "unknown type 'Missing'")
    }

    func testHTTPIDLSemanticErrors() {
        assertError(
            ["a.http": "MESSAGE /a {\n  GET REQUEST { DICT<STRING, STRING> d; }\n}"], "a.http", 2, 38,
            "the GET request field 'd' goes in the query, so it must be a scalar or an ARRAY of scalars")
        assertError(
            ["a.http": "MESSAGE /a {\n  GET REQUEST {}\n  GET REQUEST {}\n}"], "a.http", 3, 3,
            "a second GET REQUEST in the same MESSAGE")
        assertError(
            ["a.http": "STRUCT S { STRING a; }\nSTRUCT S { STRING b; }"], "a.http", 2, 8,
            "duplicate struct 'S'; first declared at a.http:1:8")
        assertError(
            ["a.http": "MESSAGE /f {\n  POST REQUEST { FILE f; ARRAY<STRING> tags; }\n}"], "a.http", 2, 40,
            "the multipart field 'tags' must be a scalar, FILE or BLOB")
        assertError(
            ["a.http": "STRUCT S { STRING a; STRING a = b; }"], "a.http", 1, 29,
            "the fields 'a' and 'a' of 'S' would both be the Swift property 'a'")
    }

    func testUnknownFormatAndNamespace() {
        XCTAssertEqual(
            generationError(["a.yaml": ""])?.description,
            "error: 'a.yaml': unknown input format; use .json for ifacegen IDL or .http for HTTPIDL")
        do {
            _ = try generate(["a.http": ""], options: GeneratorOptions(namespace: "String"))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.description, "error: the namespace 'String' is not a usable Swift type name")
        }
    }
}
