import Foundation

/// An OpenAPI 3.0 or 3.1 document, read with the files its `$ref`s lead to.
///
/// Parameters, request bodies, responses, headers and security schemes are resolved (each
/// keeps the location it was read from); schemas keep their `$ref`s, whose targets are in
/// ``schemas``.
public struct OpenAPIDocument: Sendable, Equatable {
    /// The `openapi` version.
    public var version: OpenAPIVersion
    /// `info`.
    public var info: OpenAPIInfo
    /// The document's `servers`.
    public var servers: [OpenAPIServer]
    /// `paths`, in the order of the document.
    public var paths: [OpenAPIPathItem]
    /// 3.1's `webhooks`, in order: each a name and a path item.
    public var webhooks: [OpenAPIPathItem]
    /// `components`.
    public var components: OpenAPIComponents
    /// The document's `security`; `nil` when it has none.
    public var security: [OpenAPISecurityRequirement]?
    /// Every schema read, by the location it was read from: the component schemas and the
    /// target of every schema `$ref` (``OpenAPISchema/reference``), in any file.
    public var schemas: [OpenAPILocation: OpenAPISchema]
    /// What the model leaves out, in the order it was found.
    public var warnings: [OpenAPIWarning]
    /// The root file.
    public var file: URL
}

/// An `openapi` version: 3.0.x or 3.1.x.
public struct OpenAPIVersion: Sendable, Equatable {
    /// The text (`3.0.3`).
    public var text: String
    /// The minor version: 0 or 1.
    public var minor: Int

    /// Whether JSON Schema is 2020-12 (3.1) rather than OpenAPI 3.0's dialect.
    public var isJSONSchema2020: Bool { minor >= 1 }
}

/// `info`: the title and version of the API.
public struct OpenAPIInfo: Sendable, Equatable {
    /// `title`.
    public var title: String
    /// `version` (of the API, not of OpenAPI).
    public var version: String
    /// `description`.
    public var description: String?
}

/// A name and a value: an entry of a `components` map.
public struct OpenAPINamed<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The key.
    public var name: String
    /// The value.
    public var value: Value

    /// Creates an entry.
    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}

/// `components`, each map in the order of the document.
public struct OpenAPIComponents: Sendable, Equatable {
    /// `schemas` (also in ``OpenAPIDocument/schemas`` by location).
    public var schemas: [OpenAPINamed<OpenAPISchema>] = []
    /// `parameters`, resolved.
    public var parameters: [OpenAPINamed<OpenAPIParameter>] = []
    /// `requestBodies`, resolved.
    public var requestBodies: [OpenAPINamed<OpenAPIRequestBody>] = []
    /// `responses`, resolved.
    public var responses: [OpenAPINamed<OpenAPIResponse>] = []
    /// `headers`, resolved.
    public var headers: [OpenAPINamed<OpenAPIHeader>] = []
    /// `securitySchemes`, resolved.
    public var securitySchemes: [OpenAPINamed<OpenAPISecurityScheme>] = []
}

/// A server: a URL (template) and its variables.
public struct OpenAPIServer: Sendable, Equatable {
    /// `url`, with `{variable}`s.
    public var url: String
    /// `description`.
    public var description: String?
    /// `variables`, in order.
    public var variables: [OpenAPIServerVariable]
}

/// A variable of a server URL.
public struct OpenAPIServerVariable: Sendable, Equatable {
    /// The name.
    public var name: String
    /// `default` (required).
    public var defaultValue: String
    /// `enum`; empty when any value goes.
    public var allowedValues: [String]
    /// `description`.
    public var description: String?
}
