import WebServiceGenKit
import XCTest

/// The constructs of YAML 1.2.2 that OpenAPI documents use, read into ``YAMLNode`` trees.
final class YAMLReaderTests: XCTestCase {
    private func assertPicture(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        XCTAssertEqual(
            picture(try yamlNode(text, file: file, line: line)), expected, text.debugDescription, file: file, line: line
        )
    }

    // MARK: Block collections

    func testBlockMappingsAndSequences() throws {
        try assertPicture("a: 1\nb:\n  c: 2\n  d: [x]\ne:\n  - f\n  - g\n", "{a: 1, b: {c: 2, d: [x]}, e: [f, g]}")
        try assertPicture("- a\n-   b\n- - c\n  - d\n", "[a, b, [c, d]]")
    }

    func testCompactNestedForms() throws {
        // A mapping on the line of its '-', a sequence of sequences, a sequence at its key's indentation.
        try assertPicture("- name: id\n  in: path\n- name: q\n", "[{name: id, in: path}, {name: q}]")
        try assertPicture("- - - x\n    - y\n", "[[[x, y]]]")
        try assertPicture("tags:\n- a\n- b\nnext: c\n", "{tags: [a, b], next: c}")
        try assertPicture("- a:\n  - b\n  c: d\n", "[{a: [b], c: d}]")
    }

    func testEmptyEntries() throws {
        XCTAssertEqual(try YAMLReader.value(from: "a:\nb: 1\n"), object(["a": .null, "b": .int(1)]))
        XCTAssertEqual(try YAMLReader.value(from: "- \n-\n- x\n"), .array([.null, .null, .string("x")]))
        XCTAssertEqual(try YAMLReader.value(from: ": v\n"), object(["": .string("v")]))
    }

    // MARK: Flow collections

    func testFlowCollectionsNestedOverLines() throws {
        try assertPicture("{a: [1, {b: c}], d: {}, e: []}", "{a: [1, {b: c}], d: {}, e: []}")
        try assertPicture("key: [a,\n  b, {c: d,\n  e: f},\n  ]\n", "{key: [a, b, {c: d, e: f}]}")
        try assertPicture("[a: b, c]", "[{a: b}, c]")
        try assertPicture("{a, b: }", "{a: , b: }")
        try assertPicture("{\"json\":1, 'single':2}", "{\"json\": 1, 'single': 2}")
        try assertPicture("[? a : b]", "[{a: b}]")
    }

    // MARK: Scalars

    func testPlainScalarsOverSeveralLines() throws {
        try assertPicture("a: one\n  two\n\n  three\nb: x", "{a: one two\nthree, b: x}")
        try assertPicture("- a:b #c\n- a#b #c\n- http://x.org/p?q=1", "[a:b, a#b, http://x.org/p?q=1]")
    }

    func testPlainScalarsWithIndicatorsInside() throws {
        try assertPicture("- -x\n- ?y\n- :z\n- a-b", "[-x, ?y, :z, a-b]")
        try assertPicture("url: http://example.com:8080/a", "{url: http://example.com:8080/a}")
    }

    func testSingleQuotedScalars() throws {
        try assertPicture("'it''s'", "'it's'")
        try assertPicture("'a\n  b\n\n  c  '", "'a b\nc  '")
        try assertPicture("'# not a comment: [x]'", "'# not a comment: [x]'")
    }

    func testDoubleQuotedEscapes() throws {
        // Every escape of §5.7, `\<tab>` included.
        let node = try yamlNode(#""\0\a\b\t"# + "\\\t" + #"\n\v\f\r\e\ \"\/\\\N\_\L\P\x41\u00e9\U0001F600""#)
        XCTAssertEqual(
            node.scalarText,
            "\u{0}\u{7}\u{8}\t\t\n\u{B}\u{C}\r\u{1B} \"/\\\u{85}\u{A0}\u{2028}\u{2029}Aé😀")
        XCTAssertEqual(node.content, .scalar(node.scalarText ?? "", style: .doubleQuoted))
    }

    func testDoubleQuotedLineFolding() throws {
        // A line break folds to a space, an empty line is a line feed, an escaped break vanishes
        // with the next line's leading white space.
        XCTAssertEqual(try yamlNode("\"a\n   b\n\n   c\\\n   d \\\n   e\"").scalarText, "a b\ncd e")
        XCTAssertEqual(try yamlNode("\"trailing   \n  spaces go\"").scalarText, "trailing spaces go")
    }

    func testLiteralBlockScalars() throws {
        XCTAssertEqual(
            try yamlNode("a: |\n  line 1\n    more\n  line 3\n\n").pairs?[0].value.scalarText,
            "line 1\n  more\nline 3\n")
        // Chomping: strip, clip, keep.
        XCTAssertEqual(try yamlNode("a: |-\n  x\n\n").pairs?[0].value.scalarText, "x")
        XCTAssertEqual(try yamlNode("a: |\n  x\n\n").pairs?[0].value.scalarText, "x\n")
        XCTAssertEqual(try yamlNode("a: |+\n  x\n\n\nb: 1").pairs?[0].value.scalarText, "x\n\n\n")
        // An explicit indentation indicator keeps leading spaces; both orders of the indicators.
        XCTAssertEqual(try yamlNode("a: |2\n    x\n   y\n").pairs?[0].value.scalarText, "  x\n y\n")
        XCTAssertEqual(try yamlNode("a: |-1\n  x\n").pairs?[0].value.scalarText, " x")
        XCTAssertEqual(try yamlNode("a: |1-\n  x\n").pairs?[0].value.scalarText, " x")
        // A comment after the header, '#' in the content.
        XCTAssertEqual(try yamlNode("a: | # note\n  # kept\n").pairs?[0].value.scalarText, "# kept\n")
        // At the top level, the content may start at column 1.
        XCTAssertEqual(try yamlNode("--- |\nfoo\n").scalarText, "foo\n")
    }

    func testFoldedBlockScalars() throws {
        let text = "a: >\n  one\n  two\n\n  three\n    indented\n  four\n"
        let node = try yamlNode(text).pairs?[0].value
        XCTAssertEqual(node?.scalarText, "one two\nthree\n  indented\nfour\n")
        XCTAssertEqual(node?.content, .scalar("one two\nthree\n  indented\nfour\n", style: .folded))
        XCTAssertEqual(try yamlNode("a: >-\n  x\n  y\n").pairs?[0].value.scalarText, "x y")
    }

    // MARK: Comments, anchors, tags, directives, documents

    func testComments() throws {
        try assertPicture("# head\na: 1 # after\n  # between\nb: [x, # in flow\n  y]\n# tail", "{a: 1, b: [x, y]}")
    }

    func testAnchorsAndAliases() throws {
        let node = try yamlNode("base: &b {x: 1}\nother: *b\nlist: [&s text, *s]\n")
        XCTAssertEqual(picture(node), "{base: &b {x: 1}, other: &b {x: 1}, list: [&s text, &s text]}")
        // An alias keeps the anchored node's place; a later anchor of the same name wins.
        XCTAssertEqual(node["other"]?.line, 1)
        XCTAssertEqual(node["other"]?.column, 7)
        XCTAssertEqual(try YAMLReader.value(from: "- &a 1\n- &a 2\n- *a"), .array([.int(1), .int(2), .int(2)]))
        // Aliases as keys.
        try assertPicture("- &k key\n- {*k : v}", "[&k key, {&k key: v}]")
    }

    func testMergeKeysAreOrdinaryKeys() throws {
        // `<<` is YAML 1.1: in YAML 1.2's core schema it is a string key like any other.
        XCTAssertEqual(
            try YAMLReader.value(from: "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2"),
            object(["base": object(["x": .int(1)]), "derived": object(["<<": object(["x": .int(1)]), "y": .int(2)])]))
    }

    func testTags() throws {
        let node = try yamlNode(
            "%TAG !e! tag:example.com,2000:app/\n---\n- !!str 12\n- !custom x\n- !e!thing y\n- !<tag:yaml.org,2002:int> \"7\"\n- ! 12\n- !!map {a: 1}\n- !local [z]"
        )
        XCTAssertEqual(
            node.elements?.map(\.tag),
            [
                YAMLTag.string, "!custom", "tag:example.com,2000:app/thing", YAMLTag.int, "!", YAMLTag.mapping,
                "!local",
            ])
        XCTAssertEqual(
            try node.value(),
            .array([
                .string("12"), .string("x"), .string("y"), .int(7), .string("12"), object(["a": .int(1)]),
                .array([.string("z")]),
            ]))
        XCTAssertEqual(node.elements?.map(\.resolvedTag).prefix(2), [YAMLTag.string, "!custom"])
        // A tag, an anchor, or both, on an empty node.
        XCTAssertEqual(
            try YAMLReader.value(from: "a: !!str\nb: &x\nc: !!null"),
            object(["a": .string(""), "b": .null, "c": .null]))
        XCTAssertEqual(
            try YAMLReader.value(from: "a: &x !!str 1\nb: !!str &y 2"), object(["a": .string("1"), "b": .string("2")]))
    }

    func testDirectivesAndDocumentMarkers() throws {
        try assertPicture("%YAML 1.2\n---\na: 1\n...\n", "{a: 1}")
        try assertPicture("%YAML 1.1\n%FOO bar baz\n--- # comment\n[x]\n... # end\n# more\n", "[x]")
        try assertPicture("--- text\n", "text")
        try assertPicture("---\n", "")
        try assertPicture("", "")
        try assertPicture("# nothing but comments\n", "")
        XCTAssertEqual(try yamlNode("").content, .scalar("", style: .plain))
    }

    func testByteOrderMarkAndLineEnds() throws {
        let node = try yamlNode("\u{FEFF}a: 1\r\nb:\r\n  - x\r\n")
        XCTAssertEqual(picture(node), "{a: 1, b: [x]}")
        XCTAssertEqual(node["b"]?.elements?.first?.line, 3)
        XCTAssertEqual(node["b"]?.elements?.first?.column, 5)
        XCTAssertEqual(
            try YAMLReader.value(fromUTF8: [0xEF, 0xBB, 0xBF] + Array("a: [1]".utf8)), object(["a": .array([.int(1)])]))
        XCTAssertEqual(try yamlNode("'a\r\n  b'\r").scalarText, "a b")
    }

    /// UTF-16 and UTF-32 in either byte order, with and without a byte order mark, read as the same
    /// text in UTF-8 (YAML 1.2.2 §5.2); the bytes are Foundation's encoding of the text.
    func testUTF16AndUTF32AreToldApartAndRead() throws {
        let text = "name: café\nlist: [1, \"😀\", 𝄞]\n"
        let expected = try YAMLReader.value(fromUTF8: Array(text.utf8))
        let encodings: [(String.Encoding, String)] = [
            (.utf16BigEndian, "UTF-16BE"), (.utf16LittleEndian, "UTF-16LE"), (.utf32BigEndian, "UTF-32BE"),
            (.utf32LittleEndian, "UTF-32LE"), (.utf8, "UTF-8"),
        ]
        for (encoding, name) in encodings {
            let bare = try XCTUnwrap(text.data(using: encoding), name)
            let marked = try XCTUnwrap(("\u{FEFF}" + text).data(using: encoding), name)
            XCTAssertEqual(try YAMLReader.value(fromEncoded: bare), expected, "\(name) without a byte order mark")
            XCTAssertEqual(try YAMLReader.value(fromEncoded: marked), expected, "\(name) with a byte order mark")
        }
        // A line and column are counted in characters, whatever the encoding.
        let error = try XCTUnwrap("a: [1\n  b: c".data(using: .utf16LittleEndian))
        XCTAssertThrowsError(try YAMLReader.node(fromEncoded: error)) { thrown in
            XCTAssertEqual((thrown as? YAMLError).map { [$0.line, $0.column] }, [2, 4])
        }
    }

    func testYAML11LineBreaksAreCharacters() throws {
        // YAML 1.2 breaks lines at LF and CR only: U+0085, U+2028 and U+2029 are content.
        XCTAssertEqual(
            try yamlNode("a: x\u{85}y\u{2028}z\u{2029}").pairs?.first?.value.scalarText, "x\u{85}y\u{2028}z\u{2029}")
        XCTAssertEqual(try yamlNode("'a\u{85}b'").scalarText, "a\u{85}b")
        XCTAssertEqual(try yamlNode("- \u{2028}\n- b").elements?.count, 2)
    }

    func testExplicitKeys() throws {
        try assertPicture("? a\n: 1\n? b\n? [c, d]\n: 2\n", "{a: 1, b: , [c, d]: 2}")
        try assertPicture("? |\n  block key\n: value\n", "{|block key\n|: value}")
    }

    func testTabsSeparateButNeverIndent() throws {
        try assertPicture("a:\tb\t# comment\nc: [d,\te]\n", "{a: b, c: [d, e]}")
        try assertPicture("- \"x\"\t\n-\ty\n", "[\"x\", y]")
        assertYAMLError("a:\n\tb: c\n", 2, 1, "a tab in the indentation")
    }

    // MARK: Places

    func testLinesAndColumns() throws {
        let node = try yamlNode("openapi: 3.1.0\npaths:\n  /pets:\n    get: {id: [é, &x 😀]}\n")
        XCTAssertEqual([node.line, node.column], [1, 1])
        let paths = try XCTUnwrap(node["paths"])
        XCTAssertEqual([paths.line, paths.column], [3, 3])
        let get = try XCTUnwrap(paths["/pets"]?["get"])
        XCTAssertEqual([get.line, get.column], [4, 10])
        let id = try XCTUnwrap(get["id"])
        XCTAssertEqual(id.elements?.map { [$0.line, $0.column] }, [[4, 16], [4, 19]])
        // Keys have places too.
        XCTAssertEqual(get.pairs?.first.map { [$0.key.line, $0.key.column] }, [4, 11])
        XCTAssertEqual(node.pairs?.last.map { [$0.key.line, $0.key.column] }, [2, 1])
    }
}
