import Foundation

/// Which servers a client trusts over TLS: the system's default, certificate authorities of your
/// own in addition to the system's, public-key pins, or one of these per host.
///
/// There is no bypass: every policy validates the chain and the host name as the platform does,
/// and adds trust anchors or pins on top.
///
/// ```swift
/// let ca = try X509Certificate(pem: String(contentsOf: caFile, encoding: .utf8))
/// let policy = try ServerTrustPolicy.pinning(
///     [PublicKeyPin(base64: "3zICqjg+fGHUKUHHBPUt32o7eLWz8rm1JMVqYls+Eck=")],
///     backup: [PublicKeyPin(base64: "IRTNwsYNhw4kysGvlMN97nwXGr5h0VSDSTTXzXypWwM=")],
///     additionalCertificateAuthorities: [ca])
/// let client = try WebServiceClient(serviceRoot: root, serverTrust: policy)
/// ```
///
/// On Apple platforms URLSession's server-trust challenge enforces a policy; on Linux the
/// library's own TLS over the system's OpenSSL does (``HTTP1Transport/carriesHTTPS``). Where
/// neither can, making a client (or transport) with a policy beyond ``system`` fails with
/// ``ServerTrustError/unenforceable(_:)``, and a request that a proxy sends through URLSession on
/// Linux fails before it is sent: a pin is never ignored. See Docs/Trust.md.
public struct ServerTrustPolicy: Sendable, Hashable {
    /// Certificate authorities trusted in addition to the system's (on Apple platforms, anchors
    /// added to the trust object; the system's roots stay trusted).
    public private(set) var additionalCertificateAuthorities: [X509Certificate]
    /// The pins in use; a validated chain must hold a key with one of these or of ``backupPins``.
    public private(set) var pins: [PublicKeyPin]
    /// Pins of keys not in use yet, for the day the key changes (RFC 7469 §4.3).
    public private(set) var backupPins: [PublicKeyPin]
    /// Policies for particular hosts (lowercased), which replace this one for them.
    public private(set) var hostPolicies: [String: ServerTrustPolicy]
    /// The certificate and key presented to a server that asks for one (mutual TLS); `nil` for
    /// none. See ``presenting(_:)``.
    public private(set) var clientIdentity: ClientIdentity?
    /// Whether the system's roots are trusted; `false` only for
    /// ``onlyCertificateAuthorities(_:)``, where the policy's own authorities are the only anchors.
    public private(set) var usesSystemRoots: Bool

    private init(
        additionalCertificateAuthorities: [X509Certificate] = [], pins: [PublicKeyPin] = [],
        backupPins: [PublicKeyPin] = [], hostPolicies: [String: ServerTrustPolicy] = [:], usesSystemRoots: Bool = true
    ) {
        self.additionalCertificateAuthorities = additionalCertificateAuthorities
        self.pins = pins
        self.backupPins = backupPins
        self.hostPolicies = hostPolicies
        self.usesSystemRoots = usesSystemRoots
        clientIdentity = nil
    }

    /// The system's trust: its roots, its host-name check. The default.
    public static let system = ServerTrustPolicy()

    /// The system's roots and `certificates` as further trust anchors (a private CA, in PEM or
    /// DER: ``X509Certificate``).
    public static func additionalCertificateAuthorities(_ certificates: [X509Certificate]) -> ServerTrustPolicy {
        ServerTrustPolicy(additionalCertificateAuthorities: certificates)
    }

    /// `certificates` as the only trust anchors: the system's roots are not trusted, so a server
    /// passes only with a chain to one of these (a private CA that issues every certificate of a
    /// company's services), its host name still checked.
    public static func onlyCertificateAuthorities(_ certificates: [X509Certificate]) -> ServerTrustPolicy {
        ServerTrustPolicy(additionalCertificateAuthorities: certificates, usesSystemRoots: false)
    }

    /// The system's validation (with `additionalCertificateAuthorities` as further anchors), and
    /// then a key of the validated chain (leaf, intermediate or root) must have one of `pins` or
    /// `backup`.
    ///
    /// - Parameters:
    ///   - pins: The keys in use; at least one.
    ///   - backup: At least one pin that is none of `pins`: the key you will move to. RFC 7469
    ///     §4.3 asks for one so that a lost or changed key does not lock the clients out.
    /// - Throws: ``ServerTrustError/invalidPin(_:)`` without a pin or a backup pin, or when a
    ///   backup pin is also a pin in use.
    public static func pinning(
        _ pins: [PublicKeyPin], backup: [PublicKeyPin], additionalCertificateAuthorities: [X509Certificate] = []
    ) throws(ServerTrustError) -> ServerTrustPolicy {
        guard !pins.isEmpty else { throw .invalidPin("pinning needs at least one pin") }
        guard !backup.isEmpty else {
            throw .invalidPin("pinning needs a backup pin, a key not in use yet (RFC 7469 §4.3)")
        }
        guard Set(pins).isDisjoint(with: backup) else {
            throw .invalidPin("a backup pin must be a key not in use, not one of the pins")
        }
        return ServerTrustPolicy(
            additionalCertificateAuthorities: additionalCertificateAuthorities, pins: pins, backupPins: backup)
    }

    /// This policy, presenting `identity` to servers that ask for a client certificate (mutual
    /// TLS). For one host only: `.system.with(.system.presenting(identity), forHost: "h")`.
    public func presenting(_ identity: ClientIdentity) -> ServerTrustPolicy {
        var copy = self
        copy.clientIdentity = identity
        return copy
    }

    /// This policy, with `policy` instead for `host` (compared without case; its own host
    /// policies are dropped).
    public func with(_ policy: ServerTrustPolicy, forHost host: String) -> ServerTrustPolicy {
        var copy = self
        var policy = policy
        policy.hostPolicies = [:]
        copy.hostPolicies[host.lowercased()] = policy
        return copy
    }

    /// The policy that applies to `host`: its own, or this one without the other hosts'.
    public func policy(forHost host: String) -> ServerTrustPolicy {
        if let own = hostPolicies[host.lowercased()] { return own }
        var general = self
        general.hostPolicies = [:]
        return general
    }

    /// Whether this policy (for every host) is the system's trust and nothing more.
    public var isSystem: Bool {
        usesSystemRoots && additionalCertificateAuthorities.isEmpty && pins.isEmpty && backupPins.isEmpty
            && clientIdentity == nil && hostPolicies.values.allSatisfy(\.isSystem)
    }

    /// Every pin a validated chain may match: the pins in use and the backup ones.
    var acceptedPins: Set<PublicKeyPin> { Set(pins).union(backupPins) }

    /// Why the validated `chain` (DER certificates, leaf first) fails this policy's pins; `nil`
    /// when the policy pins nothing or a certificate of the chain has an accepted key. One check
    /// for every platform's TLS (Security on Apple platforms, OpenSSL on Linux).
    func pinRefusal(validatedChain chain: [Data]) -> String? {
        let accepted = acceptedPins
        guard !accepted.isEmpty else { return nil }
        for der in chain {
            if let certificate = try? X509Certificate(der: der), accepted.contains(PublicKeyPin(certificate)) {
                return nil
            }
        }
        return "no certificate of the validated chain has a pinned public key (\(pins.count) pins, "
            + "\(backupPins.count) backup pins)"
    }

    /// Whether the default transports of this platform can enforce the policy: on Apple
    /// platforms, URLSession's server-trust challenge; on Linux, the library's own TLS over the
    /// system's OpenSSL (``HTTP1Transport/carriesHTTPS``).
    ///
    /// - Throws: ``ServerTrustError/unenforceable(_:)`` saying why not.
    public func checkEnforceable() throws(ServerTrustError) {
        try checkEnforceable(direct: RoutingTransport.usesDirectHTTP1ByDefault && HTTP1Transport.carriesHTTPS)
    }

    /// Whether the policy can be enforced when `https` goes over the library's own TLS
    /// (`direct`) or through URLSession.
    func checkEnforceable(direct: Bool) throws(ServerTrustError) {
        #if canImport(Security)
            guard !hasClientIdentity else {
                throw .unenforceable(
                    "a client identity from PEM is presented by the library's own TLS on Linux; on this platform "
                        + "URLSession answers client-certificate challenges with a SecIdentity (a transport of your own)"
                )
            }
        #else
            guard isSystem || direct else {
                throw .unenforceable(
                    "URLSession on this platform (FoundationNetworking over libcurl) gives no server-trust "
                        + "challenge and no way to add a certificate authority, and the library's own TLS is not "
                        + "in use (\(HTTP1Transport.httpsUnavailableReason ?? "the direct route is off")): only "
                        + "ServerTrustPolicy.system can be enforced; \(requirements) would be ignored")
            }
        #endif
    }

    /// Whether this policy or one of its hosts' presents a client identity.
    var hasClientIdentity: Bool { clientIdentity != nil || hostPolicies.values.contains { $0.clientIdentity != nil } }

    /// What the policy asks beyond the system's trust, in words.
    var requirements: String {
        var parts: [String] = []
        if !usesSystemRoots { parts.append("no system roots") }
        if clientIdentity != nil { parts.append("a client identity") }
        if !additionalCertificateAuthorities.isEmpty {
            parts.append("\(additionalCertificateAuthorities.count) additional certificate authorities")
        }
        if !pins.isEmpty || !backupPins.isEmpty { parts.append("\(pins.count + backupPins.count) public-key pins") }
        for host in hostPolicies.keys.sorted() where !(hostPolicies[host]?.isSystem ?? true) {
            parts.append("a policy for \(host)")
        }
        return parts.joined(separator: ", ")
    }
}

/// Why a ``ServerTrustPolicy`` could not be made or used.
public enum ServerTrustError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Bytes or text that are not a certificate (PEM or DER), and why.
    case invalidCertificate(String)
    /// A pin that is not the base64 of a SHA-256 digest, or a pinning policy without a pin or a
    /// backup pin.
    case invalidPin(String)
    /// This platform's transports cannot enforce the policy (or a custom transport was given,
    /// which enforces its own trust); the client was not made rather than ignore it.
    case unenforceable(String)

    public var description: String {
        switch self {
        case .invalidCertificate(let reason): return "invalid certificate: \(reason)"
        case .invalidPin(let reason): return "invalid public-key pin: \(reason)"
        case .unenforceable(let reason): return "server trust policy cannot be enforced: \(reason)"
        }
    }
}
