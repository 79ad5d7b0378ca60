import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a provider's credentials may go: one origin, over a channel the user accepted.
///
/// A provider given no origin binds itself to the first origin that challenges it (or that it
/// authenticates preemptively), and from then on adds credentials for that origin only.
struct CredentialScope: Sendable {
    private let configured: Origin?
    private let allowsInsecureHTTP: Bool
    private let learned = Locked<Origin?>(nil)

    init(origin: URL?, allowsInsecureHTTP: Bool) {
        configured = origin.map(Origin.init)
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    /// The origin credentials are bound to, if known yet.
    var origin: Origin? { configured ?? learned.current }

    /// Whether credentials may be added to a request for `url`; binds an unbound scope to its origin.
    func admits(_ url: URL?, binding: Bool) -> Bool {
        guard let url else { return false }
        let candidate = Origin(url)
        if let configured { return configured == candidate }
        return learned.withLock { origin in
            if origin == nil, binding { origin = candidate }
            return origin == candidate
        }
    }

    /// Throws unless the request's channel is fit for credentials: HTTPS, or plain HTTP to this
    /// machine, or plain HTTP that the user explicitly allowed.
    func checkChannel(of url: URL?, scheme: String) throws(WebServiceError) {
        guard let url else { return }
        let origin = Origin(url)
        if origin.scheme == "http", !origin.isLoopback, !allowsInsecureHTTP {
            throw .authentication(
                "refusing to send \(scheme) credentials over plain http to \(origin.host); use https, or set "
                    + "allowsInsecureHTTP if you accept that anyone on the path can read them")
        }
    }
}
