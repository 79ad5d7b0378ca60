import Foundation
import WebServiceGenKit
import XCTest

/// The OpenAPI fixture `name` (a path under `Fixtures/OpenAPI`), found from this file's path.
func openAPIFixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI/\(name)")
}

/// Reads the in-memory `files` (by absolute path) starting at `root`.
func readOpenAPI(_ files: [String: String], root: String = "/api/root.yaml", limits: OpenAPILimits = OpenAPILimits())
    throws(OpenAPIError) -> OpenAPIDocument
{
    try OpenAPIReader.read(
        contentsOf: URL(fileURLWithPath: root), source: OpenAPIMemorySource(files), limits: limits)
}

/// The error reading `files` gives; fails the test when there is none.
func openAPIError(
    _ files: [String: String], root: String = "/api/root.yaml", limits: OpenAPILimits = OpenAPILimits(),
    file: StaticString = #filePath, line: UInt = #line
) -> OpenAPIError? {
    do {
        _ = try readOpenAPI(files, root: root, limits: limits)
        XCTFail("expected an error", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// A 3.0 document whose `paths` are `paths` (YAML, indented by 2).
func openAPIDocument(paths: String, components: String = "{}", version: String = "3.0.3") -> String {
    """
    openapi: \(version)
    info: {title: T, version: '1'}
    paths:
    \(paths)
    components: \(components)
    """
}
