import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server trust: certificate failures with their own codes, then a private CA and public-key pins
/// enforced over TLS (on Linux by the library's own TLS over the system's OpenSSL): the right pin
/// accepted, a wrong one refused, never ignored; and a second connection resuming the first's
/// session.
func demonstrateTrust(selfSigned: URL?, unknownCA: URL?, certificates: URL?, leafPin: String?, mutual: URL?) async {
    let ok = WebServiceCall<String>(relativePath: "ok")
    for (what, root) in [("a self-signed leaf", selfSigned), ("a leaf of a private CA", unknownCA)] {
        guard let root else { continue }
        do {
            _ = try await WebServiceClient(serviceRoot: root).perform(ok)
            print("\(what): trusted (unexpected)")
        } catch {
            let code = if case .transport(let urlError) = error.reason { "\(urlError.code)" } else { "-" }
            print("\(what): refused, \(code), \"\(error.serverTrustFailureReason ?? "\(error)")\"")
        }
    }
    if let notice = RoutingTransport.routeNotice { print(notice) }
    do {
        _ = try ServerTrustPolicy.pinning(
            [PublicKeyPin(base64: "3zICqjg+fGHUKUHHBPUt32o7eLWz8rm1JMVqYls+Eck=")], backup: [])
    } catch {
        print("pinning without a backup pin: \(error)")
    }
    guard let root = unknownCA, let certificates, let leafPin else { return }
    do {
        let ca = try X509Certificate(derOrPEM: Data(contentsOf: certificates.appendingPathComponent("ca.pem")))
        // A key no certificate of the chain has: the backup pin, and a wrong pin to show a refusal.
        let absent = try PublicKeyPin(sha256: Data(repeating: 7, count: 32))
        let policies: [(String, ServerTrustPolicy)] = [
            ("the private CA added", .additionalCertificateAuthorities([ca])),
            (
                "the leaf's key pinned",
                try .pinning([PublicKeyPin(base64: leafPin)], backup: [absent], additionalCertificateAuthorities: [ca])
            ),
            (
                "a key the server does not have pinned",
                try .pinning(
                    [PublicKeyPin(sha256: Data(repeating: 1, count: 32))], backup: [absent],
                    additionalCertificateAuthorities: [ca])
            ),
        ]
        for (what, policy) in policies {
            let client = try WebServiceClient(serviceRoot: root, serverTrust: policy)
            do {
                let response = try await client.response(for: ok, [])
                let transaction = response.metrics.transactions.last
                print(
                    "\(what): trusted, \(response.value.trimmingCharacters(in: .newlines)) over "
                        + "\(transaction?.route.map { "\($0)" } ?? "?"), \(transaction?.tls.map { "\($0)" } ?? "TLS figures unknown")"
                )
            } catch {
                print("\(what): refused, \"\(error.serverTrustFailureReason ?? "\(error)")\"")
            }
        }
        // nginx closes each /reused connection after its answer and says whether the session
        // was resumed ("r") or new (".").
        let client = try WebServiceClient(serviceRoot: root, serverTrust: .additionalCertificateAuthorities([ca]))
        var seen: [String] = []
        for _ in 0..<3 {
            let response = try await client.response(for: WebServiceCall<String>(relativePath: "reused"), [])
            let resumed = response.metrics.transactions.last?.tls?.sessionResumed
            seen.append(
                "nginx \"\(response.value.trimmingCharacters(in: .newlines))\", resumed \(resumed.map { "\($0)" } ?? "?")"
            )
        }
        print("three new connections: \(seen.joined(separator: "; "))")
        if let mutual { try await demonstrateClientIdentity(root: mutual, ca: ca, certificates: certificates) }
    } catch {
        print("a policy of your own: not enforced here, \(error)")
    }
}

/// Mutual TLS: a server that requires a client certificate the CA signed, called without one and
/// with the identity Scripts/demo made (its key encrypted).
func demonstrateClientIdentity(root: URL, ca: X509Certificate, certificates: URL) async throws {
    let ok = WebServiceCall<String>(relativePath: "ok")
    let identity = try ClientIdentity(
        certificatePEM: String(contentsOf: certificates.appendingPathComponent("client.pem"), encoding: .utf8),
        privateKeyPEM: String(contentsOf: certificates.appendingPathComponent("client-encrypted.key"), encoding: .utf8),
        passphrase: "client-pass")
    let trust = ServerTrustPolicy.additionalCertificateAuthorities([ca])
    for (what, policy) in [
        ("without a client certificate", trust), ("presenting \(identity)", trust.presenting(identity)),
    ] {
        let client = try WebServiceClient(serviceRoot: root, serverTrust: policy)
        do {
            let value = try await client.perform(ok)
            print("mutual TLS, \(what): the server says \"\(value)\"")
        } catch {
            let code = if case .transport(let urlError) = error.reason { "\(urlError.code)" } else { "-" }
            let reason =
                if case .transport(let urlError) = error.reason { urlError.localizedDescription } else { "\(error)" }
            print("mutual TLS, \(what): refused, \(code), \"\(reason)\"")
        }
    }
}
