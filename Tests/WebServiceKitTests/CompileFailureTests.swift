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

    /// Type-checks `file` beside the declarations.
    private func typeCheck(_ file: URL) throws -> (Int32, String) {
        try SwiftCompiler.typeCheck([Self.checks.appendingPathComponent("Declarations.swift"), file])
    }
}
