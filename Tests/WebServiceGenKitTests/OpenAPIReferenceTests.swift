import Foundation
import WebServiceGenKit
import XCTest

final class OpenAPIReferenceTests: XCTestCase {
    func testFollowsReferencesAcrossFilesAndDirectories() throws {
        let document = try OpenAPIReader.read(contentsOf: openAPIFixture("refs/root.yaml"))
        let refs = OpenAPILoader.canonical(openAPIFixture("refs"))
        func location(_ path: String, _ pointer: String) throws -> OpenAPILocation {
            OpenAPILocation(file: refs.appendingPathComponent(path), pointer: try JSONPointer(parsing: pointer))
        }
        // A path item in a nested directory; its parameter two levels up; a response by a ref to a ref.
        let path = try XCTUnwrap(document.paths.first)
        XCTAssertEqual(path.source, try location("api/v1/paths.yaml", "#/items"))
        let get = try XCTUnwrap(path.operations.first)
        XCTAssertEqual(get.parameters.first?.name, "limit")
        XCTAssertEqual(get.parameters.first?.source, try location("shared/parameters.yaml", "#/Limit"))
        XCTAssertEqual(get.responses.first?.description, "The items")
        XCTAssertEqual(get.responses.first?.source, try location("api/v1/paths.yaml", "#/responses/ItemsReal"))

        // Schemas keep their references; the targets, in every file, are read.
        let item = try location("common/item.yaml", "")
        let owner = try location("shared/owner.json", "#/Owner")
        XCTAssertEqual(get.responses.first?.content.first?.schema?.items?.reference, item)
        XCTAssertEqual(document.components.schemas.map(\.name), ["Item", "Alias", "AliasOfAlias"])
        XCTAssertEqual(document.components.schemas[0].value.reference, item)
        XCTAssertEqual(
            document.components.schemas[2].value.reference, try location("root.yaml", "#/components/schemas/Alias"))
        XCTAssertEqual(document.schemas[item]?.properties.map(\.name), ["id", "owner"])
        XCTAssertEqual(document.schemas[item]?.properties[1].value.reference, owner)
        // Owner refers back to item (recursion across files, through properties): not a cycle.
        XCTAssertEqual(document.schemas[owner]?.properties[1].value.items?.reference, item)
    }

    /// OpenAPI 3.1's `components.pathItems`: a path refers to one, which is read (and its path
    /// parameters checked against the template) as the path's own.
    func testAPathRefersToAComponentsPathItem() throws {
        let document = try readOpenAPI([
            "/api/root.yaml": """
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths:
              /pets/{id}: {$ref: '#/components/pathItems/Pet'}
            components:
              pathItems:
                Pet:
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: string}}
                  get:
                    operationId: getPet
                    responses: {'200': {description: the pet}}
            """
        ])
        let item = try XCTUnwrap(document.paths.first)
        XCTAssertEqual(item.path, "/pets/{id}")
        XCTAssertEqual(item.operations.map(\.operationId), ["getPet"])
        XCTAssertEqual(item.operations.first?.parameters.map(\.name), ["id"])
        XCTAssertEqual(item.source.pointer.description, "/components/pathItems/Pet")
    }

    func testLoaderResolvesRelativeReferences() throws {
        var loader = OpenAPILoader(
            source: OpenAPIMemorySource([
                "/a/root.yaml": "x: {$ref: 'b/c.json#/y'}\nlocal: {$ref: '#/z'}\nz: 1",
                "/a/b/c.json": #"{"y": {"$ref": "../d.yaml"}}"#,
                "/a/d.yaml": "value: 42",
            ]))
        let root = OpenAPILocation(file: URL(fileURLWithPath: "/a/root.yaml"))
        let document = try loader.document(at: root.file)
        let resolved = try loader.resolve(document["x"]!, at: root.appending("x"))
        XCTAssertEqual(resolved.value, .object([.init(key: "value", value: .int(42))]))
        XCTAssertEqual(resolved.location, OpenAPILocation(file: URL(fileURLWithPath: "/a/d.yaml")))
        let local = try loader.resolve(document["local"]!, at: root.appending("local"))
        XCTAssertEqual(local.value, .int(1))
        XCTAssertEqual(loader.files.count, 3)
    }

    func testACycleOfReferencesIsAnError() {
        let files = [
            "/api/root.yaml": openAPIDocument(
                paths: "  /a:\n    get:\n      parameters:\n        - $ref: 'other.yaml#/A'\n      responses: {}"),
            "/api/other.yaml": "A: {$ref: '#/B'}\nB: {$ref: '#/A'}",
        ]
        let error = openAPIError(files)
        XCTAssertEqual(error?.pointer?.description, "/paths/~1a/get/parameters/0/$ref")
        XCTAssertEqual(
            error?.message,
            "the $refs form a cycle: /api/root.yaml#/paths/~1a/get/parameters/0 → /api/other.yaml#/A → "
                + "/api/other.yaml#/B → /api/other.yaml#/A")
    }

    func testASchemaCycleOfNothingButReferencesIsAnError() {
        let error = openAPIError([
            "/api/root.yaml": openAPIDocument(
                paths: "  {}",
                components: "{schemas: {A: {$ref: '#/components/schemas/B'}, B: {$ref: '#/components/schemas/A'}}}")
        ])
        XCTAssertEqual(error?.pointer?.description, "/components/schemas/A/$ref")
        XCTAssertTrue(error?.message.hasPrefix("the $refs form a cycle") ?? false)
    }

    func testAMissingTargetNamesTheReference() {
        let error = openAPIError([
            "/api/root.yaml": openAPIDocument(
                paths: "  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}",
                components: "{responses: {}}")
        ])
        XCTAssertEqual(
            error?.description,
            "/api/root.yaml: /paths/~1a/get/responses/200/$ref: the $ref '#/components/responses/Nope' has no target: "
                + "the object at '/components/responses' has no member 'Nope'")
    }

    func testAMissingFileNamesTheReference() {
        let error = openAPIError([
            "/api/root.yaml": openAPIDocument(paths: "  {}", components: "{schemas: {A: {$ref: 'gone.yaml#/A'}}}")
        ])
        XCTAssertEqual(error?.pointer?.description, "/components/schemas/A/$ref")
        XCTAssertTrue(
            error?.message.hasPrefix("the $ref 'gone.yaml#/A' cannot be followed: the file cannot be read") ?? false)
    }

    func testRemoteReferencesAreRefused() {
        for reference in ["https://example.com/pet.yaml#/Pet", "http://example.com/x.json", "ftp://h/x.yaml"] {
            let error = openAPIError([
                "/api/root.yaml": openAPIDocument(paths: "  {}", components: "{schemas: {A: {$ref: '\(reference)'}}}")
            ])
            XCTAssertEqual(error?.pointer?.description, "/components/schemas/A/$ref")
            XCTAssertTrue(error?.message.contains("is not followed") ?? false, "\(String(describing: error))")
        }
    }

    func testAReferenceToAYAMLErrorGivesItsLineAndColumn() {
        let error = openAPIError([
            "/api/root.yaml": openAPIDocument(paths: "  {}", components: "{schemas: {A: {$ref: 'bad.yaml#/A'}}}"),
            "/api/bad.yaml": "A:\n  b: [1, 2\n",
        ])
        XCTAssertEqual(error?.file?.path, "/api/bad.yaml")
        XCTAssertNotNil(error?.yamlError)
        XCTAssertTrue(error?.description.hasPrefix("/api/bad.yaml:") ?? false)
    }
}
