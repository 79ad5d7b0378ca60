import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTP Basic authentication (RFC 7617).
///
/// ```swift
/// client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "passwd")
/// ```
///
/// - The first request goes out without credentials; a `401` with a `Basic` challenge is answered
///   with one retry. After that, requests to the same protection space (the origin, and paths at or
///   below the challenged one, §2.2) carry credentials preemptively: one round trip per call.
/// - `sendsPreemptively` sends credentials from the first request on, for servers that never
///   challenge (httpbin's `hidden-basic-auth` answers 404 instead of 401).
/// - Credentials are encoded as UTF-8 (§2.1) and bound to one origin: the one given, or the first
///   that asks for them. They never go to another origin, redirects included.
/// - They are never sent over plain `http` to another machine unless `allowsInsecureHTTP` is set.
/// - Refused credentials fail the call with ``WebServiceError/authentication(_:)``; there is no loop.
/// - ``isSessionOpen`` and ``session`` tell whether it sends credentials preemptively now, and
///   where; ``endSession()`` (or ``invalidate()``) forgets the challenges it has answered.
public final class BasicAuthenticationProvider: AuthenticationProvider {
    private let credentials: Result<String, WebServiceError>
    private let scope: CredentialScope
    private let sendsPreemptively: Bool

    private struct Challenged {
        /// Path prefixes of the bound origin known to need credentials.
        var paths: Set<String> = []
        /// The realm of the last challenge answered.
        var realm: String?
    }

    private let challenged = Locked(Challenged())

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - user: The user-id; it may not contain a colon (RFC 7617 §2).
    ///   - password: The password.
    ///   - origin: The only origin the credentials go to; `nil` binds them to the first origin that
    ///     challenges (or, with `sendsPreemptively`, the first one requested).
    ///   - sendsPreemptively: Send credentials on every request to the origin, without waiting for a challenge.
    ///   - allowsInsecureHTTP: Allow plain `http` to hosts other than this machine.
    public init(
        user: String, password: String, origin: URL? = nil, sendsPreemptively: Bool = false,
        allowsInsecureHTTP: Bool = false
    ) {
        if user.contains(":") {
            credentials = .failure(.authentication("a Basic user-id cannot contain ':' (RFC 7617 §2)"))
        } else if let problem = HeaderValidation.problem(in: user + password) {
            credentials = .failure(.authentication("Basic credentials cannot contain control characters: \(problem)"))
        } else {
            credentials = .success("Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        }
        scope = CredentialScope(origin: origin, allowsInsecureHTTP: allowsInsecureHTTP)
        self.sendsPreemptively = sendsPreemptively
    }

    public func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        guard request.value(forHTTPHeaderField: "Authorization") == nil,
            scope.admits(request.url, binding: sendsPreemptively),
            sendsPreemptively || isProtected(request.url)
        else { return request }
        try scope.checkChannel(of: request.url, scheme: "Basic")
        var request = request
        request.setValue(try credentials.get(), forHTTPHeaderField: "Authorization")
        return request
    }

    public func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor)
        async throws
        -> AuthenticationDecision
    {
        guard response.statusCode == 401, let url = request.url else { return .proceed }
        let challenges = try AuthenticationChallenge.parse(response.headers.values(for: "WWW-Authenticate"))
        guard let challenge = challenges.first(where: { $0.scheme.caseInsensitiveEquals("Basic") }) else {
            return .proceed
        }
        if let sent = request.value(forHTTPHeaderField: "Authorization"), sent == (try? credentials.get()) {
            // Refused: the session is over, as a Digest provider's is (isSessionOpen says so).
            endSession()
            throw WebServiceError.authentication(
                "the server refused the Basic credentials for realm \"\(challenge[parameter: "realm"] ?? "")\"")
        }
        guard scope.admits(url, binding: true) else { return .proceed }
        try scope.checkChannel(of: url, scheme: "Basic")
        _ = try credentials.get()
        challenged.withLock { challenged in
            challenged.paths.insert(Self.protectionPrefix(of: url))
            challenged.realm = challenge[parameter: "realm"]
        }
        return .retry
    }

    /// Forgets the challenges answered: same as ``endSession()``.
    public func invalidate() async { endSession() }

    /// Whether the provider adds credentials to some requests without waiting for a challenge
    /// (ROAD's `isSessionOpened`): it has answered a `Basic` challenge since it was made or since
    /// ``endSession()``, and the server has not refused the credentials since; or it was made
    /// with `sendsPreemptively` and knows its origin (given, or learned from its first request).
    public var isSessionOpen: Bool { session != nil }

    /// The origin, realm and paths it sends credentials to before any challenge, or `nil` when
    /// it waits for a `401` everywhere. With `sendsPreemptively` the paths are the whole origin.
    public var session: AuthenticationSession? {
        guard let origin = scope.originURL else { return nil }
        let state = challenged.current
        if sendsPreemptively { return AuthenticationSession(origin: origin, realm: state.realm, paths: ["/"]) }
        guard !state.paths.isEmpty else { return nil }
        return AuthenticationSession(origin: origin, realm: state.realm, paths: state.paths.sorted())
    }

    /// Ends the session: forgets the protected paths and realm, so that the next request to
    /// them goes out without credentials and a `401` opens a new session. The origin stays
    /// bound (credentials never move to another one). A provider made with `sendsPreemptively`
    /// goes on sending credentials to its origin: to stop, replace the client's provider.
    public func endSession() { challenged.withLock { $0 = Challenged() } }

    private func isProtected(_ url: URL?) -> Bool {
        guard let path = url?.path else { return false }
        let normalized = path.isEmpty ? "/" : path
        return challenged.withLock { state in state.paths.contains { normalized.hasPrefix($0) } }
    }

    /// RFC 7617 §2.2: every path at or below the last "/" of the challenged request's path.
    static func protectionPrefix(of url: URL) -> String {
        let path = url.path.isEmpty ? "/" : url.path
        guard let slash = path.lastIndex(of: "/") else { return "/" }
        return String(path[...slash])
    }
}
