import Foundation

/// What a ``BasicAuthenticationProvider`` or ``DigestAuthenticationProvider`` holds once a
/// server has challenged it: credentials it adds to requests **before** any `401`, for one origin
/// and the paths of its protection space. ROAD's providers answered `isSessionOpened` for this.
///
/// ```swift
/// let provider = DigestAuthenticationProvider(user: "user", password: "passwd")
/// client.authenticationProvider = provider
/// _ = try await client.perform(.profile)          // 401, answered: the session opens
/// provider.isSessionOpen                           // true
/// provider.session?.covers(URL(string: "https://api.example.com/users/7")!)
/// provider.endSession()                            // the next request goes out bare again
/// ```
///
/// A value is a snapshot: the provider goes on changing (a new nonce, another protected path)
/// as calls run.
public struct AuthenticationSession: Sendable, Equatable {
    /// The origin the credentials are bound to, as `scheme://host[:port]` with no path.
    public let origin: URL
    /// The `realm` of the challenge answered; `nil` for a Basic provider that sends
    /// preemptively and has not been challenged.
    public let realm: String?
    /// The path prefixes of ``origin`` that get credentials without a challenge, sorted; `["/"]`
    /// is the whole origin. Basic: every path at or below each challenged one (RFC 7617 §2.2).
    /// Digest: the paths of the challenge's `domain` on this origin, or the whole origin when it
    /// has none (RFC 7616 §3.3).
    public let paths: [String]
    /// The Digest algorithm of the challenge answered; `nil` for Basic.
    public let algorithm: DigestAlgorithm?

    /// Creates a value; the providers make them (``BasicAuthenticationProvider/session``).
    public init(origin: URL, realm: String?, paths: [String], algorithm: DigestAlgorithm? = nil) {
        self.origin = origin
        self.realm = realm
        self.paths = paths
        self.algorithm = algorithm
    }

    /// Whether a request to `url` gets credentials from this session without a challenge: same
    /// origin (scheme, host and port) and a path under one of ``paths``, compared as the
    /// providers compare them (`URL.path`, which drops a final `/`).
    public func covers(_ url: URL) -> Bool {
        guard Origin(url) == Origin(origin) else { return false }
        let path = url.path.isEmpty ? "/" : url.path
        return paths.contains { path.hasPrefix($0) }
    }
}
