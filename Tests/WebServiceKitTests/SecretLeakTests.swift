import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every way a value can be turned into text, to search for secrets.
func allDescriptions(of value: Any) -> [String] {
    var texts = [String(describing: value), String(reflecting: value), "\(value)"]
    if let error = value as? any Error { texts.append(error.localizedDescription) }
    if let convertible = value as? any CustomStringConvertible { texts.append(convertible.description) }
    if let convertible = value as? any CustomDebugStringConvertible { texts.append(convertible.debugDescription) }
    return texts
}

private struct LeakProfile: Decodable, Sendable {
    let id: Int
}

/// Credentials never appear in logs, error descriptions, or the descriptions of the responses
/// and headers the library hands out.
final class SecretLeakTests: XCTestCase {
    private static let secrets = [
        "bearer-token-0123456789", "proxy-secret-98765", "session-cookie-abcdef", "set-cookie-secret-xyz",
        "query-token-ffffff", "url-password-777777", "custom-key-555555",
    ]

    /// A stub that echoes the request's fields in its body (like httpbin's /headers) and sets a cookie.
    private func echoingClient(statusCode: Int = 200) -> (WebServiceClient, StubTransport, CapturingLogger) {
        let stubs = StubTransport()
        stubs.stub(
            where: { _ in true },
            with: .init(
                statusCode: statusCode,
                headers: [
                    "Content-Type": "application/json", "SET-COOKIE": "sid=set-cookie-secret-xyz; Path=/",
                ],
                body: Data(
                    #"{"headers":{"Authorization":"Bearer bearer-token-0123456789","Cookie":"a=session-cookie-abcdef","X-Api-Key":"custom-key-555555"},"url":"https://u:url-password-777777@api.example.com/v1/me?token=query-token-ffffff"}"#
                        .utf8)))
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://u:url-password-777777@api.example.com/v1/")!, transport: stubs)
        let logger = CapturingLogger()
        client.logger = logger
        client.logRedaction = LogRedaction(headers: ["x-API-key"], queryParameters: ["TOKEN"])
        client.sharedHeaders = [
            "authorization": "Bearer bearer-token-0123456789", "PROXY-AUTHORIZATION": "Basic proxy-secret-98765",
            "cookie": "a=session-cookie-abcdef", "X-Api-Key": "custom-key-555555",
        ]
        return (client, stubs, logger)
    }

    private func assertNoSecret(in texts: [String], file: StaticString = #filePath, line: UInt = #line) {
        for text in texts {
            for secret in Self.secrets {
                // Byte for byte: `String.contains` compares Characters, and would miss a secret that
                // a combining mark follows.
                XCTAssertNil(
                    Data(text.utf8).range(of: Data(secret.utf8)), "\(secret) in: \(text)", file: file, line: line)
            }
        }
    }

    func testNoSecretInLogsAtAnyLevelWhateverTheCaseOfTheFieldNames() async throws {
        let call = WebServiceCall<Data>(relativePath: "me?token=%%0%%")
        for level in [LogLevel.basic, .headers, .body] {
            let (client, stubs, logger) = echoingClient()
            client.logLevel = level
            _ = try await client.response(for: call, arguments: ["query-token-ffffff"])
            XCTAssertEqual(stubs.requests.count, 1)
            XCTAssertFalse(logger.messages.isEmpty)
            assertNoSecret(in: logger.everything)
            if level == .body {
                // The log did show the fields and the body: the check above is not vacuous.
                let text = logger.everything.joined(separator: "\n")
                XCTAssertTrue(text.contains("[redacted]"), text)
                XCTAssertTrue(text.contains("\"headers\""), text)
            }
        }
    }

    func testASecretThatACombiningMarkFollowsIsRedactedToo() async throws {
        // Found by the fuzzing pass: the scrub searched by Character, and "…789\u{301}" ends in
        // another Character than "…789".
        let echo = "echo: bearer-token-0123456789\u{301} and query-token-ffffff\u{20DD}."
        let stubs = StubTransport(
            fallback: .init(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data(echo.utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!, transport: stubs)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .body
        client.logRedaction = LogRedaction(queryParameters: ["token"])
        client.sharedHeaders = ["Authorization": "Bearer bearer-token-0123456789"]
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: "me?token=%%0%%"), ["query-token-ffffff"])
        let text = logger.everything.joined(separator: "\n")
        XCTAssertTrue(text.contains("echo: "), text)
        assertNoSecret(in: logger.everything)
    }

    func testNoSecretInTheDescriptionOfADecodingError() async throws {
        // The body echoes the request's credentials and is not a LeakProfile.
        let (client, _, _) = echoingClient()
        do {
            _ = try await client.perform(
                WebServiceCall<LeakProfile>(relativePath: "me?token=%%0%%"), "query-token-ffffff")
            XCTFail("decoded")
        } catch {
            guard case .decoding(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.bodyExcerpt.contains("\"headers\""), failure.bodyExcerpt)
            assertNoSecret(in: allDescriptions(of: error) + allDescriptions(of: failure) + [failure.bodyExcerpt])
        }
    }

    func testNoSecretInTheBodyOrDescriptionOfAnErrorStatusThatEchoesTheRequest() async throws {
        let (client, _, _) = echoingClient(statusCode: 400)
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "me?token=%%0%%"), "query-token-ffffff")
            XCTFail("accepted")
        } catch {
            guard case .unacceptableStatus(400, _, let body) = error.reason else { return XCTFail("\(error)") }
            let text = String(decoding: body, as: UTF8.self)
            XCTAssertTrue(text.contains(#""Authorization":"[redacted]""#), text)
            assertNoSecret(in: allDescriptions(of: error) + [text])
        }
    }

    func testNoSecretInTheDescriptionOfAnUnacceptableStatusOrATransportFailure() async throws {
        let stubs = StubTransport(
            fallback: .status(401, headers: ["Set-Cookie": "sid=set-cookie-secret-xyz", "WWW-Authenticate": "Bearer"]))
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://u:url-password-777777@api.example.com/v1/")!, transport: stubs)
        client.sharedHeaders = ["Authorization": "Bearer bearer-token-0123456789"]
        do {
            _ = try await client.response(for: WebServiceCall<Data>(relativePath: "me"))
            XCTFail("accepted")
        } catch {
            guard case .unacceptableStatus(401, let headers, _) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(headers["set-cookie"], "sid=set-cookie-secret-xyz", "the value itself stays readable")
            assertNoSecret(in: allDescriptions(of: error) + allDescriptions(of: headers))
        }
        let failing = StubTransport(fallback: .failure(.cannotConnectToHost))
        let offline = WebServiceClient(
            serviceRoot: URL(string: "https://u:url-password-777777@api.example.com/v1/")!, transport: failing)
        offline.sharedHeaders = ["Authorization": "Bearer bearer-token-0123456789"]
        do {
            _ = try await offline.response(for: WebServiceCall<Data>(relativePath: "me"))
            XCTFail("succeeded")
        } catch {
            guard case .transport = error.reason else { return XCTFail("\(error)") }
            assertNoSecret(in: allDescriptions(of: error))
        }
    }

    func testNoSecretInTheDescriptionOfResponsesAndHeaders() async throws {
        let (client, _, _) = echoingClient()
        let response = try await client.response(for: WebServiceCall<Data>(relativePath: "me"))
        XCTAssertEqual(response.headers["Set-Cookie"], "sid=set-cookie-secret-xyz; Path=/")
        let texts = allDescriptions(of: response)
        XCTAssertTrue(texts.allSatisfy { $0.contains("200") && $0.contains("api.example.com") }, "\(texts)")
        assertNoSecret(in: texts)

        let headers: HTTPHeaders = [
            "AUTHORIZATION": "Bearer bearer-token-0123456789", "proxy-authorization": "Basic proxy-secret-98765",
            "Cookie": "a=session-cookie-abcdef", "set-cookie": "sid=set-cookie-secret-xyz", "X-Visible": "shown",
        ]
        assertNoSecret(in: allDescriptions(of: headers))
        XCTAssertTrue(headers.description.contains("X-Visible: shown"), headers.description)
        XCTAssertEqual(headers.description.components(separatedBy: LogRedaction.placeholder).count, 5)

        let transport = TransportResponse(
            statusCode: 200, headers: headers, url: URL(string: "https://u:url-password-777777@h.example/x"))
        assertNoSecret(in: allDescriptions(of: transport))
    }

    func testLookAlikeNamesAreNotTheRealFieldsForRedaction() {
        // Names compare in ASCII case only (RFC 9110 §5.1): every case of the real name is redacted.
        let redaction = LogRedaction(headers: ["X-Api-Key"])
        for name in ["authorization", "AUTHORIZATION", "AuThOrIzAtIoN", "set-cookie", "SET-COOKIE", "x-api-key"] {
            XCTAssertTrue(redaction.redactsHeader(name), name)
        }
        // A look-alike is another name; it can never be sent (it is not a token), so nothing is lost.
        for name in lookAlikeNames where !name.isEmpty {
            let call = WebServiceCall<Data>(relativePath: "h", headers: [name: "v"])
            XCTAssertThrowsError(try call.descriptor.validate(), name)
        }
        let headers: HTTPHeaders = ["\u{0410}uthorization": "shown-because-not-a-credential-field"]
        XCTAssertTrue(headers.description.contains("shown-because"), headers.description)
    }

    func testCredentialsAddedByProvidersStayHidden() async throws {
        let stubs = StubTransport(fallback: .text("ok"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .body
        client.authenticationProvider = BasicAuthenticationProvider(
            user: "user", password: "url-password-777777", sendsPreemptively: true)
        let response = try await client.response(for: WebServiceCall<String>(relativePath: "x"))
        let sent = try XCTUnwrap(stubs.requests.first?.request.value(forHTTPHeaderField: "Authorization"))
        let encoded = String(sent.dropFirst("Basic ".count))
        for text in logger.everything + allDescriptions(of: response) {
            XCTAssertFalse(text.contains(encoded), text)
            XCTAssertFalse(text.contains("url-password-777777"), text)
        }
    }
}
