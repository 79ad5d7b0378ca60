import Foundation
import WebServiceGenKit
import XCTest

final class CommandLineTests: XCTestCase {
    func testParsing() throws {
        let command = try GeneratorCommand.parse([
            "--input", "a.json", "-i", "b.http", "c.json", "--output=Out.swift", "--access", "public", "--namespace",
            "API",
        ])
        XCTAssertEqual(command.inputs, ["a.json", "b.http", "c.json"])
        XCTAssertEqual(command.output, "Out.swift")
        XCTAssertEqual(command.options, GeneratorOptions(access: .public, namespace: "API"))
        XCTAssertTrue(try GeneratorCommand.parse(["--help"]).showsHelp)
        XCTAssertEqual(try GeneratorCommand.parse(["--", "--odd.json"]).inputs, ["--odd.json"])
    }

    func testUsageErrors() {
        func message(_ arguments: [String]) -> String? {
            do {
                _ = try GeneratorCommand.parse(arguments)
                return nil
            } catch {
                return error.message
            }
        }
        XCTAssertEqual(message([]), "no input files (give --input <file>)")
        XCTAssertEqual(message(["--input"]), "--input needs a value")
        XCTAssertEqual(
            message(["a.json", "--access", "open"]), "--access must be public, package or internal, not 'open'")
        XCTAssertEqual(message(["a.json", "--verbose"]), "unknown option '--verbose'")
        XCTAssertEqual(message(["a.json", "-o", "x", "-o", "y"]), "--output is given twice")
    }

    /// The built tool: output file, `file:line:column: error:` lines, exit statuses.
    func testTool() throws {
        let tool = productsDirectory.appendingPathComponent("webservice-gen")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: tool.path), "\(tool.path) is not built")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webservice-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(IfaceGenTests.googlePlaces.utf8).write(to: folder.appendingPathComponent("Places.json"))
        try Data("{\"iface\": [\n  {\"struct\": \"A\", \"typedef\": {\"x\": \"Nope\"}}\n]}".utf8)
            .write(to: folder.appendingPathComponent("Bad.json"))

        let ok = try run(tool, ["--input", "Places.json", "--output", "Out.swift", "--access", "public"], in: folder)
        XCTAssertEqual(ok.status, 0, ok.error)
        let written = try String(contentsOf: folder.appendingPathComponent("Out.swift"), encoding: .utf8)
        XCTAssertTrue(written.contains("public static let placeDetails = WebServiceCall("))

        let toStandardOutput = try run(tool, ["Places.json"], in: folder)
        XCTAssertEqual(toStandardOutput.status, 0)
        XCTAssertTrue(toStandardOutput.output.contains("    static let placeDetails = WebServiceCall("))

        let bad = try run(tool, ["--input", "Bad.json", "--output", "Never.swift"], in: folder)
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.error, "Bad.json:2:36: error: unknown type 'Nope'\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Never.swift").path))

        let usage = try run(tool, ["--access", "open", "Places.json"], in: folder)
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.error.hasPrefix("webservice-gen: --access must be public, package or internal, not 'open'"))
    }

    private var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    private func run(_ tool: URL, _ arguments: [String], in folder: URL) throws -> (
        status: Int32, output: String, error: String
    ) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }
}
