import Foundation

/// A pin: the SHA-256 digest of a `SubjectPublicKeyInfo` (RFC 7469 §2.4), the value OkHttp's
/// `CertificatePinner` and Alamofire's `PublicKeysTrustEvaluator` compare. A server passes a
/// pinning ``ServerTrustPolicy`` when the chain the platform validated holds a certificate whose
/// key has one of the policy's pins.
///
/// The base64 form is what `openssl` prints for a certificate:
///
/// ```
/// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
///     | openssl dgst -sha256 -binary | openssl base64
/// ```
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let sha256: Data

    /// A pin from its base64 text, with or without OkHttp's `sha256/` prefix.
    ///
    /// - Throws: ``ServerTrustError/invalidPin(_:)`` when the text is not the base64 of 32 bytes.
    public init(base64 text: String) throws(ServerTrustError) {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("sha256/") { text = text.dropFirst("sha256/".count) }
        guard let digest = Data(base64Encoded: String(text)) else {
            throw .invalidPin("\"\(text)\" is not base64")
        }
        try self.init(sha256: digest)
    }

    /// A pin from the 32 bytes of a SHA-256 digest.
    ///
    /// - Throws: ``ServerTrustError/invalidPin(_:)`` when `digest` is not 32 bytes long.
    public init(sha256 digest: Data) throws(ServerTrustError) {
        guard digest.count == 32 else {
            throw .invalidPin("a SHA-256 pin is 32 bytes, not \(digest.count)")
        }
        sha256 = digest
    }

    /// The pin of `certificate`'s public key.
    public init(_ certificate: X509Certificate) {
        var hasher = SHA256()
        hasher.update(certificate.subjectPublicKeyInfo)
        sha256 = Data(hasher.finalize())
    }

    /// The base64 form, with OkHttp's prefix: `sha256/…`.
    public var description: String { "sha256/" + sha256.base64EncodedString() }
}
