import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Gives certificate failures their own `URLError` codes where Foundation does not.
///
/// On Linux, FoundationNetworking turns every libcurl failure it has no code for into
/// `URLError(.unknown)` with libcurl's message as the description: a self-signed certificate,
/// an expired one and a wrong host name all arrive as `.unknown`. The messages are libcurl's
/// (`SSL certificate problem: …` with OpenSSL's verification text, `SSL: no alternative
/// certificate subject name matches target host name …`), stable across releases; this reads
/// them and picks the code Apple's URLSession gives for the same failure. The message stays the
/// error's description, and the original error is its `NSUnderlyingErrorKey`.
enum ServerTrustFailure {
    /// `error` with a certificate failure's code when its message names one; `error` unchanged
    /// otherwise (and always when its code is not `.unknown`).
    static func refined(_ error: URLError) -> URLError {
        guard error.code == .unknown, let message = error.userInfo[NSLocalizedDescriptionKey] as? String,
            let code = code(forMessage: message)
        else { return error }
        var userInfo = error.userInfo
        userInfo[NSUnderlyingErrorKey] = error as NSError
        return URLError(code, userInfo: userInfo)
    }

    /// The code for libcurl's message `message`; `nil` when it is no TLS failure.
    static func code(forMessage message: String) -> URLError.Code? {
        let text = message.lowercased()
        if text.hasPrefix("ssl certificate problem:") {
            // OpenSSL's X509_verify_cert_error_string texts (OpenSSL 3 writes "self-signed",
            // 1.1 "self signed").
            if text.contains("certificate has expired") || text.contains("is not yet valid") {
                return .serverCertificateHasBadDate
            }
            if text.contains("in certificate chain") || text.contains("local issuer certificate")
                || text.contains("unable to get issuer certificate") || text.contains("verify the first certificate")
            {
                // A chain that ends in a root nobody trusts.
                return .serverCertificateHasUnknownRoot
            }
            // A self-signed leaf, a revoked certificate, an unsuitable purpose…
            return .serverCertificateUntrusted
        }
        // Host-name mismatch (RFC 9110 §4.3.4; RFC 6125): libcurl's own check or OpenSSL's.
        if text.contains("no alternative certificate subject name matches")
            || text.contains("does not match target host name") || text.contains("hostname mismatch")
        {
            return .serverCertificateUntrusted
        }
        if text.contains("public key does not match pinned public key") { return .serverCertificateUntrusted }
        if text.hasPrefix("ssl") || text.hasPrefix("openssl") || text.contains("tls alert") {
            // The handshake failed for another reason (protocol version, cipher, alert).
            return .secureConnectionFailed
        }
        return nil
    }

    /// Whether `code` is one of the certificate-failure codes.
    static func isCertificateFailure(_ code: URLError.Code) -> Bool {
        [
            .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid,
        ].contains(code)
    }
}

extension WebServiceError {
    /// Whether the call failed because the server's certificate was not trusted (untrusted,
    /// unknown root, out of date, wrong host name, or a pin that did not match), on every platform.
    /// The reason is ``serverTrustFailureReason``.
    public var isServerTrustFailure: Bool {
        guard case .transport(let error) = reason else { return false }
        return ServerTrustFailure.isCertificateFailure(error.code)
    }

    /// The platform's words for a certificate failure (on Linux, libcurl's and OpenSSL's:
    /// `SSL certificate problem: certificate has expired`); `nil` for any other failure.
    public var serverTrustFailureReason: String? {
        guard isServerTrustFailure, case .transport(let error) = reason else { return nil }
        return error.userInfo[NSLocalizedDescriptionKey] as? String ?? error.localizedDescription
    }
}
