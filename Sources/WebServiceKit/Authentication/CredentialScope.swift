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
    private let configuredRoot: URL?
    private let allowsInsecureHTTP: Bool
    /// The origin learned from the first request that bound the scope, and that request's URL
    /// cut to `scheme://host[:port]`.
    private let learned = Locked<(origin: Origin, root: URL?)?>(nil)

    init(origin: URL?, allowsInsecureHTTP: Bool) {
        configured = origin.map(Origin.init)
        configuredRoot = origin.flatMap(Self.root(of:))
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    /// The origin credentials are bound to, if known yet.
    var origin: Origin? { configured ?? learned.current?.origin }

    /// ``origin`` as a URL with no path (`https://api.example.com`), if known yet.
    var originURL: URL? { configured != nil ? configuredRoot : learned.current?.root }

    /// Whether credentials may be added to a request for `url`; binds an unbound scope to its origin.
    func admits(_ url: URL?, binding: Bool) -> Bool {
        guard let url else { return false }
        let candidate = Origin(url)
        if let configured { return configured == candidate }
        return learned.withLock { bound in
            if bound == nil, binding { bound = (candidate, Self.root(of: url)) }
            return bound?.origin == candidate
        }
    }

    /// `url` without user, path, query and fragment: `scheme://host[:port]`.
    private static func root(of url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        components.user = nil
        components.password = nil
        components.percentEncodedPath = ""
        components.query = nil
        components.fragment = nil
        return components.url
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
