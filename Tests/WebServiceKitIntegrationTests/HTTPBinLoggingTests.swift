import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logging against the local httpbin: real `URLSession` exchanges, and bodies that echo secrets.
final class HTTPBinLoggingTests: XCTestCase {
    /// Collects every message.
    private final class Messages: WebServiceLogger, @unchecked Sendable {  // `stored` is guarded by `lock`
        private let lock = NSLock()
        private var stored: [LogMessage] = []
        func log(_ message: LogMessage) { lock.withLock { stored.append(message) } }
        var all: [LogMessage] { lock.withLock { stored } }
        var everything: [String] { all.flatMap { [$0.text] + $0.metadata.values } }
    }

    private func client(_ level: LogLevel) throws -> (WebServiceClient, Messages) {
        let client = WebServiceClient(
            serviceRoot: try HTTPBin.url(), transport: RoutingTransport(configuration: .ephemeral))
        let messages = Messages()
        client.logger = messages
        client.logLevel = level
        return (client, messages)
    }

    func testBasicChallengeIsLoggedAsTwoExchangesWithTheCredentialRedacted() async throws {
        let (client, messages) = try client(.body)
        client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "passwd")
        _ = try await client.perform(WebServiceCall<Data>(relativePath: "basic-auth/user/passwd"))

        XCTAssertEqual(messages.all.map(\.kind), [.request, .response, .request, .response])
        XCTAssertEqual(messages.all.compactMap { $0.metadata["status"] }, ["401", "200"])
        XCTAssertTrue(messages.all[1].text.contains("\nWWW-Authenticate: Basic realm="), messages.all[1].text)
        XCTAssertTrue(messages.all[2].text.contains("\nAuthorization: [redacted]\n"), messages.all[2].text)
        let credentials = Data("user:passwd".utf8).base64EncodedString()
        XCTAssertFalse(messages.everything.contains { $0.contains(credentials) })
    }

    func testAnEchoedSecretIsRedactedInTheBody() async throws {
        let (client, messages) = try client(.body)
        client.sharedHeaders = ["Authorization": "Bearer token-0123456789", "X-Api-Key": "key-0123456789"]
        client.logRedaction = LogRedaction(headers: ["X-Api-Key"], queryParameters: ["api_key"])
        let echo = WebServiceCall<Data>(relativePath: "anything?api_key=%%0%%")
        _ = try await client.perform(echo, "query-0123456789")

        let response = try XCTUnwrap(messages.all.last?.text)
        XCTAssertTrue(response.contains(#""Authorization": "[redacted]""#), response)
        XCTAssertTrue(response.contains(#""X-Api-Key": "[redacted]""#), response)
        XCTAssertTrue(response.contains(#""api_key": "[redacted]""#), response)
        XCTAssertFalse(messages.everything.contains { $0.contains("0123456789") })
    }

    func testCookiesSetAndEchoedAreRedacted() async throws {
        let (client, messages) = try client(.body)
        client.logRedaction.queryParameters = ["session"]
        _ = try await client.perform(WebServiceCall<Data>(relativePath: "cookies/set?session=%%0%%"), "c-0123456789")

        // httpbin sets the cookie and redirects to /cookies, which echoes the cookies it received.
        XCTAssertEqual(messages.all.compactMap { $0.metadata["status"] }, ["302", "200"])
        XCTAssertTrue(messages.all[1].text.contains("\nSet-Cookie: [redacted]\n"), messages.all[1].text)
        XCTAssertTrue(messages.all[3].text.contains(#""session": "[redacted]""#), messages.all[3].text)
        XCTAssertFalse(messages.everything.contains { $0.contains("0123456789") })
    }

    func testADownloadToAFileIsNeverReadBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-log-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for direct in [true, false] {
            let client = WebServiceClient(
                serviceRoot: try HTTPBin.url(), transport: RoutingTransport(usesDirectHTTP1: direct))
            let messages = Messages()
            client.logger = messages
            client.logLevel = .body
            let destination = directory.appendingPathComponent("bytes-\(direct).bin")
            let download = WebServiceCall<DownloadedFile>(relativePath: "bytes/%%0%%")
            let file = try await client.perform(download, [2048, DownloadDestination(destination)])
            XCTAssertEqual(file.byteCount, 2048)

            let response = try XCTUnwrap(messages.all.last?.text)
            // The direct route says its connection was the download's own ("new connection").
            let details = direct ? ", new connection)\n" : ")\n"
            XCTAssertTrue(
                response.contains(" ms, 2048-byte body to a file\(details)"), "direct \(direct): \(response)")
            XCTAssertTrue(
                response.hasSuffix("\n\n[body written to a file, 2048 bytes]\n<-- END HTTP"),
                "direct \(direct): \(response)")
        }
    }
}
