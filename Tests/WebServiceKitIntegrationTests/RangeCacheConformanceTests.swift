import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 22, items 9 and 10, against the fault server's scripted conversations (`/script` sends
/// each step's fields and bytes exactly as written; `/script-log` shows what each request
/// carried): ranges cut from a stored 200, what goes to the server instead, and answers under a
/// content coding the library does not decode.
final class RangeCacheConformanceTests: XCTestCase {
    private typealias Step = ScriptStep

    private static let letters = "abcdefghijklmnopqrstuvwxyz"

    private func client(_ route: HostileServerTests.Route? = nil) throws -> (WebServiceClient, HTTPCache) {
        let client: WebServiceClient
        if let route {
            client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: route.transport())
        } else {
            client = WebServiceClient(serviceRoot: try FaultServer.url())
        }
        let cache = HTTPCache()
        client.cache = cache
        return (client, cache)
    }

    private func call(_ path: String, _ headers: [String: String] = [:]) -> WebServiceCall<Data> {
        WebServiceCall<Data>(relativePath: path, headers: headers, successCodes: [200..<300, 416..<417])
    }

    private func text(_ body: Data) -> String { String(decoding: body, as: UTF8.self) }

    // MARK: - Item 10: ranges

    func testAStoredResponseAnswersOneRange() async throws {
        let tag = FaultScript.newTag("range")
        let path = try FaultScript.path(
            [Step(headers: [["Cache-Control", "max-age=3600"], ["ETag", "\"v1\""]], body: Self.letters)], tag: tag)
        let (client, _) = try client()
        _ = try await client.response(for: call(path))
        let cases: [(range: String, status: Int, body: String, contentRange: String?)] = [
            ("bytes=0-9", 206, "abcdefghij", "bytes 0-9/26"),
            ("bytes=24-", 206, "yz", "bytes 24-25/26"),
            ("bytes=-3", 206, "xyz", "bytes 23-25/26"),
            ("bytes=0-99999999999999999999999999", 206, Self.letters, "bytes 0-25/26"),
            ("bytes=9-3", 200, Self.letters, nil),
        ]
        for (range, status, body, contentRange) in cases {
            let answer = try await client.response(for: call(path, ["Range": range]))
            XCTAssertEqual(answer.statusCode, status, range)
            XCTAssertEqual(answer.source, .cache, range)
            XCTAssertEqual(text(answer.body), body, range)
            XCTAssertEqual(answer.headers["Content-Range"], contentRange, range)
            XCTAssertEqual(answer.headers["Content-Length"], String(body.utf8.count), range)
            XCTAssertEqual(answer.headers["ETag"], "\"v1\"", range)
        }
        let ifRange = try await client.response(for: call(path, ["Range": "bytes=0-0", "If-Range": "\"v0\""]))
        XCTAssertEqual(ifRange.statusCode, 200, "If-Range names another representation: the whole one")
        XCTAssertEqual(text(ifRange.body), Self.letters)
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 1, "every range came from the cache")
    }

    func testAStaleResponseIsRevalidatedWithTheRange() async throws {
        let tag = FaultScript.newTag("range")
        let path = try FaultScript.path(
            [
                Step(headers: [["Cache-Control", "max-age=0"], ["ETag", "\"v1\""]], body: Self.letters),
                Step(status: 304, headers: [["Cache-Control", "max-age=600"], ["ETag", "\"v1\""]]),
            ], tag: tag)
        let (client, _) = try client()
        _ = try await client.response(for: call(path))
        let answer = try await client.response(for: call(path, ["Range": "bytes=1-2"]))
        XCTAssertEqual(answer.statusCode, 206)
        XCTAssertEqual(answer.source, .revalidatedCache)
        XCTAssertEqual(text(answer.body), "bc")
        XCTAssertEqual(answer.headers["Content-Range"], "bytes 1-2/26")
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent.last?["range"], "bytes=1-2")
        XCTAssertEqual(sent.last?["if-none-match"], "\"v1\"")
    }

    func testWhatTheCacheLeavesToTheServerIsSentAsWrittenAndNotStored() async throws {
        let tag = FaultScript.newTag("range")
        let path = try FaultScript.path(
            [
                Step(headers: [["Cache-Control", "max-age=3600"], ["ETag", "\"v1\""]], body: Self.letters),
                Step(
                    status: 206,
                    headers: [
                        ["Cache-Control", "max-age=3600"], ["Content-Type", "multipart/byteranges; boundary=B"],
                    ], body: "--B--"),
                Step(
                    status: 416, headers: [["Cache-Control", "max-age=3600"], ["Content-Range", "bytes */26"]],
                    body: ""),
            ], tag: tag)
        let (client, _) = try client()
        _ = try await client.response(for: call(path))
        let several = try await client.response(for: call(path, ["Range": "bytes=0-1,4-5"]))
        XCTAssertEqual(several.statusCode, 206)
        XCTAssertEqual(several.source, .network)
        let unsatisfiable = try await client.response(for: call(path, ["Range": "bytes=26-"]))
        XCTAssertEqual(unsatisfiable.statusCode, 416)
        XCTAssertEqual(unsatisfiable.headers["Content-Range"], "bytes */26")
        let plain = try await client.response(for: call(path))
        XCTAssertEqual(plain.source, .cache, "neither the 206 nor the 416 replaced the stored 200")
        XCTAssertEqual(text(plain.body), Self.letters)
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.map { $0["range"] }, [nil, "bytes=0-1,4-5", "bytes=26-"])
        XCTAssertEqual(sent.compactMap { $0["if-none-match"] }, [], "the cache added no validator")
    }

    // MARK: - Item 9: a content coding the library does not decode

    /// The direct path passes an unknown coding (`x-custom`, and `br`, which it does not decode)
    /// through; the cache stores and serves it like any other answer: the same fields, the bytes
    /// as sent, and ranges counted in those bytes (RFC 9110 §14.1.2).
    func testAnUndecodedCodingIsStoredAndServedAsSent() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the direct path is Linux's")
        let bytes = Data([0x1F, 0x8B, 0x00, 0xFF, 0x10, 0x80, 0x7F, 0x0D, 0x0A, 0x00, 0x42])
        for coding in ["x-custom", "br"] {
            let tag = FaultScript.newTag("range")
            let path = try FaultScript.path(
                [
                    Step(
                        headers: [
                            ["Cache-Control", "max-age=3600"], ["Content-Encoding", coding],
                            ["Content-Type", "application/octet-stream"], ["ETag", "\"c1\""],
                        ], body64: bytes.base64EncodedString())
                ], tag: tag)
            let (client, cache) = try client(.direct)
            let first = try await client.response(for: call(path))
            XCTAssertEqual(first.source, .network, coding)
            XCTAssertEqual(first.body, bytes, coding)
            XCTAssertGreaterThan(cache.byteCount, 0, "\(coding): stored")
            let second = try await client.response(for: call(path))
            XCTAssertEqual(second.source, .cache, coding)
            XCTAssertEqual(second.body, bytes, "\(coding): the body as sent")
            XCTAssertEqual(second.headers["Content-Encoding"], coding, coding)
            XCTAssertEqual(second.headers["Content-Length"], String(bytes.count), coding)
            XCTAssertEqual(second.headers["Content-Type"], "application/octet-stream", coding)
            let part = try await client.response(for: call(path, ["Range": "bytes=3-5"]))
            XCTAssertEqual(part.statusCode, 206, coding)
            XCTAssertEqual(part.body, bytes[3...5], coding)
            XCTAssertEqual(part.headers["Content-Encoding"], coding, coding)
            XCTAssertEqual(part.headers["Content-Range"], "bytes 3-5/\(bytes.count)", coding)
            let sent = try await FaultScript.requests(tag)
            XCTAssertEqual(sent.count, 1, coding)
        }
    }

    /// The session route: libcurl refuses a coding it does not know. The call fails with a
    /// transport error, the cache stores nothing, and the next call asks the server again.
    func testTheSessionRefusesAnUnknownCodingAndNothingIsStored() async throws {
        let tag = FaultScript.newTag("range")
        let path = try FaultScript.path(
            [
                Step(
                    headers: [["Cache-Control", "max-age=3600"], ["Content-Encoding", "x-custom"]],
                    body64: Data([1, 2, 3]).base64EncodedString())
            ], tag: tag)
        let (client, cache) = try client(.session)
        for attempt in 1...2 {
            do {
                _ = try await client.response(for: call(path))
                #if canImport(FoundationNetworking)
                    XCTFail("attempt \(attempt): libcurl accepted an unknown coding")
                #endif
            } catch {
                guard case .transport = error.reason else { return XCTFail("attempt \(attempt): \(error)") }
            }
        }
        #if canImport(FoundationNetworking)
            XCTAssertEqual(cache.byteCount, 0, "a failed call stores nothing")
            let sent = try await FaultScript.requests(tag)
            XCTAssertEqual(sent.count, 2, "the second call went to the server")
        #endif
    }

    /// The session route's libcurl decodes `br` (it advertises it in `Accept-Encoding`): the
    /// answer then says what the direct path says of a decoded body, no `Content-Encoding` and
    /// no wire `Content-Length`, and the cache stores and serves it so. Such a body is no longer
    /// the bytes a range counts, so a range goes to the server.
    func testTheSessionsDecodedBrotliNoLongerClaimsItsCoding() async throws {
        let text = "hello brotli, hello brotli, hello brotli"
        // brotlicffi 1.2.1.0's compression of `text`.
        let brotli = "GycA+B0JNk50bySG12JlaHIahIWNTrKlvQVT8QDMDL8E"
        let tag = FaultScript.newTag("range")
        let path = try FaultScript.path(
            [Step(headers: [["Cache-Control", "max-age=3600"], ["Content-Encoding", "br"]], body64: brotli)], tag: tag)
        let (client, _) = try client(.session)
        let first: WebServiceResponse<Data>
        do {
            first = try await client.response(for: call(path))
        } catch {
            // A libcurl built without brotli refuses the coding, as any unknown one.
            throw XCTSkip("this libcurl does not decode br: \(error)")
        }
        XCTAssertEqual(self.text(first.body), text)
        XCTAssertNil(first.headers["Content-Encoding"])
        XCTAssertNil(first.headers["Content-Length"], "the wire length is not the body's")
        let second = try await client.response(for: call(path))
        XCTAssertEqual(second.source, .cache)
        XCTAssertEqual(self.text(second.body), text)
        XCTAssertNil(second.headers["Content-Encoding"])
        let ranged = try await client.response(for: call(path, ["Range": "bytes=0-4"]))
        XCTAssertEqual(ranged.source, .network, "a decoded body answers no range")
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent.last?["range"], "bytes=0-4")
    }
}
