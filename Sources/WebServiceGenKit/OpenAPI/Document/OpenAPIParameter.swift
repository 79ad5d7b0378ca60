/// Where a parameter goes.
public enum OpenAPIParameterLocation: String, Sendable, Equatable, CaseIterable {
    case path, query, header, cookie
}

/// How a parameter's or header's value is serialized (`style`).
public enum OpenAPIParameterStyle: String, Sendable, Equatable, CaseIterable {
    case matrix, label, form, simple, spaceDelimited, pipeDelimited, deepObject

    /// OpenAPI's default for `location`: `form` for query and cookie, `simple` for path and
    /// header.
    public static func defaultStyle(for location: OpenAPIParameterLocation) -> OpenAPIParameterStyle {
        switch location {
        case .query, .cookie: return .form
        case .path, .header: return .simple
        }
    }

    /// The styles `location` allows (OpenAPI 3.1, the Parameter Object's "Style Values"; the
    /// 3.0 and 3.1 schemas enforce the same): `matrix`, `label` and `simple` for path, `form`,
    /// `spaceDelimited`, `pipeDelimited` and `deepObject` for query, `simple` for header, `form`
    /// for cookie.
    public static func allowed(in location: OpenAPIParameterLocation) -> [OpenAPIParameterStyle] {
        switch location {
        case .path: return [.matrix, .label, .simple]
        case .query: return [.form, .spaceDelimited, .pipeDelimited, .deepObject]
        case .header: return [.simple]
        case .cookie: return [.form]
        }
    }
}

/// A parameter of an operation (resolved from its `$ref`, if any).
public struct OpenAPIParameter: Sendable, Equatable {
    /// `name`.
    public var name: String
    /// `in`.
    public var location: OpenAPIParameterLocation
    /// `description`.
    public var description: String?
    /// `required` (always `true` for path parameters).
    public var required: Bool
    /// `deprecated`.
    public var deprecated: Bool
    /// `style`, or the default of the location.
    public var style: OpenAPIParameterStyle
    /// `explode`, or the default of the style (`true` for `form` only).
    public var explode: Bool
    /// `allowReserved`.
    public var allowReserved: Bool
    /// `schema`; `nil` when `content` describes the value.
    public var schema: OpenAPISchema?
    /// `content` (the alternative to `schema`).
    public var content: [OpenAPIMediaType]
    /// Where the parameter was read from.
    public var source: OpenAPILocation
}

/// A header of a response or of an encoding (resolved from its `$ref`, if any).
public struct OpenAPIHeader: Sendable, Equatable {
    /// The header's name (its key).
    public var name: String
    /// `description`.
    public var description: String?
    /// `required`.
    public var required: Bool
    /// `deprecated`.
    public var deprecated: Bool
    /// `explode` (the style is always `simple`).
    public var explode: Bool
    /// `schema`; `nil` when `content` describes the value.
    public var schema: OpenAPISchema?
    /// `content`.
    public var content: [OpenAPIMediaType]
    /// Where the header was read from.
    public var source: OpenAPILocation
}
