/// The bounds an OpenAPI document set is read within, so that no document (hostile or broken)
/// exhausts the stack, the memory or the time of the reader.
public struct OpenAPILimits: Sendable, Equatable {
    /// The most files loaded through `$ref`s, the first one included: 1,000 by default.
    public var maximumFiles: Int
    /// The longest chain of `$ref`s to `$ref`s followed to reach a value: 64 by default.
    public var maximumReferenceChain: Int
    /// The deepest nesting of inline schemas (properties, items, allOf, …): 64 by default.
    public var maximumSchemaDepth: Int
    /// The bounds of the YAML reader, for each file.
    public var yaml: YAMLLimits

    /// Creates limits; the defaults suit any real document.
    public init(
        maximumFiles: Int = 1_000, maximumReferenceChain: Int = 64, maximumSchemaDepth: Int = 64,
        yaml: YAMLLimits = YAMLLimits()
    ) {
        self.maximumFiles = maximumFiles
        self.maximumReferenceChain = maximumReferenceChain
        self.maximumSchemaDepth = maximumSchemaDepth
        self.yaml = yaml
    }
}
