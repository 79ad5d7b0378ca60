import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A credential-based scheme (OAuth bearer tokens, API sessions, signed cookies) described by
/// what it does; ``SingleFlightAuthenticationProvider`` runs it safely for many concurrent calls.
///
/// ```swift
/// struct TokenLogin: CredentialAuthenticator {
///     let auth: WebServiceClient   // another client, for the token endpoint
///     func authenticate(replacing current: String?) async throws -> String {
///         try await auth.perform(.issueToken, Login(user: "u", password: "p")).accessToken
///     }
///     func apply(_ token: String, to request: inout WebServiceRequest) {
///         request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
///     }
/// }
/// client.authenticationProvider = SingleFlightAuthenticationProvider(TokenLogin(auth: authClient))
/// ```
public protocol CredentialAuthenticator: Sendable {
    /// The credential: a token, a token pair with an expiry date, a session id…
    associatedtype Credential: Sendable

    /// Obtains a credential: logs in when `current` is `nil`, refreshes it otherwise. It may
    /// perform calls of its own (on another client, or this one with a call its provider ignores).
    /// Throwing fails every call waiting for it.
    func authenticate(replacing current: Credential?) async throws -> Credential

    /// Adds the credential to a request.
    func apply(_ credential: Credential, to request: inout WebServiceRequest)

    /// Whether a response says the credential was refused. The default: status 401.
    func isAuthenticationFailure(_ response: TransportResponse, for request: WebServiceRequest) -> Bool

    /// Whether `request` was sent with `credential`. The default compares the `Authorization`
    /// field with what ``apply(_:to:)`` writes; override it when the credential travels elsewhere.
    func isRequest(_ request: WebServiceRequest, authenticatedWith credential: Credential) -> Bool

    /// Whether the credential must be refreshed before it is used (an expiry date passed, say).
    /// The default: never; refresh only after a refusal.
    func requiresRefresh(_ credential: Credential) -> Bool

    /// Deprecated: an authenticator written against `URLRequest` still compiles and is still
    /// called (the ``WebServiceRequest`` method's default forwards to it). Implement that one
    /// instead: one of the two must be implemented.
    func apply(_ credential: Credential, to request: inout URLRequest)

    /// Deprecated: see ``apply(_:to:)-(_,inout URLRequest)``.
    func isAuthenticationFailure(_ response: TransportResponse, for request: URLRequest) -> Bool

    /// Deprecated: see ``apply(_:to:)-(_,inout URLRequest)``.
    func isRequest(_ request: URLRequest, authenticatedWith credential: Credential) -> Bool
}

extension CredentialAuthenticator {
    public func requiresRefresh(_ credential: Credential) -> Bool { false }
}

/// How often a provider may obtain credentials before it stops with an error: a server that
/// refuses every fresh token must not make the client hammer its token endpoint.
public struct RefreshLimit: Sendable, Hashable {
    /// The most refreshes allowed within ``interval``.
    public let maximumCount: Int
    /// The sliding window, in seconds.
    public let interval: TimeInterval

    /// Creates a limit of `maximumCount` refreshes per `interval` seconds.
    public init(maximumCount: Int, interval: TimeInterval) {
        self.maximumCount = max(1, maximumCount)
        self.interval = interval
    }

    /// Five refreshes per 30 seconds.
    public static let standard = RefreshLimit(maximumCount: 5, interval: 30)
}
