import Foundation
import XCTest

/// Every guide's code blocks (the program `DocBlocksTests` type-checks), built and run against
/// the local servers `Scripts/test` starts, and what a block shows it prints checked.
///
/// A guide's program is linked with the libraries this test run built and runs with
/// `https://api.example.com` standing for the example API (`Tests/Servers/docs_api_server.py`,
/// `WEBSERVICEKIT_DOCS_URL`); a guide's context file may replace more, on lines
/// `// replace: OLD => NEW` (the OData guide's service root by the local OData service, say). The
/// program must run to its end: an error no block catches ends it, and fails the test with the
/// block's place in the guide.
///
/// A ```` ```swift blocking ```` block runs on a thread of its own (it may block it, as
/// `performSynchronously` does, which refuses inside a task). A `print(…)` whose line ends with a
/// comment `// → text` shows what it prints: the test checks that the program printed `text`
/// there (the last line it printed, for a handler called more than once; `…` stands for any text;
/// the replacements are undone; a second comment, `  // why`, is not part of it), and that it printed it at all, also from a callback, which the
/// program waits for at its end (a minute at most). XCTest's `XCTAssertEqual`, `XCTAssertNoThrow`
/// and `XCTAssertThrowsError` are the program's own there, which end it when they fail (XCTest's
/// would say nothing outside a test run).
final class DocBlocksRunTests: XCTestCase {
    /// The marker `docBlockPrint` puts before a checked line of output.
    private static let marker = "\u{1E}"

    func testEveryGuideRunsAndPrintsWhatItShows() throws {
        let docs = try Self.serverURL("WEBSERVICEKIT_DOCS_URL")
        var ran = 0
        var checked = 0
        // WEBSERVICEKIT_DOCBLOCKS_GUIDE=Name.md runs that guide alone (the checks of the totals too).
        let only = ProcessInfo.processInfo.environment["WEBSERVICEKIT_DOCBLOCKS_GUIDE"]
        for guide in try DocBlocksTests.guides() where only == nil || guide.lastPathComponent == only {
            let blocks = try DocBlocksTests.blocks(in: guide).filter(\.isBuilt)
            guard !blocks.isEmpty else { continue }
            let outcome = try Self.run(blocks, guide: guide.lastPathComponent, docs: docs)
            ran += 1
            checked += outcome.checked
            for problem in outcome.problems { XCTFail(problem) }
        }
        guard only == nil else { return }
        XCTAssertGreaterThan(ran, 15)
        XCTAssertGreaterThan(checked, 40)
    }

    // The twins: the test can fail, for each reason it names.

    func testAPrintOtherThanTheGuideShowsIsCaught() throws {
        let outcome = try Self.run(Self.twin(["print(1 + 1)  // → 3"]), guide: "Twin.md", docs: Self.nowhere)
        XCTAssertEqual(outcome.problems, ["Twin.md:1: printed 2, the guide shows 3"])
    }

    func testAPrintThatNeverRunsIsCaught() throws {
        let outcome = try Self.run(
            Self.twin(["if Bool(\"false\")! {", "    print(1)  // → 1", "}"]), guide: "Twin.md", docs: Self.nowhere,
            waiting: 0)
        XCTAssertEqual(outcome.problems, ["Twin.md:2: never printed (it shows 1)"])
    }

    func testABlockThatThrowsIsCaughtWithItsPlace() throws {
        let outcome = try Self.run(
            Self.twin(["print(0)", "_ = try JSONDecoder().decode(Int.self, from: Data())"]), guide: "Twin.md",
            docs: Self.nowhere)
        XCTAssertEqual(outcome.problems.count, 1)
        XCTAssertTrue(outcome.problems[0].hasPrefix("Twin.md: the block at Twin.md:1 threw: "), outcome.problems[0])
    }

    func testAFailedAssertionIsCaughtWithItsPlace() throws {
        let outcome = try Self.run(Self.twin(["XCTAssertEqual(1 + 1, 3)"]), guide: "Twin.md", docs: Self.nowhere)
        XCTAssertEqual(outcome.problems, ["Twin.md: Twin.md:1: XCTAssertEqual failed: (2) is not equal to (3)"])
    }

    func testWhatAGuideShowsMatchesWithEllipsisAndWithoutItsExplanation() throws {
        let outcome = try Self.run(
            Self.twin([
                #"print("https://api.example.com/a?b=1")  // → https://api.example.com/…=1  // why"#,
                "let x = 1",
                "print(x, x + 1)  // → 1 2",
            ]),
            guide: "Twin.md", docs: URL(string: "http://127.0.0.1:9/")!)
        XCTAssertEqual(outcome.problems, [])
        XCTAssertEqual(outcome.checked, 2)
        XCTAssertFalse(Self.matches("1 2 3", "1 2"))
        XCTAssertTrue(Self.matches("a.b", "a.b"))
        XCTAssertFalse(Self.matches("axb", "a.b"))
    }

    /// One block of `lines`, as if at line 1 of a guide `Twin.md`.
    private static func twin(_ lines: [String]) -> [DocBlocksTests.Block] {
        [DocBlocksTests.Block(guide: "Twin.md", line: 1, attribute: "", lines: lines)]
    }

    /// A root no twin calls.
    private static let nowhere = URL(string: "http://127.0.0.1:9/")!

    /// What running a guide's blocks found: its problems (each with the guide's place), and how
    /// many prints were checked.
    struct Outcome {
        var problems: [String] = []
        var checked = 0
    }

    /// Builds and runs the program of `blocks` (the guide `guide`'s), with `docs` for the example
    /// API, and checks what it printed against what the blocks show.
    static func run(_ blocks: [DocBlocksTests.Block], guide: String, docs: URL, waiting: Int = 60) throws -> Outcome {
        let (text, origin) = try DocBlocksTests.program(blocks, guide: guide)
        let replacements = try replacements(in: text, docs: docs)
        let (program, expected) = runnable(text, origin, replacing: replacements, waiting: waiting)
        let name = (guide as NSString).deletingPathExtension
        let (status, output) = try buildAndRun(program, named: name, with: DocBlocksTests.also(in: text))
        var outcome = Outcome()
        guard status == 0 else {
            outcome.problems.append("\(guide): \(locate(output, origin))")
            return outcome
        }
        var printed: [Int: String] = [:]
        for line in output.components(separatedBy: "\n") where line.hasPrefix(marker) {
            let parts = line.dropFirst().split(separator: Character(marker), maxSplits: 1)
            guard parts.count == 2, let id = Int(parts[0]) else { continue }
            printed[id] = replacements.reduce(String(parts[1])) { $0.replacingOccurrences(of: $1.new, with: $1.old) }
        }
        for (id, (shown, place)) in expected.sorted(by: { $0.key < $1.key }) {
            outcome.checked += 1
            if let line = printed[id] {
                if !matches(line, shown) {
                    outcome.problems.append("\(place): printed \(line), the guide shows \(shown)")
                }
            } else {
                outcome.problems.append("\(place): never printed (it shows \(shown))")
            }
        }
        return outcome
    }

    /// What a guide's program has replaced when it runs: its context's lines
    /// `// replace: OLD => NEW` (`$VARIABLE` at the start of `NEW` is that variable's value: a local
    /// server's root, or a folder of its files; `$REPOSITORY` anywhere, the repository's folder),
    /// then the example API's root for `https://api.example.com`.
    static func replacements(in text: String, docs: URL) throws -> [(old: String, new: String)] {
        var replacements: [(old: String, new: String)] = []
        for line in text.components(separatedBy: "\n") where line.hasPrefix("// replace: ") {
            let parts = line.dropFirst("// replace: ".count).components(separatedBy: " => ")
            guard parts.count == 2 else { continue }
            var new = parts[1]
            if new.hasPrefix("$") {
                let variable = String(new.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                let value = try serverURL(variable).absoluteString
                let rest = new.dropFirst(1 + variable.count)
                new = value + (value.hasSuffix("/") && rest.hasPrefix("/") ? rest.dropFirst() : rest)
            }
            // `$REPOSITORY` is the repository's folder (a fixture a guide reads).
            new = new.replacingOccurrences(of: "$REPOSITORY", with: DocBlocksTests.root.path)
            replacements.append((parts[0], new))
        }
        let root = docs.absoluteString.hasSuffix("/") ? String(docs.absoluteString.dropLast()) : docs.absoluteString
        return replacements + [("https://api.example.com", root)]
    }

    /// The program that runs: `replacements` made, each checked `print` a `docBlockPrint` with its
    /// number, and the end that waits for them. The checked prints, by number: what the guide
    /// shows and where.
    static func runnable(
        _ text: String, _ origin: [Int: (DocBlocksTests.Block, Int)],
        replacing replacements: [(old: String, new: String)],
        waiting: Int = 60
    ) -> (String, [Int: (String, String)]) {
        var expected: [Int: (String, String)] = [:]
        var lines = text.components(separatedBy: "\n")
        // Each block's statements (a `do` scope) end the program with their place when they throw.
        // A `blocking` block (`performSynchronously`, which refuses inside a task, as the program's
        // top level is) runs on a thread of its own, as a command-line tool would.
        var scope: (place: String, blocking: Bool)?
        for index in lines.indices where origin[index + 1] == nil {
            if lines[index] == "do {", let (block, line) = origin[index + 2] {
                let blocking = block.attribute == "blocking"
                scope = ("\(block.guide):\(line)", blocking)
                if blocking { lines[index] = "do { try docBlockOnAThread {" }
            } else if lines[index] == "}", let (place, blocking) = scope {
                lines[index] = (blocking ? "} }" : "}") + " catch { docBlockFailed(\"\(place)\", error) }"
                scope = nil
            }
        }
        for index in lines.indices {
            // What a line shows ends where a second comment, explaining it, begins.
            let shown = lines[index].range(of: "// → ").map {
                lines[index][$0.upperBound...].components(separatedBy: "  // ")[0]
            }
            var code = replacements.reduce(lines[index]) { $0.replacingOccurrences(of: $1.old, with: $1.new) }
            if let (block, line) = origin[index + 1], let shown, let call = code.range(of: "print(") {
                expected[index] = (String(shown), "\(block.guide):\(line)")
                code.replaceSubrange(call, with: "docBlockPrint(\(index), ")
            }
            lines[index] = code
        }
        lines += [
            "DocBlockRun.finish(expecting: \(expected.count), waiting: \(waiting))",
            "func docBlockFailed(_ place: String, _ error: any Error) -> Never {",
            #"    print("\u{1E}failed\u{1E}\(place)\u{1E}\(error)")"#,
            "    exit(1)",
            "}",
            // XCTest's assertions do nothing outside a test run: these, the program's own, end it.
            "func XCTAssertEqual<T: Equatable>(",
            "    _ first: @autoclosure () throws -> T, _ second: @autoclosure () throws -> T,",
            #"    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line"#,
            ") {",
            "    do {",
            "        let (a, b) = (try first(), try second())",
            #"        if a != b { docBlockAssertionFailed(line, "XCTAssertEqual failed: (\(a)) is not equal to (\(b))") }"#,
            #"    } catch { docBlockAssertionFailed(line, "XCTAssertEqual threw \(error)") }"#,
            "}",
            "func XCTAssertNoThrow<T>(",
            "    _ expression: @autoclosure () throws -> T,",
            #"    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line"#,
            ") {",
            #"    do { _ = try expression() } catch { docBlockAssertionFailed(line, "XCTAssertNoThrow failed: \(error)") }"#,
            "}",
            "func XCTAssertThrowsError<T>(",
            "    _ expression: @autoclosure () throws -> T,",
            #"    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line,"#,
            "    _ errorHandler: (_ error: any Error) -> Void = { _ in }",
            ") {",
            "    do { _ = try expression() } catch {",
            "        errorHandler(error)",
            "        return",
            "    }",
            #"    docBlockAssertionFailed(line, "XCTAssertThrowsError failed: nothing was thrown")"#,
            "}",
            "func docBlockAssertionFailed(_ line: UInt, _ message: String) -> Never {",
            #"    print("\u{1E}assertion\u{1E}\(line)\u{1E}\(message)")"#,
            "    exit(1)",
            "}",
            "func docBlockOnAThread(_ body: @escaping @Sendable () throws -> Void) throws {",
            "    nonisolated(unsafe) var failure: (any Error)?",
            "    let done = DispatchSemaphore(value: 0)",
            "    Thread { do { try body() } catch { failure = error }; done.signal() }.start()",
            "    done.wait()",
            "    if let failure { throw failure }",
            "}",
            "func docBlockPrint(_ id: Int, _ items: Any...) {",
            #"    print("\u{1E}\(id)\u{1E}" + items.map { "\($0)" }.joined(separator: " "))"#,
            "    DocBlockRun.printed(id)",
            "}",
            "enum DocBlockRun {",
            "    nonisolated(unsafe) static var seen: Set<Int> = []",
            "    static let lock = NSCondition()",
            "    static func printed(_ id: Int) { lock.lock(); seen.insert(id); lock.broadcast(); lock.unlock() }",
            "    /// Waits (`seconds` at most) until the callbacks have printed what the guide shows.",
            "    static func finish(expecting expected: Int, waiting seconds: Int) {",
            "        let deadline = Date(timeIntervalSinceNow: TimeInterval(seconds))",
            "        lock.lock()",
            "        while seen.count < expected && lock.wait(until: deadline) {}",
            "        lock.unlock()",
            "    }",
            "}",
        ]
        return (lines.joined(separator: "\n"), expected)
    }

    /// Whether `line` is what the guide shows: `…` stands for any text.
    static func matches(_ line: String, _ shown: String) -> Bool {
        let pattern = shown.components(separatedBy: "…").map(NSRegularExpression.escapedPattern).joined(separator: ".*")
        return line.range(of: "^" + pattern + "$", options: .regularExpression) != nil
    }

    /// Where the program stopped: the block that threw and its error, or a fatal error's line of
    /// the program as the guide's line.
    private static func locate(_ output: String, _ origin: [Int: (DocBlocksTests.Block, Int)]) -> String {
        if let failure = output.components(separatedBy: "\n").first(where: { $0.hasPrefix(marker + "failed") }) {
            let parts = failure.components(separatedBy: marker)
            return "the block at \(parts[2]) threw: \(parts.dropFirst(3).joined())"
        }
        if let failure = output.components(separatedBy: "\n").first(where: { $0.hasPrefix(marker + "assertion") }) {
            let parts = failure.components(separatedBy: marker)
            let place = Int(parts[2]).flatMap { origin[$0] }.map { "\($0.0.guide):\($0.1)" } ?? "line \(parts[2])"
            return "\(place): \(parts.dropFirst(3).joined())"
        }
        var text = String(output.suffix(3_000))
        if let range = text.range(of: #"main\.swift:(\d+)"#, options: .regularExpression),
            let number = Int(text[range].dropFirst("main.swift:".count)), let (block, line) = origin[number]
        {
            text += "\n(at \(block.guide):\(line))"
        }
        return text
    }

    private static func buildAndRun(_ text: String, named name: String, with others: [URL]) throws -> (Int32, String) {
        try DocBlocksTests.withProgram(text, named: "run-" + name) { file in
            try buildAndRun(file, named: name, with: others)
        }
    }

    private static func buildAndRun(_ file: URL, named name: String, with others: [URL]) throws -> (Int32, String) {
        let folder = file.deletingLastPathComponent()
        let executable = folder.appendingPathComponent(name)
        let (built, diagnostics) = try SwiftCompiler.build([file] + others, output: executable)
        guard built == 0 else {
            let errors = diagnostics.components(separatedBy: "\n").filter { $0.contains(" error: ") }
            return (built, "does not build:\n" + errors.joined(separator: "\n"))
        }
        let process = Process()
        process.executableURL = executable
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A program that hangs is stopped after two minutes (its output then ends there).
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, text)
    }

    /// A local server's root from its variable: a skip without it, or a failure under
    /// `WEBSERVICEKIT_REQUIRE_SERVERS=1` (as the integration tests do).
    private static func serverURL(_ variable: String) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment[variable], let url = URL(string: text) { return url }
        if environment["WEBSERVICEKIT_REQUIRE_SERVERS"] == "1" { XCTFail("\(variable) is not set: run Scripts/test") }
        throw XCTSkip("\(variable) is not set; run Scripts/test")
    }
}
