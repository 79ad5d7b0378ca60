import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `WebServiceResponse.metrics` over the real transports, against the fault server: the
/// structure of the figures (routes, reuse, byte counts, ordered times), never their size.
final class CallMetricsIntegrationTests: XCTestCase {
    private struct Peer: Decodable, Sendable {
        let port: Int
        let served: Int
    }

    private static let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer?tag=%%0%%")

    /// The direct route's kept-alive GETs: the second reuses the first's connection, as the
    /// server saw it, and the bytes received are exactly the answer the server wrote.
    func testKeptAliveCallsReportReuseAsTheServerSawIt() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the direct HTTP/1.1 path is for Linux")
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(), transport: RoutingTransport(configuration: .ephemeral))
        let tag = UUID().uuidString
        var responses: [WebServiceResponse<Peer>] = []
        for _ in 0..<3 { responses.append(try await client.response(for: Self.peer, arguments: [tag])) }

        XCTAssertEqual(responses.map(\.value.served), [0, 1, 2])
        let transactions = responses.compactMap(\.metrics.transactions.first)
        XCTAssertEqual(transactions.count, 3)
        XCTAssertEqual(transactions.map(\.route), [.directHTTP1, .directHTTP1, .directHTTP1])
        XCTAssertEqual(transactions.map(\.connectionReused), [false, true, true])
        XCTAssertNotNil(transactions[0].connectDuration)
        XCTAssertNil(transactions[1].connectDuration)
        for (response, transaction) in zip(responses, transactions) {
            // /keep-alive/peer writes exactly this head before its body.
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(response.body.count)\r\n\r\n"
            XCTAssertEqual(transaction.bytesReceived, Int64(head.utf8.count + response.body.count))
            XCTAssertEqual(transaction.responseBodyBytes, Int64(response.body.count))
            XCTAssertGreaterThan(transaction.bytesSent ?? 0, 0)
            let first = try XCTUnwrap(transaction.timeToFirstByte)
            XCTAssertGreaterThanOrEqual(first, .zero)
            XCTAssertLessThanOrEqual(first, transaction.duration)
            XCTAssertLessThanOrEqual(transaction.startOffset + transaction.duration, response.metrics.duration)
        }
    }

    /// A POST with a body in memory through the session (the route of every `https` call, and on
    /// Apple platforms of every call): its route is the session's, and what Foundation on Linux
    /// cannot tell (reuse, connect time, bytes on the wire:
    /// it never delivers `URLSessionTaskMetrics`) is `nil`; the body bytes sent are the task's
    /// count. The time to the response head is known when the head reaches the delegate (a size
    /// limit makes it a delegate task), not for a completion-handler task.
    func testTheSessionRouteReportsWhatFoundationKnows() async throws {
        for limit in [nil, 1 << 20] {
            let client = WebServiceClient(
                serviceRoot: try FaultServer.url(), transport: URLSessionTransport(sessionConfiguration: .ephemeral))
            client.maximumResponseBodySize = limit
            let post = WebServiceCall<String>(
                method: .post, relativePath: "ok", serializer: StringResponseSerializer())
            let body = ["name": String(repeating: "x", count: 1000)]
            let response = try await client.response(for: post, arguments: [body])
            let sent = try XCTUnwrap(response.request.httpBody)
            let transaction = try XCTUnwrap(response.metrics.transactions.first)

            XCTAssertEqual(transaction.route, .session)
            XCTAssertEqual(transaction.statusCode, 200)
            XCTAssertEqual(transaction.requestBodyBytes, Int64(sent.count))
            XCTAssertEqual(transaction.responseBodyBytes, Int64(response.body.count))
            XCTAssertNil(transaction.connectionReused)
            XCTAssertNil(transaction.connectDuration)
            XCTAssertNil(transaction.bytesSent)
            XCTAssertNil(transaction.bytesReceived)
            XCTAssertEqual(transaction.timeToFirstByte != nil, limit != nil, "limit \(limit as Any)")
            if let first = transaction.timeToFirstByte { XCTAssertLessThanOrEqual(first, transaction.duration) }
            XCTAssertLessThanOrEqual(transaction.duration, response.metrics.duration)
        }
    }

    /// A streamed upload on the direct route's own connection: never reused, and its body bytes
    /// are the stream's length.
    func testAStreamedUploadCountsItsBody() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the direct HTTP/1.1 path is for Linux")
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(), transport: RoutingTransport(configuration: .ephemeral))
        let payload = Data(repeating: 7, count: 50_000)
        let upload = WebServiceCall<String>(method: .put, relativePath: "ok", serializer: StringResponseSerializer())
        let response = try await client.response(
            for: upload, arguments: [RequestBody.stream(length: Int64(payload.count)) { InputStream(data: payload) }])
        let transaction = try XCTUnwrap(response.metrics.transactions.first)

        XCTAssertEqual(transaction.route, .directHTTP1)
        XCTAssertEqual(transaction.connectionReused, false)
        XCTAssertEqual(transaction.requestBodyBytes, Int64(payload.count))
        XCTAssertGreaterThan(transaction.bytesSent ?? 0, Int64(payload.count))
        XCTAssertNotNil(transaction.connectDuration)
    }
}
