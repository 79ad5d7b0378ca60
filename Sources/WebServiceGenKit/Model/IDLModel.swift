/// A type as the input files declare it, before it is written as Swift.
public indirect enum IDLType: Sendable, Hashable {
    /// ifacegen `int32`, HTTPIDL `INT32`: `Int32`.
    case int32
    /// ifacegen `int64`, HTTPIDL `INT64`: `Int64`.
    case int64
    /// HTTPIDL `UINT32`: `UInt32`.
    case uint32
    /// HTTPIDL `UINT64`: `UInt64`.
    case uint64
    /// `bool`, `BOOL`: `Bool`.
    case bool
    /// `double`, `DOUBLE`: `Double`.
    case double
    /// `string`, `STRING`: `String`.
    case string
    /// ifacegen `rawstr`, a JSON document inside a string: `String`.
    case rawString
    /// ifacegen `raw`, any JSON value: the generated `JSONValue` enum.
    case json
    /// HTTPIDL `BLOB`: `Data`.
    case blob
    /// HTTPIDL `FILE`: a file `URL` (uploaded as a multipart file part).
    case file
    /// A list.
    case array(IDLType)
    /// A dictionary with `key` keys (a string or integer type).
    case dictionary(key: IDLType, value: IDLType)
    /// A declared structure, by its name in the input (or its Swift name once resolved).
    case named(String)

    /// Whether a value of this type can fill a URL wildcard (a path segment or query value).
    var isScalar: Bool {
        switch self {
        case .int32, .int64, .uint32, .uint64, .bool, .double, .string, .rawString: true
        default: false
        }
    }

    /// Whether the type is a scalar or a list of scalars: what a query item can carry.
    var isQueryValue: Bool {
        if case .array(let element) = self { return element.isScalar }
        return isScalar
    }

    /// Whether the type mentions `raw` anywhere.
    var usesJSONValue: Bool {
        switch self {
        case .json: true
        case .array(let element): element.usesJSONValue
        case .dictionary(_, let value): value.usesJSONValue
        default: false
        }
    }

    /// The same type with every structure name passed through `rename`.
    func renamingStructures(_ rename: (String) -> String) -> IDLType {
        switch self {
        case .named(let name): .named(rename(name))
        case .array(let element): .array(element.renamingStructures(rename))
        case .dictionary(let key, let value): .dictionary(key: key, value: value.renamingStructures(rename))
        default: self
        }
    }

    /// The structure names the type refers to.
    var structureNames: [String] {
        switch self {
        case .named(let name): [name]
        case .array(let element): element.structureNames
        case .dictionary(_, let value): value.structureNames
        default: []
        }
    }
}

/// A field of a structure.
public struct IDLField: Sendable, Hashable {
    /// The key in the JSON document, kept as it is.
    public var key: String
    /// The name the Swift property is made from (the key, or HTTPIDL's declared name).
    public var name: String
    /// The field's type.
    public var type: IDLType
    /// Whether the field may be missing (or `null`): a Swift `Optional`.
    public var isOptional: Bool
    /// Where the field is declared.
    public var location: SourceLocation
    /// Where its type is written, for "unknown type" errors.
    public var typeLocation: SourceLocation

    /// Creates a field.
    public init(
        key: String, name: String, type: IDLType, isOptional: Bool, location: SourceLocation,
        typeLocation: SourceLocation? = nil
    ) {
        self.key = key
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.location = location
        self.typeLocation = typeLocation ?? location
    }
}

/// A structure: a Swift `Codable` struct.
public struct IDLStructure: Sendable, Hashable {
    /// The name in the input (after the reader's own naming of nested structures).
    public var name: String
    /// The fields, in declaration order (with an `extends` parent's fields first once resolved).
    public var fields: [IDLField]
    /// The parent structure of ifacegen's `extends`, and where it is named.
    public var parent: (name: String, location: SourceLocation)? {
        get { parentName.map { ($0, parentLocation ?? location) } }
        set {
            parentName = newValue?.name
            parentLocation = newValue?.location
        }
    }
    /// Where the structure is declared.
    public var location: SourceLocation
    /// One line for the doc comment: what the structure is in the input.
    public var summary: String
    /// Whether the generated struct also offers its fields as multipart parts (`formData`).
    public var isMultipart: Bool = false

    private var parentName: String?
    private var parentLocation: SourceLocation?

    /// Creates a structure.
    public init(name: String, fields: [IDLField], location: SourceLocation, summary: String) {
        self.name = name
        self.fields = fields
        self.location = location
        self.summary = summary
    }
}

/// A piece of an endpoint's path.
public enum IDLPathPart: Sendable, Hashable {
    /// Text sent as it is.
    case literal(String)
    /// A parameter that fills a path segment, by name.
    case parameter(String)
}

/// A value the caller passes to an endpoint: one argument of the generated call.
public struct IDLParameter: Sendable, Hashable {
    /// Where the argument goes.
    public enum Place: Sendable, Hashable {
        /// A path segment.
        case path
        /// A query item whose name is `key`.
        case query
        /// The request body.
        case body
        /// The request body as multipart parts (`[FormData]`).
        case multipartBody
    }

    /// The parameter's name in the input.
    public var name: String
    /// The query item's name (for query parameters), as it is sent.
    public var key: String
    /// The argument's type.
    public var type: IDLType
    /// Whether the argument may be `nil` (a `nil` query argument drops the item).
    public var isOptional: Bool
    /// Where it goes.
    public var place: Place
    /// Where it is declared.
    public var location: SourceLocation

    /// Creates a parameter.
    public init(
        name: String, key: String, type: IDLType, isOptional: Bool, place: Place, location: SourceLocation
    ) {
        self.name = name
        self.key = key
        self.type = type
        self.isOptional = isOptional
        self.place = place
        self.location = location
    }
}

/// An endpoint: one `WebServiceCall` descriptor.
public struct IDLEndpoint: Sendable, Hashable {
    /// The name the static property is made from.
    public var name: String
    /// The HTTP method, upper case.
    public var method: String
    /// The path relative to the service root, without a leading `/`.
    public var path: [IDLPathPart]
    /// The arguments in order: path parameters, query parameters, then the body.
    public var parameters: [IDLParameter]
    /// The response type; `nil` for no body (`EmptyResponse`).
    public var response: IDLType?
    /// The key whose value is the response (ifacegen's one-key response), a `serializationRoot`.
    public var responseRoot: String?
    /// Where the endpoint is declared.
    public var location: SourceLocation
    /// Where the response type is written, for "unknown type" errors.
    public var responseLocation: SourceLocation
    /// One line for the doc comment: what the endpoint is in the input.
    public var summary: String

    /// Creates an endpoint.
    public init(
        name: String, method: String, path: [IDLPathPart], parameters: [IDLParameter], response: IDLType?,
        responseRoot: String? = nil, location: SourceLocation, responseLocation: SourceLocation? = nil, summary: String
    ) {
        self.responseLocation = responseLocation ?? location
        self.name = name
        self.method = method
        self.path = path
        self.parameters = parameters
        self.response = response
        self.responseRoot = responseRoot
        self.location = location
        self.summary = summary
    }
}

/// What the input files declare: structures and endpoints, in declaration order.
public struct IDLModule: Sendable, Hashable {
    /// The structures.
    public var structures: [IDLStructure]
    /// The endpoints.
    public var endpoints: [IDLEndpoint]

    /// Creates a module.
    public init(structures: [IDLStructure] = [], endpoints: [IDLEndpoint] = []) {
        self.structures = structures
        self.endpoints = endpoints
    }

    /// Adds `other`'s declarations after this module's.
    public mutating func append(_ other: IDLModule) {
        structures += other.structures
        endpoints += other.endpoints
    }
}
