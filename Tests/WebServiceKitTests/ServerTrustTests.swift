import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Certificates and pins read in pure Swift, checked against `openssl`'s output for the same
/// certificates (the fixtures below were made and measured with the openssl command line:
/// `openssl x509 -in F.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst
/// -sha256 -binary | openssl base64`), the policies' rules, and the certificate-failure codes.
final class ServerTrustTests: XCTestCase {
    // MARK: - Fixtures (self-signed, made with `openssl req -x509`)

    static let rsaPEM = """
        -----BEGIN CERTIFICATE-----
        MIIDDTCCAfWgAwIBAgIUR/+flriWW1ZQAWk6zJAj487GgLMwDQYJKoZIhvcNAQEL
        BQAwFjEUMBIGA1UEAwwLZml4dHVyZS1yc2EwHhcNMjYxMTI2MDIyMDU5WhcNMzYx
        MTIzMDIyMDU5WjAWMRQwEgYDVQQDDAtmaXh0dXJlLXJzYTCCASIwDQYJKoZIhvcN
        AQEBBQADggEPADCCAQoCggEBALc95QaqmHRZqpim1zlmRK+WmALcH8371IBdPLVK
        qmPykzUfDcXT3WZ0SFFuxqfcS/MBSvKPgMwix0TE+Cq6B7IZMqHoEThhSc+R6Sde
        uEKNStguqj6iWQjZLsAmJO3jNBFTvs9M2TuearrO8lIBxcwrPVVcUS6gdOLkW0Js
        mZzZdabNGBVI8hsvNdsi4OcTF9l2b5nqMuB5AOP2AlRIYQIcISHqnbHW7Vi2jPwX
        qOcD0Mj3Tv1igZFjAfjg/A+kFo4i6H7DSmHd/obTfpOjIoo7wOjarpZT5MOs6BHc
        NUoZbfx29cliizg2/9RjWQnXdB3wgcAtNVCeHQ6GmsI5Yj8CAwEAAaNTMFEwHQYD
        VR0OBBYEFChtOmsWt33lbTUQOpaQrNFxkY+gMB8GA1UdIwQYMBaAFChtOmsWt33l
        bTUQOpaQrNFxkY+gMA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEB
        AAwPesjEx5/iIs6yivFrgxu91JwCquDG6F8L/Bv4/y4CkBsBf2nDpeLf14yrXSCX
        c9xArRuKd6e9giRtkts+jqp7jcE1foqnAct65XZquVPprQC8Df2PTd1m+MwyY20A
        59L0/h+QUAoXG0WU1izMfCoKYVIFnYfEfzbCr5w3RJpRkA7ndKRClrQLAFZW1Trn
        Q7VaKRAQ/uNdf9qtklwr90jJYclaP9OARh28RkJ7B09fToHId4+PtE0/pSHa6Bs5
        f0OE6o0DkDm/uABr82bqYQ3Qj/VJZcurX0O4d2DEwNdyCx5I1y1DZsnSMxLJqJZD
        whSegM/Yy/dQycTrzo3tG2c=
        -----END CERTIFICATE-----
        """
    /// openssl's SPKI SHA-256 of ``rsaPEM``.
    static let rsaPin = "ygzSwF0Vz153DTQhYRzzzkD4s4qT0DVUu2T6PbVLRms="
    /// `openssl x509 -outform der | sha256sum` of ``rsaPEM``.
    static let rsaDERSHA256 = "dade9ac50e5808d0a7c0fefcf9dac08a0dc6c55c4edd67e96fd32ce89137d336"

    static let ecPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBgDCCASWgAwIBAgIUBG0SG7GzmGatmOFm20kKspREpn8wCgYIKoZIzj0EAwIw
        FTETMBEGA1UEAwwKZml4dHVyZS1lYzAeFw0yNjExMjYwMjIwNTlaFw0zNjExMjMw
        MjIwNTlaMBUxEzARBgNVBAMMCmZpeHR1cmUtZWMwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAATqHEGNmGF4/qRix2K20Vu5BX6DmRxcrg9S7FrwuKAN6lth7lxjIIug
        3IET/wgeRCAN9asG4aSqAZPyuybJ3a2mo1MwUTAdBgNVHQ4EFgQUQntbgQRS8Er9
        /6Rusph7cUeiP9swHwYDVR0jBBgwFoAUQntbgQRS8Er9/6Rusph7cUeiP9swDwYD
        VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEAwrvvmU/1yvwR4NMJ2YFl
        tKdsBi22DH27Bm1RsVzY9rkCIQDNjGH6o5R1gMvbcDROk+jFGWUL9O957jBr3QrF
        bXfqZA==
        -----END CERTIFICATE-----
        """
    /// openssl's SPKI SHA-256 of ``ecPEM``.
    static let ecPin = "/h8qdO/lP+uDbDhJjeLWiZ8VawYZQi9D3aD8mv8jk1E="
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl base64` of ``ecPEM``.
    static let ecSPKI =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE6hxBjZhheP6kYsdittFbuQV+g5kcXK4PUuxa8LigDepbYe5cYyCLoNyBE/8IHkQgDfWrBuGkqgGT8rsmyd2tpg=="
    /// `openssl x509 -outform der | openssl base64` of ``ecPEM``.
    static let ecDER =
        "MIIBgDCCASWgAwIBAgIUBG0SG7GzmGatmOFm20kKspREpn8wCgYIKoZIzj0EAwIwFTETMBEGA1UEAwwKZml4dHVyZS1lYzAeFw0yNjExMjYwMjIwNTlaFw0zNjExMjMwMjIwNTlaMBUxEzARBgNVBAMMCmZpeHR1cmUtZWMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATqHEGNmGF4/qRix2K20Vu5BX6DmRxcrg9S7FrwuKAN6lth7lxjIIug3IET/wgeRCAN9asG4aSqAZPyuybJ3a2mo1MwUTAdBgNVHQ4EFgQUQntbgQRS8Er9/6Rusph7cUeiP9swHwYDVR0jBBgwFoAUQntbgQRS8Er9/6Rusph7cUeiP9swDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEAwrvvmU/1yvwR4NMJ2YFltKdsBi22DH27Bm1RsVzY9rkCIQDNjGH6o5R1gMvbcDROk+jFGWUL9O957jBr3QrFbXfqZA=="

    // MARK: - Certificates and pins

    func testPEMCertificatesGiveOpenSSLsPins() throws {
        let rsa = try X509Certificate(pem: Self.rsaPEM)
        XCTAssertEqual(PublicKeyPin(rsa).sha256.base64EncodedString(), Self.rsaPin)
        var hasher = SHA256()
        hasher.update(rsa.der)
        XCTAssertEqual(hasher.finalizeHexDigest(), Self.rsaDERSHA256)

        let ec = try X509Certificate(pem: Self.ecPEM)
        XCTAssertEqual(PublicKeyPin(ec).sha256.base64EncodedString(), Self.ecPin)
        XCTAssertEqual(ec.subjectPublicKeyInfo.base64EncodedString(), Self.ecSPKI)
        XCTAssertEqual(ec.der.base64EncodedString(), Self.ecDER)
        XCTAssertEqual(PublicKeyPin(ec).description, "sha256/" + Self.ecPin)
    }

    func testDERAndPEMReadTheSameCertificate() throws {
        let der = try XCTUnwrap(Data(base64Encoded: Self.ecDER))
        let fromDER = try X509Certificate(der: der)
        XCTAssertEqual(fromDER, try X509Certificate(pem: Self.ecPEM))
        XCTAssertEqual(try X509Certificate(derOrPEM: der), fromDER)
        XCTAssertEqual(try X509Certificate(derOrPEM: Data(Self.ecPEM.utf8)), fromDER)
    }

    func testABundleIsReadInOrderAndOtherBlocksArePassedOver() throws {
        let bundle =
            "a CA bundle\n" + Self.rsaPEM + "\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
            + Self.ecPEM + "\n"
        let certificates = try X509Certificate.certificates(pem: bundle)
        XCTAssertEqual(certificates.map { PublicKeyPin($0).sha256.base64EncodedString() }, [Self.rsaPin, Self.ecPin])
        XCTAssertThrowsError(try X509Certificate(pem: bundle)) { error in
            XCTAssertEqual(
                error as? ServerTrustError, .invalidCertificate("the PEM text holds 2 certificates, not one"))
        }
    }

    /// RFC 7468 §3: CRLF line ends and whitespace between base64 lines read as LF text does.
    func testPEMWithCRLFAndIndentation() throws {
        let crlf = Self.ecPEM.replacingOccurrences(of: "\n", with: "\r\n")
        XCTAssertEqual(try X509Certificate(pem: crlf), try X509Certificate(pem: Self.ecPEM))
        let indented = Self.ecPEM.split(separator: "\n").map { "  " + $0 + " \t" }.joined(separator: "\n")
        XCTAssertEqual(try X509Certificate(pem: indented), try X509Certificate(pem: Self.ecPEM))
    }

    func testMalformedCertificatesAreTypedErrors() throws {
        let der = [UInt8](try XCTUnwrap(Data(base64Encoded: Self.ecDER)))
        // Every truncation, and every single-byte change of the header bytes, is refused without a trap.
        for length in 0..<der.count {
            XCTAssertThrowsError(try X509Certificate(der: Data(der[..<length]))) { error in
                guard case .invalidCertificate = error as? ServerTrustError else {
                    return XCTFail("truncated to \(length): \(error)")
                }
            }
        }
        XCTAssertThrowsError(try X509Certificate(der: Data(der + [0])))  // trailing byte
        var indefinite = der
        indefinite[1] = 0x80
        XCTAssertThrowsError(try X509Certificate(der: Data(indefinite)))
        var huge = der
        huge[1] = 0x89  // nine length bytes
        XCTAssertThrowsError(try X509Certificate(der: Data(huge)))
        var overlong = der
        overlong[2] = 0xFF
        overlong[3] = 0xFF
        XCTAssertThrowsError(try X509Certificate(der: Data(overlong)))
        let noEnd = "-----BEGIN CERTIFICATE-----\n" + Self.ecDER
        XCTAssertThrowsError(try X509Certificate(pem: noEnd))
        XCTAssertThrowsError(try X509Certificate(pem: "-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----"))
        XCTAssertThrowsError(try X509Certificate(pem: "nothing here")) { error in
            guard case .invalidCertificate = error as? ServerTrustError else { return XCTFail("\(error)") }
        }
    }

    func testPinsFromText() throws {
        XCTAssertEqual(try PublicKeyPin(base64: Self.ecPin), PublicKeyPin(try X509Certificate(pem: Self.ecPEM)))
        XCTAssertEqual(try PublicKeyPin(base64: "sha256/" + Self.ecPin), try PublicKeyPin(base64: Self.ecPin))
        XCTAssertThrowsError(try PublicKeyPin(base64: "not base64!")) { error in
            guard case .invalidPin = error as? ServerTrustError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try PublicKeyPin(base64: Data(repeating: 1, count: 20).base64EncodedString())) { error in
            XCTAssertEqual(error as? ServerTrustError, .invalidPin("a SHA-256 pin is 32 bytes, not 20"))
        }
    }

    // MARK: - Policies

    func testPinningNeedsABackupPinThatIsNotInUse() throws {
        let ec = try PublicKeyPin(base64: Self.ecPin)
        let rsa = try PublicKeyPin(base64: Self.rsaPin)
        XCTAssertThrowsError(try ServerTrustPolicy.pinning([ec], backup: [])) { error in
            guard case .invalidPin(let reason) = error as? ServerTrustError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("backup"), reason)
        }
        XCTAssertThrowsError(try ServerTrustPolicy.pinning([], backup: [rsa]))
        XCTAssertThrowsError(try ServerTrustPolicy.pinning([ec], backup: [ec]))
        let policy = try ServerTrustPolicy.pinning([ec], backup: [rsa])
        XCTAssertEqual(policy.acceptedPins, [ec, rsa])
        XCTAssertFalse(policy.isSystem)
        XCTAssertTrue(ServerTrustPolicy.system.isSystem)
    }

    func testAPolicyPerHost() throws {
        let ca = try X509Certificate(pem: Self.ecPEM)
        let policy = ServerTrustPolicy.system.with(.additionalCertificateAuthorities([ca]), forHost: "Internal.Example")
        XCTAssertFalse(policy.isSystem)
        XCTAssertEqual(policy.policy(forHost: "internal.example").additionalCertificateAuthorities, [ca])
        XCTAssertTrue(policy.policy(forHost: "api.example").isSystem)
        XCTAssertTrue(ServerTrustPolicy.system.with(.system, forHost: "a.example").isSystem)
    }

    /// Every policy makes a client where it is enforced: on Apple platforms by URLSession, on
    /// Linux by the library's own TLS over OpenSSL. Where `https` goes through URLSession on
    /// Linux (the direct route off) only the system's trust can be enforced: every other policy
    /// refuses to make the transport, rather than be ignored.
    func testPoliciesThatCannotBeEnforcedRefuseTheClient() throws {
        let root = try XCTUnwrap(URL(string: "https://127.0.0.1:1/"))
        XCTAssertNoThrow(try WebServiceClient(serviceRoot: root, serverTrust: .system))
        let ca = try X509Certificate(pem: Self.ecPEM)
        let pinned = try ServerTrustPolicy.pinning(
            [PublicKeyPin(base64: Self.ecPin)], backup: [PublicKeyPin(base64: Self.rsaPin)])
        let perHost = ServerTrustPolicy.system.with(pinned, forHost: "127.0.0.1")
        let policies = [
            ServerTrustPolicy.additionalCertificateAuthorities([ca]), pinned, perHost,
            .onlyCertificateAuthorities([ca]),
        ]
        for policy in policies {
            #if canImport(Security)
                XCTAssertNoThrow(try WebServiceClient(serviceRoot: root, serverTrust: policy))
            #else
                XCTAssertEqual(
                    (try? WebServiceClient(serviceRoot: root, serverTrust: policy)) != nil, HTTP1Transport.carriesHTTPS)
                XCTAssertThrowsError(try RoutingTransport(usesDirectHTTP1: false, serverTrust: policy)) { error in
                    guard case .unenforceable(let reason) = error as? ServerTrustError else {
                        return XCTFail("\(error)")
                    }
                    XCTAssertTrue(reason.contains("ServerTrustPolicy.system"), reason)
                }
                XCTAssertThrowsError(try URLSessionTransport(sessionConfiguration: .ephemeral, serverTrust: policy))
            #endif
        }
    }

    /// A client identity needs a certificate and a PEM private key; a policy with one is no
    /// longer the system's, and its description never shows the key.
    func testAClientIdentityNeedsACertificateAndAKey() throws {
        let key = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\n"
        XCTAssertThrowsError(try ClientIdentity(certificatePEM: "no certificate here", privateKeyPEM: key))
        XCTAssertThrowsError(try ClientIdentity(certificatePEM: Self.ecPEM, privateKeyPEM: "MHcCAQEE")) { error in
            guard case .invalidCertificate(let reason) = error as? ServerTrustError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("no PEM private key"), reason)
        }
        let identity = try ClientIdentity(certificatePEM: Self.ecPEM, privateKeyPEM: key, passphrase: "secret")
        XCTAssertEqual(identity.certificates, [try X509Certificate(pem: Self.ecPEM)])
        XCTAssertFalse("\(identity)".contains("MHcCAQEE") || "\(identity)".contains("secret"))
        XCTAssertFalse(ServerTrustPolicy.system.presenting(identity).isSystem)
        XCTAssertFalse(ServerTrustPolicy.system.with(.system.presenting(identity), forHost: "a.example").isSystem)
        XCTAssertTrue(ServerTrustPolicy.system.presenting(identity).requirements.contains("a client identity"))
    }

    // MARK: - Certificate failures

    /// libcurl's messages for each failure, as this machine's libcurl and OpenSSL wrote them
    /// (through URLSession and the `curl` command line against the test nginx), and OpenSSL 1.1's
    /// older spelling.
    func testLibcurlMessagesGetTheirCodes() {
        let cases: [(String, URLError.Code?)] = [
            ("SSL certificate problem: self-signed certificate", .serverCertificateUntrusted),
            ("SSL certificate problem: self signed certificate", .serverCertificateUntrusted),
            ("SSL certificate problem: self-signed certificate in certificate chain", .serverCertificateHasUnknownRoot),
            ("SSL certificate problem: unable to get local issuer certificate", .serverCertificateHasUnknownRoot),
            ("SSL certificate problem: certificate has expired", .serverCertificateHasBadDate),
            ("SSL certificate problem: certificate is not yet valid", .serverCertificateHasBadDate),
            (
                "SSL: no alternative certificate subject name matches target host name '127.0.0.1'",
                .serverCertificateUntrusted
            ),
            ("SSL: certificate subject name 'x' does not match target host name 'y'", .serverCertificateUntrusted),
            ("SSL: public key does not match pinned public key", .serverCertificateUntrusted),
            ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:443", .secureConnectionFailed),
            ("Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server", nil),
            ("transfer closed with 10 bytes remaining to read", nil),
        ]
        for (message, code) in cases {
            XCTAssertEqual(ServerTrustFailure.code(forMessage: message), code, message)
        }
    }

    func testTheTransportStageGivesTheCodeAndKeepsTheReason() {
        let reason = "SSL certificate problem: certificate has expired"
        let unknown = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: reason])
        let error = WebServiceError(transportError: unknown)
        guard case .transport(let mapped) = error.reason else { return XCTFail("\(error)") }
        XCTAssertEqual(mapped.code, .serverCertificateHasBadDate)
        XCTAssertEqual(mapped.userInfo[NSLocalizedDescriptionKey] as? String, reason)
        XCTAssertTrue(error.isServerTrustFailure)
        XCTAssertEqual(error.serverTrustFailureReason, reason)
        // Other codes and other messages pass unchanged.
        let refused = WebServiceError(transportError: URLError(.cannotConnectToHost))
        XCTAssertFalse(refused.isServerTrustFailure)
        XCTAssertNil(refused.serverTrustFailureReason)
        let other = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "something else"])
        guard case .transport(let same) = WebServiceError(transportError: other).reason else { return XCTFail() }
        XCTAssertEqual(same.code, .unknown)
    }
}
