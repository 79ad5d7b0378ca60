import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `simple`, `label`, `matrix` and `form` styles of ``ParameterStyle`` against an independent
/// RFC 6570 expander: uritemplate (pinned in `Tests/Servers/requirements-differential.txt`), on
/// 24,000 generated arguments (`Tests/Differential/uritemplate_cases.py`: text and integers,
/// lists, objects in member order, with reserved, non-ASCII and empty texts, `%XX` and lone `%`,
/// and parameter names with characters a varname may only hold percent-encoded), each expanded by
/// `{x}`, `{x*}`, `{.x}`, `{.x*}`, `{;x}`, `{;x*}` (in a path segment) or `{?x}`, `{?x*}` (the query).
///
/// Where the library differs on purpose (OpenAPI's "undefined" column for an empty list or
/// object in `label` and `matrix`, RFC 6570's `;x` for an empty exploded member where uritemplate
/// writes `;x=`, uritemplate's `0` taken for the empty string, and `.` or `..` path segments, which
/// the library refuses), the script leaves the case out with its reason, and the count of each
/// reason is printed here. Every case written must agree.
///
/// `Scripts/test` writes the cases and sets `WEBSERVICEKIT_URITEMPLATE_CASES` to their file; the
/// test is skipped without it. To rerun by hand:
///
///     .venv-differential/bin/python Tests/Differential/uritemplate_cases.py /tmp/uritemplate-cases.tsv
///     WEBSERVICEKIT_URITEMPLATE_CASES=/tmp/uritemplate-cases.tsv \
///         swift test --skip-build --filter ParameterStyleDifferentialTests
final class ParameterStyleDifferentialTests: XCTestCase {
    private static let root = "https://api.example.com/v1/"

    func testTheStylesAgreeWithUritemplate() throws {
        guard let path = ProcessInfo.processInfo.environment["WEBSERVICEKIT_URITEMPLATE_CASES"] else {
            throw XCTSkip("WEBSERVICEKIT_URITEMPLATE_CASES names no file of cases (Scripts/test writes one)")
        }
        let client = WebServiceClient(serviceRoot: try XCTUnwrap(URL(string: Self.root)))
        var compared: [String: Int] = [:]
        var excluded: [(String, Int)] = []
        var disagreements: [String] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.first == "#excluded" {
                excluded.append((fields[1], Int(fields[2]) ?? 0))
                continue
            }
            XCTAssertEqual(fields.count, 4, "a line of four fields: \(line)")
            guard fields.count == 4, let style = Self.style(fields[0], name: try Self.decoded(fields[1])) else {
                continue
            }
            let argument = try Self.argument(
                JSONSerialization.jsonObject(with: Data(base64Encoded: fields[2]) ?? Data()))
            let expected = style.kind == .form ? Self.root + "p" + fields[3] : Self.root + "p/" + fields[3]
            let call = WebServiceCall<Data>(
                relativePath: style.kind == .form ? "p?%%0%%" : "p/%%0%%", parameterStyles: [0: style])
            let ours: String
            do {
                ours = try client.request(for: call, arguments: [argument]).url?.absoluteString ?? "no URL"
            } catch {
                ours = "\(error)"
            }
            if ours == expected {
                compared[fields[0], default: 0] += 1
            } else {
                disagreements.append("\(fields[0]) \(style) with \(argument): ours \(ours), uritemplate \(expected)")
            }
        }
        let total = compared.values.reduce(0, +)
        print("uritemplate differential: \(total) cases agree (\(compared.sorted { $0.key < $1.key }))")
        for (reason, count) in excluded { print("  excluded by the script: \(reason): \(count)") }
        XCTAssertGreaterThanOrEqual(total, 20_000)
        XCTAssertEqual(Set(compared.keys).count, 8, "every style compared")
        XCTAssertTrue(
            disagreements.isEmpty,
            "\(disagreements.count) disagree:\n" + disagreements.prefix(20).joined(separator: "\n"))
    }

    /// The style of a case's first field (`matrix*`: `.matrix(name, explode: true)`).
    private static func style(_ key: String, name: String) -> ParameterStyle? {
        let explode = key.hasSuffix("*")
        switch key.trimmingCharacters(in: ["*"]) {
        case "simple": return .simple(explode: explode)
        case "label": return .label(explode: explode)
        case "matrix": return .matrix(name, explode: explode)
        case "form": return .form(name, explode: explode)
        default: return nil
        }
    }

    private static func decoded(_ base64: String) throws -> String {
        String(decoding: try XCTUnwrap(Data(base64Encoded: base64)), as: UTF8.self)
    }

    /// The argument a case's JSON stands for: `{"s": text}`, `{"i": integer}`, `{"l": [...]}`,
    /// `{"o": [[name, scalar], ...]}` (an object in that order) or `{"n": null}`.
    private static func argument(_ json: Any) throws -> any Sendable {
        let value = try XCTUnwrap(json as? [String: Any])
        if let text = value["s"] as? String { return text }
        if let number = value["i"] { return try integer(number) }
        if let list = value["l"] as? [Any] {
            return try list.map { element throws -> any Sendable in
                switch try scalar(element) {
                case .text(let text): text
                case .integer(let integer): integer
                }
            }
        }
        if let members = value["o"] as? [[Any]] {
            return OrderedObject(
                members: try members.map { pair in
                    (try XCTUnwrap(pair.first as? String), try scalar(pair.last as Any))
                })
        }
        return String?.none
    }

    private static func scalar(_ json: Any) throws -> OrderedObject.Scalar {
        let value = try XCTUnwrap(json as? [String: Any])
        if let text = value["s"] as? String { return .text(text) }
        return .integer(try integer(value["i"] as Any))
    }

    private static func integer(_ json: Any) throws -> Int {
        if let integer = json as? Int { return integer }
        return try XCTUnwrap(json as? NSNumber).intValue
    }
}

/// An object whose members encode in the order given (a dictionary would sort them).
private struct OrderedObject: Encodable, Sendable, CustomStringConvertible {
    enum Scalar: Encodable, Sendable, CustomStringConvertible {
        case text(String)
        case integer(Int)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .integer(let integer): try container.encode(integer)
            }
        }

        var description: String {
            switch self {
            case .text(let text): text.debugDescription
            case .integer(let integer): "\(integer)"
            }
        }
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let members: [(String, Scalar)]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in members { try container.encode(value, forKey: Key(stringValue: name)) }
    }

    var description: String { "{" + members.map { "\($0.0.debugDescription): \($0.1)" }.joined(separator: ", ") + "}" }
}
