import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Body framings no server may send (RFC 9112 §6 and §7.1), from the fault server's `/raw` route,
/// which writes the bytes exactly as given and keeps the connection open after them (`keep=1`).
/// On the direct HTTP/1.1 path each is a typed error, never a trap or a body read from undecoded
/// bytes; nothing is cached; and the connection is not used again: the next call to the origin
/// goes out on a new one. The session route (libcurl) is checked for the same outcome where
/// libcurl gives it, and its own reading is written down where it differs.
final class HostileFramingTests: XCTestCase {
    /// What `/keep-alive/peer` tells of the connection that carried the request.
    struct Peer: Decodable, Sendable {
        let port: Int
        /// Requests served before this one on the connection.
        let served: Int
    }

    private static let raw = WebServiceCall<Data>(relativePath: "raw?b64=%%0%%&keep=1&tag=%%1%%")
    private static let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer")

    /// One hostile framing: the fields after the status line and the bytes after the head.
    struct Framing: Sendable {
        var name: String
        var fields: String
        var body: String

        /// The whole response, cacheable for an hour if it were read.
        var response: String {
            "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nCache-Control: max-age=3600\r\n\(fields)\r\n\(body)"
        }
    }

    static let framings = [
        // RFC 9112 §7.1: chunk-size = 1*HEXDIG. `-5` trapped; `+5` was read and the connection reused.
        Framing(name: "chunk size -5", fields: "Transfer-Encoding: chunked\r\n", body: "-5\r\nhello\r\n0\r\n\r\n"),
        Framing(name: "chunk size +5", fields: "Transfer-Encoding: chunked\r\n", body: "+5\r\nhello\r\n0\r\n\r\n"),
        // RFC 9112 §6.1, §7: a coding the client does not decode (gzip bytes were once returned as
        // the body; gzip, x-gzip and deflate are now decoded: TransferCodingTests).
        Framing(
            name: "Transfer-Encoding: compress, chunked", fields: "Transfer-Encoding: compress, chunked\r\n",
            body: "5\r\n\u{1F}\u{9D}\u{90}\u{0}\u{0}\r\n0\r\n\r\n"),
        // §6.1: chunked is applied once, last.
        Framing(
            name: "Transfer-Encoding: chunked, gzip", fields: "Transfer-Encoding: chunked, gzip\r\n",
            body: "5\r\nhello\r\n0\r\n\r\n"),
        // RFC 9112 §6.3 item 4: an unknown coding; the body was read to the close and returned raw.
        Framing(
            name: "Transfer-Encoding: foo with Content-Length",
            fields: "Transfer-Encoding: foo\r\nContent-Length: 5\r\n",
            body: "hello"),
        // RFC 9112 §6.3 item 5: an invalid Content-Length was read as no length.
        Framing(name: "Content-Length empty", fields: "Content-Length: \r\n", body: "hello"),
        Framing(name: "Content-Length ,", fields: "Content-Length: ,\r\n", body: "hello"),
    ]

    private func client(direct: Bool, cache: HTTPCache) throws -> WebServiceClient {
        if direct {
            try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the direct HTTP/1.1 path is for Linux")
        }
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(),
            transport: RoutingTransport(configuration: .ephemeral, usesDirectHTTP1: direct))
        client.cache = cache
        return client
    }

    func testHostileFramingsFailTypedOnTheDirectPathAndTheConnectionIsNotReused() async throws {
        for framing in Self.framings {
            let cache = HTTPCache()
            let client = try client(direct: true, cache: cache)
            // A kept-alive connection first, which the hostile response then arrives on.
            let before = try await client.perform(Self.peer)
            // The peer's answer may be stored; the hostile one, fresh for an hour, may not.
            let cached = cache.byteCount
            do {
                let data = try await client.perform(
                    Self.raw, HostileServerTests.encoded(framing.response), UUID().uuidString)
                XCTFail(
                    "\(framing.name): read as \(data.count) bytes \(String(decoding: data, as: UTF8.self).debugDescription)"
                )
            } catch {
                guard case .transport(let failure) = error.reason else { return XCTFail("\(framing.name): \(error)") }
                XCTAssertEqual(failure.code, .badServerResponse, "\(framing.name): \(error)")
                XCTAssertTrue("\(error)".contains("RFC 9112"), "\(framing.name): \(error)")
            }
            XCTAssertEqual(cache.byteCount, cached, "\(framing.name): a refused response was cached")
            // The server would answer another request on the hostile connection (keep=1): a new
            // connection has served nothing before.
            let after = try await client.perform(Self.peer)
            XCTAssertEqual(after.served, 0, "\(framing.name): the connection was used again (\(before) then \(after))")
            XCTAssertNotEqual(after.port, before.port, framing.name)
        }
    }

    /// The session route: libcurl frames the body itself and refuses each of these too, in its
    /// own words (`.transport` with libcurl's message): "Illegal or missing hexadecimal sequence in
    /// chunked-encoding" for `-5` and `+5`, a failed gzip decoding for `gzip, chunked` (libcurl
    /// implements that coding), "Unrecognized content encoding type" for `foo`, "Invalid
    /// Content-Length" for an empty one and `,`. Nothing is cached, and the origin stays usable.
    func testHostileFramingsFailOnTheSessionRouteToo() async throws {
        for framing in Self.framings {
            let cache = HTTPCache()
            let client = try client(direct: false, cache: cache)
            do {
                let data = try await client.perform(
                    Self.raw, HostileServerTests.encoded(framing.response), UUID().uuidString)
                XCTFail("\(framing.name): read as \(String(decoding: data, as: UTF8.self).debugDescription)")
            } catch {
                // libcurl's words for a framing it refuses are normalised to the direct path's
                // code (TaskExchange.normalized); libcurl implements the gzip transfer coding,
                // and says so when the body is not gzip.
                guard case .transport(let failure) = error.reason,
                    failure.code == .badServerResponse || failure.code == .cannotDecodeContentData
                else {
                    return XCTFail("\(framing.name): \(error)")
                }
            }
            XCTAssertEqual(cache.byteCount, 0, "\(framing.name): a refused response was cached")
            _ = try await client.perform(Self.peer)
        }
    }

    /// `Set-Cookie: 😀=` (or a name with a combining mark and an empty value) traps in
    /// Foundation's cookie parser on Linux, which offsets UTF-16 positions as Characters: found by
    /// the cookie fuzz target. The transport's cookie jar drops such a cookie and keeps the rest,
    /// on both routes: the session is made with the cookie policy `.never`, so that
    /// FoundationNetworking never parses a `Set-Cookie` line itself.
    func testACookieThatTrapsFoundationIsDroppedOnEveryRoute() async throws {
        let headers = WebServiceCall<[String: String]>(relativePath: "headers")
        for direct in [true, false] {
            let client = try client(direct: direct, cache: HTTPCache())
            for hostile in ["\u{1F600}=", "a\u{301}=", "good=1; a\u{301}="] {
                let response =
                    "HTTP/1.1 200 OK\r\nSet-Cookie: \(hostile)\r\nSet-Cookie: kept=1; Path=/\r\nContent-Length: 2\r\n\r\nok"
                let data = try await client.perform(Self.raw, HostileServerTests.encoded(response), UUID().uuidString)
                XCTAssertEqual(data, Data("ok".utf8), hostile.debugDescription)
                let seen = try await client.perform(headers)
                XCTAssertEqual(seen["cookie"], "kept=1", "direct \(direct) \(hostile.debugDescription): \(seen)")
            }
        }
    }
}
