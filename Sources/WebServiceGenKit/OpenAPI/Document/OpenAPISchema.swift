/// A JSON Schema of an OpenAPI document: the subset the importer uses, `$ref`s kept as
/// references (never inlined, so recursive schemas are fine).
///
/// 3.0's single `type` with `nullable: true` and 3.1's type arrays with `"null"` both give
/// ``types``. Validation keywords (`minimum`, `pattern`, …) are not kept.
public struct OpenAPISchema: Sendable, Equatable {
    /// `$ref`: where the schema is (a key of ``OpenAPIDocument/schemas``). In 3.0 the other
    /// keywords next to a `$ref` are ignored; 3.1 keeps them.
    public var reference: OpenAPILocation?
    /// `type`, `"null"` included for nullable schemas; empty when any type goes.
    public var types: [OpenAPISchemaType] = []
    /// `format`.
    public var format: String?
    /// `title`.
    public var title: String?
    /// `description`.
    public var description: String?
    /// `properties`, in order.
    public var properties: [OpenAPINamed<OpenAPISchema>] = []
    /// `required`.
    public var required: [String] = []
    /// `additionalProperties`; `nil` when not given.
    public var additionalProperties: OpenAPIAdditionalProperties?
    /// `items`; `nil` when not given.
    public var items: OpenAPISchema? {
        get { itemsStorage.first }
        set { itemsStorage = newValue.map { [$0] } ?? [] }
    }
    /// 3.1's `prefixItems` (JSON Schema 2020-12 §10.3.1.1): the schemas of an array's first
    /// elements, in order, a tuple; ``items`` then describes the elements after them (a `false`
    /// schema: none).
    public var prefixItems: [OpenAPISchema] = []
    /// `enum`; `nil` when not given.
    public var enumValues: [YAMLValue]?
    /// 3.1's `const`.
    public var constValue: YAMLValue?
    /// `allOf`.
    public var allOf: [OpenAPISchema] = []
    /// `oneOf`.
    public var oneOf: [OpenAPISchema] = []
    /// `anyOf`.
    public var anyOf: [OpenAPISchema] = []
    /// `discriminator`.
    public var discriminator: OpenAPIDiscriminator?
    /// `default`.
    public var defaultValue: YAMLValue?
    /// `example` and 3.1's `examples`, in that order.
    public var examples: [YAMLValue] = []
    /// `readOnly`.
    public var readOnly = false
    /// `writeOnly`.
    public var writeOnly = false
    /// `deprecated`.
    public var deprecated = false
    /// Whether the schema is 3.1's `false` (no value is valid); `true` is the empty schema.
    public var isFalse = false
    /// Where the schema was read from.
    public var source: OpenAPILocation

    /// The storage of ``items`` (a struct cannot hold itself directly).
    private var itemsStorage: [OpenAPISchema] = []

    /// Creates the empty schema (any value) read from `source`.
    public init(source: OpenAPILocation) {
        self.source = source
    }

    /// Whether `null` is a valid value (3.0's `nullable`, 3.1's `"null"` type).
    public var isNullable: Bool { types.contains(.null) }
}

/// A JSON Schema type.
public enum OpenAPISchemaType: String, Sendable, Equatable, CaseIterable {
    case string, number, integer, boolean, array, object, null
}

/// `additionalProperties`: allowed or not, or the schema of the other properties.
public enum OpenAPIAdditionalProperties: Sendable, Equatable {
    /// `true` or `false`.
    case allowed(Bool)
    /// A schema.
    indirect case schema(OpenAPISchema)
}

/// `discriminator`: the property that names a `oneOf`/`anyOf` alternative.
public struct OpenAPIDiscriminator: Sendable, Equatable {
    /// `propertyName`.
    public var propertyName: String
    /// `mapping`: values and the `$ref` text of their schemas, in order.
    public var mapping: [OpenAPINamed<String>]
}
