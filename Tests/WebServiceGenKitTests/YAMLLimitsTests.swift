import Foundation
import WebServiceGenKit
import XCTest

/// The bounds of ``YAMLLimits`` (nesting depth, alias expansion) hold on hostile input with an
/// error rather than a crash, and a 5 MB document is read whole (its time and the linear scaling
/// of every pattern are measured by `webservice-bench --only yaml`).
final class YAMLLimitsTests: XCTestCase {
    private let depth = YAMLLimits().maximumDepth

    /// Runs `body` on a thread with a 512 KiB stack (a Task's on Apple platforms) and returns its result.
    private func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    func testFlowNestingAtTheLimitIsReadAndDeeperIsAnError() async throws {
        let depth = depth
        let (deepest, tooDeep, huge) = await onSmallStack {
            func read(_ levels: Int) -> Result<YAMLValue, YAMLError> {
                Result { () throws(YAMLError) in
                    try YAMLReader.value(
                        from: String(repeating: "[", count: levels) + String(repeating: "]", count: levels))
                }
            }
            // The values are compared and dropped here, on the small stack, too.
            var expected = YAMLValue.array([])
            for _ in 1..<depth { expected = .array([expected]) }
            return ((try? read(depth).get()) == expected, read(depth + 1), read(200_000))
        }
        XCTAssertTrue(deepest)
        for result in [tooDeep, huge] {
            guard case .failure(let error) = result else { return XCTFail("nesting past the limit was read") }
            XCTAssertEqual([error.line, error.column], [1, depth + 1])
            XCTAssertEqual(error.message, "the document nests deeper than \(depth) sequences and mappings")
        }
    }

    func testBlockNestingPastTheLimitIsAnError() {
        assertYAMLError(String(repeating: "- ", count: depth + 1) + "x", 1, 2 * depth + 1, "nests deeper than \(depth)")
        let mappings = (0...depth).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n") + " v"
        assertYAMLError(mappings, depth + 1, depth + 1, "nests deeper than \(depth)")
        assertYAMLError(String(repeating: "- ", count: 100_000), 1, 2 * depth + 1, "nests deeper than \(depth)")
        XCTAssertNoThrow(try YAMLReader.value(from: String(repeating: "- ", count: depth) + "x"))
    }

    func testAnAliasCannotPassTheDepthLimit() {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let text = "a: &a \(deep)\nb: " + String(repeating: "[", count: 20) + "*a" + String(repeating: "]", count: 20)
        // 1 mapping and 20 sequences around a 500-deep alias.
        assertYAMLError(text, 2, 24, "nests deeper than \(depth)")
        assertYAMLError(text, 1, 106, "nests deeper than 100", limits: YAMLLimits(maximumDepth: 100))
    }

    func testABillionLaughsIsAnError() {
        var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        let bomb = lines.joined(separator: "\n")
        // aN stands for 11…1 (N + 2 ones) nodes; the aliases of a1…a4 add 123,440, and the 8th
        // alias of a5 (111,111 each, line 6, column 45) passes 1,000,000.
        assertYAMLError(bomb, 6, 45, "the aliases expand to more than 1000000 nodes")
        assertYAMLError(bomb, 4, 45, "more than 10000 nodes", limits: YAMLLimits(maximumAliasExpansion: 10_000))
        // Below the bound, aliases are read (and cost no copy in the tree).
        let value = try? YAMLReader.value(from: lines.prefix(5).joined(separator: "\n"))
        XCTAssertEqual(value?["a4"].map(Self.countNodes), 111_111)
    }

    private static func countNodes(_ value: YAMLValue) -> Int {
        var count = 0
        var stack = [value]
        while let next = stack.popLast() {
            count += 1
            switch next {
            case .array(let elements): stack += elements
            case .object(let members): stack += members.map(\.value)
            default: break
            }
        }
        return count
    }

    func testAliasesOfScalarsAreCountedToo() {
        let text = "- &s x\n" + String(repeating: "- *s\n", count: 101)
        assertYAMLError(text, 102, 3, "more than 100 nodes", limits: YAMLLimits(maximumAliasExpansion: 100))
        XCTAssertNoThrow(try YAMLReader.node(from: text, limits: YAMLLimits(maximumAliasExpansion: 101)))
        XCTAssertNoThrow(try YAMLReader.node(from: text, limits: YAMLLimits(maximumAliasExpansion: .max)))
    }

    // MARK: Size

    func testFiveMegabytes() throws {
        var lines = ["openapi: 3.1.0", "paths:"]
        var size = 0
        var index = 0
        while size < 5_000_000 {
            index += 1
            let path = [
                "  /items/\(index)/{id}:", "    get:", "      operationId: getItem\(index)", "      description: >-",
                "        A folded", "        description.", "      parameters:", "        - name: id",
                "          in: path",
                "          schema: {type: integer, format: int64, minimum: 0}", "      responses:", "        '200':",
                "          description: \"OK \\u00e9\"", "          content:", "            application/json:",
                "              schema: {$ref: '#/components/schemas/Item\(index)'}",
                "        404: {description: Not found}  # note",
            ]
            size += path.reduce(0) { $0 + $1.utf8.count + 1 }
            lines += path
        }
        let text = lines.joined(separator: "\n")
        // How long it takes is measured by `webservice-bench --only yaml`, not here.
        let value = try YAMLReader.value(fromUTF8: Array(text.utf8))
        guard case .object(let paths)? = value["paths"] else { return XCTFail("no paths") }
        XCTAssertEqual(paths.count, index)
    }
}
