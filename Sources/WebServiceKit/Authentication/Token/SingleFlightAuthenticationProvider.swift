import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs a ``CredentialAuthenticator`` for many concurrent calls: when they all hit 401 at once,
/// one refresh runs and the others wait for it, then retry once.
///
/// - A 401 for a request sent with a credential that has already been replaced is simply retried
///   with the new one: no second refresh (the bug Alamofire users reported for years).
/// - Waiting for a refresh is cancellable per call; the refresh itself goes on for the others.
/// - Refreshes beyond ``refreshLimit`` fail with ``WebServiceError/authentication(_:)``.
/// - Credentials are added only for one origin: the one given, or the first that is requested.
public final class SingleFlightAuthenticationProvider<Authenticator: CredentialAuthenticator>: AuthenticationProvider {
    public typealias Credential = Authenticator.Credential

    /// The scheme.
    public let authenticator: Authenticator
    /// How often credentials may be obtained.
    public let refreshLimit: RefreshLimit

    private let scope: CredentialScope

    /// One refresh in progress: its waiters' gate and, once done, its result.
    private final class Flight: Sendable {
        let gate = AsyncGate()
        let result = Locked<Result<Credential, any Error>?>(nil)
        let task = Locked<Task<Void, Never>?>(nil)
    }

    private struct State {
        var credential: Credential?
        var flight: Flight?
        var refreshDates: [Date] = []
    }

    private let state: Locked<State>

    /// How a call joins the refresh: an existing flight, a new one it starts, or none (over the limit).
    private enum Join {
        case existing(Flight)
        case started(Flight)
        case overLimit(Int)
    }

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - authenticator: The scheme.
    ///   - credential: A credential you already have (restored from the keychain, say).
    ///   - origin: The only origin credentials go to; `nil` binds them to the first one requested.
    ///   - refreshLimit: How often credentials may be obtained before calls fail.
    ///   - allowsInsecureHTTP: Allow credentials over plain `http` to hosts other than this machine.
    public init(
        _ authenticator: Authenticator, credential: Credential? = nil, origin: URL? = nil,
        refreshLimit: RefreshLimit = .standard, allowsInsecureHTTP: Bool = false
    ) {
        self.authenticator = authenticator
        self.refreshLimit = refreshLimit
        scope = CredentialScope(origin: origin, allowsInsecureHTTP: allowsInsecureHTTP)
        state = Locked(State(credential: credential))
    }

    /// The current credential (the session state), if any.
    public var credential: Credential? { state.current.credential }

    /// Whether a credential is held.
    public var isAuthenticated: Bool { credential != nil }

    public func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        guard request.value(forHTTPHeaderField: "Authorization") == nil, scope.admits(request.url, binding: true) else {
            return request
        }
        try scope.checkChannel(of: request.url, scheme: "the")
        var credential = state.current.credential
        if credential.map(authenticator.requiresRefresh) ?? true {
            credential = try await refreshed(replacing: credential)
        }
        var request = request
        if let credential { authenticator.apply(credential, to: &request) }
        return request
    }

    public func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor)
        async throws
        -> AuthenticationDecision
    {
        guard scope.admits(request.url, binding: false),
            authenticator.isAuthenticationFailure(response, for: request)
        else { return .proceed }
        let current = state.current.credential
        if let current, !authenticator.isRequest(request, authenticatedWith: current) {
            // Sent with a credential that has been replaced since: retry with the current one.
            return .retry
        }
        _ = try await refreshed(replacing: current)
        return .retry
    }

    /// Forgets the credential and stops a refresh in progress (log out).
    public func invalidate() async {
        let flight = state.withLock { state in
            state.credential = nil
            defer { state.flight = nil }
            return state.flight
        }
        flight?.task.current?.cancel()
    }

    /// The credential after the refresh in progress, or after a new one if none is.
    private func refreshed(replacing current: Credential?) async throws -> Credential {
        let join = state.withLock { state -> Join in
            if let flight = state.flight { return .existing(flight) }
            let now = Date()
            state.refreshDates.removeAll { now.timeIntervalSince($0) > refreshLimit.interval }
            guard state.refreshDates.count < refreshLimit.maximumCount else {
                return .overLimit(state.refreshDates.count)
            }
            state.refreshDates.append(now)
            let flight = Flight()
            state.flight = flight
            return .started(flight)
        }
        let flight: Flight
        switch join {
        case .existing(let existing): flight = existing
        case .started(let started):
            flight = started
            start(started, replacing: current)
        case .overLimit(let count):
            throw WebServiceError.authentication(
                "credentials were obtained \(count) times in \(Int(refreshLimit.interval)) s; "
                    + "stopping instead of hammering the service")
        }
        try await flight.gate.wait()
        switch flight.result.current {
        case .success(let credential): return credential
        case .failure(let error as WebServiceError): throw error
        case .failure(let error): throw WebServiceError.authentication("obtaining credentials failed: \(error)")
        case nil: throw WebServiceError.cancelled(reason: "the credentials were invalidated")
        }
    }

    private func start(_ flight: Flight, replacing current: Credential?) {
        let task = Task {
            let result: Result<Credential, any Error>
            do {
                result = .success(try await authenticator.authenticate(replacing: current))
            } catch {
                result = .failure(error)
            }
            flight.result.withLock { $0 = result }
            state.withLock { state in
                guard state.flight === flight else { return }
                if case .success(let credential) = result { state.credential = credential }
                state.flight = nil
            }
            flight.gate.open()
        }
        flight.task.withLock { $0 = task }
    }
}
