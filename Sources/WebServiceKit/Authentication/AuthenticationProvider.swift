import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a provider decides after seeing a response.
public enum AuthenticationDecision: Sendable {
    /// Let the response through to validation and decoding.
    case proceed
    /// The provider has new credentials (it answered a challenge or refreshed a token): send the
    /// request again. Providers fail a call whose fresh credentials are refused by throwing; the
    /// client also stops any call after three retries with ``WebServiceError/authentication(_:)``.
    case retry
}

/// Adds credentials to requests and answers challenges (ROAD's `RFAuthenticating`).
///
/// The client calls ``authenticate(_:for:)`` on every request after the interceptors, and
/// ``handle(_:to:for:)`` on every response. Implementations keep their session state (nonces,
/// tokens) themselves and must be safe to call from many calls at once.
public protocol AuthenticationProvider: Sendable {
    /// Returns `request` with credentials added (or unchanged when none apply yet).
    func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest

    /// Looks at a response (a 401 challenge, say) and decides whether to retry the request.
    func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor) async throws
        -> AuthenticationDecision

    /// Learns that a request it authenticated got no response (a transport failure or a
    /// cancellation), so that calls waiting for that exchange can go on.
    func handle(_ failure: WebServiceError, to request: WebServiceRequest, for call: CallDescriptor) async

    /// Forgets the session state (log out).
    func invalidate() async

    /// Deprecated: a provider written against `URLRequest` still compiles and is still called
    /// (the ``WebServiceRequest`` method's default forwards to it). Implement that one instead:
    /// one of the two must be implemented.
    func authenticate(_ request: URLRequest, for call: CallDescriptor) async throws -> URLRequest

    /// Deprecated: see ``authenticate(_:for:)-(URLRequest,_)``.
    func handle(_ response: TransportResponse, to request: URLRequest, for call: CallDescriptor) async throws
        -> AuthenticationDecision

    /// Deprecated: see ``authenticate(_:for:)-(URLRequest,_)``.
    func handle(_ failure: WebServiceError, to request: URLRequest, for call: CallDescriptor) async
}

extension AuthenticationProvider {
    public func invalidate() async {}
}
