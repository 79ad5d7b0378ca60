import Foundation
import WebServiceGenKit
import XCTest

/// The OpenAPI import's output, compiled and run: each document of
/// `Fixtures/OpenAPI/generate` (each valid by openapi-spec-validator, `OpenAPIFixtureValidationTests`)
/// is generated twice (the same bytes), compiled in Swift 6 mode with this build's libraries
/// (no warning allowed), and run: every component schema's examples are read into its
/// generated type and written back as the same JSON, and the document's own checks
/// (`NAME.checks.swift` beside it, printing `check …` lines) print what the test expects.
final class OpenAPIGeneratedCodeTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WebServiceGenKitTests/Fixtures/OpenAPI/generate")

    func testModels30() throws {
        try check(
            "models30.yaml",
            expecting: [
                "check status.unknown=undocumented(\"retired\")",
                "check status.keywords=default,selfValue,inReview",
                "check priority.unknown=undocumented(7)",
                "check priority.raw=-1",
                "check pet.unknown=undocumented",
                "check pet.cat=Tom,9",
                "check shape.string=text",
                "check names=d,s,1,2,t,true,a,[\"other\": \"o\"]",
                "check node.depth=3",
                "check created=1709296200.0",
                "check requiredNullable=null",
                "check readOnly.omitted=true",
                "check dataModel=v",
                "call getCatalog Spring 2 b",
            ], server: true)
    }

    func testModels31() throws {
        try check(
            "models31.yaml",
            expecting: [
                "check event.nulls=true",
                "check payload=array([program.JSONValue.number(1.0)])",
                "check level.null=true",
                "check level.unknown=undocumented(\"debug\")",
                "check expression.left=1.0",
                "check window=2",
                "call listEvents 0",
            ], server: true)
    }

    func testParametersReachTheValidatingServer() throws {
        try check(
            "parameters.yaml",
            expecting: [
                "pathSimple", "pathLabel", "pathMatrix", "queryForm", "queryForm.nils", "queryFormObject",
                "queryDelimited", "queryDeepObject", "queryReserved", "headerSimple", "cookieForm", "cookieForm.nils",
            ].map { "call \($0) ok=true" }, server: true)
    }

    func testBodiesErrorsServersAndSecurity() throws {
        try check(
            "bodies.yaml",
            expecting: [
                "check server.default=https://eu.bodies.example/v1/",
                "check server.us=https://us.bodies.example/v2/",
                "call createNote.noCredentials failed",
                "call createNote Groceries",
                "call getNote Groceries",
                "call getNote.basic Groceries",
                "call login text=true",
                "call uploadAttachment stored",
                "call putBlob stored",
                "call putBlob.file stored",
                "call getBlob true",
                "call getBlobToFile true true",
                // OAuth 2 through SingleFlightAuthenticationProvider: a 401 renews the token.
                "check oauth.renewed=true authentication",
                "call echoText text=true",
                "call feed events=0",
                "call logLines Groceries",
                // Typed errors: the server answers with the status asked for and the document's example.
                "check failure.400=400 status400(program.Problem(code: 404, message: \"Not found\"))",
                "check failure.409=409 status409",
                "check failure.500=500 status5XX(statusCode: 500, program.Problem(code: 404, message: \"Not found\"))",
                "check failure.404=status404(program.Problem(code: 404, message: \"Not found\"))",
            ], server: true)
    }

    func testPetstoreTheDemosDocument() throws {
        try check(
            "petstore.yaml",
            expecting: [
                "call listPets count=0", "call createPet 7 Rex available", "call showPetById Rex",
                "call deletePet done", "check showPetById.404=404 No such pet",
            ], server: true)
    }

    /// The reader's documents (Fixtures/OpenAPI, each valid by openapi-spec-validator; their
    /// constructs are the reader's cases: callbacks, `not`, `content` parameters, 3.1 path items,
    /// `$ref`s across files) compile too, in one file and in several, without a warning.
    func testTheReadersDocumentsCompile() throws {
        let folder = Self.fixtures.deletingLastPathComponent()
        for name in ["petstore.yaml", "parameters31.yaml", "pathitems31.yaml", "events31.json", "refs/root.yaml"] {
            let generated = try OpenAPIGenerator(options: GeneratorOptions(namespace: "API"))
                .generate(contentsOf: folder.appendingPathComponent(name))
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            var files: [URL] = []
            for file in generated.files(limit: 2) {
                files.append(work.appendingPathComponent(file.name))
                try file.source.write(to: files[files.count - 1], atomically: true, encoding: .utf8)
            }
            let main = work.appendingPathComponent("main.swift")
            try "_ = API.OpenAPICoding.encoder\n".write(to: main, atomically: true, encoding: .utf8)
            let (status, diagnostics) = try SwiftCompiler.build(
                files + [main], output: work.appendingPathComponent("program"))
            XCTAssertEqual(status, 0, "\(name) does not build:\n\(diagnostics)")
            XCTAssertFalse(diagnostics.contains("warning:"), "\(name) has warnings:\n\(diagnostics)")
        }
    }

    // MARK: Running a document

    /// Generates, builds and runs `fixture`'s program; with `server`, against the validating
    /// server (`WEBSERVICEKIT_OPENAPI_URL`), whose log must show every operation of the document
    /// called and every request accepted.
    private func check(_ fixture: String, expecting expected: [String], server: Bool = false) throws {
        let serverRoot = server ? try Self.serverURL() : nil
        let document = Self.fixtures.appendingPathComponent(fixture)
        let generator = OpenAPIGenerator()
        let first = try generator.generate(contentsOf: document)
        let second = try generator.generate(contentsOf: document)
        XCTAssertEqual(first.source, second.source, "two generations of \(fixture) differ")

        let read = try OpenAPIReader.read(contentsOf: document)
        var roundTrips: [String] = []
        for component in read.components.schemas where !component.value.examples.isEmpty {
            let type = try XCTUnwrap(first.componentTypes.first { $0.name == component.name }?.value)
            for example in component.value.examples {
                let json = String(
                    decoding: try JSONSerialization.data(
                        withJSONObject: Self.foundationValue(example), options: [.fragmentsAllowed, .sortedKeys]),
                    as: UTF8.self)
                roundTrips.append("roundTrip(\(type).self, \(SwiftLiteral.raw(json)))")
            }
        }
        XCTAssertFalse(roundTrips.isEmpty, "\(fixture) has no examples to read")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generated = folder.appendingPathComponent("Generated.swift")
        try first.source.write(to: generated, atomically: true, encoding: .utf8)
        let checks = Self.fixtures.appendingPathComponent(
            (fixture as NSString).deletingPathExtension + ".checks.swift")
        var main = Self.roundTripSupport + roundTrips.joined(separator: "\n") + "\n"
        if FileManager.default.fileExists(atPath: checks.path) {
            main += try String(contentsOf: checks, encoding: .utf8)
        }
        let mainFile = folder.appendingPathComponent("main.swift")
        try main.write(to: mainFile, atomically: true, encoding: .utf8)

        let program = folder.appendingPathComponent("program")
        let (status, diagnostics) = try SwiftCompiler.build([generated, mainFile], output: program)
        XCTAssertEqual(status, 0, "the code generated from \(fixture) does not build:\n\(diagnostics)")
        XCTAssertFalse(
            diagnostics.contains("warning:"), "the code generated from \(fixture) has warnings:\n\(diagnostics)")
        guard status == 0 else { return }

        let process = Process()
        process.executableURL = program
        if let serverRoot {
            process.environment = ProcessInfo.processInfo.environment.merging(
                ["OPENAPI_ROOT": serverRoot.absoluteString]) { $1 }
            _ = try Self.serverLog(serverRoot)  // starts this document's log afresh
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
        let lines = output.split(separator: "\n").map(String.init)
        let trips = lines.filter { $0.hasPrefix("roundTrip ") }
        XCTAssertEqual(trips.count, roundTrips.count, output)
        for line in trips where line.contains(" FAILED") { XCTFail("\(fixture): \(line)") }
        for line in expected where !lines.contains(line) { XCTFail("\(fixture): missing '\(line)' in:\n\(output)") }
        let checked = lines.filter { $0.hasPrefix("check ") || $0.hasPrefix("call ") }
        for line in checked where !expected.contains(line) { XCTFail("\(fixture): unexpected '\(line)'") }
        if let serverRoot { try checkServerLog(serverRoot, fixture: fixture, document: read) }
    }

    /// Every request the server saw for `fixture` was accepted by openapi-core, and every
    /// operation of the document was called.
    private func checkServerLog(_ root: URL, fixture: String, document: OpenAPIDocument) throws {
        let name = (fixture as NSString).deletingPathExtension
        let entries = try Self.serverLog(root).filter { $0["document"] as? String == name }
        for entry in entries where entry["verdict"] as? String != "ok" {
            XCTFail(
                "\(fixture): openapi-core refused \(entry["method"] ?? "") \(entry["path"] ?? "")?\(entry["query"] ?? ""): "
                    + "\(entry["errors"] ?? "")")
        }
        let called = Set(entries.compactMap { $0["operation"] as? String })
        let operations = document.paths.flatMap(\.operations).map {
            $0.operationId ?? "\($0.method.rawValue.uppercased()) \($0.path)"
        }
        for operation in operations where !called.contains(operation) {
            XCTFail("\(fixture): no accepted call of \(operation)")
        }
    }

    /// The validating server's root; skips without it, fails when the servers are required.
    static func serverURL() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["WEBSERVICEKIT_OPENAPI_URL"], let url = URL(string: text) {
            precondition(url.host == "127.0.0.1", "tests talk to 127.0.0.1 only")
            return url
        }
        if environment["WEBSERVICEKIT_REQUIRE_SERVERS"] == "1" {
            XCTFail("WEBSERVICEKIT_OPENAPI_URL is not set: run Scripts/test")
        }
        throw XCTSkip("WEBSERVICEKIT_OPENAPI_URL is not set; run Scripts/test")
    }

    /// The server's log since it was last read (which empties it).
    static func serverLog(_ root: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: root.appendingPathComponent("_log"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// A YAML value as `JSONSerialization` takes it.
    static func foundationValue(_ value: YAMLValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let bool): return bool
        case .int(let integer): return integer
        case .double(let double): return double
        case .string(let string): return string
        case .array(let elements): return elements.map(foundationValue)
        case .object(let members):
            var object: [String: Any] = [:]
            for member in members { object[member.key] = foundationValue(member.value) }
            return object
        }
    }

    /// The program's reading and writing of one example: decoded, encoded, decoded again; the JSON
    /// written must be the example's (members whose value is `null` aside: an optional property
    /// leaves its key out), and the second value the first.
    private static let roundTripSupport = #"""
        import Foundation
        import WebServiceKit

        func withoutNulls(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { !($0.value is NSNull) }.mapValues(withoutNulls)
            }
            if let array = value as? [Any] { return array.map(withoutNulls) }
            return value
        }

        /// A value read with the generated coder; `nil`, saying why, when it does not read.
        func decode<T: Decodable>(_ type: T.Type, _ json: String) -> T? {
            do {
                return try OpenAPICoding.decoder.decode(T.self, from: Data(json.utf8))
            } catch {
                print("check decode \(T.self) failed: \(error)")
                return nil
            }
        }

        /// A value as the generated coder writes it.
        func written(_ value: some Encodable) -> String {
            (try? String(decoding: OpenAPICoding.encoder.encode(value), as: UTF8.self)) ?? "unwritable"
        }

        func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ json: String) {
            do {
                let value = try OpenAPICoding.decoder.decode(T.self, from: Data(json.utf8))
                let written = try OpenAPICoding.encoder.encode(value)
                let again = try OpenAPICoding.decoder.decode(T.self, from: written)
                func normalized(_ data: Data) throws -> Data {
                    let value = withoutNulls(try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
                    return try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
                }
                let same = try normalized(Data(json.utf8)) == normalized(written)
                let problems =
                    (same ? "" : " written as \(String(decoding: written, as: UTF8.self)) from \(json)")
                    + (value == again ? "" : " read differently the second time")
                print("roundTrip \(T.self) " + (problems.isEmpty ? "ok" : "FAILED:" + problems))
            } catch {
                print("roundTrip \(T.self) FAILED: \(error)")
            }
        }


        """#
}

/// Swift literals for generated test programs.
enum SwiftLiteral {
    /// `text` as a raw string literal (`#"…"#`, with as many `#` as it needs).
    static func raw(_ text: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) { hashes += "#" }
        return hashes + "\"" + text + "\"" + hashes
    }
}
