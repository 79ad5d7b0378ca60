/// A path (or webhook) and its operations.
public struct OpenAPIPathItem: Sendable, Equatable {
    /// The path template (`/pets/{petId}`), or the webhook's name.
    public var path: String
    /// `summary`.
    public var summary: String?
    /// `description`.
    public var description: String?
    /// The path's own `servers`.
    public var servers: [OpenAPIServer]
    /// The path's own `parameters`, resolved (already merged into each operation).
    public var parameters: [OpenAPIParameter]
    /// The operations, in the order of the document.
    public var operations: [OpenAPIOperation]
    /// Where the path item was read from (a `$ref`'s target when it is one).
    public var source: OpenAPILocation
}

/// An HTTP method an operation can have.
public enum OpenAPIHTTPMethod: String, Sendable, Equatable, CaseIterable {
    case get, put, post, delete, options, head, patch, trace
}

/// An operation: a method of a path.
public struct OpenAPIOperation: Sendable, Equatable {
    /// The method.
    public var method: OpenAPIHTTPMethod
    /// The path template.
    public var path: String
    /// `operationId`.
    public var operationId: String?
    /// `summary`.
    public var summary: String?
    /// `description`.
    public var description: String?
    /// `deprecated`.
    public var deprecated: Bool
    /// `tags`.
    public var tags: [String]
    /// The parameters: the path's, overridden (same name and location) by the operation's,
    /// then the operation's others, resolved.
    public var parameters: [OpenAPIParameter]
    /// `requestBody`, resolved.
    public var requestBody: OpenAPIRequestBody?
    /// `responses`, in order, resolved.
    public var responses: [OpenAPIResponse]
    /// The security in force: the operation's, else the document's; empty for none.
    public var security: [OpenAPISecurityRequirement]
    /// The operation's own `servers`, else the path's; empty when the document's apply.
    public var servers: [OpenAPIServer]
    /// Where the operation was read from.
    public var source: OpenAPILocation
}
