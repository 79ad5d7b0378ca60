import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Swift examples of Docs/Trust.md, compiled and run. The clients are made wherever a policy
// is enforced: on Apple platforms, and on Linux when the system's OpenSSL is opened (without it,
// every policy but `.system` refuses the client, as the page says). When you change an example,
// change the page too.
final class TrustGuideExamplesTests: XCTestCase {
    /// The page's CA file: a certificate written where the example reads it.
    private func caFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trust-guide-\(UUID().uuidString).pem")
        try ServerTrustTests.ecPEM.write(to: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        return file
    }

    /// Whether a client with a policy beyond `.system` is made here.
    private var enforcesPolicies: Bool {
        #if canImport(Security)
            return true
        #else
            return HTTP1Transport.carriesHTTPS
        #endif
    }

    private func expectClient(_ make: () throws -> WebServiceClient, file: StaticString = #filePath, line: UInt = #line)
    {
        do {
            _ = try make()
            XCTAssertTrue(
                enforcesPolicies, "the client was made where the policy cannot be enforced", file: file, line: line)
        } catch {
            XCTAssertFalse(enforcesPolicies, "\(error)", file: file, line: line)
            guard case .unenforceable = error as? ServerTrustError else {
                return XCTFail("\(error)", file: file, line: line)
            }
        }
    }

    func testAnAdditionalCertificateAuthority() throws {
        let caFile = try caFile()
        expectClient {
            let ca = try X509Certificate(pem: String(contentsOf: caFile, encoding: .utf8))
            let client = try WebServiceClient(
                serviceRoot: URL(string: "https://internal.example/")!,
                serverTrust: .additionalCertificateAuthorities([ca]))
            return client
        }
    }

    func testOnlyYourOwnAuthorities() throws {
        let caFile = try caFile()
        expectClient {
            let companyCA = try X509Certificate(derOrPEM: Data(contentsOf: caFile))
            let client = try WebServiceClient(
                serviceRoot: URL(string: "https://billing.internal.example/")!,
                serverTrust: .onlyCertificateAuthorities([companyCA]))
            return client
        }
    }

    func testPinning() throws {
        let root = try XCTUnwrap(URL(string: "https://api.example/"))
        expectClient {
            let policy = try ServerTrustPolicy.pinning(
                [PublicKeyPin(base64: "3zICqjg+fGHUKUHHBPUt32o7eLWz8rm1JMVqYls+Eck=")],  // the key in use
                backup: [PublicKeyPin(base64: "IRTNwsYNhw4kysGvlMN97nwXGr5h0VSDSTTXzXypWwM=")])  // the next one
            let client = try WebServiceClient(serviceRoot: root, serverTrust: policy)
            return client
        }
    }

    func testATransportOfYourOwn() throws {
        let root = try XCTUnwrap(URL(string: "https://api.example/"))
        let pin = try PublicKeyPin(base64: ServerTrustTests.ecPin)
        let backup = try PublicKeyPin(base64: ServerTrustTests.rsaPin)
        let policy = try ServerTrustPolicy.pinning([pin], backup: [backup])
        expectClient {
            let transport = try RoutingTransport(configuration: .ephemeral, serverTrust: policy)
            let client = WebServiceClient(serviceRoot: root, transport: transport)
            return client
        }
    }

    func testAClientIdentity() throws {
        let certificateFile = try caFile()
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "trust-guide-\(UUID().uuidString).key")
        try "-----BEGIN PRIVATE KEY-----\nMIGHAgEA\n-----END PRIVATE KEY-----\n".write(
            to: keyFile, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: keyFile) }
        do {
            let identity = try ClientIdentity(
                certificatePEM: String(contentsOf: certificateFile, encoding: .utf8),
                privateKeyPEM: String(contentsOf: keyFile, encoding: .utf8), passphrase: "key passphrase")
            let client = try WebServiceClient(
                serviceRoot: URL(string: "https://partner.example/")!,
                serverTrust: ServerTrustPolicy.system.presenting(identity))
            #if canImport(Security)
                XCTFail("an identity from PEM was taken on Apple platforms: \(client.serviceRoot)")
            #else
                XCTAssertTrue(HTTP1Transport.carriesHTTPS, "the client was made without the library's TLS")
            #endif
        } catch {
            guard case .unenforceable = error as? ServerTrustError else { return XCTFail("\(error)") }
            #if !canImport(Security)
                XCTAssertFalse(HTTP1Transport.carriesHTTPS, "\(error)")
            #endif
        }
    }

    func testTheSystemsTrustIsMadeEverywhere() throws {
        let client = try WebServiceClient(
            serviceRoot: XCTUnwrap(URL(string: "https://api.example/")), serverTrust: .system)
        XCTAssertEqual(client.serviceRoot.host, "api.example")
    }
}
