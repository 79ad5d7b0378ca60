import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What runs above the transport, over TLS on the event loop (issue 34, item 7): the stream
/// server and httpbin behind the TLS nginx of `Scripts/test` (`WEBSERVICEKIT_TLS_STREAM_URL`,
/// unbuffered, and `WEBSERVICEKIT_TLS_HTTPBIN_URL`): back-pressure and cancellation of a stream,
/// progress, cookies across a redirect, gzip, retries and the size limit.
final class HTTP1TLSAboveTheTransportTests: XCTestCase {
    /// A client of `variable`'s server over the loop's TLS, trusting the tests' CA only.
    private func client(_ variable: String) throws -> WebServiceClient {
        #if os(Linux)
            try XCTSkipIf(HTTP1Transport.runsOnThreads, "https is the event loop's only")
            try XCTSkipUnless(HTTP1Transport.carriesHTTPS, "OpenSSL could not be opened")
            let authority = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
            return try WebServiceClient(
                serviceRoot: TLSServer.url(variable), serverTrust: .onlyCertificateAuthorities([authority]))
        #else
            throw XCTSkip("the TLS layer is Linux's")
        #endif
    }

    /// A 64 MiB firehose through nginx whose consumer reads one event and stops: the library
    /// stops reading the TLS connection, nginx stops reading the stream server, whose writes
    /// stall well short of 64 MiB; cancelling closes the connection, and the server sees it.
    func testASlowStreamConsumerHoldsTheServerBack() async throws {
        let client = try client("WEBSERVICEKIT_TLS_STREAM_URL")
        let tag = StreamServer.uniqueTag("firehose-tls")
        let call = WebServiceCall<ResponseStream<ServerSentEvent>>(
            relativePath: "firehose?tag=\(tag)", timeout: 60, stream: .serverSentEvents)
        let stream = try await client.stream(call)
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.data.hasPrefix(#"{"n":1,"#), true)
        let stall = try await StreamServer.stalled(tag)
        XCTAssertTrue(stall.stalled, "the server's writes stopped")
        XCTAssertLessThan(stall.bytesSent, 32 << 20)
        stream.cancel()
        let log = try await StreamServer.log(tag)
        XCTAssertTrue(log.closed, "cancelling closed the stream through nginx")
        XCTAssertLessThan(log.bytesSent, 32 << 20)
    }

    /// Server-Sent Events over TLS arrive whole and in order, on the loop's TLS.
    func testEventsArriveWholeOverTLS() async throws {
        let client = try client("WEBSERVICEKIT_TLS_STREAM_URL")
        let call = WebServiceCall<ResponseStream<ServerSentEvent>>(
            relativePath: "sse?count=50&id=1", timeout: 30, stream: .serverSentEvents)
        var events: [ServerSentEvent] = []
        let stream = try await client.stream(call)
        for try await event in stream { events.append(event) }
        XCTAssertEqual(events, StreamServer.expectedEvents(count: 50, ids: true, retry: nil))
        let transaction = try XCTUnwrap(stream.metrics?.transactions.first, "metrics once the stream ended")
        XCTAssertEqual(transaction.route, .directHTTP1)
        XCTAssertNotNil(transaction.tls, "the stream went over TLS")
    }

    /// httpbin's `/cookies/set` answers with a cookie and a redirect to `/cookies`, which shows
    /// the cookies the request carried: the jar kept it and sent it over the same TLS origin.
    func testACookieSetOverTLSIsSentBack() async throws {
        struct Cookies: Decodable, Sendable { let cookies: [String: String] }
        let client = try client("WEBSERVICEKIT_TLS_HTTPBIN_URL")
        let call = WebServiceCall<Cookies>(relativePath: "cookies/set?flavour=oat")
        let response = try await client.response(for: call)
        XCTAssertEqual(response.value.cookies, ["flavour": "oat"])
        XCTAssertEqual(response.metrics.redirects, 1)
    }

    /// A gzip answer over TLS is decoded as it arrives.
    func testAGzipAnswerIsDecoded() async throws {
        struct Gzipped: Decodable, Sendable { let gzipped: Bool }
        let client = try client("WEBSERVICEKIT_TLS_HTTPBIN_URL")
        let value = try await client.perform(WebServiceCall<Gzipped>(relativePath: "gzip"))
        XCTAssertTrue(value.gzipped)
    }

    /// A 503 is sent again under the retry policy, over the same TLS origin, until the attempts
    /// run out; the error says so.
    func testA503IsRetriedOverTLS() async throws {
        let client = try client("WEBSERVICEKIT_TLS_HTTPBIN_URL")
        let environment = RecordingRetryEnvironment()
        client.retryPolicy = RetryPolicy(maximumAttempts: 3, environment: environment)
        do {
            _ = try await client.perform(WebServiceCall<String>(relativePath: "status/503"))
            XCTFail("a 503 three times is a failure")
        } catch {
            XCTAssertEqual(error.statusCode, 503, "\(error)")
        }
        XCTAssertEqual(environment.waits.count, 2, "two retries after the first send")
    }

    /// The response size limit refuses a body over it, over TLS as over `http`.
    func testTheSizeLimitRefusesALargerBody() async throws {
        let client = try client("WEBSERVICEKIT_TLS_HTTPBIN_URL")
        client.maximumResponseBodySize = 100_000
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "bytes/200000"))
            XCTFail("a body over the limit is refused")
        } catch {
            guard case .responseTooLarge(let limit, _) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(limit, 100_000)
        }
    }

    /// Progress of a 3 MiB download over TLS rises to exactly one 1.0, against the known length.
    func testProgressOfADownloadOverTLS() async throws {
        let client = try client("WEBSERVICEKIT_TLS_URL")
        let recorder = ProgressRecorder()
        let call = WebServiceCall<Data>(relativePath: "files/three-mib.bin", progressParameter: 0)
        let body = try await client.perform(call, recorder.simple)
        XCTAssertEqual(body.count, 3 << 20)
        let fractions = recorder.simpleEvents.map(\.fraction)
        XCTAssertEqual(fractions.last, 1.0)
        XCTAssertEqual(fractions.filter { $0 == 1.0 }.count, 1)
        XCTAssertEqual(fractions, fractions.sorted(), "progress only rises")
        XCTAssertGreaterThan(fractions.count, 2)
    }
}
