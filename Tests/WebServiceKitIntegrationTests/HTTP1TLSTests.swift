import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `https` on the event loop: ``HTTP1Transport`` with a TLS trust (not public yet; the routing
/// transport still sends `https` to URLSession) against the TLS nginx of `Scripts/test`, whose
/// certificates a private CA signed.
final class HTTP1TLSTests: XCTestCase {
    private struct Nothing: Decodable, Sendable {}

    /// A client of `variable`'s server over the loop, trusting the tests' CA (or nothing, for a twin).
    private func client(_ variable: String = "WEBSERVICEKIT_TLS_URL", skipsVerification: Bool = false) throws
        -> WebServiceClient
    {
        #if os(Linux)
            try XCTSkipIf(HTTP1Transport.runsOnThreads, "https is the event loop's only")
            let configuration = URLSessionConfiguration.ephemeral
            let transport = HTTP1Transport(
                configuration: configuration, bridge: RequestBridge(configuration: configuration, cookies: nil),
                limits: nil,
                tlsTrust: .init(
                    systemRoots: false, additionalCAFiles: [try TLSServer.file("ca.pem").path],
                    testOnlySkipsVerification: skipsVerification))
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
                guard case .transport(let urlError) = error else { return XCTFail("\(error)") }
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
            guard case .transport(let urlError) = error else { return XCTFail("\(error)") }
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
            guard case .transport = error else { return XCTFail("\(error)") }
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

    /// A transport without a TLS trust (every public one, for now) still refuses `https`.
    func testHTTPSWithoutATLSTrustIsRefused() async throws {
        let client = WebServiceClient(
            serviceRoot: try TLSServer.url("WEBSERVICEKIT_TLS_URL"),
            transport: HTTP1Transport(configuration: .ephemeral))
        do {
            _ = try await client.perform(Self.ok)
            XCTFail("https went out without TLS")
        } catch {
            guard case .transport(let urlError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .unsupportedURL)
        }
    }
}
