import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why TLS failed, in the TLS layer's words; ``urlError`` gives it the `URLError` code Apple's
/// URLSession gives the same failure (and the library's URLSession route on Linux, through
/// ``ServerTrustFailure``), so a call's error reads the same whichever route carried it.
struct TLSFailure: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        /// OpenSSL could not be opened or lacks a function.
        case unavailable
        /// The certificate is past its end.
        case expired
        /// The certificate is not valid yet.
        case notYetValid
        /// The chain ends in a root the client does not trust.
        case unknownRoot
        /// The certificate does not name the host (RFC 6125; RFC 9110 §4.3.4).
        case hostMismatch
        /// Another verification failure: a self-signed leaf, a bad signature, an unsuitable purpose…
        case untrusted
        /// The handshake failed for another reason: a protocol version below TLS 1.2, no shared
        /// cipher, an alert, bytes that are not TLS.
        case handshake
        /// The client identity could not be used (its key unreadable, a wrong passphrase, a key
        /// that is not the certificate's).
        case identity
        /// The server asked for a client certificate and refused the connection without one it
        /// accepts.
        case clientCertificateRequired
        /// The connection ended without `close_notify` where the body needed its end, or a record
        /// could not be read after the handshake.
        case broken
    }

    let kind: Kind
    /// OpenSSL's words and what the layer knows.
    let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var description: String { message }

    /// The failure for OpenSSL's verification result `code` (`X509_V_ERR_…`).
    static func verification(_ code: Int, text: String) -> TLSFailure {
        let kind: Kind =
            switch code {
            case 10: .expired  // X509_V_ERR_CERT_HAS_EXPIRED
            case 9: .notYetValid  // X509_V_ERR_CERT_NOT_YET_VALID
            // SELF_SIGNED_CERT_IN_CHAIN, UNABLE_TO_GET_ISSUER_CERT(_LOCALLY), UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            // a chain to a root nobody here trusts. A self-signed leaf (DEPTH_ZERO_SELF_SIGNED_CERT,
            // 18) is untrusted, as Apple's URLSession and the libcurl route (ServerTrustFailure) say.
            case 19, 2, 20, 21: .unknownRoot
            case 62, 63, 64: .hostMismatch  // HOSTNAME_MISMATCH, EMAIL_MISMATCH, IP_ADDRESS_MISMATCH
            default: .untrusted
            }
        return TLSFailure(kind, "the server's certificate was refused: \(text) (OpenSSL verify error \(code))")
    }

    /// The `URLError` a call fails with.
    var urlError: URLError {
        let code: URLError.Code =
            switch kind {
            case .unavailable: .unsupportedURL
            case .expired: .serverCertificateHasBadDate
            case .notYetValid: .serverCertificateNotYetValid
            case .unknownRoot: .serverCertificateHasUnknownRoot
            case .hostMismatch, .untrusted: .serverCertificateUntrusted
            case .handshake: .secureConnectionFailed
            case .identity: .clientCertificateRejected
            case .clientCertificateRequired: .clientCertificateRequired
            case .broken: .networkConnectionLost
            }
        return URLError(code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
