import Foundation
import WebServiceGenKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The OpenAPI import against the size of its document (`--only openapi-gen`): documents of 100
/// to 10,000 operations and twice as many schemas, written by ``LargeOpenAPIDocument``, each
/// read and turned into Swift (the best of three runs, one at 10,000); the exponent of time
/// against size from 100 to 10,000 operations (1 is linear; the goal is at most 1.15), the peak
/// memory, and the time `swiftc` takes to compile the 1,000-operation output written as several
/// files (goal: generation under 5 s at 1,000 operations).
enum OpenAPIGenerationBenchmark {
    static let sizes = [100, 1_000, 10_000]

    static func run() {
        print("\nOpenAPI import: generation time against document size (goal: exponent <= 1.15, < 5 s at 1,000)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var times: [Int: Double] = [:]
        var output1000: [(name: String, source: String)] = []
        for size in sizes {
            let document = folder.appendingPathComponent("large\(size).yaml")
            let text = LargeOpenAPIDocument.text(operations: size)
            do {
                try text.write(to: document, atomically: true, encoding: .utf8)
            } catch {
                print("  cannot write the document: \(error)")
                return
            }
            let before = peakMemory()
            var best = Double.infinity
            var lines = 0
            for _ in 0..<(size >= 10_000 ? 1 : 3) {
                let start = DispatchTime.now().uptimeNanoseconds
                guard let generated = try? OpenAPIGenerator().generate(contentsOf: document) else {
                    print("  \(size) operations: the document does not generate")
                    return
                }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                lines = generated.source.split(separator: "\n", omittingEmptySubsequences: false).count
                if size == 1_000 { output1000 = generated.files() }
            }
            times[size] = best
            print(
                "  \(size) operations, \(2 * size) schemas (\(text.utf8.count / 1024) KiB): "
                    + "\(String(format: "%.3f", best)) s, \(lines) lines of Swift, "
                    + "peak memory +\(max(0, peakMemory() - before) / 1_048_576) MiB")
        }
        if let small = times[sizes[0]], let large = times[sizes[sizes.count - 1]] {
            let exponent = log(large / small) / log(Double(sizes[sizes.count - 1]) / Double(sizes[0]))
            print(
                "  exponent from \(sizes[0]) to \(sizes[sizes.count - 1]) operations: \(String(format: "%.2f", exponent))"
            )
        }
        compile(output1000, in: folder)
    }

    /// The peak resident memory of the process so far, in bytes.
    static func peakMemory() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)
        #else
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return Int(usage.ru_maxrss) * 1024
        #endif
    }

    /// Compiles the 1,000-operation output (as `--output-directory` writes it: several files)
    /// with `swiftc` against this build's modules, into object files without optimization (what
    /// a debug build of an app pays), one job per core, and reports the time.
    static func compile(_ files: [(name: String, source: String)], in folder: URL) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let build = executable.deletingLastPathComponent()
        let output = folder.appendingPathComponent("generated")
        try? FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for file in files {
            guard
                (try? file.source.write(to: output.appendingPathComponent(file.name), atomically: true, encoding: .utf8))
                    != nil
            else { return }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.currentDirectoryURL = output
        process.arguments =
            [
                "swiftc", "-swift-version", "6", "-parse-as-library", "-c", "-j",
                String(ProcessInfo.processInfo.activeProcessorCount), "-I",
                build.appendingPathComponent("Modules").path,
                "-Xcc",
                "-fmodule-map-file=" + build.appendingPathComponent("CWebServiceKitSystem.build/module.modulemap").path,
            ] + files.map(\.name)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try process.run()
        } catch {
            print("  swiftc cannot run: \(error)")
            return
        }
        let diagnostics = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let warnings = diagnostics.components(separatedBy: "warning:").count - 1
        print(
            "  swiftc -c of the 1,000-operation output (\(files.count) files, "
                + "\(ProcessInfo.processInfo.activeProcessorCount) jobs): \(String(format: "%.1f", seconds)) s, status "
                + "\(process.terminationStatus), \(warnings) warnings")
    }
}

/// A large OpenAPI 3.0 document of our own for the benchmark: `operations` operations (a GET
/// with a path and two query parameters, every other one a POST with a JSON body, answers with
/// typed errors) and twice as many schemas (objects of six properties of every kind, enums,
/// `allOf`, `oneOf` with a discriminator, references between them).
enum LargeOpenAPIDocument {
    static func text(operations: Int) -> String {
        var lines = [
            "openapi: 3.0.3", "info:", "  title: Large", "  version: \"1\"",
            "servers:", "  - url: https://large.example/v1", "paths:",
        ]
        for index in 0..<operations {
            let schema = "Item\(index)"
            lines += [
                "  /items\(index)/{id}:",
                "    \(index % 2 == 0 ? "get" : "post"):",
                "      operationId: operation\(index)",
                "      parameters:",
                "        - {name: id, in: path, required: true, schema: {type: integer, format: int64}}",
                "        - {name: filter, in: query, schema: {type: string}}",
                "        - {name: tags, in: query, style: pipeDelimited, schema: {type: array, items: {type: string}}}",
            ]
            if index % 2 == 1 {
                lines += [
                    "      requestBody:", "        required: true", "        content:", "          application/json:",
                    "            schema: {$ref: '#/components/schemas/Detail\(index)'}",
                ]
            }
            lines += [
                "      responses:", "        '200':", "          description: OK", "          content:",
                "            application/json:", "              schema: {$ref: '#/components/schemas/\(schema)'}",
                "        '404':", "          description: Missing", "          content:",
                "            application/json:",
                "              schema: {$ref: '#/components/schemas/Problem'}",
            ]
        }
        lines += [
            "components:", "  schemas:", "    Problem:", "      type: object", "      required: [code]",
            "      properties:", "        code: {type: integer}", "        message: {type: string}",
        ]
        for index in 0..<operations {
            lines += [
                "    Item\(index):", "      type: object", "      required: [id, name]", "      properties:",
                "        id: {type: integer, format: int64}", "        name: {type: string}",
                "        created: {type: string, format: date-time}",
                "        status: {type: string, enum: [active, retired, unknown-\(index)]}",
                "        detail: {$ref: '#/components/schemas/Detail\(index)'}",
                "        next: {$ref: '#/components/schemas/Item\((index + 1) % operations)'}",
                "    Detail\(index):",
            ]
            switch index % 3 {
            case 0:
                lines += [
                    "      allOf:", "        - $ref: '#/components/schemas/Problem'", "        - type: object",
                    "          properties:", "            extra: {type: array, items: {type: number}}",
                ]
            case 1:
                lines += [
                    "      oneOf:", "        - $ref: '#/components/schemas/Item\(index)'",
                    "        - $ref: '#/components/schemas/Problem'",
                ]
            default:
                lines += [
                    "      type: object", "      additionalProperties: {type: string}", "      properties:",
                    "        note: {type: string, nullable: true}",
                ]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
