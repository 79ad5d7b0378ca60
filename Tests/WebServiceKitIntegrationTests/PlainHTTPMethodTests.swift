import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Legal responses that FoundationNetworking cannot take, sent by the fault server's `/raw`
/// route to every method, over the client's default transport (on Linux every plain-`http` call
/// now goes over the library's own HTTP/1.1 transport, whatever its method and body).
///
/// The one that mattered: a POST with a body in memory answered by a chunked 200 whose last chunk
/// carries a trailer field (RFC 9112 §7.1.2) ended the process on Linux when the session carried it
/// (FoundationNetworking's `_NativeProtocol.transferCompleted`: "Transfer completed, but there's
/// no response."). The rule for trailer fields, written in `HTTP1ResponseParser`: they are read and
/// checked as field lines, then dropped; they never join the response's header fields (RFC 9110
/// §6.5.1 lets a recipient discard them).
final class PlainHTTPMethodTests: XCTestCase {
    /// What `/keep-alive/peer` tells of the connection that carried the request.
    private struct Peer: Decodable, Sendable {
        let port: Int
        let served: Int
    }

    private static let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .options]
    /// Of those, the idempotent ones (RFC 9110 §9.2.2).
    private static let idempotent: Set<HTTPMethod> = [.get, .put, .delete, .options]

    /// The raw route for `method`; argument 3, when there is one, is the body.
    private static func raw(_ method: HTTPMethod) -> WebServiceCall<Data> {
        WebServiceCall<Data>(
            method: method, relativePath: "raw?b64=%%0%%&keep=%%1%%&tag=%%2%%", bodyParameter: method == .get ? nil : 3)
    }

    private static func peer(_ method: HTTPMethod) -> WebServiceCall<Peer> {
        WebServiceCall<Peer>(method: method, relativePath: "keep-alive/peer", bodyParameter: method == .get ? nil : 0)
    }

    /// `client.perform(raw(method), response)`, with a small JSON body unless the method is GET.
    private func perform(
        _ client: WebServiceClient, _ method: HTTPMethod, _ response: String, keep: Bool = false
    ) async throws -> WebServiceResponse<Data> {
        var arguments: [any Sendable] = [HostileServerTests.encoded(response), keep ? "1" : "0", UUID().uuidString]
        if method != .get { arguments.append(["name": "value", "n": "1"]) }
        return try await client.response(for: Self.raw(method), arguments: arguments)
    }

    private func client() throws -> WebServiceClient {
        WebServiceClient(serviceRoot: try FaultServer.url())
    }

    /// The answers of the first two tests say `Connection: close`, as the server closes after
    /// them: a connection it closed unannounced is the subject of the last ones.
    func testAChunkedAnswerWithATrailerFieldEndsNoCallWhateverTheMethod() async throws {
        let client = try client()
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n"
            + "Connection: close\r\n\r\n"
            + "5\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: 0123abcd\r\nX-Second: t\r\n\r\n"
        for method in Self.methods {
            let response = try await perform(client, method, answer)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello world", "\(method)")
            XCTAssertNil(response.headers["X-Checksum"], "\(method): a trailer field joined the header fields")
            XCTAssertEqual(response.headers["Trailer"], "X-Checksum", "\(method)")
            if RoutingTransport.usesDirectHTTP1ByDefault {
                XCTAssertEqual(response.metrics.transactions.first?.route, .directHTTP1, "\(method)")
            }
        }
    }

    /// Interim answers (RFC 9110 §15.2) before the final one are read and passed over.
    func testInterimAnswersBeforeTheFinalOneArePassedOver() async throws {
        let client = try client()
        let answer =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nhello"
        for method in Self.methods {
            let response = try await perform(client, method, answer)
            XCTAssertEqual(response.statusCode, 200, "\(method)")
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello", "\(method)")
            XCTAssertNil(response.headers["Link"], "\(method): an interim answer's field joined the final one")
        }
    }

    /// Bytes after a complete body (the server keeps the connection open after them) are no
    /// part of the answer, and the connection they came on is never used again: the next call
    /// to the origin goes on a connection that has served nothing before.
    func testBytesAfterACompleteBodyAreNotReadAsTheNextAnswer() async throws {
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\n" + "helloHTTP/1.1 200 OK\r\n\r\n"
        for method in Self.methods {
            // A client of its own: its pool holds no connection but the one the answer came on.
            let client = try client()
            let response = try await perform(client, method, answer, keep: true)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello", "\(method)")
            let next = try await client.perform(Self.peer(.get))
            XCTAssertEqual(next.served, 0, "\(method): the connection with bytes left over was used again")
        }
    }

    /// A kept-alive connection that the server closes as the next request arrives, before any
    /// byte of an answer (it read the request: it may have processed it). A request that may be
    /// sent twice goes again on a new connection (RFC 9112 §9.3.1): GET, PUT, DELETE, OPTIONS by
    /// their method (RFC 9110 §9.2.2), a POST whose descriptor says it is idempotent. A POST or
    /// PATCH is not sent again: the call fails saying the server may have processed it, and the
    /// server saw it once.
    func testARequestOnAConnectionClosedAsItWentOutGoesAgainOnlyWhenItMay() async throws {
        try XCTSkipUnless(
            RoutingTransport.usesDirectHTTP1ByDefault, "kept-alive connections of every method are Linux's")
        let dropNext = WebServiceCall<Peer>(relativePath: "keep-alive/drop-next")
        for (method, marked) in Self.methods.map({ ($0, false) }) + [(.post, true), (.patch, true)] {
            // A client of its own: the connection the server will drop is the only one in its pool.
            let client = try client()
            _ = try await client.perform(dropNext)
            var fields = CallFields(method: method, relativePath: "keep-alive/peer?tag=%%0%%")
            fields.bodyParameter = method == .get ? nil : 1
            fields.isIdempotent = marked
            let call = WebServiceCall<Peer>(fields)
            let tag = UUID().uuidString
            let arguments: [any Sendable] = method == .get ? [tag] : [tag, ["name": "value"]]
            let label = "\(method)\(marked ? " marked idempotent" : "")"
            do {
                let answer = try await client.perform(call, arguments)
                XCTAssertTrue(marked || Self.idempotent.contains(method), "\(label) was sent twice")
                XCTAssertEqual(answer.served, 0, "\(label): answered on a new connection")
            } catch {
                XCTAssertFalse(marked || Self.idempotent.contains(method), "\(label): \(error)")
                guard case .transport(let failure) = error.reason else { return XCTFail("\(label): \(error)") }
                XCTAssertEqual(failure.code, .networkConnectionLost, label)
                XCTAssertTrue("\(error)".contains("may or may not have processed it"), "\(label): \(error)")
                XCTAssertTrue("\(error)".contains("isIdempotent"), "\(label): \(error)")
                let record = try await FaultServer.record(tag, at: try FaultServer.url())
                XCTAssertEqual(record.count, 1, "\(label): the server saw it once")
            }
        }
    }

    /// A kept-alive connection the server closed after its answer (without saying `close`), idle
    /// in the pool when the next request comes: no method loses its call to it. The test waits
    /// until the server is done with the connection, so its close is in the client's socket
    /// before the request goes out: the pool or the exchange sees it and opens a new connection
    /// (the request is never written on the closed one, so a POST goes too).
    func testAConnectionTheServerClosedWhileIdleCostsNoCall() async throws {
        try XCTSkipUnless(
            RoutingTransport.usesDirectHTTP1ByDefault, "kept-alive connections of every method are Linux's")
        let closedAfterAnswer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"
        for method in Self.methods {
            let client = try client()
            let tag = UUID().uuidString
            _ = try await client.perform(Self.raw(.get), HostileServerTests.encoded(closedAfterAnswer), "0", tag)
            // Done with the request means the server shut its side down and closed the socket.
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertEqual(record.finished, 1)
            let body: [any Sendable] = method == .get ? [] : [["name": "value"]]
            let answer = try await client.response(for: Self.peer(method), arguments: body)
            XCTAssertEqual(answer.value.served, 0, "\(method): a new connection")
            XCTAssertEqual(answer.metrics.transactions.first?.connectionReused, false, "\(method)")
        }
    }

    /// A POST, PUT, PATCH and DELETE with a body in memory ride the same kept-alive connection
    /// one after another, and each body arrives whole.
    func testEveryMethodWithABodyInMemoryReusesOneConnection() async throws {
        try XCTSkipUnless(
            RoutingTransport.usesDirectHTTP1ByDefault, "kept-alive connections of every method are Linux's")
        let client = try client()
        var served: [Int] = []
        var ports: Set<Int> = []
        for method in Self.methods where method != .get {
            let answer = try await client.response(for: Self.peer(method), arguments: [["name": "value"]])
            served.append(answer.value.served)
            ports.insert(answer.value.port)
            XCTAssertEqual(answer.metrics.transactions.first?.requestBodyBytes, 16, "\(method)")
        }
        XCTAssertEqual(served, Array(0..<served.count))
        XCTAssertEqual(ports.count, 1)
    }
}
