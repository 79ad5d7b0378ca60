import Foundation
import WebServiceGenKit
import XCTest

/// Deeply nested IDL files (issue 19 item 10): both readers stop at ``IDLNesting/maximumDepth``
/// with an ``IDLError`` at the place the nesting passes it; the deepest accepted file is read,
/// resolved and written as Swift on a 512 KiB stack (a Task's on Apple platforms) in this debug
/// build.
final class NestingDepthTests: XCTestCase {
    private let limit = IDLNesting.maximumDepth

    /// Runs `body` in a detached Task, then on a thread with a 512 KiB stack (on Linux a Task's
    /// thread has 8 MiB, so the Task alone would not show a recursion that overflows on Apple
    /// platforms), and returns what the second run returned.
    private func inTaskAndOnSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        _ = await Task.detached { body() }.value
        return await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    /// Generates Swift from one in-memory file: the text, or the error's description.
    private static func generated(_ name: String, _ text: String) -> Result<String, IDLError> {
        Result { () throws(IDLError) in try generate([name: text]) }
    }

    /// `levels` of `ARRAY<` around `STRING`.
    private static func httpIDLArrays(_ levels: Int) -> String {
        "STRUCT S { " + String(repeating: "ARRAY<", count: levels) + "STRING" + String(repeating: ">", count: levels)
            + " f; }"
    }

    func testHTTPIDLTypesAtTheMaximumDepthAreGenerated() async throws {
        let limit = limit
        let (arrays, dictionaries) = await inTaskAndOnSmallStack {
            let dictionaries =
                "STRUCT S { " + String(repeating: "DICT<STRING, ", count: limit) + "INT32"
                + String(repeating: ">", count: limit) + " f; }"
            return (Self.generated("a.http", Self.httpIDLArrays(limit)), Self.generated("d.http", dictionaries))
        }
        let swift = try arrays.get()
        XCTAssertTrue(
            swift.contains(
                "var f: " + String(repeating: "[", count: limit) + "String" + String(repeating: "]", count: limit)),
            swift)
        let dictionarySwift = try dictionaries.get()
        XCTAssertTrue(
            dictionarySwift.contains(
                "var f: " + String(repeating: "[String: ", count: limit) + "Int32"
                    + String(repeating: "]", count: limit)),
            dictionarySwift)
    }

    func testHTTPIDLTypesDeeperThanTheMaximumAreAnError() async {
        let limit = limit
        for levels in [limit + 1, 100_000] {
            let result = await inTaskAndOnSmallStack { Self.generated("a.http", Self.httpIDLArrays(levels)) }
            guard case .failure(let error) = result else { return XCTFail("\(levels) levels were generated") }
            // The ARRAY one past the limit: after "STRUCT S { " and `limit` "ARRAY<".
            XCTAssertEqual(
                error.description,
                "a.http:1:\(12 + 6 * limit): error: nesting deeper than the maximum depth of \(limit)")
        }
    }

    /// An ifacegen file whose one field's type is `levels` one-element arrays around `int32`.
    private static let ifacePrefix = #"{"iface": [{"struct": "S", "typedef": {"f": "#

    private static func ifaceArrays(_ levels: Int) -> String {
        ifacePrefix + String(repeating: "[", count: levels) + #""int32""# + String(repeating: "]", count: levels)
            + "}}]}"
    }

    func testIfaceGenNestingAtTheMaximumDepthIsGenerated() async throws {
        // The file's own objects and arrays count: {"iface": [{… "typedef": {"f": …}}]} is four.
        let levels = limit - 4
        let result = await inTaskAndOnSmallStack { Self.generated("S.json", Self.ifaceArrays(levels)) }
        let swift = try result.get()
        XCTAssertTrue(
            swift.contains(
                "var f: " + String(repeating: "[", count: levels) + "Int32" + String(repeating: "]", count: levels)),
            swift)
    }

    func testIfaceGenNestingDeeperThanTheMaximumIsAnError() async {
        let limit = limit
        for levels in [limit - 3, 100_000] {
            let result = await inTaskAndOnSmallStack { Self.generated("S.json", Self.ifaceArrays(levels)) }
            guard case .failure(let error) = result else { return XCTFail("\(levels) levels were generated") }
            // The `[` that opens the 129th container.
            let column = Self.ifacePrefix.count + (limit - 4) + 1
            XCTAssertEqual(
                error.description, "S.json:1:\(column): error: nesting deeper than the maximum depth of \(limit)")
        }
    }

    func testIfaceGenObjectsAtTheMaximumDepthAreGenerated() async throws {
        // Nested structures in a typedef: {"a": {"a": … "int32" …}}, each one a struct of its own.
        let levels = limit - 3
        let text =
            #"{"iface": [{"struct": "S", "typedef": "# + String(repeating: #"{"a": "#, count: levels) + #""int32""#
            + String(repeating: "}", count: levels) + "}]}"
        let result = await inTaskAndOnSmallStack { Self.generated("S.json", text) }
        let swift = try result.get()
        XCTAssertTrue(swift.contains("struct S" + String(repeating: "A", count: levels - 1) + ": "), swift)
        XCTAssertTrue(swift.contains("var a: Int32"), swift)
    }

    func testIfaceGenObjectsNestedPastTheMaximumAreAnError() async {
        let limit = limit
        // Nested structures in a typedef: {"a": {"a": … "int32" …}}.
        let text = #"{"iface": [{"struct": "S", "typedef": "# + String(repeating: #"{"a": "#, count: 100_000)
        let result = await inTaskAndOnSmallStack { Self.generated("S.json", text) }
        guard case .failure(let error) = result else { return XCTFail("generated") }
        XCTAssertTrue(
            error.description.hasSuffix("error: nesting deeper than the maximum depth of \(limit)"), "\(error)")
    }
}

/// Long chains of `extends` and of imports stop at their documented limits.
final class ChainDepthTests: XCTestCase {
    private let limit = IDLNesting.maximumDepth

    /// Structs S0…S(count-1), each extending the one before, in one ifacegen file.
    private static func extendsChain(_ count: Int) -> String {
        var items = [#"{"struct": "S0", "typedef": {"f0": "int32"}}"#]
        for index in 1..<count {
            items.append(#"{"struct": "S\#(index)", "extends": "S\#(index - 1)", "typedef": {"f\#(index)": "int32"}}"#)
        }
        return iface(items.joined(separator: ",\n"))
    }

    func testExtendsChainAtTheMaximumIsGenerated() throws {
        let swift = try generate(["S.json": Self.extendsChain(limit)])
        let last = try XCTUnwrap(swift.range(of: "struct S\(limit - 1): "))
        XCTAssertTrue(swift[last.upperBound...].contains("var f0: Int32"), swift)
    }

    func testLongerExtendsChainsAreAnError() {
        for count in [limit + 1, 10_000] {
            guard let error = generationError(["S.json": Self.extendsChain(count)]) else { continue }
            // The struct that makes the chain one too long: S(limit) on line limit + 2.
            XCTAssertEqual(
                error.description,
                "S.json:\(limit + 2):\(28 + String(limit).count): error: 'extends' chains more than the maximum depth of \(limit) structs"
            )
        }
    }

    /// Files f0.json … f(count-1).json, each importing the next; the last one declares a struct
    /// whose field is nested `levels` arrays deep.
    private static func importChain(_ count: Int, innermostLevels levels: Int = 1) -> [String: String] {
        var files: [String: String] = [:]
        for index in 0..<count - 1 { files["f\(index).json"] = iface(#"{"import": "f\#(index + 1).json"}"#) }
        files["f\(count - 1).json"] = iface(
            #"{"struct": "Deep", "typedef": {"f": "# + String(repeating: "[", count: levels) + #""int32""#
                + String(repeating: "]", count: levels) + "}}")
        return files
    }

    func testImportChainAtTheMaximumIsGeneratedOnASmallStack() async throws {
        let count = IDLNesting.maximumImportDepth
        // The innermost file at the deepest nesting too: {"iface": [{… "typedef": {"f": …}}]} is four.
        let levels = limit - 4
        let result = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    returning: Result { () throws(IDLError) in
                        try generate(Self.importChain(count, innermostLevels: levels), inputs: ["f0.json"])
                    })
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        let swift = try result.get()
        XCTAssertTrue(
            swift.contains(
                "var f: " + String(repeating: "[", count: levels) + "Int32" + String(repeating: "]", count: levels)),
            swift)
    }

    func testLongerImportChainsAreAnError() {
        let count = IDLNesting.maximumImportDepth
        for files in [count + 1, 10_000] {
            guard let error = generationError(Self.importChain(files), inputs: ["f0.json"]) else { continue }
            XCTAssertEqual(
                error.description,
                "f\(count - 1).json:2:12: error: imports nest deeper than the maximum depth of \(count) files")
        }
    }
}
