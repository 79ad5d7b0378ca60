import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Item 10 through the cache stage, with canned answers: a stored full 200 answers one byte range
/// with a 206 (RFC 9110 §14.2, §14.4, §15.3.7); what the cache leaves to the server goes there as
/// written; partial answers are never stored.
final class RangeCacheStageTests: XCTestCase {
    private let alphabet = "abcdefghijklmnopqrstuvwxyz"

    private func client(_ stubs: StubTransport) -> (WebServiceClient, HTTPCache) {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let cache = HTTPCache()
        client.cache = cache
        return (client, cache)
    }

    /// The full answer of `/letters`: 26 bytes, with a length and strong validators.
    private func full(maxAge: Int = 3600, etag: String = "\"v1\"", extra: HTTPHeaders = [:]) -> StubTransport.Stub {
        var headers: HTTPHeaders = [
            "Cache-Control": "max-age=\(maxAge)", "ETag": etag, "Content-Length": "26", "Content-Type": "text/plain",
            "Last-Modified": "Tue, 01 Jan 2030 00:00:00 GMT", "Date": "Tue, 01 Jan 2030 00:00:10 GMT",
        ]
        for field in extra { headers[field.name] = field.value }
        return .init(headers: headers, body: Data(alphabet.utf8))
    }

    private func call(_ headers: [String: String]) -> WebServiceCall<Data> {
        WebServiceCall<Data>(relativePath: "letters", headers: headers, successCodes: [200..<300, 416..<417])
    }

    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    private func field(_ name: String, of request: StubTransport.RecordedRequest?) -> String? {
        request?.request.value(forHTTPHeaderField: name)
    }

    func testOneRangeIsCutFromTheFreshStoredResponse() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/letters" }, with: full())
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        let cases: [(range: String, body: String, contentRange: String)] = [
            ("bytes=0-9", "abcdefghij", "bytes 0-9/26"),
            ("bytes=20-", "uvwxyz", "bytes 20-25/26"),
            ("bytes=-5", "vwxyz", "bytes 21-25/26"),
            ("bytes=25-25", "z", "bytes 25-25/26"),
            ("bytes=10-1000", "klmnopqrstuvwxyz", "bytes 10-25/26"),
            ("bytes=-1000", alphabet, "bytes 0-25/26"),
            ("bytes=0-\(String(repeating: "9", count: 300))", alphabet, "bytes 0-25/26"),
            ("BYTES = 3-4 , ", "de", "bytes 3-4/26"),
        ]
        for (range, body, contentRange) in cases {
            let answer = try await client.response(for: call(["Range": range]))
            XCTAssertEqual(answer.statusCode, 206, range)
            XCTAssertEqual(answer.source, .cache, range)
            XCTAssertEqual(text(answer.body), body, range)
            XCTAssertEqual(answer.headers["Content-Range"], contentRange, range)
            XCTAssertEqual(answer.headers["Content-Length"], String(body.utf8.count), range)
            // §15.3.7: the fields a 200 would carry stay (ETag, Cache-Control, Date, Content-Type…).
            XCTAssertEqual(answer.headers["ETag"], "\"v1\"", range)
            XCTAssertEqual(answer.headers["Cache-Control"], "max-age=3600", range)
            XCTAssertEqual(answer.headers["Content-Type"], "text/plain", range)
            XCTAssertNotNil(answer.headers["Age"], range)
            XCTAssertEqual(answer.headers.values(for: "Content-Length").count, 1, range)
        }
        XCTAssertEqual(stubs.requests.count, 1, "every range came from the cache")
        let plain = try await client.response(for: call([:]))
        XCTAssertEqual(plain.statusCode, 200)
        XCTAssertEqual(text(plain.body), alphabet, "the stored response is whole")
    }

    /// §13.1.5: the range only when `If-Range` matches the stored validator strongly; otherwise
    /// the full stored 200, as the origin would send.
    func testIfRangeChoosesBetweenTheRangeAndTheWholeResponse() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/letters" }, with: full())
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        let cases: [(ifRange: String, partial: Bool)] = [
            ("\"v1\"", true),
            ("\"v2\"", false),
            ("W/\"v1\"", false),
            ("Tue, 01 Jan 2030 00:00:00 GMT", true),
            ("Tue, 01 Jan 2030 00:00:01 GMT", false),
            ("not a validator", false),
        ]
        for (ifRange, partial) in cases {
            let answer = try await client.response(for: call(["Range": "bytes=0-1", "If-Range": ifRange]))
            XCTAssertEqual(answer.statusCode, partial ? 206 : 200, ifRange)
            XCTAssertEqual(text(answer.body), partial ? "ab" : alphabet, ifRange)
            XCTAssertEqual(answer.source, .cache, ifRange)
            XCTAssertEqual(answer.headers["Content-Range"], partial ? "bytes 0-1/26" : nil, ifRange)
        }
        XCTAssertEqual(stubs.requests.count, 1)
    }

    /// §14.2: a server ignores an invalid ranges-specifier; so does the cache, serving the whole
    /// stored response.
    func testAnInvalidRangeIsIgnored() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/letters" }, with: full())
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        for range in ["bytes=5-2", "bytes=x-", "bytes", "bytes=0-1;x", "bytes=-"] {
            let answer = try await client.response(for: call(["Range": range]))
            XCTAssertEqual(answer.statusCode, 200, range)
            XCTAssertEqual(answer.source, .cache, range)
            XCTAssertEqual(text(answer.body), alphabet, range)
        }
        XCTAssertEqual(stubs.requests.count, 1)
    }

    /// Several ranges, another unit, or a range past the stored length: the server's answer, to
    /// the request as written, and no partial answer stored.
    func testWhatTheCacheDoesNotAnswerGoesToTheServer() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/letters" }, with: full(),
            .init(
                statusCode: 206,
                headers: ["Content-Type": "multipart/byteranges; boundary=B", "Cache-Control": "max-age=60"],
                body: Data("--B--".utf8)),
            .init(
                statusCode: 206, headers: ["Content-Range": "items 0-1/9", "Cache-Control": "max-age=60"],
                body: Data("xy".utf8)),
            .init(statusCode: 416, headers: ["Content-Range": "bytes */26", "Cache-Control": "max-age=60"]))
        let (client, cache) = client(stubs)
        _ = try await client.response(for: call([:]))
        let storedBytes = cache.byteCount
        for (range, status) in [("bytes=0-1,5-6", 206), ("items=0-1", 206), ("bytes=26-", 416)] {
            let answer = try await client.response(for: call(["Range": range]))
            XCTAssertEqual(answer.statusCode, status, range)
            XCTAssertEqual(answer.source, .network, range)
            let sent = stubs.requests.last
            XCTAssertEqual(field("Range", of: sent), range, "sent as written")
            XCTAssertNil(field("If-None-Match", of: sent), "the cache added no validator")
        }
        XCTAssertEqual(stubs.requests.count, 4)
        XCTAssertEqual(cache.byteCount, storedBytes, "neither 206 nor the 416 was stored")
        let plain = try await client.response(for: call([:]))
        XCTAssertEqual(plain.source, .cache)
        XCTAssertEqual(text(plain.body), alphabet)
    }

    /// A stale stored response is revalidated first, the request's `Range` sent along; a 304
    /// freshens it and the range is cut from it.
    func testAStaleResponseIsRevalidatedBeforeTheRangeIsServed() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/letters" }, with: full(maxAge: 0),
            .init(statusCode: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=600"]))
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        let answer = try await client.response(for: call(["Range": "bytes=2-4", "If-Range": "\"v1\""]))
        XCTAssertEqual(answer.statusCode, 206)
        XCTAssertEqual(answer.source, .revalidatedCache)
        XCTAssertEqual(text(answer.body), "cde")
        XCTAssertEqual(answer.headers["Content-Range"], "bytes 2-4/26")
        XCTAssertEqual(answer.headers["Cache-Control"], "max-age=600", "freshened by the 304")
        let validation = stubs.requests.last
        XCTAssertEqual(field("If-None-Match", of: validation), "\"v1\"")
        XCTAssertEqual(field("Range", of: validation), "bytes=2-4")
        let again = try await client.response(for: call(["Range": "bytes=-2"]))
        XCTAssertEqual(again.source, .cache)
        XCTAssertEqual(text(again.body), "yz")
        XCTAssertEqual(stubs.requests.count, 2)
    }

    /// A stale response whose resource changed: the server's 206 passes through and is not
    /// stored; a 200 (the server ignored the range) replaces the stored response.
    func testAChangedResourceAnswersFromTheServer() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/letters" }, with: full(maxAge: 0),
            .init(
                statusCode: 206,
                headers: ["ETag": "\"v2\"", "Content-Range": "bytes 0-1/4", "Cache-Control": "max-age=60"],
                body: Data("AB".utf8)),
            .init(
                headers: ["ETag": "\"v2\"", "Content-Length": "4", "Cache-Control": "max-age=60"],
                body: Data("ABCD".utf8)))
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        let partial = try await client.response(for: call(["Range": "bytes=0-1"]))
        XCTAssertEqual(partial.statusCode, 206)
        XCTAssertEqual(partial.source, .network)
        XCTAssertEqual(text(partial.body), "AB")
        let whole = try await client.response(for: call(["Range": "bytes=0-1"]))
        XCTAssertEqual(whole.statusCode, 200, "the server's full answer is passed on as it came")
        XCTAssertEqual(text(whole.body), "ABCD")
        let cut = try await client.response(for: call(["Range": "bytes=1-2"]))
        XCTAssertEqual(cut.source, .cache, "the full 200 was stored")
        XCTAssertEqual(text(cut.body), "BC")
        XCTAssertEqual(cut.headers["Content-Range"], "bytes 1-2/4")
    }

    /// Nothing stored: the range goes to the server and its 206 is not stored.
    func testAPartialAnswerIsNeverStored() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/letters" },
            with: .init(
                statusCode: 206,
                headers: ["ETag": "\"v1\"", "Content-Range": "bytes 0-1/26", "Cache-Control": "max-age=3600"],
                body: Data("ab".utf8)))
        let (client, cache) = client(stubs)
        let first = try await client.response(for: call(["Range": "bytes=0-1"]))
        XCTAssertEqual(first.statusCode, 206)
        XCTAssertEqual(cache.byteCount, 0)
        let second = try await client.response(for: call(["Range": "bytes=0-1"]))
        XCTAssertEqual(second.source, .network)
        XCTAssertEqual(stubs.requests.count, 2)
    }

    /// A body without `Content-Length` or `Content-Encoding` may have been decoded by the
    /// transport (which drops both fields), so its positions are not the origin's: ranges go to
    /// the server. A body with a coding passed through is the bytes as sent, and is cut.
    func testOnlyBytesAsSentAreCut() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/letters" },
            with: .init(headers: ["Cache-Control": "max-age=3600"], body: Data(alphabet.utf8)),
            .init(statusCode: 206, headers: ["Content-Range": "bytes 0-1/40"], body: Data("??".utf8)))
        stubs.stub(
            where: { $0.url?.path == "/coded" },
            with: .init(
                headers: ["Cache-Control": "max-age=3600", "Content-Encoding": "x-custom"], body: Data([0, 1, 2, 255])))
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        let answer = try await client.response(for: call(["Range": "bytes=0-1"]))
        XCTAssertEqual(answer.source, .network)
        XCTAssertEqual(text(answer.body), "??")

        let coded = WebServiceCall<Data>(relativePath: "coded")
        _ = try await client.response(for: coded)
        let ranged = WebServiceCall<Data>(relativePath: "coded", headers: ["Range": "bytes=1-"])
        let cut = try await client.response(for: ranged)
        XCTAssertEqual(cut.statusCode, 206)
        XCTAssertEqual(cut.source, .cache)
        XCTAssertEqual(cut.body, Data([1, 2, 255]))
        XCTAssertEqual(cut.headers["Content-Encoding"], "x-custom", "the range counts the coded bytes (§14.1.2)")
        XCTAssertEqual(cut.headers["Content-Range"], "bytes 1-3/4")
    }

    /// `only-if-cached` with a range the stored response cannot answer: 504, nothing sent.
    func testOnlyIfCachedWithAnUnsatisfiableRangeIs504() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/letters" }, with: full())
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        let call = WebServiceCall<Data>(
            relativePath: "letters", headers: ["Range": "bytes=30-", "Cache-Control": "only-if-cached"],
            successCodes: [504..<505])
        let answer = try await client.response(for: call)
        XCTAssertEqual(answer.statusCode, 504)
        XCTAssertEqual(stubs.requests.count, 1)
    }

    /// §13.1.5: "A server MUST ignore an If-Range header field received in a request that does
    /// not contain a Range header field"; so does the cache, which serves the stored response.
    func testIfRangeWithoutRangeIsIgnored() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/letters" }, with: full())
        let (client, _) = client(stubs)
        _ = try await client.response(for: call([:]))
        let answer = try await client.response(for: call(["If-Range": "\"v0\""]))
        XCTAssertEqual(answer.statusCode, 200)
        XCTAssertEqual(answer.source, .cache)
        XCTAssertEqual(stubs.requests.count, 1)
    }

    /// A stale response served after a failure (here the offline fallback) is cut like a fresh one.
    func testAStaleFallbackIsCutToTheRange() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/letters" }, with: full(maxAge: 0), .init(error: URLError(.cannotConnectToHost)))
        let (client, _) = client(stubs)
        let offline = WebServiceCall<Data>(relativePath: "letters", cache: .offlineFallback)
        _ = try await client.response(for: offline)
        let ranged = WebServiceCall<Data>(
            relativePath: "letters", headers: ["Range": "bytes=-4"], cache: .offlineFallback)
        let answer = try await client.response(for: ranged)
        XCTAssertEqual(answer.statusCode, 206)
        XCTAssertEqual(answer.source, .staleCache)
        XCTAssertEqual(text(answer.body), "wxyz")
        XCTAssertEqual(answer.headers["Content-Range"], "bytes 22-25/26")
        XCTAssertEqual(stubs.requests.count, 2)
    }
}
