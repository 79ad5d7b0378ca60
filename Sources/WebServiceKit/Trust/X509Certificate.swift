import Foundation

/// An X.509 certificate (RFC 5280), read from its DER bytes or from PEM text (RFC 7468): a
/// certificate authority a ``ServerTrustPolicy`` trusts in addition to the system's, or the
/// certificate a ``PublicKeyPin`` is taken from.
///
/// Only the outer structure is read: the certificate must be a `SEQUENCE` of the to-be-signed
/// part, the signature algorithm and the signature, and the to-be-signed part must reach its
/// `subjectPublicKeyInfo`. Nothing is verified here; the platform verifies chains.
///
/// ```swift
/// let authority = try X509Certificate(pem: String(contentsOf: caFile, encoding: .utf8))
/// let pin = PublicKeyPin(authority)          // its SubjectPublicKeyInfo's SHA-256
/// ```
public struct X509Certificate: Sendable, Hashable {
    /// The certificate's DER encoding.
    public let der: Data
    /// The DER encoding of its `subjectPublicKeyInfo` (RFC 5280 §4.1.2.7): the bytes a pin hashes.
    public let subjectPublicKeyInfo: Data

    /// Reads a certificate from its DER encoding.
    ///
    /// - Throws: ``ServerTrustError/invalidCertificate(_:)`` when the bytes are not one whole
    ///   certificate.
    public init(der: Data) throws(ServerTrustError) {
        let bytes = [UInt8](der)
        do {
            let spki = try Self.subjectPublicKeyInfoRange(in: bytes)
            self.der = der
            subjectPublicKeyInfo = Data(bytes[spki])
        } catch {
            throw .invalidCertificate("not a DER certificate: \(error)")
        }
    }

    /// Reads the one certificate of PEM text (`-----BEGIN CERTIFICATE-----`…).
    ///
    /// - Throws: ``ServerTrustError/invalidCertificate(_:)`` when the text holds no certificate,
    ///   more than one, or one that cannot be read.
    public init(pem: String) throws(ServerTrustError) {
        let all = try Self.certificates(pem: pem)
        guard all.count == 1, let only = all.first else {
            throw .invalidCertificate("the PEM text holds \(all.count) certificates, not one")
        }
        self = only
    }

    /// Reads every certificate of PEM text, in order (a CA bundle, a chain). Blocks with other
    /// labels (a private key, parameters) are passed over; text between blocks is ignored, as
    /// RFC 7468 §2 allows.
    ///
    /// - Throws: ``ServerTrustError/invalidCertificate(_:)`` when there is no certificate, a
    ///   block has no end, or a block's base64 or DER is malformed.
    public static func certificates(pem: String) throws(ServerTrustError) -> [X509Certificate] {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        var found: [X509Certificate] = []
        var rest = Substring(pem)
        while let start = rest.range(of: begin) {
            let afterBegin = rest[start.upperBound...]
            guard let stop = afterBegin.range(of: end) else {
                throw .invalidCertificate("a PEM block has no \(end) line")
            }
            // RFC 7468 §3: base64 lines, with whitespace allowed anywhere between them.
            let text = afterBegin[..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(text)) else {
                throw .invalidCertificate("certificate \(found.count + 1) of the PEM text is not base64")
            }
            found.append(try X509Certificate(der: der))
            rest = afterBegin[stop.upperBound...]
        }
        guard !found.isEmpty else { throw .invalidCertificate("no \(begin) block in the PEM text") }
        return found
    }

    /// Reads a certificate from DER bytes or PEM text, whichever `data` holds.
    public init(derOrPEM data: Data) throws(ServerTrustError) {
        if data.first == DERReader.sequence {
            try self.init(der: data)
        } else {
            try self.init(pem: String(decoding: data, as: UTF8.self))
        }
    }

    /// Where the `subjectPublicKeyInfo` element is in `bytes` (RFC 5280 §4.1):
    ///
    /// ```
    /// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
    /// TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer,
    ///                               validity, subject, subjectPublicKeyInfo, ... }
    /// SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
    /// ```
    static func subjectPublicKeyInfoRange(in bytes: [UInt8]) throws(DERError) -> Range<Int> {
        var outer = DERReader(bytes)
        let certificate = try outer.next(tag: DERReader.sequence)
        guard outer.isAtEnd else { throw .trailingBytes }
        var parts = DERReader(bytes, range: certificate.content)
        let tbs = try parts.next(tag: DERReader.sequence)
        _ = try parts.next(tag: DERReader.sequence)  // signatureAlgorithm
        _ = try parts.next(tag: 0x03)  // signatureValue, a BIT STRING
        guard parts.isAtEnd else { throw .trailingBytes }
        var fields = DERReader(bytes, range: tbs.content)
        var field = try fields.next()
        if field.tag == 0xA0 { field = try fields.next() }  // [0] EXPLICIT version
        guard field.tag == 0x02 else { throw .unexpectedTag(expected: 0x02, found: field.tag) }  // serialNumber
        _ = try fields.next(tag: DERReader.sequence)  // signature
        _ = try fields.next(tag: DERReader.sequence)  // issuer
        _ = try fields.next(tag: DERReader.sequence)  // validity
        _ = try fields.next(tag: DERReader.sequence)  // subject
        let spki = try fields.next(tag: DERReader.sequence)
        var key = DERReader(bytes, range: spki.content)
        _ = try key.next(tag: DERReader.sequence)  // algorithm
        _ = try key.next(tag: 0x03)  // subjectPublicKey
        guard key.isAtEnd else { throw .trailingBytes }
        return spki.whole
    }
}
