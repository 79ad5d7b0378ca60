import Foundation
import WebServiceGenKit
import XCTest

/// Every OpenAPI fixture document is valid OpenAPI by a validator we did not write
/// (openapi-spec-validator, whose verdicts `Scripts/test` writes with
/// `Tests/Differential/openapi_fixtures.py`), and the reader reads each one; every document under
/// `invalid/` is invalid by that validator, and the reader refuses it with the error its first
/// line names (`# refused: TEXT`).
///
/// To rerun by hand: `.venv-differential/bin/python Tests/Differential/openapi_fixtures.py F`, then
/// `WEBSERVICEKIT_OPENAPI_FIXTURE_VERDICTS=F swift test --filter OpenAPIFixtureValidationTests`.
final class OpenAPIFixtureValidationTests: XCTestCase {
    func testEveryFixtureDocumentIsValidOpenAPIAndIsRead() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment["WEBSERVICEKIT_OPENAPI_FIXTURE_VERDICTS"] else {
            if environment["WEBSERVICEKIT_REQUIRE_SERVERS"] == "1" {
                XCTFail("WEBSERVICEKIT_OPENAPI_FIXTURE_VERDICTS is not set: run Scripts/test")
            }
            throw XCTSkip("WEBSERVICEKIT_OPENAPI_FIXTURE_VERDICTS names no file of verdicts (Scripts/test writes one)")
        }
        var verdicts: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if fields.count == 2 { verdicts[fields[0]] = fields[1] }
        }
        let documents = try Self.documents()
        XCTAssertGreaterThanOrEqual(documents.count, 3)
        XCTAssertEqual(Set(verdicts.keys), Set(documents), "the validator and this test see other documents")
        for name in documents where !name.hasPrefix("invalid/") {
            XCTAssertEqual(
                verdicts[name], "valid", "\(name): openapi-spec-validator says \(verdicts[name] ?? "nothing")")
            XCTAssertNoThrow(try OpenAPIReader.read(contentsOf: openAPIFixture(name)), name)
        }
        let invalid = documents.filter { $0.hasPrefix("invalid/") }
        XCTAssertGreaterThanOrEqual(invalid.count, 9)
        for name in invalid {
            XCTAssertTrue(
                verdicts[name]?.hasPrefix("invalid") ?? false,
                "\(name): openapi-spec-validator says \(verdicts[name] ?? "nothing")")
            let text = try String(contentsOf: openAPIFixture(name), encoding: .utf8)
            let refusal = try XCTUnwrap(
                text.split(separator: "\n").first.flatMap { $0.split(separator: "# refused: ", maxSplits: 1).last },
                "\(name) names no refusal on its first line")
            XCTAssertThrowsError(try OpenAPIReader.read(contentsOf: openAPIFixture(name)), name) { error in
                XCTAssertTrue("\(error)".contains(refusal), "\(name): \(error)")
            }
        }
    }

    /// The fixture files whose top level has an `openapi` member, relative to `Fixtures/OpenAPI`.
    static func documents() throws -> [String] {
        let folder = openAPIFixture("")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { ["yaml", "json"].contains($0.pathExtension) } ?? []
        return try files.filter { file in
            try YAMLReader.value(from: String(contentsOf: file, encoding: .utf8))["openapi"] != nil
        }.map { String($0.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count)) }
            .map { $0.hasPrefix("/") ? String($0.dropFirst()) : $0 }.sorted()
    }
}
