import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if os(Linux) && canImport(Glibc)
    import Glibc
#endif

/// `WebServiceResponse.metrics` and `WebServiceClient.metricsMonitor`: the structure of what is
/// collected (counts, reasons, flags, byte counts, times that are non-negative and ordered),
/// never how long anything took.
final class CallMetricsTests: XCTestCase {
    private static let items = WebServiceCall<String>(relativePath: "items")

    /// Every time of `metrics` is non-negative, and each request's lies within the call's.
    private func assertTimesAreOrdered(_ metrics: CallMetrics, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(metrics.duration, .zero, file: file, line: line)
        var previousStart = Duration.zero
        for transaction in metrics.transactions {
            XCTAssertGreaterThanOrEqual(transaction.duration, .zero, file: file, line: line)
            XCTAssertGreaterThanOrEqual(transaction.startOffset, previousStart, file: file, line: line)
            XCTAssertLessThanOrEqual(
                transaction.startOffset + transaction.duration, metrics.duration, file: file, line: line)
            if let connect = transaction.connectDuration {
                XCTAssertGreaterThanOrEqual(connect, .zero, file: file, line: line)
                XCTAssertLessThanOrEqual(connect, transaction.duration, file: file, line: line)
            }
            if let first = transaction.timeToFirstByte {
                XCTAssertGreaterThanOrEqual(first, transaction.connectDuration ?? .zero, file: file, line: line)
                XCTAssertLessThanOrEqual(first, transaction.duration, file: file, line: line)
            }
            previousStart = transaction.startOffset + transaction.duration
        }
    }

    func testOneStubbedCallHasOneRequestAndNoTransportFigures() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.items, with: .text("hello"))
        let response = try await client.response(for: Self.items)
        let metrics = response.metrics

        XCTAssertEqual(metrics.attempts, 1)
        XCTAssertEqual(metrics.retries, 0)
        XCTAssertEqual(metrics.redirects, 0)
        XCTAssertEqual(metrics.authenticationRoundTrips, 0)
        XCTAssertEqual(metrics.source, .network)
        XCTAssertNil(metrics.error)
        XCTAssertEqual(metrics.transactions.count, 1)
        let transaction = try XCTUnwrap(metrics.transactions.first)
        XCTAssertEqual(transaction.send, 1)
        XCTAssertEqual(transaction.attempt, 1)
        XCTAssertEqual(transaction.reason, .initial)
        XCTAssertEqual(transaction.method, "GET")
        XCTAssertEqual(transaction.url?.path, "/v1/items")
        XCTAssertEqual(transaction.statusCode, 200)
        XCTAssertEqual(transaction.responseBodyBytes, 5)
        XCTAssertEqual(transaction.requestBodyBytes, 0)
        // A stub reports nothing: nil, never a guess.
        XCTAssertNil(transaction.route)
        XCTAssertNil(transaction.connectionReused)
        XCTAssertNil(transaction.connectDuration)
        XCTAssertNil(transaction.timeToFirstByte)
        XCTAssertNil(transaction.bytesSent)
        XCTAssertNil(transaction.bytesReceived)
        XCTAssertNil(metrics.reusedConnection)
        assertTimesAreOrdered(metrics)
        let lines = metrics.description.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, metrics.description)
        XCTAssertTrue(
            lines[0].hasSuffix(" ms, 1 attempt(s), 0 redirect(s), 0 authentication round trip(s), source network"),
            String(lines[0]))
        XCTAssertTrue(lines[1].hasPrefix("  #1 (initial) GET 200, route unknown, total "), String(lines[1]))
    }

    func testDurationsAreShownToTheMicrosecond() {
        XCTAssertEqual(CallMetrics.text(.microseconds(412)), "0.412 ms")
        XCTAssertEqual(CallMetrics.text(.microseconds(12_005)), "12.005 ms")
        XCTAssertEqual(CallMetrics.text(.zero), "0.000 ms")
    }

    func testABodyInMemoryIsCountedAsSent() async throws {
        let (client, stubs) = makeStubClient()
        let post = WebServiceCall<String>(method: .post, relativePath: "items")
        stubs.stub(post, with: .text("made"))
        let response = try await client.response(for: post, arguments: [["name": "a"]])
        let sent = try XCTUnwrap(stubs.requests.last?.request.httpBody)
        XCTAssertEqual(response.metrics.transactions.first?.requestBodyBytes, Int64(sent.count))
        XCTAssertEqual(response.metrics.transactions.first?.method, "POST")
    }

    func testRetriesAreCountedAndEachAttemptHasItsRecord() async throws {
        let stubs = StubTransport()
        stubs.stub(Self.items, with: .status(503), .status(503), .text("done"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!, transport: stubs)
        client.retryPolicy = RetryPolicy(maximumAttempts: 3, environment: RecordingRetryEnvironment())
        let metrics = try await client.response(for: Self.items).metrics

        XCTAssertEqual(metrics.attempts, 3)
        XCTAssertEqual(metrics.retries, 2)
        XCTAssertEqual(metrics.transactions.map(\.statusCode), [503, 503, 200])
        XCTAssertEqual(metrics.transactions.map(\.reason), [.initial, .retry, .retry])
        XCTAssertEqual(metrics.transactions.map(\.attempt), [1, 2, 3])
        XCTAssertEqual(metrics.transactions.map(\.send), [1, 2, 3])
        assertTimesAreOrdered(metrics)
    }

    func testRedirectsAndChallengesAreCountedAsHops() async throws {
        let (client, stubs) = makeStubClient()
        client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "secret")
        stubs.stub(
            Self.items, with: .status(401, headers: ["WWW-Authenticate": #"Basic realm="api""#]),
            .status(302, headers: ["Location": "https://api.example.com/v1/moved"]))
        stubs.stub(where: { $0.url?.path == "/v1/moved" }, with: .text("here"))
        let metrics = try await client.response(for: Self.items).metrics

        XCTAssertEqual(metrics.attempts, 1)
        XCTAssertEqual(metrics.redirects, 1)
        XCTAssertEqual(metrics.authenticationRoundTrips, 1)
        XCTAssertEqual(metrics.transactions.map(\.statusCode), [401, 302, 200])
        XCTAssertEqual(metrics.transactions.map(\.reason), [.initial, .authentication, .redirect])
        XCTAssertEqual(metrics.transactions.map(\.send), [1, 2, 3])
        XCTAssertEqual(metrics.transactions.last?.url?.path, "/v1/moved")
        assertTimesAreOrdered(metrics)
    }

    func testAnAnswerFromTheCacheHasItsSourceAndNoRequest() async throws {
        let (client, stubs) = makeStubClient()
        client.cache = HTTPCache()
        stubs.stub(
            Self.items,
            with: StubTransport.Stub(
                headers: ["Cache-Control": "max-age=600", "Content-Type": "text/plain"], body: Data("kept".utf8)))
        let first = try await client.response(for: Self.items).metrics
        let second = try await client.response(for: Self.items).metrics

        XCTAssertEqual(first.source, .network)
        XCTAssertEqual(first.transactions.count, 1)
        XCTAssertEqual(second.source, .cache)
        XCTAssertEqual(second.transactions.count, 0)
        XCTAssertEqual(stubs.requests.count, 1)
    }

    func testTheMonitorHearsOfEveryCallOnceFailedOnesToo() async throws {
        let (client, stubs) = makeStubClient()
        let heard = Locked<[CallMetrics]>([])
        client.metricsMonitor = { metrics in heard.withLock { $0.append(metrics) } }
        stubs.stub(Self.items, with: .text("fine"), .failure(.cannotConnectToHost))
        let response = try await client.response(for: Self.items)
        do {
            _ = try await client.perform(Self.items)
            XCTFail("the second call must fail")
        } catch {
            guard case .transport(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, .cannotConnectToHost)
        }

        let calls = heard.current
        XCTAssertEqual(calls.count, 2)
        XCTAssertNil(calls.first?.error)
        XCTAssertEqual(calls.first?.transactions.count, response.metrics.transactions.count)
        XCTAssertEqual(calls.first?.source, .network)
        let failed = try XCTUnwrap(calls.last)
        XCTAssertNotNil(failed.error)
        XCTAssertNil(failed.source)
        XCTAssertEqual(failed.transactions.count, 1)
        XCTAssertNil(failed.transactions.first?.statusCode)
        XCTAssertNil(failed.transactions.first?.responseBodyBytes)
        XCTAssertNotNil(failed.transactions.first?.error)
        assertTimesAreOrdered(failed)
    }

    func testAClientThatCollectsNoMetricsHasEmptyOnesUnlessItHasAMonitor() async throws {
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://api.example.com/v1/")!, transport: ReportingTransport())
        client.collectsMetrics = false
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .basic
        let quiet = try await client.response(for: Self.items)
        XCTAssertTrue(quiet.metrics.transactions.isEmpty)
        XCTAssertNil(quiet.metrics.source)
        // The log times the request with its own clock, and knows nothing of reuse.
        let line = try XCTUnwrap(logger.messages.last)
        XCTAssertTrue(line.text.hasSuffix(" ms, 2-byte body)"), line.text)
        XCTAssertNil(line.metadata[LogMessage.MetadataKey.connectionReused])

        let heard = Locked(0)
        client.metricsMonitor = { _ in heard.withLock { $0 += 1 } }
        let monitored = try await client.response(for: Self.items)
        XCTAssertEqual(monitored.metrics.transactions.count, 1)
        XCTAssertEqual(monitored.metrics.transactions.first?.connectionReused, true)
        XCTAssertEqual(heard.current, 1)
    }

    /// A transport that reports fixed figures.
    private struct ReportingTransport: WebServiceTransport {
        func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
            context.report(
                TransportMetrics(
                    route: .custom("reporting"), connectionReused: true, timeToFirstByte: .zero, bytesSent: 77,
                    bytesReceived: 88, requestBodyBytes: 0,
                    tls: CallMetrics.TLS(
                        protocolVersion: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", sessionResumed: true)))
            return TransportResponse(statusCode: 200, body: Data("ok".utf8), url: request.url)
        }
    }

    func testAReportedFigureReachesTheMetricsAndTheBasicLog() async throws {
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://api.example.com/v1/")!, transport: ReportingTransport())
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .basic
        let metrics = try await client.response(for: Self.items).metrics

        let transaction = try XCTUnwrap(metrics.transactions.first)
        XCTAssertEqual(transaction.route, .custom("reporting"))
        XCTAssertEqual(transaction.connectionReused, true)
        XCTAssertNil(transaction.connectDuration)
        XCTAssertEqual(transaction.timeToFirstByte, .zero)
        XCTAssertEqual(transaction.bytesSent, 77)
        XCTAssertEqual(transaction.bytesReceived, 88)
        XCTAssertEqual(transaction.responseBodyBytes, 2)
        XCTAssertEqual(metrics.reusedConnection, true)

        let response = try XCTUnwrap(logger.messages.last)
        XCTAssertTrue(response.text.hasSuffix(" ms, 2-byte body, reused connection)"), response.text)
        XCTAssertEqual(response.metadata[LogMessage.MetadataKey.connectionReused], "true")
        XCTAssertEqual(response.metadata[LogMessage.MetadataKey.route], "reporting")
        XCTAssertEqual(
            transaction.tls,
            CallMetrics.TLS(protocolVersion: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", sessionResumed: true))
        XCTAssertTrue("\(metrics)".contains("TLSv1.3 TLS_AES_128_GCM_SHA256 resumed"), "\(metrics)")
        // The time logged is the request's duration in the metrics, in whole milliseconds.
        XCTAssertEqual(
            response.metadata[LogMessage.MetadataKey.durationMilliseconds],
            String(CallMetrics.milliseconds(transaction.duration)))
    }

    #if os(Linux) && canImport(Glibc)
        /// The direct HTTP/1.1 route against a server this test plays on a loopback socket: two
        /// GETs on one kept-alive connection. The bytes the server read and wrote are the bytes
        /// the metrics report; the second request reuses the connection and has no connect time.
        func testTheDirectRouteReportsReuseAndExactBytes() async throws {
            let (listener, port) = try loopbackListener()
            defer { close(listener) }
            let body = #"{"ok":1}"#
            let answer = Array(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    .utf8)
            let counts = Locked<[Int]>([])
            let server = Thread {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                for _ in 0..<2 {
                    // A GET has no body: its head ends the request, and the client sends the
                    // next one only after this answer.
                    var received: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while !received.ends(with: Array("\r\n\r\n".utf8)) {
                        let count = recv(connection, &buffer, buffer.count, 0)
                        guard count > 0 else { return }
                        received += buffer[..<count]
                    }
                    counts.withLock { $0.append(received.count) }
                    _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
                }
            }
            server.start()

            let transport = HTTP1Transport(configuration: .ephemeral)
            let client = WebServiceClient(serviceRoot: URL(string: "http://127.0.0.1:\(port)/")!, transport: transport)
            let call = WebServiceCall<String>(relativePath: "peer", serializer: StringResponseSerializer())
            let first = try await client.response(for: call).metrics
            let second = try await client.response(for: call).metrics

            let sent = counts.current
            XCTAssertEqual(sent.count, 2)
            for (index, metrics) in [first, second].enumerated() {
                let transaction = try XCTUnwrap(metrics.transactions.first)
                XCTAssertEqual(transaction.route, .directHTTP1)
                XCTAssertEqual(transaction.bytesSent, sent.count == 2 ? Int64(sent[index]) : nil)
                XCTAssertEqual(transaction.bytesReceived, Int64(answer.count))
                XCTAssertEqual(transaction.responseBodyBytes, Int64(body.utf8.count))
                XCTAssertEqual(transaction.requestBodyBytes, 0)
                XCTAssertNotNil(transaction.timeToFirstByte)
                assertTimesAreOrdered(metrics)
            }
            XCTAssertEqual(first.transactions.first?.connectionReused, false)
            XCTAssertNotNil(first.transactions.first?.connectDuration)
            XCTAssertEqual(second.transactions.first?.connectionReused, true)
            XCTAssertNil(second.transactions.first?.connectDuration)
        }
    #endif
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
