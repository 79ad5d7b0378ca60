import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `https` on the event loop: ``HTTP1Transport`` over the system's OpenSSL against the TLS nginx
/// of `Scripts/test`, whose certificates a private CA signed, with curl as the oracle for the
/// pins' verdicts and a test-only switch that turns verification off for each refusal's twin.
final class HTTP1TLSTests: XCTestCase {
    private struct Nothing: Decodable, Sendable {}

    /// The tests' private CA.
    private static func authority() throws -> X509Certificate {
        try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
    }

    /// A client of `variable`'s server over the loop, trusting the tests' CA only, or `policy`
    /// (verifying nothing, for a twin).
    private func client(
        _ variable: String = "WEBSERVICEKIT_TLS_URL", policy: ServerTrustPolicy? = nil, skipsVerification: Bool = false
    ) throws -> WebServiceClient {
        #if os(Linux)
            try XCTSkipIf(HTTP1Transport.runsOnThreads, "https is the event loop's only")
            let configuration = URLSessionConfiguration.ephemeral
            let transport = HTTP1Transport(
                configuration: configuration, bridge: RequestBridge(configuration: configuration, cookies: nil),
                limits: nil,
                serverTrust: try policy ?? .onlyCertificateAuthorities([Self.authority()]),
                testOnlySkipsVerification: skipsVerification)
            return WebServiceClient(serviceRoot: try TLSServer.url(variable), transport: transport)
        #else
            throw XCTSkip("the TLS layer is Linux's")
        #endif
    }

    private static let ok = WebServiceCall<String>(relativePath: "ok")

    /// Three GETs: one TLS connection, made once and reused, each answer whole.
    func testGetsShareOneTLSConnection() async throws {
        let client = try client()
        var responses: [WebServiceResponse<String>] = []
        for _ in 0..<3 { responses.append(try await client.response(for: Self.ok, [])) }
        XCTAssertEqual(responses.map(\.value), ["ok\n", "ok\n", "ok\n"])
        let transactions = responses.compactMap(\.metrics.transactions.first)
        XCTAssertEqual(transactions.map(\.route), [.directHTTP1, .directHTTP1, .directHTTP1])
        XCTAssertEqual(transactions.map(\.connectionReused), [false, true, true])
        XCTAssertNotNil(transactions[0].connectDuration, "the connect includes the handshake")
        // What TLS negotiated is what `openssl s_client` (offering ALPN's http/1.1 too) negotiates
        // with the same server: version, cipher suite and protocol.
        let tls = transactions.map(\.tls)
        let oracle = try sClientNegotiates(TLSServer.url("WEBSERVICEKIT_TLS_URL"))
        XCTAssertEqual(tls.map { $0?.protocolVersion }, Array(repeating: oracle.version, count: 3))
        XCTAssertEqual(tls.map { $0?.cipher }, Array(repeating: oracle.cipher, count: 3))
        XCTAssertEqual(tls.map { $0?.applicationProtocol }, Array(repeating: oracle.alpn, count: 3))
        XCTAssertEqual(oracle.version, "TLSv1.3", "nginx is set to offer TLS 1.3")
        XCTAssertEqual(tls.map { $0?.sessionResumed }, [false, false, false])
        XCTAssertNotNil(tls[0]?.handshakeDuration, "the first request made the handshake")
        XCTAssertEqual(tls.map { $0?.handshakeDuration == nil }, [false, true, true])
    }

    /// Docs/Trust.md, "TLS on Linux": the metrics example, against nginx.
    func testTheTrustGuidesMetricsExample() async throws {
        let client = try client()
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        let response = try await client.response(for: WebServiceCall<String>(relativePath: "ok"), [])
        if let tls = response.metrics.transactions.last?.tls {
            print(tls.protocolVersion, tls.cipher, tls.sessionResumed, tls.handshakeDuration as Any)
            // TLSv1.3 TLS_AES_256_GCM_SHA384 false Optional(1.2 milliseconds)
        }
        XCTAssertEqual(printed.count, 1)
        XCTAssertTrue(printed.first?.hasPrefix("TLSv1.3 TLS_") ?? false, "\(printed)")
    }

    /// A new connection to an origin resumes the session of the one before (nginx closes each
    /// `/reused` connection after its answer): nginx's `$ssl_session_reused` counts it, and the
    /// call's metrics say the same.
    func testANewConnectionResumesTheOriginsSession() async throws {
        let client = try client()
        let call = WebServiceCall<String>(relativePath: "reused")
        var answers: [String] = []
        var resumed: [Bool?] = []
        for _ in 0..<3 {
            let response = try await client.response(for: call, [])
            answers.append(response.value)
            resumed.append(response.metrics.transactions.last?.tls?.sessionResumed)
            XCTAssertEqual(response.metrics.transactions.last?.connectionReused, false)
        }
        XCTAssertEqual(answers, [".\n", "r\n", "r\n"], "nginx: a full handshake, then resumed ones")
        XCTAssertEqual(resumed, [false, true, true])
    }

    /// Every method with a body in memory, small (with the head) and large (in pieces, a 2 MiB
    /// one with `Expect: 100-continue`), over TLS.
    func testEveryMethodWithABody() async throws {
        let client = try client()
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            for size in [100, 200 * 1024, 2 * 1024 * 1024] {
                let call = WebServiceCall<String>(method: method, relativePath: "ok", bodyParameter: 0)
                let value = try await client.perform(call, Data(repeating: 0x61, count: size))
                XCTAssertEqual(value, "ok\n", "\(method) of \(size) bytes")
            }
        }
    }

    /// A 3 MiB download, many records per read: the bytes are the file's.
    func testADownloadIsTheFilesBytes() async throws {
        let client = try client()
        let call = WebServiceCall<Data>(relativePath: "files/three-mib.bin")
        let expected = try Data(contentsOf: TLSServer.file("files/three-mib.bin"))
        for _ in 0..<2 {
            let body = try await client.perform(call)
            XCTAssertEqual(body.count, expected.count)
            XCTAssertTrue(body == expected, "the body differs from the file")
        }
    }

    /// Each refused certificate fails the call with the code the URLSession route gives, as a
    /// server-trust failure, and no request is answered.
    static let refused: [(variable: String, code: URLError.Code)] = [
        ("WEBSERVICEKIT_TLS_SELF_SIGNED_URL", .serverCertificateUntrusted),
        ("WEBSERVICEKIT_TLS_EXPIRED_URL", .serverCertificateHasBadDate),
        ("WEBSERVICEKIT_TLS_WRONG_HOST_URL", .serverCertificateUntrusted),
    ]

    func testRefusedCertificatesFailTheCall() async throws {
        for server in Self.refused {
            let client = try client(server.variable)
            do {
                _ = try await client.perform(Self.ok)
                XCTFail("\(server.variable) was accepted")
            } catch {
                guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(urlError.code, server.code, "\(server.variable): \(error)")
                XCTAssertTrue(error.isServerTrustFailure, "\(error)")
                XCTAssertNotNil(error.serverTrustFailureReason)
            }
        }
    }

    /// The twin of the test above: with verification off (a test-only setting) the same calls are
    /// answered, so the refusals are the verification's.
    func testTheRefusalsAreTheVerificationsOwn() async throws {
        for server in Self.refused {
            let value = try await client(server.variable, skipsVerification: true).perform(Self.ok)
            XCTAssertEqual(value, "ok\n", server.variable)
        }
    }

    // MARK: - Server-trust policies enforced by OpenSSL

    /// The error of a GET /ok with `client`; `nil` when it was answered.
    private func refusal(_ client: WebServiceClient, path: String = "ok") async -> URLError? {
        do {
            _ = try await client.perform(WebServiceCall<String>(relativePath: path))
            return nil
        } catch {
            guard case .transport(let urlError) = error.reason else {
                XCTFail("\(error)")
                return nil
            }
            return urlError
        }
    }

    /// A pinning policy with `pin` (base64) and a backup pin no key has, over the tests' CA.
    private func pinning(_ pin: String) throws -> ServerTrustPolicy {
        try .pinning(
            [PublicKeyPin(base64: pin)], backup: [PublicKeyPin(sha256: Data(repeating: 7, count: 32))],
            additionalCertificateAuthorities: [Self.authority()])
    }

    private static let wrongPin = Data(repeating: 1, count: 32).base64EncodedString()

    /// The leaf's pin (openssl's digest) is accepted and a pin no key of the chain has is
    /// refused as untrusted, naming the pins: curl (`--pinnedpubkey`, which checks the leaf's key)
    /// gives the same verdicts against the same server.
    func testPinVerdictsAreCurls() async throws {
        let url = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        let leafPin = try TLSServer.opensslPin("WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256")
        for (pin, accepted) in [(leafPin, true), (Self.wrongPin, false)] {
            let error = await refusal(try client(policy: pinning(pin)))
            XCTAssertEqual(error == nil, accepted, "\(pin): \(String(describing: error))")
            XCTAssertEqual(
                try TLSServer.curlAnswers(url.appendingPathComponent("ok"), ["--pinnedpubkey", "sha256//\(pin)"]),
                accepted, "curl, \(pin)")
            if let error {
                XCTAssertEqual(error.code, .serverCertificateUntrusted)
                XCTAssertTrue(error.localizedDescription.contains("pinned public key"), "\(error)")
            }
        }
    }

    /// A resumed session is pinned as a full handshake is: three new connections of a pinning
    /// client (nginx closes each `/reused` one), the second and third resumed, all answered; and
    /// with a wrong pin, none (the first refused, so nothing is kept to resume).
    func testAResumedSessionIsPinnedToo() async throws {
        let leafPin = try TLSServer.opensslPin("WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256")
        let pinned = try client(policy: pinning(leafPin))
        var resumed: [Bool?] = []
        for _ in 0..<3 {
            let response = try await pinned.response(for: WebServiceCall<String>(relativePath: "reused"), [])
            resumed.append(response.metrics.transactions.last?.tls?.sessionResumed)
        }
        XCTAssertEqual(resumed, [false, true, true])
        let wrong = try client(policy: pinning(Self.wrongPin))
        for _ in 0..<2 {
            let error = await refusal(wrong, path: "reused")
            XCTAssertEqual(error?.code, .serverCertificateUntrusted)
        }
    }

    /// As OkHttp's `CertificatePinner` and Alamofire's `PublicKeysTrustEvaluator`, a pin of any
    /// key of the verified chain passes: the CA's (curl pins the leaf only, so it is no oracle
    /// here); the backup pin alone passes too (RFC 7469 §4.3: the key you move to).
    func testAPinOfTheCAOrABackupPinPasses() async throws {
        let caPin = try TLSServer.opensslPin("WEBSERVICEKIT_TLS_CA_SPKI_SHA256")
        let byCA = await refusal(try client(policy: pinning(caPin)))
        XCTAssertNil(byCA)
        let backupOnly = try ServerTrustPolicy.pinning(
            [PublicKeyPin(base64: Self.wrongPin)],
            backup: [PublicKeyPin(base64: TLSServer.opensslPin("WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256"))],
            additionalCertificateAuthorities: [Self.authority()])
        let byBackup = await refusal(try client(policy: backupOnly))
        XCTAssertNil(byBackup)
    }

    /// The twin of the pin refusal: with verification off (test-only) the wrong pin passes, so
    /// the refusal above is the pin check's.
    func testThePinRefusalIsThePinChecksOwn() async throws {
        let error = await refusal(try client(policy: pinning(Self.wrongPin), skipsVerification: true))
        XCTAssertNil(error)
    }

    /// Only its own authorities: a policy whose only anchor is another certificate (the
    /// self-signed leaf) refuses the CA's leaf with an unknown root; the tests' CA as the only
    /// anchor accepts it (every other test of this file).
    func testOnlyCertificateAuthoritiesTrustsNothingElse() async throws {
        let other = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("self-signed.pem")))
        let error = await refusal(try client(policy: .onlyCertificateAuthorities([other])))
        XCTAssertEqual(error?.code, .serverCertificateHasUnknownRoot, "\(String(describing: error))")
        let twin = await refusal(try client(policy: .onlyCertificateAuthorities([other]), skipsVerification: true))
        XCTAssertNil(twin)
    }

    /// A policy for one host replaces the general one there only: the leaf names both
    /// `127.0.0.1` and `localhost`; the CA is trusted for the address and not for the name.
    func testAHostsPolicyAppliesToThatHostOnly() async throws {
        let url = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        let port = try XCTUnwrap(url.port)
        let policy = ServerTrustPolicy.system.with(
            .additionalCertificateAuthorities([try Self.authority()]), forHost: "127.0.0.1")
        let configuration = URLSessionConfiguration.ephemeral
        let transport = HTTP1Transport(configuration: configuration, serverTrust: policy)
        let byAddress = WebServiceClient(serviceRoot: url, transport: transport)
        let addressError = await refusal(byAddress)
        XCTAssertNil(addressError)
        let byName = WebServiceClient(
            serviceRoot: try XCTUnwrap(URL(string: "https://localhost:\(port)/")), transport: transport)
        let nameError = await refusal(byName)
        XCTAssertEqual(nameError?.code, .serverCertificateHasUnknownRoot)
    }

    /// What `openssl s_client`, trusting the tests' CA and offering `http/1.1`, negotiates with
    /// `url`'s server: its "New, TLSv1.3, Cipher is …" and "ALPN protocol: …" lines.
    private func sClientNegotiates(_ url: URL) throws -> (version: String, cipher: String, alpn: String?) {
        let text = try TLSServer.run([
            "openssl", "s_client", "-connect", "127.0.0.1:\(try XCTUnwrap(url.port))", "-alpn", "http/1.1",
            "-CAfile", try TLSServer.file("ca.pem").path,
        ]).output
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let summary = try XCTUnwrap(lines.first { $0.hasPrefix("New, TLS") }, text)
        // "New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384"
        let parts = summary.components(separatedBy: ", ")
        let version = try XCTUnwrap(parts.dropFirst().first)
        let cipher = try XCTUnwrap(parts.last?.components(separatedBy: " ").last)
        let alpn = lines.first { $0.hasPrefix("ALPN protocol: ") }.map { String($0.dropFirst("ALPN protocol: ".count)) }
        return (version, cipher, alpn)
    }

    // MARK: - Mutual TLS (Tests/Servers/tls_truncating_server.py, its "mutual" listener)

    /// The identity `Scripts/test` made: the client certificate the CA signed, its key in the
    /// clear or encrypted (passphrase `client-pass`).
    private func identity(encrypted: Bool = false, passphrase: String? = nil, certificate: String = "client")
        throws -> ClientIdentity
    {
        let key = encrypted ? "client-encrypted.key" : "\(certificate).key"
        return try ClientIdentity(
            certificatePEM: String(contentsOf: TLSServer.file("\(certificate).pem"), encoding: .utf8),
            privateKeyPEM: String(contentsOf: TLSServer.file(key), encoding: .utf8), passphrase: passphrase)
    }

    /// A client of the server that requires a client certificate, trusting the tests' CA and
    /// presenting `identity`.
    private func mutualClient(_ identity: ClientIdentity?) throws -> WebServiceClient {
        var policy = ServerTrustPolicy.onlyCertificateAuthorities([try Self.authority()])
        if let identity { policy = policy.presenting(identity) }
        return try client("WEBSERVICEKIT_TLS_MUTUAL_URL", policy: policy)
    }

    /// The identity is presented, with its key in the clear or encrypted: the server names the
    /// certificate's subject. curl with the same certificate and key is answered too.
    func testAClientIdentityIsPresented() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_MUTUAL_URL")
        for identity in [try identity(), try identity(encrypted: true, passphrase: "client-pass")] {
            let value = try await mutualClient(identity).perform(Self.ok)
            XCTAssertEqual(value, "client client")
        }
        XCTAssertTrue(
            try TLSServer.curlAnswers(
                root.appendingPathComponent("ok"),
                ["--cert", try TLSServer.file("client.pem").path, "--key", try TLSServer.file("client.key").path]))
    }

    /// Without an identity, or with one the server's CA did not sign, the server refuses: a typed
    /// `clientCertificateRequired` error with the server's alert; curl is refused alike.
    func testAServerThatRequiresACertificateRefusesNoneAndAnUnknownOne() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_MUTUAL_URL")
        let stranger = try identity(certificate: "self-signed")
        for presented in [nil, stranger] {
            let error = await refusal(try mutualClient(presented))
            XCTAssertEqual(error?.code, .clientCertificateRequired, "\(String(describing: error))")
        }
        XCTAssertFalse(try TLSServer.curlAnswers(root.appendingPathComponent("ok")))
        XCTAssertFalse(
            try TLSServer.curlAnswers(
                root.appendingPathComponent("ok"),
                [
                    "--cert", try TLSServer.file("self-signed.pem").path, "--key",
                    try TLSServer.file("self-signed.key").path,
                ]))
    }

    /// An encrypted key with a wrong passphrase, or none, fails the call before anything is sent,
    /// saying what to do; the passphrase and key never appear in the error or the identity's
    /// description.
    func testAKeyThatCannotBeReadFailsTheCallSayingWhy() async throws {
        let wrong = await refusal(try mutualClient(identity(encrypted: true, passphrase: "not-the-passphrase")))
        XCTAssertEqual(wrong?.code, .clientCertificateRejected)
        XCTAssertTrue(wrong?.localizedDescription.contains("wrong passphrase") ?? false, "\(String(describing: wrong))")
        XCTAssertFalse("\(String(describing: wrong))".contains("not-the-passphrase"))
        let none = await refusal(try mutualClient(identity(encrypted: true)))
        XCTAssertTrue(
            none?.localizedDescription.contains("give its passphrase") ?? false, "\(String(describing: none))")
        let identity = try identity(encrypted: true, passphrase: "client-pass")
        XCTAssertEqual("\(identity)", "ClientIdentity(1 certificate, private key hidden)")
    }

    // MARK: - Hostile TLS servers (Tests/Servers/tls_truncating_server.py)

    /// A record header announcing more than RFC 8446 §5.2 allows (2^14 + 256 bytes) fails the call
    /// with OpenSSL's reason, as a broken connection; curl refuses the same answer.
    func testARecordLargerThanTheProtocolAllowsFailsTheCall() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_TRUNCATING_URL")
        let error = await refusal(try client("WEBSERVICEKIT_TLS_TRUNCATING_URL"), path: "oversized-record")
        XCTAssertEqual(error?.code, .networkConnectionLost, "\(String(describing: error))")
        XCTAssertTrue(
            error?.localizedDescription.contains("TLS record could not be read") ?? false,
            "\(String(describing: error))")
        XCTAssertFalse(try TLSServer.curlAnswers(root.appendingPathComponent("oversized-record")))
    }

    /// A server whose chain is a leaf and 101 intermediates under a root the client trusts: one
    /// more than OpenSSL's default verification depth allows (100 intermediates, which both the
    /// library and curl accept), refused as untrusted ("certificate chain too long"),
    /// never a crash; curl trusting the same root refuses it too. The twin, with verification
    /// off (test-only), is answered: the refusal is the verification's.
    func testAChainOfAHundredAndOneIntermediatesIsRefused() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_LONG_CHAIN_URL")
        let anchor = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("long-chain/root.pem")))
        let policy = ServerTrustPolicy.onlyCertificateAuthorities([anchor])
        let error = await refusal(try client("WEBSERVICEKIT_TLS_LONG_CHAIN_URL", policy: policy))
        XCTAssertEqual(error?.code, .serverCertificateUntrusted, "\(String(describing: error))")
        XCTAssertTrue(error?.localizedDescription.contains("chain too long") ?? false, "\(String(describing: error))")
        XCTAssertFalse(
            try TLSServer.run([
                "curl", "-s", "-f", "-o", "/dev/null", "-m", "10", "--cacert",
                try TLSServer.file("long-chain/root.pem").path, root.appendingPathComponent("ok").absoluteString,
            ]).status == 0)
        let twin = await refusal(
            try client("WEBSERVICEKIT_TLS_LONG_CHAIN_URL", policy: policy, skipsVerification: true))
        XCTAssertNil(twin)
    }

    /// A server that takes the ClientHello and never answers: the call's deadline ends the
    /// handshake, as a timeout of the connecting phase (the machine hears `connected` only after
    /// the handshake).
    func testAStalledHandshakeEndsAtTheDeadline() async throws {
        let client = try client("WEBSERVICEKIT_TLS_STALL_URL")
        let call = WebServiceCall<String>(relativePath: "ok", timeout: 0.3)
        do {
            _ = try await client.perform(call)
            XCTFail("a stalled handshake was answered")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .timedOut, "\(error)")
        }
    }

    /// A server that offers only TLS 1.0 and 1.1 is refused (TLS 1.2 is the lowest version) as a
    /// handshake failure, as curl refuses it; `openssl s_client` asking for TLS 1.1 at security
    /// level 0 is answered, so the server does talk TLS and the refusal is the version's.
    func testAServerOfferingOnlyTLS10And11IsRefused() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_LEGACY_URL")
        let error = await refusal(try client("WEBSERVICEKIT_TLS_LEGACY_URL"))
        XCTAssertEqual(error?.code, .secureConnectionFailed, "\(String(describing: error))")
        XCTAssertFalse(try TLSServer.curlAnswers(root.appendingPathComponent("ok")))
        let text = try TLSServer.run([
            "openssl", "s_client", "-connect", "127.0.0.1:\(try XCTUnwrap(root.port))", "-tls1_1", "-cipher",
            "DEFAULT@SECLEVEL=0",
        ]).output
        XCTAssertTrue(text.contains("Protocol  : TLSv1.1") || text.contains("New, TLSv1"), text)
    }

    /// `https` to a port that speaks plain HTTP (httpbin's): its answer to the ClientHello is not
    /// TLS, a handshake failure with OpenSSL's reason; curl refuses it too.
    func testHTTPSToAPlainHTTPPortIsAHandshakeFailure() async throws {
        let plain = try HTTPBin.url()
        var components = try XCTUnwrap(URLComponents(url: plain, resolvingAgainstBaseURL: false))
        components.scheme = "https"
        let root = try XCTUnwrap(components.url)
        let configuration = URLSessionConfiguration.ephemeral
        let transport = HTTP1Transport(
            configuration: configuration, bridge: RequestBridge(configuration: configuration, cookies: nil),
            limits: nil, serverTrust: .onlyCertificateAuthorities([try Self.authority()]))
        let error = await refusal(WebServiceClient(serviceRoot: root, transport: transport))
        XCTAssertEqual(error?.code, .secureConnectionFailed, "\(String(describing: error))")
        XCTAssertTrue(
            error?.localizedDescription.contains("TLS handshake failed") ?? false, "\(String(describing: error))")
        XCTAssertTrue(
            error?.localizedDescription.contains(
                "the server did not answer in TLS; if this port speaks plain http, "
                    + "use an http:// URL for it") ?? false, "\(String(describing: error))")
        XCTAssertFalse(try TLSServer.curlAnswers(root.appendingPathComponent("get")))
    }

    // MARK: - The end of a body framed by the connection's end (RFC 9112 §6.3)

    /// A body read to the connection's end is whole only when TLS `close_notify` ends it
    /// (Python's `ssl` server: Tests/Servers/tls_truncating_server.py).
    func testABodyEndedByCloseNotifyIsWhole() async throws {
        let value = try await client("WEBSERVICEKIT_TLS_TRUNCATING_URL").perform(
            WebServiceCall<String>(relativePath: "close-notify"))
        XCTAssertEqual(value, String(repeating: "partial body ", count: 100))
    }

    /// The same body ended by the TCP close without `close_notify` may be cut short: a typed
    /// error, never a short success.
    func testABodyEndedWithoutCloseNotifyIsATruncation() async throws {
        let client = try client("WEBSERVICEKIT_TLS_TRUNCATING_URL")
        do {
            let value = try await client.perform(WebServiceCall<String>(relativePath: "no-close-notify"))
            XCTFail("a body without close_notify was taken: \(value.count) characters")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .networkConnectionLost, "\(error)")
            XCTAssertTrue("\(error)".contains("close_notify"), "\(error)")
        }
    }

    /// A body shorter than its `Content-Length` is incomplete whatever TLS says.
    func testALengthCutShortIsAnErrorEvenWithCloseNotify() async throws {
        let client = try client("WEBSERVICEKIT_TLS_TRUNCATING_URL")
        do {
            _ = try await client.perform(WebServiceCall<String>(relativePath: "length-cut"))
            XCTFail("a body short of its Content-Length was taken")
        } catch {
            guard case .transport = error.reason else { return XCTFail("\(error)") }
        }
    }

    /// A kept-alive TLS connection the client closes (here: its transport goes away, and its
    /// pool closes the idle connection) says `close_notify` first (RFC 8446 §6.1), as the server
    /// reads it. Checked to fail without it: with the close's `close_notify` left out, the server
    /// records "no close_notify".
    func testClosingAKeptAliveConnectionSaysCloseNotify() async throws {
        let tag = UUID().uuidString
        do {
            let client = try client("WEBSERVICEKIT_TLS_TRUNCATING_URL")
            let value = try await client.perform(WebServiceCall<String>(relativePath: "keep?tag=\(tag)"))
            XCTAssertEqual(value, "kept")
        }
        // The client, its transport and pool are gone: the idle connection closes on its loop.
        let end = try await client("WEBSERVICEKIT_TLS_TRUNCATING_URL").perform(
            WebServiceCall<String>(relativePath: "closed?tag=\(tag)"))
        XCTAssertEqual(end, "close_notify")
    }

    /// The public transport verifies with the system's store: the tests' private CA is not in
    /// it, so its leaf has an unknown root; with the CA added by the policy the same server is
    /// trusted.
    func testThePublicTransportTrustsTheSystemStoreAndThePolicy() async throws {
        try XCTSkipUnless(HTTP1Transport.carriesHTTPS, "https is the event loop's only")
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        let system = WebServiceClient(serviceRoot: root, transport: HTTP1Transport(configuration: .ephemeral))
        do {
            _ = try await system.perform(Self.ok)
            XCTFail("a leaf of a CA outside the system's store was trusted")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .serverCertificateHasUnknownRoot, "\(urlError)")
        }
        let authority = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
        let trusting = WebServiceClient(
            serviceRoot: root,
            transport: HTTP1Transport(
                configuration: .ephemeral, serverTrust: .additionalCertificateAuthorities([authority])))
        let body = try await trusting.perform(Self.ok)
        XCTAssertEqual(body, "ok\n")
    }
}
