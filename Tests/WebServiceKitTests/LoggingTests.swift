import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collects every message, for assertions.
final class CapturingLogger: WebServiceLogger, @unchecked Sendable {  // `stored` is guarded by `lock`
    private let lock = NSLock()
    private var stored: [LogMessage] = []

    func log(_ message: LogMessage) { lock.withLock { stored.append(message) } }

    var messages: [LogMessage] { lock.withLock { stored } }

    /// The texts with durations replaced by `N ms`, so that they compare exactly.
    var texts: [String] {
        messages.map { $0.text.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) }
    }

    /// Every text and metadata value, to search for secrets.
    var everything: [String] { messages.flatMap { [$0.text] + $0.metadata.keys + $0.metadata.values } }
}

private struct Note: Codable, Sendable {
    let title: String
}

private struct Created: Codable, Sendable, Equatable {
    let id: Int
}

/// What each level logs, that secrets never appear, and how bodies are shown.
final class LoggingTests: XCTestCase {
    private static let createNote = WebServiceCall<Created>(
        name: "createNote", method: .post, relativePath: "notes", headers: ["Accept": "application/json"])
    private static let items = WebServiceCall<Data>(name: "items", relativePath: "items?page=%%0%%")
    private static let root = URL(string: "https://api.example.com/v1/")!

    /// A client that logs at `level` into a capturing logger, over a stub transport.
    private func logged(_ level: LogLevel, root: URL = root) -> (WebServiceClient, StubTransport, CapturingLogger) {
        let stubs = StubTransport(fallback: .status(404))
        let client = WebServiceClient(serviceRoot: root, transport: stubs)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = level
        return (client, stubs, logger)
    }

    private func createNote(at level: LogLevel) async throws -> CapturingLogger {
        let (client, stubs, logger) = logged(level)
        stubs.stub(Self.createNote, with: .json(Created(id: 7), statusCode: 201))
        let created = try await client.perform(Self.createNote, Note(title: "x"))
        XCTAssertEqual(created, Created(id: 7))
        return logger
    }

    // MARK: Levels

    func testNoneLogsNothing() async throws {
        let logger = try await createNote(at: .none)
        XCTAssertEqual(logger.messages, [])
    }

    func testBasicLogsOneLinePerRequestAndResponse() async throws {
        let logger = try await createNote(at: .basic)
        XCTAssertEqual(
            logger.texts,
            [
                "--> POST https://api.example.com/v1/notes (13-byte body)",
                "<-- 201 https://api.example.com/v1/notes (N ms, 8-byte body)",
            ])
        let (request, response) = (logger.messages[0], logger.messages[1])
        XCTAssertEqual(request.kind, .request)
        XCTAssertEqual(response.kind, .response)
        XCTAssertEqual(request.level, .basic)
        XCTAssertEqual(
            request.metadata,
            ["call": "createNote", "attempt": "1", "method": "POST", "url": "https://api.example.com/v1/notes"])
        XCTAssertEqual(response.metadata[LogMessage.MetadataKey.status], "201")
        XCTAssertEqual(response.metadata[LogMessage.MetadataKey.source], "network")
        XCTAssertEqual(response.metadata[LogMessage.MetadataKey.call], "createNote")
        XCTAssertEqual(response.metadata[LogMessage.MetadataKey.attempt], "1")
        XCTAssertNotNil(response.metadata[LogMessage.MetadataKey.durationMilliseconds].flatMap { Int($0) })
    }

    func testHeadersAddsTheHeaderFields() async throws {
        let logger = try await createNote(at: .headers)
        XCTAssertEqual(
            logger.texts,
            [
                """
                --> POST https://api.example.com/v1/notes (13-byte body)
                Accept: application/json
                Content-Type: application/json; charset=utf-8
                --> END POST
                """,
                """
                <-- 201 https://api.example.com/v1/notes (N ms, 8-byte body)
                Content-Type: application/json
                <-- END HTTP
                """,
            ])
    }

    func testBodyAddsTheBodies() async throws {
        let logger = try await createNote(at: .body)
        XCTAssertEqual(
            logger.texts,
            [
                """
                --> POST https://api.example.com/v1/notes (13-byte body)
                Accept: application/json
                Content-Type: application/json; charset=utf-8

                {"title":"x"}
                --> END POST
                """,
                """
                <-- 201 https://api.example.com/v1/notes (N ms, 8-byte body)
                Content-Type: application/json

                {"id":7}
                <-- END HTTP
                """,
            ])
        XCTAssertEqual(logger.messages.map(\.level), [.body, .body])
    }

    func testARequestWithoutBodyAndAnEmptyResponse() async throws {
        let (client, stubs, logger) = logged(.body)
        stubs.stub(Self.items, with: .status(204))
        _ = try await client.perform(Self.items, 2)
        XCTAssertEqual(
            logger.texts,
            [
                "--> GET https://api.example.com/v1/items?page=2\n--> END GET",
                "<-- 204 https://api.example.com/v1/items?page=2 (N ms, 0-byte body)\n<-- END HTTP",
            ])
    }

    func testTheCallsLevelOverridesTheClients() async throws {
        let (client, stubs, logger) = logged(.none)
        let loud = WebServiceCall<Data>(name: "loud", relativePath: "loud", logLevel: .headers)
        let quiet = WebServiceCall<Data>(name: "quiet", relativePath: "quiet", logLevel: LogLevel.none)
        stubs.stub(where: { _ in true }, with: .text("ok"))

        _ = try await client.perform(loud)
        XCTAssertEqual(logger.messages.map(\.level), [.headers, .headers])
        XCTAssertTrue(logger.texts[0].hasSuffix("--> END GET"))

        client.logLevel = .body
        _ = try await client.perform(quiet)
        XCTAssertEqual(logger.messages.count, 2, "a call at .none logs nothing whatever the client's level")

        _ = try await client.perform(Self.items, 1)
        XCTAssertEqual(logger.messages.count, 4)
        XCTAssertEqual(logger.messages.last?.level, .body)
    }

    func testTheDefaultsLogNothingToStandardError() {
        let client = WebServiceClient(serviceRoot: Self.root, transport: StubTransport())
        XCTAssertEqual(client.logLevel, LogLevel.none)
        XCTAssertTrue(client.logger is StandardErrorLogger)
        XCTAssertEqual(client.logBodyLimit, 4096)
        XCTAssertEqual(client.logRedaction, LogRedaction())
        client.logger = .disabled
        XCTAssertTrue(client.logger is DisabledLogger)
        client.logger = .standardError
        XCTAssertTrue(client.logger is StandardErrorLogger)
    }

    // MARK: Secrets

    private static let secretHeaders = [
        "Authorization": "Bearer tok-s3cr3t-0001",
        "Cookie": "theme=dark; session=cookie-s3cr3t-0002",
        "Proxy-Authorization": "Basic cHJveHk6czNjcjN0",
        "X-Api-Key": "key-s3cr3t-0003",
    ]
    /// What the secrets above look like anywhere in a log.
    private static let secretMarkers = ["s3cr3t", "cHJveHk6czNjcjN0"]

    func testSecretsNeverAppearAtAnyLevel() async throws {
        let call = WebServiceCall<Data>(name: "echo", relativePath: "echo?page=1&api_key=%%0%%")
        // The server echoes what it received, as httpbin does.
        let echo = """
            {"headers": {"Authorization": "Bearer tok-s3cr3t-0001", "Cookie": "theme=dark; session=cookie-s3cr3t-0002",
            "Proxy-Authorization": "Basic cHJveHk6czNjcjN0", "X-Api-Key": "key-s3cr3t-0003"},
            "url": "https://api.example.com/v1/echo?page=1&api_key=query-s3cr3t-0004", "cookie": "setcookie-s3cr3t-0005"}
            """
        for level in [LogLevel.basic, .headers, .body] {
            let (client, stubs, logger) = logged(level)
            client.sharedHeaders = Self.secretHeaders
            client.logRedaction = LogRedaction(headers: ["x-api-key"], queryParameters: ["API_KEY"])
            stubs.stub(
                call,
                with: StubTransport.Stub(
                    headers: [
                        "Content-Type": "application/json",
                        "Set-Cookie": "session=setcookie-s3cr3t-0005; Path=/; HttpOnly",
                    ],
                    body: Data(echo.utf8)))
            _ = try await client.perform(call, "query-s3cr3t-0004")

            XCTAssertEqual(logger.messages.count, 2, "\(level)")
            for text in logger.everything {
                for marker in Self.secretMarkers {
                    XCTAssertFalse(text.contains(marker), "\(level): \(text)")
                }
            }
            let request = logger.texts[0]
            let response = logger.texts[1]
            XCTAssertTrue(
                request.hasPrefix("--> GET https://api.example.com/v1/echo?page=1&api_key=[redacted]"), request)
            XCTAssertEqual(
                logger.messages[0].metadata["url"], "https://api.example.com/v1/echo?page=1&api_key=[redacted]")
            guard level >= .headers else { continue }
            for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key"] {
                XCTAssertTrue(request.contains("\n\(name): [redacted]\n"), "\(level) \(name): \(request)")
            }
            XCTAssertTrue(response.contains("\nSet-Cookie: [redacted]\n"), response)
            XCTAssertTrue(response.contains("\nContent-Type: application/json\n"), response)
            guard level >= .body else { continue }
            // The echoed values are replaced; the rest of the body stays.
            XCTAssertTrue(response.contains(#""Authorization": "[redacted]""#), response)
            XCTAssertTrue(response.contains(#""X-Api-Key": "[redacted]""#), response)
            XCTAssertTrue(
                response.contains(#""url": "https://api.example.com/v1/echo?page=1&api_key=[redacted]""#), response)
        }
    }

    func testBasicCredentialsAddedByTheProviderAreRedacted() async throws {
        let credentials = Data("user:pa55word-s3cr3t".utf8).base64EncodedString()
        for level in [LogLevel.basic, .headers, .body] {
            let (client, stubs, logger) = logged(level)
            client.authenticationProvider = BasicAuthenticationProvider(
                user: "user", password: "pa55word-s3cr3t", sendsPreemptively: true)
            // httpbin's /headers echoes the credentials back.
            stubs.stub(
                Self.items, with: .json(["headers": ["Authorization": "Basic \(credentials)"]]))
            _ = try await client.perform(Self.items, 1)

            XCTAssertEqual(
                stubs.requests.first?.request.value(forHTTPHeaderField: "Authorization"), "Basic \(credentials)")
            XCTAssertEqual(logger.messages.count, 2)
            for text in logger.everything {
                XCTAssertFalse(text.contains("s3cr3t"), "\(level): \(text)")
                XCTAssertFalse(text.contains(credentials), "\(level): \(text)")
            }
            if level >= .headers {
                XCTAssertTrue(logger.texts[0].contains("\nAuthorization: [redacted]\n"), logger.texts[0])
            }
        }
    }

    func testAChallengeRetryLogsTwoExchanges() async throws {
        let (client, stubs, logger) = logged(.headers)
        client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "pa55word-s3cr3t")
        stubs.stub(
            Self.items, with: .status(401, headers: ["WWW-Authenticate": #"Basic realm="api""#]), .text("ok"))
        _ = try await client.perform(Self.items, 1)

        XCTAssertEqual(logger.messages.map(\.kind), [.request, .response, .request, .response])
        XCTAssertEqual(logger.messages.map { $0.metadata["attempt"] }, ["1", "1", "2", "2"])
        XCTAssertEqual(logger.messages.compactMap { $0.metadata["status"] }, ["401", "200"])
        XCTAssertFalse(logger.texts[0].contains("Authorization"), logger.texts[0])
        XCTAssertTrue(logger.texts[1].contains(#"WWW-Authenticate: Basic realm="api""#), logger.texts[1])
        XCTAssertTrue(logger.texts[2].contains("\nAuthorization: [redacted]\n"), logger.texts[2])
        XCTAssertFalse(logger.everything.contains { $0.contains("s3cr3t") })
    }

    func testASecretFromAnEarlierExchangeOfTheCallIsHiddenInLaterOnes() async throws {
        let (client, stubs, logger) = logged(.body)
        stubs.stub(
            where: { $0.url?.path == "/v1/login" },
            with: .status(
                302, headers: ["Location": "https://api.example.com/v1/me", "Set-Cookie": "sid=sid-s3cr3t-0006"]))
        stubs.stub(where: { $0.url?.path == "/v1/me" }, with: .json(["cookies": ["sid": "sid-s3cr3t-0006"]]))
        _ = try await client.perform(WebServiceCall<Data>(name: "login", relativePath: "login"))
        XCTAssertEqual(logger.messages.count, 4)
        XCTAssertTrue(logger.texts[3].contains(#"{"cookies":{"sid":"[redacted]"}}"#), logger.texts[3])
        XCTAssertFalse(logger.everything.contains { $0.contains("s3cr3t") })
    }

    func testPasswordInTheURLIsRedacted() async throws {
        let (client, stubs, logger) = logged(.basic, root: URL(string: "https://ann:hunter2-s3cr3t@api.example.com/")!)
        stubs.stub(Self.items, with: .status(204))
        _ = try await client.perform(Self.items, 1)
        XCTAssertEqual(
            logger.texts,
            [
                "--> GET https://ann:[redacted]@api.example.com/items?page=1",
                "<-- 204 https://ann:[redacted]@api.example.com/items?page=1 (N ms, 0-byte body)",
            ])
    }

    func testRedactionNamesIgnoreCase() {
        var redaction = LogRedaction()
        XCTAssertTrue(redaction.redactsHeader("authorization"))
        XCTAssertTrue(redaction.redactsHeader("SET-COOKIE"))
        XCTAssertTrue(redaction.redactsHeader("Proxy-Authorization"))
        XCTAssertFalse(redaction.redactsHeader("X-Api-Key"))
        XCTAssertFalse(redaction.redactsQueryParameter("token"))
        redaction.headers.insert("X-Api-Key")
        redaction.queryParameters.insert("Token")
        XCTAssertTrue(redaction.redactsHeader("x-api-key"))
        XCTAssertTrue(redaction.redactsQueryParameter("token"))
        XCTAssertEqual(
            LogRedaction.alwaysRedactedHeaders, ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"])
    }

    // MARK: Exchanges

    func testEachRedirectIsItsOwnExchange() async throws {
        let (client, stubs, logger) = logged(.basic)
        stubs.stub(
            where: { $0.url?.path == "/v1/a" },
            with: .status(302, headers: ["Location": "https://api.example.com/v1/b"]))
        stubs.stub(where: { $0.url?.path == "/v1/b" }, with: .text("done"))
        _ = try await client.perform(WebServiceCall<String>(name: "moved", relativePath: "a"))
        XCTAssertEqual(
            logger.texts,
            [
                "--> GET https://api.example.com/v1/a",
                "<-- 302 https://api.example.com/v1/a (N ms, 0-byte body)",
                "--> GET https://api.example.com/v1/b",
                "<-- 200 https://api.example.com/v1/b (N ms, 4-byte body)",
            ])
        XCTAssertEqual(logger.messages.map { $0.metadata["attempt"] }, ["1", "1", "2", "2"])
    }

    func testATransportFailureLogsAFailureLine() async throws {
        let (client, stubs, logger) = logged(.headers)
        client.sharedHeaders = ["Authorization": "Bearer tok-s3cr3t-0001"]
        stubs.stub(Self.items, with: .failure(.notConnectedToInternet))
        do {
            _ = try await client.perform(Self.items, 1)
            XCTFail("the transport failed")
        } catch {
            guard case .transport(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, .notConnectedToInternet)
        }
        XCTAssertEqual(logger.messages.map(\.kind), [.request, .failure])
        let failure = logger.texts[1]
        XCTAssertTrue(
            failure.hasPrefix("<-- HTTP FAILED: GET https://api.example.com/v1/items?page=1 (N ms): transport failure"),
            failure)
        XCTAssertFalse(failure.contains("\n"), "a failure is one line")
        let metadata = logger.messages[1].metadata
        XCTAssertEqual(metadata["error"].map { failure.hasSuffix($0) }, true)
        XCTAssertNotNil(metadata["durationMs"])
        XCTAssertNil(metadata["status"])
        XCTAssertFalse(logger.everything.contains { $0.contains("s3cr3t") })
    }

    func testAResponseFromTheCacheSaysSo() async throws {
        let (client, stubs, logger) = logged(.basic)
        client.cache = HTTPCache()
        stubs.stub(
            Self.items, with: StubTransport.Stub(headers: ["Cache-Control": "max-age=60"], body: Data("{}".utf8)))
        _ = try await client.perform(Self.items, 1)
        _ = try await client.perform(Self.items, 1)
        XCTAssertEqual(stubs.requests.count, 1)
        XCTAssertEqual(logger.texts.count, 4)
        XCTAssertEqual(logger.texts[1], "<-- 200 https://api.example.com/v1/items?page=1 (N ms, 2-byte body)")
        XCTAssertEqual(
            logger.texts[3], "<-- 200 https://api.example.com/v1/items?page=1 (N ms, 2-byte body, from cache)")
        XCTAssertEqual(logger.messages.compactMap { $0.metadata["source"] }, ["network", "cache"])
    }

    /// The log sits below the cache (Stages.swift): a revalidation is logged as it goes on the
    /// wire, with the validator the cache added and the server's 304, while the caller gets the
    /// stored body.
    func testARevalidationIsLoggedAsItGoesOnTheWire() async throws {
        let (client, stubs, logger) = logged(.headers)
        client.cache = HTTPCache()
        stubs.stub(
            Self.items,
            with: StubTransport.Stub(headers: ["Cache-Control": "no-cache", "ETag": "\"v1\""], body: Data("{}".utf8)),
            StubTransport.Stub(statusCode: 304, headers: ["ETag": "\"v1\""]))
        _ = try await client.perform(Self.items, 1)
        let response = try await client.response(for: Self.items, 1)
        XCTAssertEqual(response.value, Data("{}".utf8))
        XCTAssertEqual(response.source, .revalidatedCache)
        XCTAssertEqual(stubs.requests.count, 2)
        XCTAssertEqual(logger.messages.map(\.kind), [.request, .response, .request, .response])
        XCTAssertFalse(logger.texts[0].contains("If-None-Match"), logger.texts[0])
        XCTAssertTrue(logger.texts[2].contains("If-None-Match: \"v1\""), logger.texts[2])
        XCTAssertTrue(logger.texts[3].hasPrefix("<-- 304 https://api.example.com/v1/items?page=1"), logger.texts[3])
        XCTAssertEqual(logger.messages.compactMap { $0.metadata["source"] }, ["network", "network"])
    }

    // MARK: Bodies

    private func responseBody(_ stub: StubTransport.Stub, limit: Int? = nil) async throws -> [String] {
        let (client, stubs, logger) = logged(.body)
        if let limit { client.logBodyLimit = limit }
        stubs.stub(Self.items, with: stub)
        _ = try await client.perform(Self.items, 1)
        let lines = logger.texts[1].components(separatedBy: "\n")
        // The status line, the header fields, a blank line, the body, the END line.
        guard let blank = lines.firstIndex(of: "") else { return [] }
        return Array(lines[(blank + 1)..<(lines.count - 1)])
    }

    func testBodiesAreTruncatedAtTheLimit() async throws {
        let alphabet = try await responseBody(.text("abcdefghijklmnopqrstuvwxyz"), limit: 10)
        XCTAssertEqual(alphabet, ["abcdefghij", "[truncated: 10 of 26 bytes shown]"])
        let whole = try await responseBody(.text("abcdefghij"), limit: 10)
        XCTAssertEqual(whole, ["abcdefghij"])
        // A cut inside a character ends the text before it.
        let accents = try await responseBody(.text("ééééé"), limit: 5)
        XCTAssertEqual(accents, ["éé", "[truncated: 4 of 10 bytes shown]"])
        let nothing = try await responseBody(.text("abc"), limit: 0)
        XCTAssertEqual(nothing, ["[truncated: 0 of 3 bytes shown]"])
        let defaultLimit = try await responseBody(.text(String(repeating: "a", count: 5000)))
        XCTAssertEqual(defaultLimit, [String(repeating: "a", count: 4096), "[truncated: 4096 of 5000 bytes shown]"])
    }

    func testASecretCutByTheLimitIsStillHidden() async throws {
        let (client, stubs, logger) = logged(.body)
        client.sharedHeaders = ["Authorization": "Bearer tok-s3cr3t-0001"]
        client.logBodyLimit = 17
        stubs.stub(Self.items, with: .text(#"{"token": "tok-s3cr3t-0001"}"#))
        _ = try await client.perform(Self.items, 1)
        XCTAssertTrue(
            logger.texts[1].contains("\n{\"token\": \"[redacted]\n[truncated: 17 of 28 bytes shown]\n"), logger.texts[1]
        )
        XCTAssertFalse(logger.everything.contains { $0.contains("tok-s") })
    }

    func testBinaryBodiesAreSummarised() async throws {
        let octets = try await responseBody(
            StubTransport.Stub(
                headers: ["Content-Type": "application/octet-stream"], body: Data(repeating: 65, count: 12345)))
        XCTAssertEqual(octets, ["[binary 12345 bytes, application/octet-stream]"])
        let unnamed = try await responseBody(StubTransport.Stub(body: Data([0, 1, 2, 255])))
        XCTAssertEqual(unnamed, ["[binary 4 bytes]"])
        let image = try await responseBody(
            StubTransport.Stub(headers: ["Content-Type": "image/png"], body: Data("PNG".utf8)))
        XCTAssertEqual(image, ["[binary 3 bytes, image/png]"])
        let notUTF8 = try await responseBody(
            StubTransport.Stub(headers: ["Content-Type": "text/plain"], body: Data([0xFF, 0xFE, 0xFD])))
        XCTAssertEqual(notUTF8, ["[binary 3 bytes, text/plain]"])
        let unnamedText = try await responseBody(StubTransport.Stub(body: Data("plain words".utf8)))
        XCTAssertEqual(unnamedText, ["plain words"])
    }

    func testTextIsReadInItsDeclaredCharset() async throws {
        let text = try await responseBody(
            StubTransport.Stub(
                headers: ["Content-Type": "text/plain; charset=windows-1251"],
                body: "Привет".data(using: .windowsCP1251)!))
        XCTAssertEqual(text, ["Привет"])
    }

    func testABinaryRequestBodyIsSummarised() async throws {
        let (client, stubs, logger) = logged(.body)
        let upload = WebServiceCall<Data>(
            name: "upload", method: .put, relativePath: "picture", headers: ["Content-Type": "image/png"])
        stubs.stub(upload, with: .status(204))
        _ = try await client.perform(upload, Data([0x89, 0x50, 0x4E, 0x47]))
        XCTAssertEqual(
            logger.texts[0],
            """
            --> PUT https://api.example.com/v1/picture (4-byte body)
            Content-Type: image/png

            [binary 4 bytes, image/png]
            --> END PUT
            """)
    }

    func testAStreamedBodyIsNeverRead() async throws {
        final class Opened: @unchecked Sendable {  // `count` is guarded by `lock`
            private let lock = NSLock()
            private var value = 0
            func increment() { lock.withLock { value += 1 } }
            var count: Int { lock.withLock { value } }
        }
        /// Records the state of each request's body stream as it reaches the transport.
        final class StreamWatcher: WebServiceTransport, @unchecked Sendable {  // `states` guarded by `lock`
            let base = StubTransport(fallback: .status(204))
            private let lock = NSLock()
            private var states: [Stream.Status?] = []
            var statuses: [Stream.Status?] { lock.withLock { states } }

            func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
                lock.withLock { states.append(request.httpBodyStream?.streamStatus) }
                return try await base.send(request, context: context)
            }
        }
        let opened = Opened()
        let watcher = StreamWatcher()
        let client = WebServiceClient(serviceRoot: Self.root, transport: watcher)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .body
        let upload = WebServiceCall<Data>(
            name: "upload", method: .post, relativePath: "upload", multipartBoundary: "XyZ")
        let part = FormData(name: "file", length: 5, fileName: "a.txt", contentType: "text/plain") {
            opened.increment()
            return InputStream(data: Data("hello".utf8))
        }
        _ = try await client.perform(upload, part)

        XCTAssertEqual(watcher.statuses, [.notOpen])
        XCTAssertEqual(opened.count, 0, "nothing opened the part's stream")
        let length = try XCTUnwrap(watcher.base.requests.first?.uploadLength)
        let lines = logger.texts[0].components(separatedBy: "\n")
        XCTAssertEqual(lines.first, "--> POST https://api.example.com/v1/upload (\(length)-byte streamed body)")
        XCTAssertEqual(Array(lines.suffix(3)), ["", "[streamed body, \(length) bytes]", "--> END POST"])
    }
}
