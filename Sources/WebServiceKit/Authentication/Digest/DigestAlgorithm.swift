import Foundation

/// A Digest `algorithm` (RFC 7616 §3.3, §6.1): a hash function, and whether `A1` is hashed per
/// session (`-sess`).
public struct DigestAlgorithm: Sendable, Hashable, CustomStringConvertible {
    enum Hash: Sendable, Hashable {
        case md5, sha256, sha512Slash256, sha512
    }

    let hash: Hash
    /// Whether this is a `-sess` variant (§3.4.2: `A1` includes the nonce and cnonce).
    public let isSession: Bool

    /// MD5, the default when a challenge names no algorithm (§3.3).
    public static let md5 = DigestAlgorithm(hash: .md5, isSession: false)
    /// MD5-sess.
    public static let md5Session = DigestAlgorithm(hash: .md5, isSession: true)
    /// SHA-256.
    public static let sha256 = DigestAlgorithm(hash: .sha256, isSession: false)
    /// SHA-256-sess.
    public static let sha256Session = DigestAlgorithm(hash: .sha256, isSession: true)
    /// SHA-512-256 (FIPS 180-4 SHA-512/256).
    public static let sha512Slash256 = DigestAlgorithm(hash: .sha512Slash256, isSession: false)
    /// SHA-512-256-sess.
    public static let sha512Slash256Session = DigestAlgorithm(hash: .sha512Slash256, isSession: true)
    /// Plain SHA-512: not in the IANA registry, but what some servers (httpbin among them) offer
    /// as `algorithm=SHA-512`. Accepted only when a server names it.
    public static let sha512 = DigestAlgorithm(hash: .sha512, isSession: false)

    /// Reads an `algorithm` token, ignoring case; `nil` for an algorithm this library does not
    /// implement, so it is never silently replaced by MD5.
    public init?(token: String) {
        let lowered = token.lowercased()
        let isSession = lowered.hasSuffix("-sess")
        let base = isSession ? String(lowered.dropLast(5)) : lowered
        switch base {
        case "md5": hash = .md5
        case "sha-256": hash = .sha256
        case "sha-512-256": hash = .sha512Slash256
        case "sha-512" where !isSession: hash = .sha512
        default: return nil
        }
        self.isSession = isSession
    }

    private init(hash: Hash, isSession: Bool) {
        self.hash = hash
        self.isSession = isSession
    }

    /// The token sent back in `algorithm=`.
    public var token: String {
        let base =
            switch hash {
            case .md5: "MD5"
            case .sha256: "SHA-256"
            case .sha512Slash256: "SHA-512-256"
            case .sha512: "SHA-512"
            }
        return isSession ? base + "-sess" : base
    }

    public var description: String { token }

    /// Preference when a server offers several challenges (§3.7: the client uses the first it
    /// supports in its order of preference, and should prefer stronger hashes).
    var strength: Int {
        switch hash {
        case .md5: 1
        case .sha256: 3
        case .sha512Slash256: 4
        case .sha512: 2  // unregistered: below the registered SHA-2 algorithms
        }
    }

    /// The hash function behind the algorithm.
    private var function: any HashFunction.Type {
        switch hash {
        case .md5: MD5.self
        case .sha256: SHA256.self
        case .sha512Slash256: SHA512_256.self
        case .sha512: SHA512.self
        }
    }

    /// The lowercase hex digest of the UTF-8 form of `text` (§3.4: `H(data)`).
    func hexDigest(_ text: String) -> String { function.hexDigest(text) }

    /// The lowercase hex digest of a body, for `qop=auth-int` (§3.4.3).
    func hexDigest(_ body: Data) -> String { function.hexDigest(body) }
}
