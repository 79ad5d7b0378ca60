import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTP Digest authentication (RFC 7616, and RFC 2617/2069 servers), computed by the library
/// itself in the request pipeline: it works the same on every platform (Foundation on Linux
/// stops with a fatal error on a Digest challenge).
///
/// ```swift
/// client.authenticationProvider = DigestAuthenticationProvider(user: "user", password: "passwd")
/// ```
///
/// - Algorithms MD5, SHA-256, SHA-512-256 and their `-sess` variants (and plain SHA-512, which
///   some servers offer). Of several challenges the strongest usable one wins; an unknown
///   algorithm fails the call with ``WebServiceError/authentication(_:)``, never an MD5 downgrade.
/// - `qop=auth` (preferred when offered), `qop=auth-int` (hashes the body) and legacy no-`qop`;
///   `opaque` is echoed, `nc` counts requests per nonce, `userhash` and `charset=UTF-8` are honoured.
/// - After the first challenge the nonce is reused preemptively: one round trip per call.
///   `stale=true` re-signs with the new nonce without failing the call; a server that keeps
///   answering `stale=true` is stopped after ``maximumStaleRetries``.
/// - Single flight: while the first call to an origin discovers the challenge, concurrent calls
///   wait for it (cancellably) instead of each collecting a 401 of its own.
/// - Credentials go to one origin only (see ``BasicAuthenticationProvider`` for the rule).
/// - ``isSessionOpen`` and ``session`` tell whether it holds a nonce it signs requests with
///   before any challenge, and for which origin and paths; ``endSession()`` (or ``invalidate()``)
///   forgets it.
public final class DigestAuthenticationProvider: AuthenticationProvider {
    /// How many `stale=true` answers in a row a call accepts before failing.
    public static let maximumStaleRetries = 2

    private let user: String
    private let password: String
    private let scope: CredentialScope

    private struct Session {
        var challenge: DigestChallenge
        var nonceCount = 0
    }

    private struct State {
        var session: Session?
        /// For each origin whose first request is still finding out whether and how to
        /// authenticate, the gate its concurrent requests wait at.
        var discoveries: [Origin: AsyncGate] = [:]
        /// Origins whose first answer is in: requests to them never wait again.
        var discovered: Set<Origin> = []
        var staleStreak = 0
    }

    private let state = Locked(State())

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - user: The username.
    ///   - password: The password.
    ///   - origin: The only origin the credentials are used for; `nil` binds them to the first
    ///     origin that sends a Digest challenge.
    public init(user: String, password: String, origin: URL? = nil) {
        self.user = user
        self.password = password
        // Digest never sends the password itself, so plain http is allowed (RFC 7616 §5.1 still
        // recommends TLS).
        scope = CredentialScope(origin: origin, allowsInsecureHTTP: true)
    }

    public func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        guard request.value(forHTTPHeaderField: "Authorization") == nil, let url = request.url else { return request }
        let origin = Origin(url)
        if let bound = scope.origin, bound != origin { return request }
        while true {
            enum Step {
                case sign(DigestChallenge, Int)
                case wait(AsyncGate)
                case sendAsIs
            }
            let step = state.withLock { state -> Step in
                if var session = state.session, scope.origin == origin {
                    guard Self.isInDomain(url, of: session.challenge) else { return .sendAsIs }
                    session.nonceCount += 1
                    state.session = session
                    return .sign(session.challenge, session.nonceCount)
                }
                if state.discovered.contains(origin) { return .sendAsIs }
                if let discovery = state.discoveries[origin] { return .wait(discovery) }
                // This request goes first, unauthenticated; concurrent ones wait for its answer.
                state.discoveries[origin] = AsyncGate()
                return .sendAsIs
            }
            switch step {
            case .sendAsIs: return request
            case .wait(let gate): try await gate.wait()
            case .sign(let challenge, let count):
                var signed = request
                let answer = try sign(request, with: challenge, nonceCount: count)
                // A user name with CR, LF or NUL (quoted as it is when the server does not accept
                // UTF-8) would be dropped silently by Foundation's setter on Linux, and the server
                // would challenge again: refused here, before anything more is sent.
                if let problem = HeaderValidation.problem(in: answer) {
                    throw WebServiceError.invalidHeader(name: "Authorization", reason: "the Digest answer: \(problem)")
                }
                signed.setValue(answer, forHTTPHeaderField: "Authorization")
                return signed
            }
        }
    }

    public func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor)
        async throws
        -> AuthenticationDecision
    {
        defer { endDiscovery(of: request.url) }
        guard response.statusCode == 401, let url = request.url else {
            learnNextNonce(from: response)
            return .proceed
        }
        let challenges = try AuthenticationChallenge.parse(response.headers.values(for: "WWW-Authenticate"))
        let challenge: DigestChallenge
        do throws(DigestChallenge.Problem) {
            guard let strongest = try DigestChallenge.strongest(in: challenges) else { return .proceed }
            challenge = strongest
        } catch {
            throw WebServiceError.authentication("cannot answer the Digest challenge: \(Self.describe(error))")
        }
        guard scope.admits(url, binding: true) else { return .proceed }
        let sentCredentials = request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Digest ") ?? false
        let (refused, staleStreak) = state.withLock { state -> (Bool, Int) in
            if sentCredentials, !challenge.stale {
                state.session = nil
                return (true, 0)
            }
            state.staleStreak = challenge.stale ? state.staleStreak + 1 : 0
            state.session = Session(challenge: challenge)
            return (false, state.staleStreak)
        }
        if refused {
            throw WebServiceError.authentication(
                "the server refused the Digest credentials for realm \"\(challenge.realm)\"")
        }
        if staleStreak > Self.maximumStaleRetries {
            throw WebServiceError.authentication(
                "the server answered stale=true \(staleStreak) times in a row; giving up instead of looping")
        }
        return .retry
    }

    public func handle(_ failure: WebServiceError, to request: WebServiceRequest, for call: CallDescriptor) async {
        endDiscovery(of: request.url)
    }

    /// Forgets the nonce and what it learned: same as ``endSession()``.
    public func invalidate() async { endSession() }

    /// Whether the provider holds a challenge (a nonce) it signs requests with before any `401`
    /// (ROAD's `isSessionOpened`): a `Digest` challenge was answered since it was made or since
    /// ``endSession()``, and the server has not refused the credentials since.
    public var isSessionOpen: Bool { session != nil }

    /// The origin, realm, algorithm and paths it signs requests for without a challenge, or
    /// `nil` when it holds no nonce. The paths are those of the challenge's `domain` on the
    /// origin (resolved against the origin's root), or `["/"]` when it has no `domain`.
    public var session: AuthenticationSession? {
        guard let challenge = state.current.session?.challenge, let origin = scope.originURL else { return nil }
        var paths = ["/"]
        if !challenge.domain.isEmpty {
            let root = URL(string: "/", relativeTo: origin)?.absoluteURL ?? origin
            paths = challenge.domain.compactMap { entry in
                guard let resolved = URL(string: entry, relativeTo: root)?.absoluteURL,
                    Origin(resolved) == Origin(origin)
                else { return nil }
                return resolved.path.isEmpty ? "/" : resolved.path
            }
        }
        return AuthenticationSession(
            origin: origin, realm: challenge.realm, paths: Array(Set(paths)).sorted(), algorithm: challenge.algorithm)
    }

    /// Ends the session: forgets the nonce, its count and which origins have answered, so that
    /// the next request goes out without credentials and a new challenge opens a new session.
    /// The origin stays bound (credentials never move to another one).
    public func endSession() {
        state.withLock { state in
            state.session = nil
            state.discovered.removeAll()
            state.staleStreak = 0
        }
    }

    /// Lets the calls waiting on the first exchange with an origin go on.
    private func endDiscovery(of url: URL?) {
        guard let url else { return }
        let origin = Origin(url)
        state.withLock { state in
            state.discovered.insert(origin)
            return state.discoveries.removeValue(forKey: origin)
        }?.open()
    }

    /// RFC 7616 §3.5: `Authentication-Info: nextnonce="…"` gives the nonce for the next request.
    private func learnNextNonce(from response: TransportResponse) {
        guard let info = response.headers["Authentication-Info"],
            let parsed = try? AuthenticationChallenge.parse(["Digest " + info]).first,
            let next = parsed[parameter: "nextnonce"], !next.isEmpty
        else {
            if response.statusCode != 401 { state.withLock { $0.staleStreak = 0 } }
            return
        }
        state.withLock { state in
            guard var challenge = state.session?.challenge else { return }
            challenge.nonce = next
            state.session = Session(challenge: challenge)
            state.staleStreak = 0
        }
    }

    private func sign(_ request: WebServiceRequest, with challenge: DigestChallenge, nonceCount: Int) throws -> String {
        guard let url = request.url else { return "" }
        do throws(DigestChallenge.Problem) {
            return try DigestAnswer(challenge: challenge, user: user, password: password).authorization(
                method: request.method, uri: Self.requestTarget(of: url), body: request.httpBody,
                nonceCount: nonceCount, cnonce: DigestAnswer.makeClientNonce())
        } catch {
            throw WebServiceError.authentication("cannot answer the Digest challenge: \(Self.describe(error))")
        }
    }

    /// RFC 7616 §3.4.6: the `uri` is the request-target, path and query as sent.
    static func requestTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? "/"
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    /// §3.3 `domain`: with a list, only URIs below one of its entries are signed preemptively.
    private static func isInDomain(_ url: URL, of challenge: DigestChallenge) -> Bool {
        guard !challenge.domain.isEmpty else { return true }
        let path = url.path.isEmpty ? "/" : url.path
        return challenge.domain.contains { entry in
            let prefix = URL(string: entry, relativeTo: url)?.absoluteURL
            guard let prefix, Origin(prefix) == Origin(url) else { return false }
            return path.hasPrefix(prefix.path.isEmpty ? "/" : prefix.path)
        }
    }

    private static func describe(_ problem: DigestChallenge.Problem) -> String {
        switch problem {
        case .unsupportedAlgorithm(let token): "unsupported algorithm \"\(token)\""
        case .malformed(let reason): reason
        }
    }
}
