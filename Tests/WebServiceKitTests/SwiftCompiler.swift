import Foundation
import XCTest

/// `swiftc` run by a test against the modules of the build the test belongs to, in Swift 6 mode:
/// the compile checks of typed calls and of the guides' code blocks.
enum SwiftCompiler {
    /// Type-checks `files` (one module); `swiftc`'s status and diagnostics.
    static func typeCheck(_ files: [URL]) throws -> (Int32, String) {
        try run(["-typecheck"] + files.map(\.path))
    }

    /// The libraries' modules this build made: their object files are linked into a program.
    static let libraries = [
        "WebServiceKit", "WebServiceKitTesting", "WebServiceKitOData", "WebServiceKitJSONRPC", "WebServiceKitXML",
        "WebServiceGenKit", "CWebServiceKitSystem",
    ]

    /// Compiles `files` into the program `output`, linked with the object files of this build's
    /// libraries (and XCTest), each `-D` of `defines` set; `swiftc`'s status and diagnostics.
    static func build(_ files: [URL], output: URL, defines: [String] = []) throws -> (Int32, String) {
        let build = try XCTUnwrap(buildFolder(), "no Modules folder above \(CommandLine.arguments[0])")
        var objects: [String] = []
        for library in libraries {
            let folder = build.appendingPathComponent("\(library).build")
            objects += try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".o") }
                .sorted().map { folder.appendingPathComponent($0).path }
        }
        return try run(
            defines.flatMap { ["-D", $0] } + files.map(\.path) + objects + ["-lXCTest", "-o", output.path])
    }

    private static func run(_ arguments: [String]) throws -> (Int32, String) {
        let build = try XCTUnwrap(buildFolder(), "no Modules folder above \(CommandLine.arguments[0])")
        let process = Process()
        process.executableURL = try XCTUnwrap(swiftc(), "swiftc is not on PATH")
        process.arguments =
            [
                "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path, "-Xcc",
                "-fmodule-map-file=" + build.appendingPathComponent("CWebServiceKitSystem.build/module.modulemap").path,
            ] + arguments
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
            let module = folder.appendingPathComponent("Modules/WebServiceKit.swiftmodule")
            if FileManager.default.fileExists(atPath: module.path) { return folder }
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
