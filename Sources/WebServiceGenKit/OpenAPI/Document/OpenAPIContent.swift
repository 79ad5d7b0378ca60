/// A media type of a `content` map: its schema and, for forms and multipart, its encodings.
public struct OpenAPIMediaType: Sendable, Equatable {
    /// The media type or range (`application/json`, `image/*`).
    public var mediaType: String
    /// `schema`.
    public var schema: OpenAPISchema?
    /// `encoding`, by property, in order.
    public var encoding: [OpenAPIEncoding]
    /// Where the media type object was read from.
    public var source: OpenAPILocation
}

/// How a property of a form or multipart body is encoded.
public struct OpenAPIEncoding: Sendable, Equatable {
    /// The property (the key).
    public var property: String
    /// `contentType`.
    public var contentType: String?
    /// `style`; `nil` when not given.
    public var style: OpenAPIParameterStyle?
    /// `explode`; `nil` when not given (the default depends on the style).
    public var explode: Bool?
    /// `allowReserved`.
    public var allowReserved: Bool
    /// `headers` (of a multipart part), resolved.
    public var headers: [OpenAPIHeader]
}

/// A request body (resolved from its `$ref`, if any).
public struct OpenAPIRequestBody: Sendable, Equatable {
    /// `description`.
    public var description: String?
    /// `required`.
    public var required: Bool
    /// `content`, in order.
    public var content: [OpenAPIMediaType]
    /// Where the request body was read from.
    public var source: OpenAPILocation
}

/// The key of a response: a status code, a range (`2XX`) or `default`.
public enum OpenAPIResponseStatus: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// A status code (`200`).
    case code(Int)
    /// A range of status codes by its first digit (`2XX` is `range(2)`).
    case range(Int)
    /// `default`.
    case `default`

    /// Parses a key: `100`…`599`, `1XX`…`5XX` (either case), `default`.
    public init?(_ key: String) {
        if key == "default" {
            self = .default
        } else if key.count == 3, let first = key.first?.wholeNumberValue, (1...5).contains(first),
            key.dropFirst().uppercased() == "XX"
        {
            self = .range(first)
        } else if key.count == 3, key.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(key),
            (100...599).contains(code)
        {
            self = .code(code)
        } else {
            return nil
        }
    }

    /// The key as OpenAPI writes it.
    public var description: String {
        switch self {
        case .code(let code): return String(code)
        case .range(let digit): return "\(digit)XX"
        case .default: return "default"
        }
    }
}

/// A response (resolved from its `$ref`, if any).
public struct OpenAPIResponse: Sendable, Equatable {
    /// The status key; `default` for a component response (which has none).
    public var status: OpenAPIResponseStatus
    /// `description`.
    public var description: String
    /// `headers`, in order, resolved.
    public var headers: [OpenAPIHeader]
    /// `content`, in order.
    public var content: [OpenAPIMediaType]
    /// Where the response was read from.
    public var source: OpenAPILocation
}
