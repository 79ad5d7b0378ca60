import Foundation
import WebServiceGenKit
import XCTest

/// The bounds of ``YAMLLimits`` (nesting depth, alias expansion) hold on hostile input with an
/// error rather than a crash, and reading takes linear time.
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

    // MARK: Time

    /// Seconds to read `text`, the best of three runs.
    private func seconds(_ text: String) -> Double {
        (0..<3).map { _ in
            let start = Date()
            _ = try? YAMLReader.value(from: text)
            return Date().timeIntervalSince(start)
        }.min() ?? 0
    }

    /// Reading four times the input takes less than eight times as long (linear: four; quadratic: sixteen).
    private func assertLinear(
        _ name: String, _ make: (Int) -> String, size: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        let small = seconds(make(size))
        let large = seconds(make(size * 4))
        XCTAssertLessThan(
            large, max(small, 0.002) * 8, "\(name): \(small) s, then \(large) s for four times the input", file: file,
            line: line)
    }

    func testReadingTakesLinearTime() {
        assertLinear("keys", { (0..<$0).map { "key\($0): value \($0)" }.joined(separator: "\n") }, size: 5_000)
        assertLinear("a long flow sequence", { "[" + String(repeating: "item, ", count: $0) + "]" }, size: 10_000)
        assertLinear("a long plain line", { "k: " + String(repeating: "word ", count: $0) }, size: 20_000)
        assertLinear("a long key", { String(repeating: "x", count: $0) }, size: 50_000)
        assertLinear("plain lines", { "k: a" + String(repeating: "\n  more", count: $0) }, size: 10_000)
        assertLinear("escapes", { "\"" + String(repeating: "\\u00e9\\n\\\n ", count: $0) + "\"" }, size: 5_000)
        assertLinear("a literal", { "k: |\n" + String(repeating: "  line\n", count: $0) }, size: 10_000)
        assertLinear(
            "nested flow",
            {
                "["
                    + String(
                        repeating: String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + ",",
                        count: $0 / 400) + "]"
            },
            size: 20_000)
        assertLinear(
            "open brackets on a line",
            {
                "- " + String(repeating: "[a, ", count: min($0 / 10, 500))
                    + String(repeating: "]", count: min($0 / 10, 500))
            }, size: 1_000)
        assertLinear("aliases", { "- &a [x, y]\n" + String(repeating: "- *a\n", count: $0) }, size: 5_000)
        assertLinear(
            "indentation", { (0..<$0).map { String(repeating: " ", count: $0 % 100) + "- x" }.joined(separator: "\n") },
            size: 2_000)
    }

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
        let start = Date()
        let value = try YAMLReader.value(fromUTF8: Array(text.utf8))
        let elapsed = Date().timeIntervalSince(start)
        guard case .object(let paths)? = value["paths"] else { return XCTFail("no paths") }
        XCTAssertEqual(paths.count, index)
        #if DEBUG
            print("5 MB read in \(elapsed) s (an unoptimized build)")
        #else
            XCTAssertLessThan(elapsed, 1, "5 MB read in \(elapsed) s")
        #endif
    }
}
