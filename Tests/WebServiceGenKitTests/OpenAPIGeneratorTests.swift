import Foundation
import WebServiceGenKit
import XCTest

/// The OpenAPI generator's text: the committed demo client, determinism, the naming rule, the
/// split into files, warnings for what it leaves out, and its command line. The generated code is
/// compiled and run by `OpenAPIGeneratedCodeTests` (WebServiceKitTests).
final class OpenAPIGeneratorTests: XCTestCase {
    static let generate = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI/generate")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Samples/Demo/OpenAPI/Petstore.swift` is what `webservice-gen openapi` writes for the
    /// demo's document today: regenerate it when this fails (the command is in Docs/IDLImport.md).
    func testTheDemosClientIsUpToDate() throws {
        let generated = try OpenAPIGenerator(options: GeneratorOptions(namespace: "Petstore"))
            .generate(contentsOf: Self.generate.appendingPathComponent("petstore.yaml"))
        let committed = try String(
            contentsOf: Self.repository.appendingPathComponent("Samples/Demo/OpenAPI/Petstore.swift"), encoding: .utf8)
        XCTAssertEqual(generated.source, committed, "Samples/Demo/OpenAPI/Petstore.swift is out of date")
    }

    func testTheSameDocumentGivesTheSameBytes() throws {
        for name in ["models30.yaml", "models31.yaml", "parameters.yaml", "bodies.yaml", "petstore.yaml"] {
            let url = Self.generate.appendingPathComponent(name)
            let first = try OpenAPIGenerator().generate(contentsOf: url)
            let second = try OpenAPIGenerator().generate(contentsOf: url)
            XCTAssertEqual(first.source, second.source, name)
            XCTAssertEqual(first.files().map(\.source), second.files().map(\.source), name)
        }
    }

    /// One rule: UpperCamelCase types from component keys, `Model` after a name that would hide
    /// a standard or library type, numbers after a name taken earlier, in the document's order;
    /// lowerCamelCase members, keywords in backticks, `self` with `Value`.
    func testTheNamingRule() throws {
        let generated = try OpenAPIGenerator().generate(
            contentsOf: Self.generate.appendingPathComponent("models30.yaml"))
        let types = Dictionary(uniqueKeysWithValues: generated.componentTypes.map { ($0.name, $0.value) })
        XCTAssertEqual(types["Catalog"], "Catalog")
        XCTAssertEqual(types["Data"], "DataModel")
        XCTAssertEqual(types["Names"], "Names")
        let source = generated.source
        for declaration in [
            "var `default`: String?", "var selfValue: String?", "var userId: Int?", "var userId2: Int?",
            "var type: String?", "var _2fa: Bool?", "var additionalProperties2: String?",
            "var additionalProperties: [String: String]", "case inReview", "case `default`", "case valueMinus1",
            "case undocumented(String)", "case undocumented(Int)", "struct CatalogNote:",
        ] {
            XCTAssertTrue(source.contains(declaration), "no '\(declaration)' in the generated source")
        }
        XCTAssertTrue(source.contains("case additionalProperties2 = \"additionalProperties\""))
        XCTAssertTrue(source.contains("case _2fa = \"2fa\""))
    }

    /// Recursive schemas: the edges of a cycle are indirect, the others not.
    func testOnlyCyclesAreIndirect() throws {
        let source = try OpenAPIGenerator().generate(contentsOf: Self.generate.appendingPathComponent("models30.yaml"))
            .source
        XCTAssertTrue(source.contains("private var _next: Indirect<Node?>"))
        XCTAssertTrue(source.contains("var children: [Node]?"))
        XCTAssertFalse(source.contains("Indirect<Status"))
        let models31 = try OpenAPIGenerator().generate(
            contentsOf: Self.generate.appendingPathComponent("models31.yaml")
        )
        .source
        XCTAssertTrue(models31.contains("indirect enum Expression:"))
        XCTAssertTrue(models31.contains("private var _left: Indirect<Expression>"))
    }

    func testFilesSplitTheOutputAndHoldTheSameDeclarations() throws {
        let generated = try OpenAPIGenerator(options: GeneratorOptions(namespace: "API"))
            .generate(contentsOf: Self.generate.appendingPathComponent("models30.yaml"))
        let files = generated.files(limit: 3)
        XCTAssertEqual(files.first?.name, "Models30Models1.swift")
        XCTAssertEqual(files.last?.name, "Models30Support.swift")
        XCTAssertGreaterThan(files.count, 4)
        for file in files where file.name.hasPrefix("Models30Models") {
            XCTAssertTrue(file.source.contains("\nextension API {\n"), file.name)
        }
        XCTAssertTrue(files.last?.source.contains("\nenum API {\n") ?? false)
        // Every declaration of the one file is in exactly one of the files.
        let whole = generated.source
        for line in whole.split(separator: "\n") where line.hasPrefix("    struct ") || line.hasPrefix("    enum ") {
            XCTAssertEqual(files.filter { $0.source.contains("\n" + line + "\n") }.count, 1, String(line))
        }
    }

    func testWhatIsLeftOutIsAWarningWithItsPointer() throws {
        let generated = try OpenAPIGenerator().generate(
            contentsOf: Self.generate.deletingLastPathComponent().appendingPathComponent("petstore.yaml"))
        let warnings = generated.warnings.map { "\($0.location.pointer): \($0.message)" }
        XCTAssertTrue(warnings.contains("/paths/~1pets/post/callbacks: callbacks are not imported"), "\(warnings)")
        XCTAssertTrue(
            warnings.contains(
                "/components/schemas/Pet/properties/kind/enum/2: the enum value 2 is not a string; it is left out"),
            "\(warnings)")
        XCTAssertEqual(warnings.count, Set(warnings).count, "a warning is given twice: \(warnings)")
    }

    /// A call has one `Response` type: a second success with a body is a warning, not silence.
    func testASecondSuccessBodyIsAWarning() throws {
        let document = """
            openapi: 3.0.3
            info: {title: Two, version: "1"}
            paths:
              /things:
                post:
                  operationId: makeThing
                  responses:
                    "200": {description: Old, content: {application/json: {schema: {type: string}}}}
                    "201": {description: New, content: {application/json: {schema: {type: integer}}}}
            """
        let generated = try OpenAPIGenerator(source: OpenAPIMemorySource(["/api/two.yaml": document]))
            .generate(contentsOf: URL(fileURLWithPath: "/api/two.yaml"))
        XCTAssertEqual(
            generated.warnings.map { "\($0.location.pointer): \($0.message)" },
            [
                "/paths/~1things/post/responses/201: the call returns the 200 response's body; the 201 response's is read as that type too"
            ])
        XCTAssertTrue(generated.source.contains("Response == String"))
    }

    func testTheCommandLine() throws {
        let command = try GeneratorCommand.parse(["openapi", "api.yaml", "--output-directory", "Generated"])
        XCTAssertEqual(command.mode, .openAPI)
        XCTAssertEqual(command.inputs, ["api.yaml"])
        XCTAssertEqual(command.outputDirectory, "Generated")
        for (arguments, message) in [
            (["openapi"], "no OpenAPI document (give webservice-gen openapi <document>)"),
            (
                ["openapi", "a.yaml", "b.yaml"],
                "webservice-gen openapi reads one document (its $refs bring in the others); got 2"
            ),
            (["a.json", "--output-directory", "x"], "--output-directory is for webservice-gen openapi"),
            (
                ["openapi", "a.yaml", "-o", "a.swift", "--output-directory", "x"],
                "give --output or --output-directory, not both"
            ),
        ] {
            XCTAssertThrowsError(try GeneratorCommand.parse(arguments)) { error in
                XCTAssertEqual((error as? GeneratorCommand.UsageError)?.message, message)
            }
        }
    }
}
