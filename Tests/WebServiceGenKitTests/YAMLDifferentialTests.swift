import Foundation
import WebServiceGenKit
import XCTest

/// ``YAMLReader`` against an independent reading of the same documents: ruamel.yaml's scanner and
/// parser (YAML 1.2, pinned in `Tests/Servers/requirements-differential.txt`), composed and resolved
/// with YAML 1.2's core schema by `Tests/Differential/yaml_cases.py` (ruamel.yaml's own resolver
/// departs from the core schema: `0o17` and `017` octal, `0b`, `1_000`, timestamps, merge keys), on
/// 100,000 generated documents of every style, a fifth of them mutated at random.
///
/// Where ruamel.yaml refuses a document, we must refuse it; where it reads one, we must give the
/// same tree (tags, anchors, styles, texts, order) and the same value, or the same refusal of the
/// value. The accepted differences, each a rule and counted (anything else fails the test):
/// - Tabs: libyaml's ports refuse a tab wherever a token may start in block context (`a:\tb`,
///   `- b\t# c`, a tab before a comment); YAML 1.2 allows tabs as separation within a line, and
///   so do we (never as indentation). Where ruamel.yaml refuses a document with a tab but reads it
///   with its in-line tabs made spaces ("detabbed"), we must refuse it or give that reading (tabs
///   and spaces compared as one); where it refuses both, we may read it.
/// - A lone surrogate escape (`"\uD800"`): Python keeps it in a string; no Swift string can hold
///   it, and we refuse the document.
/// - A plain scalar that starts with `:` right after a `: ` in a flow mapping (`{a: :b}`):
///   YAML 1.2 reads the scalar `:b`; ruamel.yaml refuses it when its token queue happens to be
///   empty there.
/// Raw U+0085, U+2028 and U+2029 (line breaks in YAML 1.1 and in ruamel.yaml's scanner, ordinary
/// characters in YAML 1.2) are not generated.
///
/// `Scripts/test` writes the cases and sets `WEBSERVICEKIT_YAML_DIFFERENTIAL_CASES` to their file;
/// the test is skipped without it. To rerun by hand:
///
///     .venv-differential/bin/python Tests/Differential/yaml_cases.py /tmp/yaml-cases.tsv [COUNT] [SEED]
///     WEBSERVICEKIT_YAML_DIFFERENTIAL_CASES=/tmp/yaml-cases.tsv \
///         swift test --skip-build --filter YAMLDifferentialTests
final class YAMLDifferentialTests: XCTestCase {
    func testTheReaderAgreesWithRuamelYAML() throws {
        guard let path = ProcessInfo.processInfo.environment["WEBSERVICEKIT_YAML_DIFFERENTIAL_CASES"] else {
            throw XCTSkip("WEBSERVICEKIT_YAML_DIFFERENTIAL_CASES names no file of cases (Scripts/test writes one)")
        }
        let text = try String(contentsOfFile: path, encoding: .ascii)
        var documents = 0
        var bothRead = 0
        var bothRefused = 0
        var accepted: [String: Int] = [:]
        var unexplained: [String] = []
        for line in text.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count == 4, let data = Data(base64Encoded: String(columns[0])) else {
                XCTFail("a malformed case: \(line.prefix(80))")
                continue
            }
            documents += 1
            let document = [UInt8](data)
            let flags = Set(columns[3].split(separator: ",").map(String.init))
            let ours = Result { () throws(YAMLError) in try YAMLReader.node(fromUTF8: document) }
            func report(_ problem: String) {
                unexplained.append("\(problem)\n    document: \(Self.show(String(decoding: document, as: UTF8.self)))")
            }
            if flags.contains("surrogate") {
                if case .success = ours { report("a lone surrogate escape was read") }
                accepted["a lone surrogate escape (refused)", default: 0] += 1
                continue
            }
            let detabbed = flags.contains("detabbed")
            guard columns[1] != "error" else {
                switch ours {
                case .failure: bothRefused += 1
                case .success where flags.contains("tab"):
                    accepted["a tab that ruamel.yaml refuses, read", default: 0] += 1
                case .success where String(decoding: document, as: UTF8.self).contains(": :"):
                    accepted["a plain ':' scalar after ': ' in a flow mapping, read", default: 0] += 1
                case .success(let node):
                    report("we read what ruamel.yaml refuses: \(Self.jsonText(Self.treeJSON(node)))")
                }
                continue
            }
            guard
                let theirTree = try? JSONSerialization.jsonObject(
                    with: Data(columns[1].utf8), options: [.fragmentsAllowed])
            else {
                XCTFail("a malformed tree: \(columns[1].prefix(80))")
                continue
            }
            let node: YAMLNode
            switch ours {
            case .failure(let error):
                if detabbed {
                    accepted["a tab that ruamel.yaml refuses, refused too", default: 0] += 1
                } else {
                    report("we refuse what ruamel.yaml reads: \(error)\n    theirs: \(columns[1].prefix(400))")
                }
                continue
            case .success(let root): node = root
            }
            guard Self.treeMatches(node, theirTree, detabbed: detabbed) else {
                report(
                    "the trees differ\n    ours:   \(Self.jsonText(Self.treeJSON(node)).prefix(600))\n    theirs: \(columns[1].prefix(600))"
                )
                continue
            }
            let value = Result { () throws(YAMLError) in try node.value() }
            switch (value, columns[2] == "error") {
            case (.failure, true): break
            case (.failure(let error), false):
                report("we refuse the value: \(error)\n    theirs: \(columns[2].prefix(400))")
            case (.success(let mine), true): report("ruamel.yaml's value is refused, ours is \(mine)")
            case (.success(let mine), false):
                guard
                    let theirs = try? JSONSerialization.jsonObject(
                        with: Data(columns[2].utf8), options: [.fragmentsAllowed]),
                    Self.valueMatches(mine, theirs, detabbed: detabbed)
                else {
                    report(
                        "the values differ\n    ours:   \(String(describing: mine).prefix(500))\n    theirs: \(columns[2].prefix(500))"
                    )
                    continue
                }
            }
            if detabbed { accepted["a tab that ruamel.yaml refuses, read as with spaces", default: 0] += 1 }
            bothRead += 1
        }
        XCTAssertGreaterThanOrEqual(documents, 100_000)
        XCTAssertGreaterThan(bothRead, documents / 4)
        XCTAssertGreaterThan(bothRefused, documents / 10)
        XCTAssertTrue(
            unexplained.isEmpty, "\(unexplained.count) unexplained:\n" + unexplained.prefix(15).joined(separator: "\n"))
        print(
            "YAML differential: \(documents) documents, \(bothRead) read alike, \(bothRefused) refused by both; accepted: \(accepted)"
        )
    }

    // MARK: Comparing

    private static func styleName(_ style: YAMLScalarStyle) -> String {
        switch style {
        case .plain: "plain"
        case .singleQuoted: "single"
        case .doubleQuoted: "double"
        case .literal: "literal"
        case .folded: "folded"
        }
    }

    /// `text` with its tabs made spaces when comparing a detabbed reading.
    private static func normalized(_ text: String, _ detabbed: Bool) -> String {
        detabbed ? text.replacingOccurrences(of: "\t", with: " ") : text
    }

    /// A string or JSON's null, as the script writes tags and anchors; `nil` for anything else.
    private static func optionalString(_ any: Any) -> String?? {
        if any is NSNull { return .some(nil) }
        if let text = any as? String { return .some(text) }
        return nil
    }

    /// Whether `node` is the script's `["s", tag, anchor, style, text]`, `["q", tag, anchor, [nodes]]`
    /// or `["m", tag, anchor, [[key, value]]]`.
    static func treeMatches(_ node: YAMLNode, _ json: Any, detabbed: Bool) -> Bool {
        guard let array = json as? [Any], array.count >= 4, let kind = array[0] as? String,
            let tag = optionalString(array[1]), let anchor = optionalString(array[2]), node.tag == tag,
            node.anchor == anchor
        else { return false }
        switch (node.content, kind) {
        case (.scalar(let text, let style), "s"):
            guard array.count == 5, array[3] as? String == styleName(style), let theirs = array[4] as? String else {
                return false
            }
            return normalized(text, detabbed) == normalized(theirs, detabbed)
        case (.sequence(let elements), "q"):
            guard let items = array[3] as? [Any], items.count == elements.count else { return false }
            return zip(elements, items).allSatisfy { treeMatches($0, $1, detabbed: detabbed) }
        case (.mapping(let pairs), "m"):
            guard let items = array[3] as? [Any], items.count == pairs.count else { return false }
            return zip(pairs, items).allSatisfy { pair, item in
                guard let keyValue = item as? [Any], keyValue.count == 2 else { return false }
                return treeMatches(pair.key, keyValue[0], detabbed: detabbed)
                    && treeMatches(pair.value, keyValue[1], detabbed: detabbed)
            }
        default: return false
        }
    }

    /// Whether `value` is the script's null, true, false, {"i": digits}, {"f": repr}, text,
    /// [values] or {"o": [[key, value]]}: an int beyond Int64 must be the nearest double.
    static func valueMatches(_ value: YAMLValue, _ json: Any, detabbed: Bool) -> Bool {
        switch value {
        case .null: return json is NSNull
        case .bool(let flag): return !(json is String) && (json as? NSNumber)?.boolValue == flag
        case .string(let text): return (json as? String).map { normalized($0, detabbed) } == normalized(text, detabbed)
        case .int(let number):
            return ((json as? [String: Any])?["i"] as? String).flatMap { Int64($0) } == number
        case .double(let number):
            guard let wrapped = json as? [String: Any] else { return false }
            if let digits = wrapped["i"] as? String {
                return Int64(digits) == nil && Double(digits) == number
            }
            guard let repr = wrapped["f"] as? String, let theirs = Double(repr) else { return false }
            return theirs.isNaN ? number.isNaN : theirs == number && theirs.sign == number.sign
        case .array(let elements):
            guard let items = json as? [Any], items.count == elements.count else { return false }
            return zip(elements, items).allSatisfy { valueMatches($0, $1, detabbed: detabbed) }
        case .object(let members):
            guard let items = (json as? [String: Any])?["o"] as? [Any], items.count == members.count else {
                return false
            }
            return zip(members, items).allSatisfy { member, item in
                guard let keyValue = item as? [Any], keyValue.count == 2, let key = keyValue[0] as? String else {
                    return false
                }
                return normalized(key, detabbed) == normalized(member.key, detabbed)
                    && valueMatches(member.value, keyValue[1], detabbed: detabbed)
            }
        }
    }

    // MARK: Reporting

    private static func treeJSON(_ node: YAMLNode) -> Any {
        let tag: Any = node.tag ?? NSNull()
        let anchor: Any = node.anchor ?? NSNull()
        switch node.content {
        case .scalar(let text, let style): return ["s", tag, anchor, styleName(style), text]
        case .sequence(let elements): return ["q", tag, anchor, elements.map(treeJSON)]
        case .mapping(let pairs): return ["m", tag, anchor, pairs.map { [treeJSON($0.key), treeJSON($0.value)] }]
        }
    }

    private static func jsonText(_ any: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: any, options: [.fragmentsAllowed]) else {
            return "?"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The document on one line: line breaks, tabs and characters outside ASCII escaped.
    private static func show(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default:
                shown +=
                    scalar.value < 0x20 || scalar.value > 0x7E
                    ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }
        return shown
    }
}
