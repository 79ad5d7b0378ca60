import Foundation

/// The OpenAPI document reader (``OpenAPIReader``) on any bytes: the input, cut at each byte
/// 0xFF, is up to three files (`/api/root.yaml`, the document; `/api/shared.yaml` and
/// `/api/sub/parts.json`, which its `$ref`s may reach), read with small bounds (10 files, ref
/// chains of 16, schemas 32 deep, YAML nesting 256 and aliases 20,000 nodes) so each run is fast.
///
/// Beyond not crashing, hanging or leaking: a document read has every schema a `$ref` leads to
/// among its schemas (the reader reads each target once, without recursion), its paths start with
/// `/`, and each error names a file of the input. Each document read is then turned into Swift
/// (``OpenAPIGenerator``) twice, which must give the same text, as one file and as several files
/// holding the same lines.
enum OpenAPITarget {
    static let limits = OpenAPILimits(
        maximumFiles: 10, maximumReferenceChain: 16, maximumSchemaDepth: 32,
        yaml: YAMLLimits(maximumDepth: 256, maximumAliasExpansion: 20_000))
    static let names = ["/api/root.yaml", "/api/shared.yaml", "/api/sub/parts.json"]

    static func run(_ bytes: [UInt8]) {
        var files: [String: String] = [:]
        for (name, part) in zip(names, bytes.split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)) {
            files[name] = String(decoding: part, as: UTF8.self)
        }
        let document: OpenAPIDocument
        do {
            document = try OpenAPIReader.read(
                contentsOf: URL(fileURLWithPath: names[0]), source: OpenAPIMemorySource(files), limits: limits)
        } catch {
            fuzzCheck(
                error.file.map { names.contains($0.path) } ?? true, "an error names a file not in the input: \(error)")
            return
        }
        for path in document.paths { fuzzCheck(path.path.hasPrefix("/"), "a path without its slash: \(path.path)") }
        var stack = Array(document.schemas.values) + document.components.schemas.map(\.value)
        var visited = 0
        while let schema = stack.popLast(), visited < 100_000 {
            visited += 1
            if let reference = schema.reference {
                fuzzCheck(document.schemas[reference] != nil, "a $ref's schema was not read: \(reference)")
            }
            stack += schema.properties.map(\.value) + schema.allOf + schema.oneOf + schema.anyOf
            if let items = schema.items { stack.append(items) }
        }
        generate(document)
    }

    static func generate(_ document: OpenAPIDocument) {
        let generator = OpenAPIGenerator(options: GeneratorOptions(namespace: "API"), limits: limits)
        guard let first = try? generator.generate(document), let second = try? generator.generate(document) else {
            fuzzCheck(false, "a document read could not be generated")
            return
        }
        fuzzCheck(first.source == second.source, "two generations of one document differ")
        let whole = first.source.split(separator: "\n").filter { $0.contains("struct ") || $0.contains("enum ") }
        let parts = first.files(limit: 4).map(\.source).joined(separator: "\n").split(separator: "\n")
        fuzzCheck(Set(whole).isSubset(of: Set(parts)), "the files lack a declaration of the single file")
    }
}
