import Foundation

/// A client's certificate and private key, presented to servers that ask for one (mutual TLS,
/// RFC 8446 §4.4.2): the certificate first, then the intermediates that lead to the authority the
/// server trusts; the key in PEM, PKCS#8 or the older RSA and EC forms, encrypted or not.
///
/// ```swift
/// let identity = try ClientIdentity(
///     certificatePEM: String(contentsOf: certificateFile, encoding: .utf8),
///     privateKeyPEM: String(contentsOf: keyFile, encoding: .utf8), passphrase: "key passphrase")
/// let client = try WebServiceClient(serviceRoot: root, serverTrust: ServerTrustPolicy.system.presenting(identity))
/// ```
///
/// The key and its passphrase stay in memory and never appear in a description or an error. On
/// Linux the library's own TLS presents the identity (OpenSSL decrypts the key when the first
/// connection needs it: a wrong passphrase fails that call with
/// `URLError(.clientCertificateRejected)`); where `https` goes through URLSession, a policy with
/// an identity is ``ServerTrustError/unenforceable(_:)``.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The certificate, then its intermediates, in the order they are sent.
    public let certificates: [X509Certificate]
    /// The private key's PEM text.
    let privateKeyPEM: String
    /// The key's passphrase; `nil` for a key in the clear.
    let passphrase: String?

    /// An identity from PEM text: `certificatePEM` holds the certificate and its intermediates
    /// (other blocks are passed over), `privateKeyPEM` the key (`PRIVATE KEY`,
    /// `ENCRYPTED PRIVATE KEY`, `RSA PRIVATE KEY` or `EC PRIVATE KEY`).
    ///
    /// - Throws: ``ServerTrustError/invalidCertificate(_:)`` without a certificate or without a
    ///   private key block.
    public init(certificatePEM: String, privateKeyPEM: String, passphrase: String? = nil) throws(ServerTrustError) {
        let certificates = try X509Certificate.certificates(pem: certificatePEM)
        guard !certificates.isEmpty else { throw .invalidCertificate("the identity's PEM holds no certificate") }
        let labels = ["PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"]
        guard labels.contains(where: { privateKeyPEM.contains("-----BEGIN \($0)-----") }) else {
            throw .invalidCertificate("the identity's key is no PEM private key (\(labels.joined(separator: ", ")))")
        }
        self.certificates = certificates
        self.privateKeyPEM = privateKeyPEM
        self.passphrase = passphrase
    }

    /// The certificates, never the key.
    public var description: String {
        "ClientIdentity(\(certificates.count) certificate\(certificates.count == 1 ? "" : "s"), private key hidden)"
    }
}
