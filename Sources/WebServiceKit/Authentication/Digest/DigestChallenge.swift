/// The parts of a `Digest` challenge (RFC 7616 §3.3) the client uses.
struct DigestChallenge: Sendable, Equatable {
    let realm: String
    /// The current nonce; `nextnonce` (RFC 7616 §3.5) replaces it.
    var nonce: String
    let opaque: String?
    let algorithm: DigestAlgorithm
    /// The `qop` options offered, lowercased; empty for an RFC 2069 challenge without `qop`.
    let qopOptions: [String]
    let stale: Bool
    let userhash: Bool
    /// `charset=UTF-8` (§3.3): the server accepts a UTF-8 `username*`.
    let acceptsUTF8: Bool
    /// The `domain` URIs (§3.3), empty when the protection space is the whole origin.
    let domain: [String]

    /// Why a `Digest` challenge cannot be used.
    enum Problem: Error, Equatable {
        case unsupportedAlgorithm(String)
        case malformed(String)
    }

    init(_ challenge: AuthenticationChallenge) throws(Problem) {
        guard let realm = challenge[parameter: "realm"] else { throw .malformed("no realm") }
        guard let nonce = challenge[parameter: "nonce"], !nonce.isEmpty else { throw .malformed("no nonce") }
        let token = challenge[parameter: "algorithm"] ?? "MD5"
        guard let algorithm = DigestAlgorithm(token: token) else { throw .unsupportedAlgorithm(token) }
        self.realm = realm
        self.nonce = nonce
        self.algorithm = algorithm
        opaque = challenge[parameter: "opaque"]
        qopOptions =
            challenge[parameter: "qop"]?.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            .filter { !$0.isEmpty } ?? []
        stale = challenge[parameter: "stale"]?.lowercased() == "true"
        userhash = challenge[parameter: "userhash"]?.lowercased() == "true"
        acceptsUTF8 = challenge[parameter: "charset"]?.lowercased() == "utf-8"
        domain = challenge[parameter: "domain"]?.split(separator: " ").map(String.init) ?? []
    }

    /// The `qop` the client answers with: `auth` when offered (no body hashing, works for any
    /// body), else `auth-int`; `nil` for a legacy challenge without `qop`. Throws when the server
    /// offers only options this library does not know.
    func chosenQOP() throws(Problem) -> String? {
        if qopOptions.isEmpty { return nil }
        if qopOptions.contains("auth") { return "auth" }
        if qopOptions.contains("auth-int") { return "auth-int" }
        throw .malformed("qop \"\(qopOptions.joined(separator: ","))\" offers neither auth nor auth-int")
    }

    /// Picks the strongest usable `Digest` challenge among `challenges`; throws when there are
    /// Digest challenges but none is usable (an unknown algorithm is never replaced by MD5).
    static func strongest(in challenges: [AuthenticationChallenge]) throws(Problem) -> DigestChallenge? {
        var best: DigestChallenge?
        var firstProblem: Problem?
        for challenge in challenges where challenge.scheme.caseInsensitiveEquals("Digest") {
            do throws(Problem) {
                let candidate = try DigestChallenge(challenge)
                _ = try candidate.chosenQOP()
                if best.map({ candidate.algorithm.strength > $0.algorithm.strength }) ?? true { best = candidate }
            } catch {
                firstProblem = firstProblem ?? error
            }
        }
        if best == nil, let firstProblem { throw firstProblem }
        return best
    }
}
