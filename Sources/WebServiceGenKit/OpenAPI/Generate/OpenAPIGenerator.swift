import Foundation

/// Turns an OpenAPI 3.0 or 3.1 document (YAML or JSON, with the files its `$ref`s reach) into one
/// Swift file: `Codable` models for its schemas and a `TypedCall` per operation.
///
/// ```swift
/// let generated = try OpenAPIGenerator(options: GeneratorOptions(access: .public))
///     .generate(contentsOf: URL(fileURLWithPath: "petstore.yaml"))
/// print(generated.warnings)  // what the file leaves out, each with its JSON pointer
/// try generated.source.write(to: URL(fileURLWithPath: "Petstore.swift"), atomically: true, encoding: .utf8)
/// ```
///
/// The same document always gives the same bytes. Names follow one rule (``GeneratedNames``);
/// what the generated code cannot express is left out with an ``OpenAPIWarning`` naming its
/// place, never silently.
public struct OpenAPIGenerator: Sendable {
    /// What a generation gives: the Swift source and the warnings, in the document's order.
    public struct Output: Sendable {
        let pieces: [OpenAPISwiftWriter.Piece]
        let document: OpenAPIDocument
        let options: GeneratorOptions

        /// The Swift, as one file.
        public var source: String { OpenAPISwiftWriter.file(pieces, document: document, options: options) }

        /// The Swift as several files of at most `limit` declarations or calls each, named
        /// `PREFIXModels1.swift`…, `PREFIXCalls1.swift`… and `PREFIXSupport.swift`: what a large
        /// document needs, since Swift compiles one large file in a time that grows faster than
        /// its size (and several files in parallel). `prefix` is the document's file name as a
        /// type name (`petstore.yaml` → `Petstore`) unless given.
        public func files(prefix: String? = nil, limit: Int = 50) -> [(name: String, source: String)] {
            OpenAPISwiftWriter.files(
                pieces, prefix: prefix ?? filePrefix, limit: max(1, limit), document: document, options: options)
        }

        /// The files' default prefix: the document's file name as a type name.
        public var filePrefix: String {
            SwiftNaming.typeName(document.file.deletingPathExtension().lastPathComponent)
        }
        /// What the reader and the generator left out.
        public var warnings: [OpenAPIWarning]
        /// The Swift type of each component schema (`components/schemas`), by its key, in the
        /// document's order.
        public var componentTypes: [OpenAPINamed<String>]
    }

    /// How the Swift is written.
    public var options: GeneratorOptions
    /// Where the document and the files it refers to are read from.
    public var source: any OpenAPIFileSource
    /// The reader's bounds.
    public var limits: OpenAPILimits

    /// Creates a generator.
    public init(
        options: GeneratorOptions = GeneratorOptions(), source: any OpenAPIFileSource = OpenAPIFileSystemSource(),
        limits: OpenAPILimits = OpenAPILimits()
    ) {
        self.options = options
        self.source = source
        self.limits = limits
    }

    /// Reads the document at `url` and writes its Swift.
    public func generate(contentsOf url: URL) throws(OpenAPIError) -> Output {
        let document = try OpenAPIReader.read(contentsOf: url, source: source, limits: limits)
        return try generate(document)
    }

    /// Writes the Swift of a document already read.
    public func generate(_ document: OpenAPIDocument) throws(OpenAPIError) -> Output {
        if let namespace = options.namespace,
            !IfaceGenReader.isIdentifier(namespace) || SwiftNaming.reservedTypeNames.contains(namespace)
                || SwiftNaming.keywords.contains(namespace)
        {
            throw OpenAPIError("the namespace '\(namespace)' is not a usable Swift type name", file: document.file)
        }
        var models = OpenAPIModelBuilder(document: document, reserved: Set(options.namespace.map { [$0] } ?? []))
        models.declareComponents()
        var calls = OpenAPICallBuilder()
        let generatedCalls = calls.calls(of: document, models: &models)
        models.buildPending()
        var types = OpenAPISwiftWriter.FileTypes()
        if !document.servers.isEmpty { types.servers = models.claimTypeName("Servers") }
        if generatedCalls.contains(where: { !$0.security.isEmpty }) {
            types.security = models.claimTypeName("Security")
        }
        for scheme in document.components.securitySchemes {
            switch scheme.value.kind {
            case .mutualTLS:
                models.warn(
                    "mutualTLS is not written: give the client a certificate of your own", at: scheme.value.source)
            case .http(let kind, _) where kind != "basic" && kind != "bearer":
                models.warn(
                    "the HTTP scheme '\(kind)' is not written: set a provider of your own", at: scheme.value.source)
            default:
                break
            }
        }
        let declarations = GeneratedCycles.breakCycles(models.declarations)
        let pieces = OpenAPISwiftWriter.pieces(
            declarations: declarations, calls: generatedCalls, document: document, types: types, options: options)
        return Output(
            pieces: pieces, document: document, options: options, warnings: document.warnings + models.warnings,
            componentTypes: models.componentTypes)
    }
}
