import Foundation
import WebServiceGenKit
import XCTest

final class OpenAPIErrorTests: XCTestCase {
    func testAWrongParameterLocation() {
        let error = openAPIError([
            "/api/root.yaml": openAPIDocument(
                paths: "  /pets:\n    get:\n      parameters:\n        - {name: p, in: body}\n      responses: {}")
        ])
        XCTAssertEqual(
            error?.description,
            "/api/root.yaml: /paths/~1pets/get/parameters/0/in: 'body' is not a parameter location (path, query, "
                + "header, cookie)")
    }

    func testAPathParameterMustBeRequired() {
        let error = openAPIError([
            "/api/root.yaml": openAPIDocument(
                paths: "  /pets/{id}:\n    parameters:\n      - {name: id, in: path}\n    get: {responses: {}}")
        ])
        XCTAssertEqual(error?.pointer?.description, "/paths/~1pets~1{id}/parameters/0/required")
        XCTAssertEqual(error?.message, "the path parameter 'id' must have 'required: true'")
    }

    /// The parameter rules past the schema, each with the pointer of the value at fault (the
    /// fixtures under `invalid/` check each against openapi-spec-validator's verdict).
    func testParametersListedTwiceOrOutOfTheirTemplateOrStyle() {
        func error(_ paths: String) -> OpenAPIError? {
            openAPIError(["/api/root.yaml": openAPIDocument(paths: paths)])
        }
        let twice = error(
            "  /pets:\n    get:\n      parameters:\n        - {name: q, in: query}\n        - {name: q, in: query}\n"
                + "      responses: {}")
        XCTAssertEqual(twice?.pointer?.description, "/paths/~1pets/get/parameters/1")
        XCTAssertEqual(
            twice?.message, "the query parameter 'q' is listed twice (a parameter is one name in one location)")
        // One name in two locations is two parameters.
        XCTAssertNoThrow(
            try readOpenAPI([
                "/api/root.yaml": openAPIDocument(
                    paths: "  /pets:\n    get:\n      parameters:\n        - {name: q, in: query}\n"
                        + "        - {name: q, in: header}\n      responses: {}")
            ]))
        let unbound = error("  /pets/{id}:\n    get: {responses: {}}")
        XCTAssertEqual(unbound?.pointer?.description, "/paths/~1pets~1{id}/get")
        XCTAssertEqual(
            unbound?.message, "the path '/pets/{id}' has '{id}', and the operation no path parameter of that name")
        let stray = error(
            "  /pets:\n    get:\n      parameters:\n        - {name: id, in: path, required: true}\n"
                + "      responses: {}")
        XCTAssertEqual(stray?.pointer?.description, "/paths/~1pets/get/parameters/0")
        XCTAssertEqual(stray?.message, "the path parameter 'id' is not in the path '/pets'")
        let style = error(
            "  /pets:\n    get:\n      parameters:\n        - {name: q, in: query, style: matrix}\n      responses: {}")
        XCTAssertEqual(style?.pointer?.description, "/paths/~1pets/get/parameters/0/style")
        XCTAssertEqual(
            style?.message,
            "the style 'matrix' is not one of a query parameter's (form, spaceDelimited, pipeDelimited, "
                + "deepObject)")
    }

    func testAMissingVersion() {
        let error = openAPIError(["/api/root.yaml": "info: {title: T, version: '1'}\npaths: {}"])
        XCTAssertEqual(error?.description, "/api/root.yaml: /: the document has no 'openapi' version (3.0.x or 3.1.x)")
    }

    func testAnUnknownVersion() {
        let error = openAPIError(["/api/root.yaml": "openapi: 3.2.0\ninfo: {title: T, version: '1'}\npaths: {}"])
        XCTAssertEqual(error?.pointer?.description, "/openapi")
        XCTAssertEqual(error?.message, "'3.2.0' is not an OpenAPI version this reader knows (3.0.x, 3.1.x)")
    }

    func testSwagger2IsRefused() {
        let error = openAPIError(["/api/root.yaml": "swagger: \"2.0\"\ninfo: {title: T, version: '1'}\npaths: {}"])
        XCTAssertEqual(error?.pointer?.description, "/swagger")
        XCTAssertTrue(error?.message.contains("Swagger 2.0") ?? false)
    }

    func testAYAMLSyntaxErrorHasItsLineAndColumn() {
        let error = openAPIError(["/api/root.yaml": "openapi: 3.0.0\ninfo:\n  title: [T\n  version: '1'\n"])
        let yaml = try? XCTUnwrap(error?.yamlError)
        XCTAssertNotNil(yaml)
        XCTAssertEqual(
            error?.description, "/api/root.yaml:\(yaml?.line ?? 0):\(yaml?.column ?? 0): \(yaml?.message ?? "")")
        XCTAssertGreaterThanOrEqual(yaml?.line ?? 0, 3)
    }

    func testOtherErrorsNameThePointer() {
        XCTAssertEqual(
            openAPIError([
                "/api/root.yaml": openAPIDocument(paths: "  /a:\n    get:\n      responses: {'600': {description: x}}")
            ])?.pointer?.description, "/paths/~1a/get/responses/600")
        XCTAssertEqual(
            openAPIError([
                "/api/root.yaml": openAPIDocument(paths: "  {}", components: "{schemas: {A: {type: [string, thing]}}}")
            ])?.pointer?.description, "/components/schemas/A/type/1")
        XCTAssertEqual(
            openAPIError([
                "/api/root.yaml": openAPIDocument(
                    paths: "  {}", components: "{securitySchemes: {k: {type: apiKey, name: k, in: path}}}")
            ])?.pointer?.description, "/components/securitySchemes/k/in")
        XCTAssertEqual(
            openAPIError([
                "/api/root.yaml": openAPIDocument(
                    paths:
                        "  /a:\n    get:\n      parameters: [{name: q, in: query, style: weird}]\n      responses: {}")
            ])?.pointer?.description, "/paths/~1a/get/parameters/0/style")
        XCTAssertEqual(
            openAPIError(["/api/root.yaml": openAPIDocument(paths: "  /a:\n    get: {}")])?.message,
            "the operation has no 'responses'")
    }

    func testDeeplyNestedSchemasAreAnErrorNotACrash() {
        // 10,000 levels: beyond the YAML reader's depth limit.
        var deep = String(repeating: "{\"items\": ", count: 10_000) + "{}" + String(repeating: "}", count: 10_000)
        var error = openAPIError(
            [
                "/api/root.json": #"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}, "#
                    + #""components": {"schemas": {"A": "# + deep + "}}}"
            ], root: "/api/root.json")
        XCTAssertNotNil(error?.yamlError)
        // 300 levels: within the YAML reader's limit, beyond the schema depth limit.
        deep = String(repeating: "{\"items\": ", count: 300) + "{}" + String(repeating: "}", count: 300)
        error = openAPIError(
            [
                "/api/root.json": #"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}, "#
                    + #""components": {"schemas": {"A": "# + deep + "}}}"
            ], root: "/api/root.json")
        XCTAssertEqual(error?.message, "schemas are nested more than 64 deep")
        XCTAssertEqual(
            error?.pointer?.description, "/components/schemas/A" + String(repeating: "/items", count: 64))
    }

    func testALongChainOfReferencesIsBounded() {
        var schemas = (0..<10_000).map { "S\($0): {$ref: '#/components/schemas/S\($0 + 1)'}" }
        schemas.append("S10000: {type: string}")
        let files = [
            "/api/root.yaml": openAPIDocument(
                paths: "  /a:\n    get:\n      parameters:\n        - $ref: '#/components/parameters/P0'\n"
                    + "      responses: {}",
                components: "\n  parameters:\n"
                    + (0..<10_000).map { "    P\($0): {$ref: '#/components/parameters/P\($0 + 1)'}" }
                    .joined(separator: "\n") + "\n    P10000: {name: p, in: query}")
        ]
        let error = openAPIError(files)
        XCTAssertEqual(error?.message, "the chain of $refs is longer than 64")
        XCTAssertEqual(error?.pointer?.description, "/components/parameters/P0/$ref")

        let schemaError = openAPIError([
            "/api/root.yaml": openAPIDocument(
                paths: "  {}", components: "\n  schemas:\n" + schemas.map { "    " + $0 }.joined(separator: "\n"))
        ])
        XCTAssertEqual(schemaError?.message, "the chain of $refs is longer than 64")
    }

    func testManyFilesReferringToEachOther() throws {
        // 300 files, each schema referring to the next and back to the first (recursion, not a cycle).
        var files: [String: String] = [:]
        for index in 0..<300 {
            files["/api/s\(index).yaml"] =
                "S:\n  type: object\n  properties:\n    next: {$ref: 's\((index + 1) % 300).yaml#/S'}\n"
                + "    first: {$ref: 's0.yaml#/S'}\n    me: {$ref: '#/S'}"
        }
        files["/api/root.yaml"] = openAPIDocument(paths: "  {}", components: "{schemas: {A: {$ref: 's0.yaml#/S'}}}")
        let document = try readOpenAPI(files)
        XCTAssertEqual(document.schemas.count, 301)

        // The number of files is bounded.
        let error = openAPIError(files, limits: OpenAPILimits(maximumFiles: 100))
        XCTAssertEqual(error?.message.hasPrefix("the $ref"), true)
        XCTAssertEqual(error?.message.contains("more than 100 files are referred to"), true)
    }
}
