/// What the OpenAPI import writes, before it is Swift text: the types of the models and the
/// calls, decided once by ``OpenAPIModelBuilder`` and ``OpenAPICallBuilder`` and written by
/// ``OpenAPISwiftWriter``.
indirect enum GeneratedType: Hashable, Sendable {
    case string, int, int32, int64, float, double, bool
    /// `format: date-time`: `Date` (the generated calls' coders read and write RFC 3339).
    case date
    /// `format: byte` (base64 in JSON) or `binary`: `Data`.
    case data
    /// `format: uuid`.
    case uuid
    /// `format: uri`.
    case url
    /// Any JSON value: the generated `JSONValue`.
    case json
    case array(GeneratedType)
    /// An object whose members all have one schema: `[String: Value]`.
    case dictionary(GeneratedType)
    /// A generated declaration, by its Swift name.
    case named(String)

    /// Whether the type mentions `JSONValue`.
    var usesJSONValue: Bool {
        switch self {
        case .json: true
        case .array(let element), .dictionary(let element): element.usesJSONValue
        default: false
        }
    }

    /// Whether a value of the type can fill a wildcard as text (a scalar).
    var isScalar: Bool {
        switch self {
        case .string, .int, .int32, .int64, .float, .double, .bool, .date, .uuid, .url: true
        default: false
        }
    }
}

/// A stored property of a generated struct.
struct GeneratedProperty: Hashable, Sendable {
    /// The JSON key.
    var key: String
    /// The Swift name, escaped (``SwiftNaming/memberName(_:)``) and unique in its struct.
    var name: String
    var type: GeneratedType
    /// Not in `required`, or nullable: a Swift `Optional`.
    var isOptional: Bool
    /// Required and nullable: the key is written with `null` rather than left out.
    var writesNull: Bool
    /// Part of a cycle of stored values: held by the generated `Indirect` wrapper.
    var isIndirect: Bool = false
    /// The schema's description, one line.
    var summary: String?
    /// `readOnly` or `writeOnly`, for the doc comment.
    var access: String?
    /// `deprecated`.
    var deprecated: Bool = false
    /// `default`, as JSON text, for the doc comment.
    var defaultText: String?
}

/// A case of a generated `enum` of values: its Swift name and the JSON value (text, or an
/// integer's digits).
struct GeneratedEnumCase: Hashable, Sendable {
    var name: String
    var value: String
}

/// An alternative of a `oneOf`/`anyOf`: its case name, its type, and the discriminator values
/// that select it.
struct GeneratedUnionCase: Hashable, Sendable {
    var name: String
    var type: GeneratedType
    var discriminatorValues: [String]
}

/// A generated declaration.
enum GeneratedDeclaration: Hashable, Sendable {
    /// An object schema: a `Codable` struct; `additional` holds `additionalProperties`' schema.
    case structure(name: String, summary: String, properties: [GeneratedProperty], additional: GeneratedType?)
    /// A string or integer `enum`: the values, each with its case name, and an unknown case.
    case enumeration(name: String, summary: String, isInteger: Bool, cases: [GeneratedEnumCase])
    /// `oneOf`/`anyOf`: an enum with a case per alternative, told apart by the discriminator
    /// property's value or, without one, by decoding each alternative in order.
    case union(
        name: String, summary: String, cases: [GeneratedUnionCase], discriminator: String?, isIndirect: Bool)
    /// Any other schema given a name: a `typealias`.
    case alias(name: String, summary: String, type: GeneratedType)

    var name: String {
        switch self {
        case .structure(let name, _, _, _), .enumeration(let name, _, _, _), .union(let name, _, _, _, _),
            .alias(let name, _, _):
            name
        }
    }
}
