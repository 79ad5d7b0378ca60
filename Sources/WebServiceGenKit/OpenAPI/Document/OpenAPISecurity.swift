/// A security requirement: every scheme it names applies together (with its scopes).
public struct OpenAPISecurityRequirement: Sendable, Equatable {
    /// A scheme of a requirement.
    public struct Entry: Sendable, Equatable {
        /// The name of the scheme in `components/securitySchemes`.
        public var scheme: String
        /// The scopes (OAuth 2) or roles required.
        public var scopes: [String]

        /// Creates an entry.
        public init(scheme: String, scopes: [String]) {
            self.scheme = scheme
            self.scopes = scopes
        }
    }

    /// The schemes, in order; empty for the requirement `{}` (no authentication).
    public var entries: [Entry]

    /// Creates a requirement.
    public init(entries: [Entry]) {
        self.entries = entries
    }
}

/// A security scheme (resolved from its `$ref`, if any).
public struct OpenAPISecurityScheme: Sendable, Equatable {
    /// What a scheme is.
    public enum Kind: Sendable, Equatable {
        /// `http` with a `scheme` (`basic`, `bearer`, lowercased) and, for bearer, a format hint.
        case http(scheme: String, bearerFormat: String?)
        /// `apiKey`: a key named `name` in a header, the query or a cookie.
        case apiKey(name: String, location: OpenAPIParameterLocation)
        /// `oauth2` with its flows.
        case oauth2(OpenAPIOAuthFlows)
        /// `openIdConnect` with its discovery URL.
        case openIdConnect(url: String)
        /// 3.1's `mutualTLS`.
        case mutualTLS
    }

    /// The kind and its settings.
    public var kind: Kind
    /// `description`.
    public var description: String?
    /// Where the scheme was read from.
    public var source: OpenAPILocation
}

/// The flows of an OAuth 2 scheme.
public struct OpenAPIOAuthFlows: Sendable, Equatable {
    /// `implicit`.
    public var implicit: OpenAPIOAuthFlow?
    /// `password`.
    public var password: OpenAPIOAuthFlow?
    /// `clientCredentials`.
    public var clientCredentials: OpenAPIOAuthFlow?
    /// `authorizationCode`.
    public var authorizationCode: OpenAPIOAuthFlow?
}

/// An OAuth 2 flow: its URLs and scopes.
public struct OpenAPIOAuthFlow: Sendable, Equatable {
    /// `authorizationUrl` (implicit and authorization code flows).
    public var authorizationURL: String?
    /// `tokenUrl` (password, client credentials and authorization code flows).
    public var tokenURL: String?
    /// `refreshUrl`.
    public var refreshURL: String?
    /// `scopes`: names and descriptions, in order.
    public var scopes: [OpenAPINamed<String>]
}
