import Foundation
import WebServiceGenKit

/// The YAML reader's time against the size of its input, for the patterns a quadratic reader
/// would show (long keys and lines, flow collections, escapes, block scalars, nesting, aliases,
/// indentation): each read at a size and at four times that size, the best of three runs each.
/// The ratio is 4 for linear time (16 for quadratic); the goal is under 8. Then a 5 MB
/// OpenAPI-like document, read whole, in MB/s.
enum YAMLScalingBenchmark {
    static let goal = 8.0

    /// Seconds to read `text` (the value under the core schema), the best of three runs.
    static func seconds(_ text: String) -> Double {
        (0..<3).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            blackHole(try? YAMLReader.value(from: text))
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }.min() ?? 0
    }

    static let patterns: [(name: String, size: Int, make: @Sendable (Int) -> String)] = [
        ("keys", 5_000, { (0..<$0).map { "key\($0): value \($0)" }.joined(separator: "\n") }),
        ("a long flow sequence", 10_000, { "[" + String(repeating: "item, ", count: $0) + "]" }),
        ("a long plain line", 20_000, { "k: " + String(repeating: "word ", count: $0) }),
        ("a long key", 50_000, { String(repeating: "x", count: $0) }),
        ("plain lines", 10_000, { "k: a" + String(repeating: "\n  more", count: $0) }),
        ("escapes", 5_000, { "\"" + String(repeating: "\\u00e9\\n\\\n ", count: $0) + "\"" }),
        ("a literal", 10_000, { "k: |\n" + String(repeating: "  line\n", count: $0) }),
        (
            "nested flow", 20_000,
            {
                "["
                    + String(
                        repeating: String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + ",",
                        count: $0 / 400) + "]"
            }
        ),
        ("aliases", 5_000, { "- &a [x, y]\n" + String(repeating: "- *a\n", count: $0) }),
        (
            "indentation", 2_000,
            { (0..<$0).map { String(repeating: " ", count: $0 % 100) + "- x" }.joined(separator: "\n") }
        ),
    ]

    static func run() {
        print("\nYAML reader: time at 4x the input against 1x (linear 4, quadratic 16; goal < \(goal))")
        for pattern in patterns {
            let small = seconds(pattern.make(pattern.size))
            let large = seconds(pattern.make(pattern.size * 4))
            let ratio = large / max(small, 1e-9)
            print(
                "  \(pattern.name): \(String(format: "%.2f", small * 1e3)) ms, then "
                    + "\(String(format: "%.2f", large * 1e3)) ms: \(String(format: "%.1f", ratio))x"
                    + (ratio < goal ? "" : "  (over the goal)"))
        }
        var lines = ["openapi: 3.1.0", "paths:"]
        var index = 0
        while lines.reduce(0, { $0 + $1.utf8.count + 1 }) < 5_000_000 {
            index += 1
            lines += [
                "  /items/\(index)/{id}:", "    get:", "      operationId: getItem\(index)", "      parameters:",
                "        - {name: id, in: path, required: true, schema: {type: integer, format: int64}}",
                "      responses:", "        '200':", "          description: \"OK \\u00e9\"",
                "          content: {application/json: {schema: {$ref: '#/components/schemas/Item\(index)'}}}",
            ]
        }
        let text = lines.joined(separator: "\n")
        let time = seconds(text)
        print(
            "  a 5 MB OpenAPI-like document: \(String(format: "%.3f", time)) s, \(String(format: "%.1f", 5 / time)) MB/s"
        )
    }
}
