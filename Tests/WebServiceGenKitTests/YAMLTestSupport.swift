import WebServiceGenKit
import XCTest

/// The root node of `text`; fails the test (and throws) on an error.
func yamlNode(_ text: String, limits: YAMLLimits = YAMLLimits(), file: StaticString = #filePath, line: UInt = #line)
    throws -> YAMLNode
{
    do {
        return try YAMLReader.node(from: text, limits: limits)
    } catch {
        XCTFail("\(text.debugDescription): \(error)", file: file, line: line)
        throw error
    }
}

/// The value of `text`; fails the test (and throws) on an error.
func yamlValue(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> YAMLValue {
    do {
        return try YAMLReader.value(from: text)
    } catch {
        XCTFail("\(text.debugDescription): \(error)", file: file, line: line)
        throw error
    }
}

/// The error reading `text` (the node, or its value when `value`); fails the test when there is none.
func yamlError(
    _ text: String, value: Bool = false, limits: YAMLLimits = YAMLLimits(), file: StaticString = #filePath,
    line: UInt = #line
)
    -> YAMLError?
{
    do {
        let node = try YAMLReader.node(from: text, limits: limits)
        if value { _ = try node.value() }
        XCTFail("\(text.debugDescription) was read", file: file, line: line)
    } catch {
        return error
    }
    return nil
}

/// Checks that reading `text` fails at `errorLine`:`errorColumn` with a message containing `message`.
func assertYAMLError(
    _ text: String, _ errorLine: Int, _ errorColumn: Int, _ message: String, value: Bool = false,
    limits: YAMLLimits = YAMLLimits(), file: StaticString = #filePath, line: UInt = #line
) {
    guard let error = yamlError(text, value: value, limits: limits, file: file, line: line) else { return }
    XCTAssertEqual(error.line, errorLine, "line of \(error)", file: file, line: line)
    XCTAssertEqual(error.column, errorColumn, "column of \(error)", file: file, line: line)
    XCTAssertTrue(
        error.message.contains(message), "\(error) does not say \(message.debugDescription)", file: file, line: line)
}

/// An object from key-value pairs, in order.
func object(_ members: KeyValuePairs<String, YAMLValue>) -> YAMLValue {
    .object(members.map { YAMLValue.Member(key: $0.key, value: $0.value) })
}

/// A compact, one-line picture of a node: `{a: [1, 'b']}`, scalars quoted by style (`'…'` single,
/// `"…"` double, `|…|` literal, `>…>` folded), `!tag ` and `&anchor ` before a node.
func picture(_ node: YAMLNode) -> String {
    var prefix = ""
    if let anchor = node.anchor { prefix += "&\(anchor) " }
    if let tag = node.tag { prefix += "!<\(tag)> " }
    switch node.content {
    case .scalar(let text, let style):
        switch style {
        case .plain: return prefix + text
        case .singleQuoted: return prefix + "'\(text)'"
        case .doubleQuoted: return prefix + "\"\(text)\""
        case .literal: return prefix + "|\(text)|"
        case .folded: return prefix + ">\(text)>"
        }
    case .sequence(let elements): return prefix + "[" + elements.map(picture).joined(separator: ", ") + "]"
    case .mapping(let pairs):
        return prefix + "{" + pairs.map { picture($0.key) + ": " + picture($0.value) }.joined(separator: ", ") + "}"
    }
}
