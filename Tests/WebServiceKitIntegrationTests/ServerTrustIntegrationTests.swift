import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The TLS nginx that `Scripts/test` starts (`start_tls_nginx`, Scripts/lib/servers.sh), with
/// the certificates it made with openssl: a private CA and a leaf it signed, a self-signed leaf,
/// an expired leaf and a leaf for another host name.
enum TLSServer {
    static func url(_ variable: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try HTTPBin.serverURL(variable, file: file, line: line)
    }

    /// A file the script made (`ca.pem`, `ca.der`, `leaf.pem`…).
    static func file(_ name: String) throws -> URL {
        let directory = try XCTUnwrap(ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_DIR"])
        return URL(fileURLWithPath: directory).appendingPathComponent(name)
    }

    /// Runs a command of the system's (`curl`, `openssl`: the oracles) with `arguments` and no
    /// input: its exit status and what it printed on its standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Whether curl, trusting the tests' CA, gets an answer from `url` (with `extra` options:
    /// a pin, a proxy).
    static func curlAnswers(_ url: URL, _ extra: [String] = []) throws -> Bool {
        let arguments = ["curl", "-s", "-f", "-o", "/dev/null", "-m", "10", "--cacert", try file("ca.pem").path]
        return try run(arguments + extra + [url.absoluteString]).status == 0
    }

    /// A pin openssl computed, by its variable.
    static func opensslPin(_ variable: String) throws -> String {
        try XCTUnwrap(ProcessInfo.processInfo.environment[variable])
    }
}

final class ServerTrustIntegrationTests: XCTestCase {
    private let ok = WebServiceCall<String>(relativePath: "ok")

    /// The error of a GET /ok on `root` with `client`.
    private func failure(_ client: WebServiceClient, file: StaticString = #filePath, line: UInt = #line) async
        -> WebServiceError?
    {
        do {
            _ = try await client.perform(ok)
            XCTFail("the call succeeded", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func code(_ error: WebServiceError?) -> URLError.Code? {
        guard case .transport(let urlError) = error?.reason else { return nil }
        return urlError.code
    }

    // MARK: - The system's trust: each failure's typed error

    func testASelfSignedLeafIsUntrusted() async throws {
        let client = WebServiceClient(serviceRoot: try TLSServer.url("WEBSERVICEKIT_TLS_SELF_SIGNED_URL"))
        let error = await failure(client)
        XCTAssertEqual(error?.isServerTrustFailure, true, "\(String(describing: error))")
        XCTAssertEqual(code(error), .serverCertificateUntrusted)
        #if canImport(FoundationNetworking)
            // OpenSSL's verification text (3.x; 1.1 writes "self signed").
            let reason = error?.serverTrustFailureReason ?? ""
            XCTAssertTrue(reason.contains("self-signed certificate") || reason.contains("self signed"), reason)
        #endif
    }

    func testALeafOfAnUnknownCAHasAnUnknownRoot() async throws {
        let client = WebServiceClient(serviceRoot: try TLSServer.url("WEBSERVICEKIT_TLS_URL"))
        let error = await failure(client)
        XCTAssertEqual(error?.isServerTrustFailure, true, "\(String(describing: error))")
        XCTAssertEqual(code(error), .serverCertificateHasUnknownRoot)
        #if canImport(FoundationNetworking)
            let reason = error?.serverTrustFailureReason ?? ""
            XCTAssertTrue(reason.contains("in certificate chain"), reason)
        #endif
    }

    /// Under the system's trust the expired and the wrong-host leaves fail too; their CA is
    /// unknown, which OpenSSL reports before the date or the name (the codes of those are checked
    /// with the CA trusted, below).
    func testExpiredAndWrongHostLeavesAreRefused() async throws {
        for variable in ["WEBSERVICEKIT_TLS_EXPIRED_URL", "WEBSERVICEKIT_TLS_WRONG_HOST_URL"] {
            let client = WebServiceClient(serviceRoot: try TLSServer.url(variable))
            let error = await failure(client)
            XCTAssertEqual(error?.isServerTrustFailure, true, "\(variable): \(String(describing: error))")
        }
    }

    // MARK: - Certificates and pins openssl made

    func testTheScriptsCertificatesGiveOpenSSLsPins() throws {
        _ = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        let leaf = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("leaf.pem")))
        XCTAssertEqual(
            PublicKeyPin(leaf).sha256.base64EncodedString(),
            try TLSServer.opensslPin("WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256"))
        let caFromPEM = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
        let caFromDER = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.der")))
        XCTAssertEqual(caFromPEM, caFromDER)
        XCTAssertEqual(
            PublicKeyPin(caFromDER).sha256.base64EncodedString(),
            try TLSServer.opensslPin("WEBSERVICEKIT_TLS_CA_SPKI_SHA256"))
        // The chain file: the leaf, then its CA.
        let chain = try X509Certificate.certificates(
            pem: String(contentsOf: TLSServer.file("leaf-chain.pem"), encoding: .utf8))
        XCTAssertEqual(chain, [leaf, caFromPEM])
    }

    // MARK: - Policies of your own

    private func authority() throws -> X509Certificate {
        try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
    }

    private func pinningPolicy(pin variable: String) throws -> ServerTrustPolicy {
        let wrong = try PublicKeyPin(sha256: Data(repeating: 7, count: 32))
        return try ServerTrustPolicy.pinning(
            [PublicKeyPin(base64: TLSServer.opensslPin(variable))], backup: [wrong],
            additionalCertificateAuthorities: [authority()])
    }

    // On Apple platforms URLSession's server-trust challenge enforces these; on Linux the
    // library's own TLS over the system's OpenSSL, which the default client routes `https` to.

    func testAnAdditionalCATrustsItsLeaf() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        let client = try WebServiceClient(
            serviceRoot: root, serverTrust: .additionalCertificateAuthorities([authority()]))
        let body = try await client.perform(ok)
        XCTAssertEqual(body, "ok\n")
    }

    func testAnAdditionalCAStillRefusesExpiredAndWrongHostLeaves() async throws {
        let expected: [(String, URLError.Code)] = [
            ("WEBSERVICEKIT_TLS_EXPIRED_URL", .serverCertificateHasBadDate),
            ("WEBSERVICEKIT_TLS_WRONG_HOST_URL", .serverCertificateUntrusted),
        ]
        for (variable, expectedCode) in expected {
            let client = try WebServiceClient(
                serviceRoot: TLSServer.url(variable), serverTrust: .additionalCertificateAuthorities([authority()]))
            let error = await failure(client)
            XCTAssertEqual(code(error), expectedCode, variable)
        }
    }

    func testPinSuccessWithTheLeafOrTheCAPin() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        for variable in ["WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256", "WEBSERVICEKIT_TLS_CA_SPKI_SHA256"] {
            let client = try WebServiceClient(serviceRoot: root, serverTrust: pinningPolicy(pin: variable))
            let body = try await client.perform(ok)
            XCTAssertEqual(body, "ok\n", variable)
        }
    }

    func testPinFailure() async throws {
        let root = try TLSServer.url("WEBSERVICEKIT_TLS_URL")
        let policy = try ServerTrustPolicy.pinning(
            [PublicKeyPin(sha256: Data(repeating: 1, count: 32))],
            backup: [PublicKeyPin(sha256: Data(repeating: 2, count: 32))],
            additionalCertificateAuthorities: [authority()])
        let client = try WebServiceClient(serviceRoot: root, serverTrust: policy)
        let error = await failure(client)
        XCTAssertEqual(code(error), .serverCertificateUntrusted)
        XCTAssertTrue(error?.serverTrustFailureReason?.contains("pinned") ?? false)
    }

    #if canImport(FoundationNetworking)
        /// Without the library's own TLS (the direct route turned off) a policy beyond the
        /// system's cannot be enforced on Linux: the transport is refused, typed, never made to
        /// ignore it.
        func testAPolicyWithoutTheDirectRouteRefusesTheTransport() throws {
            let policies = [
                ServerTrustPolicy.additionalCertificateAuthorities([try authority()]),
                try pinningPolicy(pin: "WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256"),
            ]
            for policy in policies {
                XCTAssertThrowsError(try RoutingTransport(usesDirectHTTP1: false, serverTrust: policy)) { error in
                    guard case .unenforceable = error as? ServerTrustError else { return XCTFail("\(error)") }
                }
                XCTAssertThrowsError(try URLSessionTransport(sessionConfiguration: .ephemeral, serverTrust: policy))
            }
        }
    #endif
}
