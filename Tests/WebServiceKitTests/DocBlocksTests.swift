import Foundation
import XCTest

/// Every ```` ```swift ```` block of README.md and Docs/, extracted from the guides as they are
/// (never copied by hand) and type-checked by `swiftc` against the library this test run built.
///
/// Per guide, one program: the shared context (`Tests/DocBlocks/Context.swift`: the client and
/// the endpoint table the guides assume), the guide's own context if it has one
/// (`Tests/DocBlocks/<Guide>.swift`, declarations a guide's prose stands for), then its blocks in
/// order. A block's declarations go to the top level; its statements run in a `do` scope of their
/// own, so that two blocks can both write `let repos = …`.
///
/// A fence says what else a block is: ```` ```swift blocking ```` is code for a thread that may
/// block (a command-line tool's, not async code: `DocBlocksRunTests` runs it on a thread of its
/// own); ```` ```swift fails ```` must NOT compile (a mistake the
/// guide shows), checked line by line, each alone with the context; ```` ```swift manifest ````
/// is a `Package.swift`, ```` ```swift external ```` needs a package the library does not depend
/// on, and ```` ```swift abridged ```` is an excerpt with `…` of a file the build compiles whole:
/// none of these can be built here, and they are counted, not hidden.
///
/// A guide's context file may name other files to compile with its blocks, on lines
/// `// also: path` (the generated code the IDL import guide calls).
final class DocBlocksTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// One fenced block: where it is, its fence's attribute, its lines.
    struct Block {
        let guide: String
        let line: Int
        let attribute: String
        let lines: [String]

        /// Whether the block is part of its guide's program (a `blocking` one too).
        var isBuilt: Bool { attribute.isEmpty || attribute == "blocking" }
    }

    static func guides() throws -> [URL] {
        let docs = try FileManager.default.contentsOfDirectory(
            at: root.appendingPathComponent("Docs"), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "md" }
        return [root.appendingPathComponent("README.md")] + docs.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func blocks(in guide: URL) throws -> [Block] {
        let name = guide.lastPathComponent
        var blocks: [Block] = []
        // A fence may be indented (a block in a list item): its lines lose that indentation.
        var open: (line: Int, attribute: String, indentation: Int, lines: [String])?
        for (index, line) in try String(contentsOf: guide, encoding: .utf8).components(separatedBy: "\n").enumerated() {
            let indentation = line.prefix { $0 == " " }.count
            let text = line.dropFirst(indentation)
            if var current = open {
                if text.hasPrefix("```") {
                    blocks.append(
                        Block(guide: name, line: current.line, attribute: current.attribute, lines: current.lines))
                    open = nil
                } else {
                    current.lines.append(String(line.dropFirst(min(indentation, current.indentation))))
                    open = current
                }
            } else if text.hasPrefix("```swift") {
                let attribute = text.dropFirst("```swift".count).trimmingCharacters(in: .whitespaces)
                open = (index + 2, attribute, indentation, [])
            }
        }
        return blocks
    }

    /// Declarations (a column-0 line that starts one, with the indented or closing lines after
    /// it and the comments and attributes before it) and the statements between them.
    static func split(_ lines: [String]) -> (declarations: [(Int, String)], statements: [(Int, String)]) {
        let starts = [
            "extension ", "struct ", "enum ", "final class ", "class ", "actor ", "protocol ", "func ", "typealias ",
            "import ", "private ", "fileprivate ", "public ", "@", "nonisolated ",
        ]
        var declarations: [(Int, String)] = []
        var statements: [(Int, String)] = []
        var pending: [(Int, String)] = []
        var inDeclaration = false
        for (offset, line) in lines.enumerated() {
            let continues = line.hasPrefix(" ") || ["}", ")", "]", "{"].contains { line.hasPrefix($0) }
            if continues || line.isEmpty {
                if inDeclaration {
                    declarations.append((offset, line))
                } else {
                    statements += pending + [(offset, line)]
                }
                pending = []
                continue
            }
            if line.hasPrefix("///") {
                pending.append((offset, line))
                continue
            }
            inDeclaration = starts.contains { line.hasPrefix($0) }
            if inDeclaration {
                declarations += pending + [(offset, line)]
            } else {
                statements += pending + [(offset, line)]
            }
            pending = []
        }
        return (declarations, statements + pending)
    }

    /// The program of `blocks` (a guide's, or one block alone), and for each of its lines the
    /// block line it came from.
    static func program(_ blocks: [Block], guide: String) throws -> (text: String, origin: [Int: (Block, Int)]) {
        var lines = [
            "import Foundation", "#if canImport(FoundationNetworking)", "    import FoundationNetworking", "#endif",
            "import WebServiceKit", "import WebServiceKitTesting", "import WebServiceKitOData",
            "import WebServiceKitJSONRPC", "import WebServiceKitXML", "import WebServiceGenKit", "import XCTest",
        ]
        let context = root.appendingPathComponent("Tests/DocBlocks")
        let declared = blocks.flatMap(\.lines).joined(separator: "\n")
        for file in ["Context.swift", guide.replacingOccurrences(of: ".md", with: ".swift")] {
            let url = context.appendingPathComponent(file)
            if FileManager.default.fileExists(atPath: url.path) {
                lines += sections(of: try String(contentsOf: url, encoding: .utf8), besides: declared)
            }
        }
        var origin: [Int: (Block, Int)] = [:]
        for block in blocks {
            // `import MyApp` stands for the app's module: here, the context.
            let (declarations, statements) = split(
                block.lines.filter { !$0.hasSuffix("import MyApp") && !$0.contains("import MyApp ") })
            for (offset, line) in declarations {
                lines.append(line)
                origin[lines.count] = (block, block.line + offset)
            }
            guard statements.contains(where: { !$0.1.trimmingCharacters(in: .whitespaces).isEmpty }) else { continue }
            lines.append("do {")
            for (offset, line) in statements {
                lines.append("    " + line)
                origin[lines.count] = (block, block.line + offset)
            }
            lines.append("}")
        }
        return (lines.joined(separator: "\n") + "\n", origin)
    }

    /// The lines of a context file, but for its sections (`// MARK: name` to the next) that
    /// provide a name the guide declares itself.
    static func sections(of text: String, besides declared: String) -> [String] {
        var kept: [String] = []
        var keeping = true
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("// MARK: ") {
                let name = NSRegularExpression.escapedPattern(for: String(line.dropFirst("// MARK: ".count)))
                let declaration =
                    #"\b(struct|enum|class|actor|typealias|protocol|func|static let|static var) "# + name + #"\b"#
                keeping = declared.range(of: declaration, options: .regularExpression) == nil
            }
            if keeping { kept.append(line) }
        }
        return kept
    }

    func testEveryBlockOfEveryGuideCompiles() throws {
        var checked = 0
        var outside: [String] = []
        for guide in try Self.guides() {
            let blocks = try Self.blocks(in: guide)
            outside += blocks.filter { ["manifest", "external", "abridged"].contains($0.attribute) }
                .map { "\($0.guide):\($0.line) (\($0.attribute))" }
            let compiled = blocks.filter(\.isBuilt)
            guard !compiled.isEmpty else { continue }
            let (text, origin) = try Self.program(compiled, guide: guide.lastPathComponent)
            let (status, output) = try typeCheck(
                text, named: guide.deletingPathExtension().lastPathComponent, with: Self.also(in: text))
            checked += compiled.count
            if status != 0 {
                let located = Self.locate(output, origin)
                XCTFail(
                    "\(guide.lastPathComponent): its blocks do not compile:\n"
                        + (located.isEmpty ? String(output.prefix(4_000)) : located))
            }
        }
        XCTAssertGreaterThan(checked, 100)
        XCTAssertLessThanOrEqual(outside.count, 8, "blocks that cannot be built here: \(outside)")
    }

    /// Each line of a `fails` block, added to the guide's other blocks (which compile), makes
    /// the program fail.
    func testEveryBlockMarkedFailsDoesNotCompile() throws {
        var checked = 0
        for guide in try Self.guides() {
            let blocks = try Self.blocks(in: guide)
            let compiled = blocks.filter(\.isBuilt)
            for block in blocks where block.attribute == "fails" {
                for (offset, line) in block.lines.enumerated() where !line.hasPrefix("//") && !line.isEmpty {
                    let single = Block(guide: block.guide, line: block.line + offset, attribute: "", lines: [line])
                    let (text, _) = try Self.program(compiled + [single], guide: guide.lastPathComponent)
                    let (status, _) = try typeCheck(text, named: "fails")
                    XCTAssertNotEqual(status, 0, "\(block.guide):\(single.line) compiles: \(line)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 0)
    }

    /// The files a program's context names on lines `// also: path`.
    static func also(in text: String) -> [URL] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix("// also: ") }
            .map { root.appendingPathComponent(String($0.dropFirst("// also: ".count))) }
    }

    /// swiftc's errors, each at the guide line it came from.
    private static func locate(_ output: String, _ origin: [Int: (Block, Int)]) -> String {
        output.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.contains(": error: "),
                let range = line.range(of: #"main\.swift:(\d+):"#, options: .regularExpression)
            else { return nil }
            let number = Int(line[range].dropFirst("main.swift:".count).dropLast()) ?? 0
            let message = line[line.range(of: ": error: ")!.upperBound...]
            guard let (block, guideLine) = origin[number] else { return "context line \(number): \(message)" }
            return "\(block.guide):\(guideLine): \(message)"
        }.joined(separator: "\n")
    }

    private func typeCheck(_ text: String, named name: String, with others: [URL] = []) throws -> (Int32, String) {
        try Self.withProgram(text, named: name) { file in try SwiftCompiler.typeCheck([file] + others) }
    }

    /// `body` given the program `text` written as `main.swift` in a folder of its own, which is
    /// removed afterwards.
    static func withProgram<T>(_ text: String, named name: String, _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "docblocks-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.swift")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try body(file)
    }
}
