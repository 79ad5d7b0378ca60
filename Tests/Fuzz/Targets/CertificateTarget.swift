import Foundation

/// Certificates read from bytes a server or a file could hold: DER (``X509Certificate/init(der:)``,
/// over ``DERReader``) and PEM text (``X509Certificate/certificates(pem:)``).
///
/// Input: the whole input is tried as DER, and as PEM text.
///
/// Beyond not crashing:
/// - a certificate read from DER keeps exactly those bytes, and its `subjectPublicKeyInfo` is a
///   SEQUENCE found inside them;
/// - reading its DER again gives the same certificate, and its pin is 32 bytes;
/// - every certificate read from PEM reads again from its DER, and PEM written from it reads
///   back to it.
enum CertificateTarget {
    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        if let certificate = try? X509Certificate(der: data) {
            check(certificate)
            fuzzCheck(certificate.der == data, "the DER kept is not the DER read")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let certificates = try? X509Certificate.certificates(pem: text) {
            fuzzCheck(!certificates.isEmpty, "PEM read as no certificate without an error")
            for certificate in certificates {
                check(certificate)
                let pem =
                    "-----BEGIN CERTIFICATE-----\n"
                    + certificate.der.base64EncodedString(options: .lineLength64Characters)
                    + "\n-----END CERTIFICATE-----\n"
                fuzzCheck((try? X509Certificate(pem: pem)) == certificate, "written PEM does not read back")
            }
        }
    }

    private static func check(_ certificate: X509Certificate) {
        let spki = certificate.subjectPublicKeyInfo
        fuzzCheck(spki.first == 0x30, "the SubjectPublicKeyInfo is not a SEQUENCE")
        fuzzCheck(certificate.der.range(of: spki) != nil, "the SubjectPublicKeyInfo is not inside the certificate")
        fuzzCheck((try? X509Certificate(der: certificate.der)) == certificate, "the DER does not read again")
        fuzzCheck(PublicKeyPin(certificate).sha256.count == 32, "a pin is not 32 bytes")
    }
}
