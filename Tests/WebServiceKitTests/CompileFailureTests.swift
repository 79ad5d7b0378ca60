import Foundation
import XCTest

/// The typed calls' promise, checked by the compiler itself: every file of `Tests/CompileChecks/Fails`
/// (a call with too few or too many arguments, one of the wrong type, a missing body, a body
/// where the call has none…) must fail to type-check beside `Declarations.swift` with the
/// diagnostic its first line names, and every file of `Tests/CompileChecks/Compiles` (their
/// twins) must type-check without a diagnostic. Each file is checked by `swiftc` against the
/// library this test run built.
final class CompileFailureTests: XCTestCase {
    private static let checks = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("CompileChecks")

    func testEveryMistakeFailsToCompileWithItsDiagnostic() throws {
        let files = try Self.files(in: "Fails")
        XCTAssertGreaterThanOrEqual(files.count, 10)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let expected = try XCTUnwrap(
                text.split(separator: "\n").first.flatMap { $0.hasPrefix("// expected: ") ? $0.dropFirst(13) : nil },
                "\(file.lastPathComponent) names no expected diagnostic")
            let (status, output) = try typeCheck(file)
            XCTAssertNotEqual(status, 0, "\(file.lastPathComponent) compiled")
            XCTAssertTrue(
                output.contains("error: ") && output.contains(expected),
                "\(file.lastPathComponent): expected \"\(expected)\" in:\n\(output)")
        }
    }

    func testTheirTwinsCompileWithoutADiagnostic() throws {
        let files = try Self.files(in: "Compiles")
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let (status, output) = try typeCheck(file)
            XCTAssertEqual(status, 0, "\(file.lastPathComponent):\n\(output)")
            XCTAssertFalse(output.contains("warning: "), "\(file.lastPathComponent):\n\(output)")
        }
    }

    private static func files(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: checks.appendingPathComponent(folder), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "swift" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Type-checks `file` beside the declarations, in Swift 6 mode, against the modules of the
    /// build this test belongs to; returns `swiftc`'s status and its diagnostics.
    private func typeCheck(_ file: URL) throws -> (Int32, String) {
        let build = try XCTUnwrap(Self.buildFolder(), "no Modules folder above \(CommandLine.arguments[0])")
        let process = Process()
        process.executableURL = try XCTUnwrap(Self.swiftc(), "swiftc is not on PATH")
        process.arguments = [
            "-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path,
            "-Xcc",
            "-fmodule-map-file=" + build.appendingPathComponent("CWebServiceKitSystem.build/module.modulemap").path,
            Self.checks.appendingPathComponent("Declarations.swift").path, file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The build folder (`.build/debug`, or the scratch path's) that holds this test binary.
    private static func buildFolder() -> URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Modules/WebServiceKit.swiftmodule").path)
            {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    private static func swiftc() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
