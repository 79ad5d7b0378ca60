import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fault server (Tests/Servers/fault_server.py) that `Scripts/test` starts twice on 127.0.0.1.
enum FaultServer {
    static func url(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try HTTPBin.serverURL("WEBSERVICEKIT_FAULT_URL", file: file, line: line)
    }

    /// The second fault server: another origin.
    static func otherURL(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try HTTPBin.serverURL("WEBSERVICEKIT_FAULT_OTHER_URL", file: file, line: line)
    }

    /// What the server saw of the requests that carried `tag`.
    struct Record: Decodable, Sendable {
        let count: Int
        let authorization: [String]
        let sent: Int
        let finished: Int
    }

    /// The server's record for `tag`, once it is done with every request (a request it is still
    /// answering, such as a body the client stopped reading, ends when its send fails).
    static func record(_ tag: String, at root: URL) async throws -> Record {
        let client = WebServiceClient(serviceRoot: root)
        let call = WebServiceCall<Record>(relativePath: "count?tag=%%0%%")
        for _ in 0..<300 {
            let record = try await client.perform(call, tag)
            if record.finished == record.count { return record }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try await client.perform(call, tag)
    }
}

/// One delivery counter for the callback form.
private final class Deliveries: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var errors: [WebServiceError] = []
    private var successes = 0

    func add(_ result: Result<Void, WebServiceError>) -> Int {
        lock.withLock {
            switch result {
            case .success: successes += 1
            case .failure(let error): errors.append(error)
            }
            return successes + errors.count
        }
    }

    var all: (errors: [WebServiceError], successes: Int) { lock.withLock { (errors, successes) } }
}

/// The fault matrix of Docs/Reliability.md: one test per misbehaviour of a loopback server. Each
/// checks the typed error (case and category), that the callback form delivers exactly once and
/// the async form throws the same, that neither a memory nor a disk cache keeps anything of the
/// failed response, and how many requests reached the server (retries are bounded).
final class FaultMatrixTests: XCTestCase {
    private var directories: [URL] = []

    override func tearDown() {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
        directories = []
        super.tearDown()
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "FaultMatrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        directories.append(directory)
        return directory
    }

    private func tag() -> String { UUID().uuidString.lowercased() }

    /// The files in `directory`, hidden ones included.
    private func files(in directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    /// Runs `call` once with the callback form (a memory cache on the client) and once with the
    /// async form (a disk cache), checks both fail alike, exactly once, with nothing cached, and
    /// returns the error.
    @discardableResult
    private func assertFault<Response: Sendable>(
        _ call: WebServiceCall<Response>, _ arguments: [any Sendable] = [], root: URL? = nil,
        category: WebServiceError.Category, configure: (WebServiceClient) -> Void = { _ in },
        file: StaticString = #filePath, line: UInt = #line, matches: (WebServiceError) -> Bool
    ) async throws -> WebServiceError? {
        let root = try root ?? FaultServer.url()

        // The callback form, with a memory cache.
        let memory = HTTPCache(memoryLimit: 64 << 20)
        let callbackClient = WebServiceClient(serviceRoot: root)
        callbackClient.cache = memory
        configure(callbackClient)
        let deliveries = Deliveries()
        let first = expectation(description: "first delivery")
        callbackClient.perform(call, arguments) { result in
            if deliveries.add(result.map { _ in () }) == 1 { first.fulfill() }
        }
        await fulfillment(of: [first], timeout: 60)
        // A second delivery would come now, if there were one.
        try await Task.sleep(nanoseconds: 300_000_000)
        let (errors, successes) = deliveries.all
        XCTAssertEqual(successes, 0, "the call cannot succeed", file: file, line: line)
        XCTAssertEqual(errors.count, 1, "exactly one callback: \(errors)", file: file, line: line)
        XCTAssertEqual(memory.byteCount, 0, "nothing stored in the memory cache", file: file, line: line)

        // The async form, with a disk cache.
        let directory = try temporaryDirectory().appendingPathComponent("cache")
        let disk = try HTTPCache(directory: directory)
        let asyncClient = WebServiceClient(serviceRoot: root)
        asyncClient.cache = disk
        configure(asyncClient)
        var thrown: WebServiceError?
        do {
            _ = try await asyncClient.perform(call, arguments)
        } catch {
            thrown = error
        }
        XCTAssertEqual(disk.byteCount, 0, "nothing stored in the disk cache", file: file, line: line)
        XCTAssertEqual(files(in: directory), [], "no file in the disk cache", file: file, line: line)

        for error in errors + [thrown].compactMap({ $0 }) {
            XCTAssertTrue(matches(error), "unexpected error: \(error)", file: file, line: line)
            XCTAssertEqual(error.category, category, "\(error)", file: file, line: line)
        }
        XCTAssertNotNil(thrown, "the async form must throw", file: file, line: line)
        if let callback = errors.first, let thrown {
            XCTAssertEqual(transportCode(callback), transportCode(thrown), "both forms alike", file: file, line: line)
            XCTAssertEqual(callback.statusCode, thrown.statusCode, "both forms alike", file: file, line: line)
        }
        return thrown
    }

    private func transportCode(_ error: WebServiceError) -> URLError.Code? {
        guard case .transport(let urlError) = error.reason else { return nil }
        return urlError.code
    }

    // MARK: No response

    func testConnectionRefused() async throws {
        let root = URL(string: "http://127.0.0.1:\(closedLocalPort())/")!
        try await assertFault(WebServiceCall<Data>(relativePath: "ok"), root: root, category: .network) {
            self.transportCode($0) == .cannotConnectToHost
        }
    }

    func testResetBeforeHeaders() async throws {
        let tag = tag()
        try await assertFault(
            WebServiceCall<Data>(relativePath: "reset-before-headers?tag=\(tag)"), category: .network
        ) {
            self.transportCode($0) == .networkConnectionLost
        }
        // Two calls, one request each: nothing was retried.
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2)
    }

    /// The same reset on the direct HTTP/1.1 path, with a plain `InputStream` body: the call
    /// used to crash asking the stream for its error (Foundation on Linux traps in `streamError`
    /// on a stream that has none).
    /// A POST of a 4-byte streamed body, so that the call takes the direct HTTP/1.1 path; the
    /// error it fails with.
    private func directPost(_ path: String, limit: Int? = nil) async throws -> WebServiceError? {
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(),
            transport: RoutingTransport(configuration: .ephemeral, usesDirectHTTP1: true))
        client.maximumResponseBodySize = limit
        let body = RequestBody.stream(length: 4) { InputStream(data: Data("ping".utf8)) }
        do {
            _ = try await client.perform(WebServiceCall<Data>(method: .post, relativePath: path), [body])
            return nil
        } catch {
            return error
        }
    }

    func testResetBeforeHeadersOnTheDirectPath() async throws {
        let tag = tag()
        let thrown = try await directPost("reset-before-headers?tag=\(tag)")
        XCTAssertEqual(thrown.flatMap(transportCode), .networkConnectionLost, "\(String(describing: thrown))")
        XCTAssertEqual(thrown?.category, .network)
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 1)
    }

    // MARK: Partial bodies

    /// A body cut short at `path`: the connection lost mid-response, one request, nothing kept.
    private func assertCutShort(_ path: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let tag = tag()
        try await assertFault(
            WebServiceCall<[Int]>(relativePath: "\(path)?tag=\(tag)"), category: .network, file: file, line: line
        ) {
            self.transportCode($0) == .networkConnectionLost
        }
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2, file: file, line: line)
    }

    func testResetMidBody() async throws {
        try await assertCutShort("reset-mid-body")
    }

    func testTruncatedChunkedBody() async throws {
        try await assertCutShort("truncated-chunked")
    }

    func testContentLengthLargerThanTheBody() async throws {
        try await assertCutShort("short-content-length")
    }

    func testSlowDripPastTheTimeout() async throws {
        let tag = tag()
        try await assertFault(
            WebServiceCall<Data>(relativePath: "drip?interval=0.2&bytes=1000&tag=\(tag)", timeout: 1),
            category: .network
        ) { $0.isTimeout }
        // The client hung up: the server could not send the whole body.
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2)
        XCTAssertLessThan(record.sent, 1000)
    }

    /// A download to a file cut short, on both paths (the direct HTTP/1.1 one and the session's
    /// download task): the transport's error, and no file left behind, temporary or final.
    func testDownloadsCutShortLeaveNoFile() async throws {
        for path in ["reset-mid-body", "truncated-chunked", "short-content-length"] {
            for direct in [true, false] {
                let tag = tag()
                let directory = try temporaryDirectory()
                let client = WebServiceClient(
                    serviceRoot: try FaultServer.url(),
                    transport: RoutingTransport(configuration: .ephemeral, usesDirectHTTP1: direct))
                let call = WebServiceCall<DownloadedFile>(relativePath: "\(path)?tag=\(tag)")
                let destination = DownloadDestination(directory.appendingPathComponent("body.json"))
                let deliveries = Deliveries()
                let first = expectation(description: "first delivery")
                client.perform(call, [destination]) { result in
                    if deliveries.add(result.map { _ in () }) == 1 { first.fulfill() }
                }
                await fulfillment(of: [first], timeout: 60)
                try await Task.sleep(nanoseconds: 300_000_000)
                let (errors, successes) = deliveries.all
                XCTAssertEqual(successes, 0, "\(path), direct: \(direct)")
                XCTAssertEqual(errors.count, 1, "\(path), direct: \(direct): \(errors)")
                for error in errors {
                    XCTAssertEqual(self.transportCode(error), .networkConnectionLost, "\(path), \(direct): \(error)")
                    XCTAssertEqual(error.category, .network)
                }
                XCTAssertEqual(files(in: directory), [], "\(path), direct: \(direct)")
                let record = try await FaultServer.record(tag, at: FaultServer.url())
                XCTAssertEqual(record.count, 1, "\(path), direct: \(direct)")
            }
        }
    }

    // MARK: Responses that are whole but wrong

    func testServerError() async throws {
        let tag = tag()
        try await assertFault(WebServiceCall<Data>(relativePath: "status/503?tag=\(tag)"), category: .http) {
            guard case .unacceptableStatus(503, _, let body) = $0.reason else { return false }
            return String(decoding: body, as: UTF8.self) == "status 503 from the fault server\n"
        }
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2, "a 5xx is not retried")
    }

    struct OK: Decodable, Sendable { let ok: Bool }

    func testInvalidJSON() async throws {
        let tag = tag()
        try await assertFault(WebServiceCall<OK>(relativePath: "invalid-json?tag=\(tag)"), category: .ignoreData) {
            guard case .decoding(let failure) = $0.reason else { return false }
            return failure.statusCode == 200 && failure.bodyExcerpt == "{\"ok\": tru"
        }
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2)
    }

    func testWrongContentType() async throws {
        let tag = tag()
        try await assertFault(
            WebServiceCall<OK>(relativePath: "wrong-content-type?tag=\(tag)"), category: .ignoreData
        ) {
            guard case .decoding(let failure) = $0.reason else { return false }
            return failure.isMalformedBody && failure.bodyExcerpt.hasPrefix("<html>")
        }
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2)
    }

    // MARK: The response size limit

    /// A body over a 1 MiB limit, framed by `Content-Length`, chunked, and by the connection's
    /// close: the call fails with nothing kept. With `Content-Length` (1 GiB) it fails on the
    /// head: the server cannot send it all. Without, the session cancels its task when the bytes
    /// pass the limit, but Foundation on Linux reads ahead of its delegate with no back-pressure
    /// (on loopback it had sometimes read the whole body by then), so only 64 MiB are offered and
    /// how much the server sent is not checked; the direct path's test checks it.
    func testHugeBodyOverTheLimit() async throws {
        for (framing, total) in [("length", 1 << 30), ("chunked", 64 << 20), ("close", 64 << 20)] {
            let tag = tag()
            try await assertFault(
                WebServiceCall<Data>(relativePath: "huge?bytes=\(total)&framing=\(framing)&tag=\(tag)"),
                category: .ignoreData, configure: { $0.maximumResponseBodySize = 1 << 20 }
            ) {
                guard case .responseTooLarge(1 << 20, 200) = $0.reason else { return false }
                return true
            }
            let record = try await FaultServer.record(tag, at: FaultServer.url())
            XCTAssertEqual(record.count, 2, framing)
            if framing == "length" {
                XCTAssertLessThan(record.sent, total, "the client refused the body on its head")
            }
        }
    }

    /// The same limit on the direct HTTP/1.1 path (a streamed upload's response).
    func testHugeBodyOverTheLimitOnTheDirectPath() async throws {
        let total = 64 << 20
        for framing in ["length", "chunked", "close"] {
            let tag = tag()
            let thrown = try await directPost(
                "huge?bytes=\(total)&framing=\(framing)&tag=\(tag)", limit: 1 << 20)
            guard case .responseTooLarge(1 << 20, 200)? = thrown?.reason else {
                XCTFail("\(framing): \(String(describing: thrown))")
                continue
            }
            let record = try await FaultServer.record(tag, at: FaultServer.url())
            XCTAssertEqual(record.count, 1, framing)
            XCTAssertLessThan(record.sent, total, "\(framing): the client read no further")
        }
    }

    /// Under the limit, the same endpoint succeeds: the limit is what failed the calls above.
    func testBodyUnderTheLimitSucceeds() async throws {
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        client.maximumResponseBodySize = 1 << 20
        for framing in ["length", "chunked", "close"] {
            let value = try await client.perform(
                WebServiceCall<Data>(relativePath: "huge?bytes=1000&framing=\(framing)"))
            XCTAssertEqual(value.count, 1000, framing)
        }
    }

    // MARK: Authentication and redirects

    /// Older rows: HTTPBinAuthenticationTests.testBasicWrongPassword and the Digest tests there.
    func testEndless401() async throws {
        let providers: [(String, @Sendable () -> any AuthenticationProvider)] = [
            ("Basic", { BasicAuthenticationProvider(user: "user", password: "passwd") }),
            ("Digest", { DigestAuthenticationProvider(user: "user", password: "passwd") }),
        ]
        for (name, makeProvider) in providers {
            let tag = tag()
            try await assertFault(
                WebServiceCall<Data>(relativePath: "endless-401?tag=\(tag)"), category: .authentication,
                configure: { $0.authenticationProvider = makeProvider() }
            ) {
                guard case .authentication = $0.reason else { return false }
                return true
            }
            let record = try await FaultServer.record(tag, at: FaultServer.url())
            // Per call: the first request and one answer; refused credentials are not sent again.
            XCTAssertEqual(record.count, 4, name)
            XCTAssertEqual(record.authorization.count, 2, name)
        }
    }

    /// Older row: HTTPBinAuthenticationTests.testDigestStaleNonceIsRenewedWithABoundedCost (one
    /// stale nonce); here every answer is called stale.
    func testEndlessStaleDigest() async throws {
        let tag = tag()
        try await assertFault(
            WebServiceCall<Data>(relativePath: "stale-digest?tag=\(tag)"), category: .authentication,
            configure: { $0.authenticationProvider = DigestAuthenticationProvider(user: "user", password: "passwd") }
        ) {
            guard case .authentication = $0.reason else { return false }
            return true
        }
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        // Per call: the first request, the answer, and two answers to a stale nonce
        // (DigestAuthenticationProvider.maximumStaleRetries); then the call gives up.
        XCTAssertEqual(record.count, 8)
        XCTAssertEqual(record.authorization.count, 6)
        XCTAssertTrue(record.authorization.allSatisfy { $0.hasPrefix("Digest ") })
    }

    /// Older rows: HTTPBinRedirectTests.testTooManyRedirects, RedirectTests.testRedirectLoopIsCappedWithATypedError.
    func testRedirectLoop() async throws {
        let tag = tag()
        try await assertFault(
            WebServiceCall<Data>(relativePath: "redirect-loop?tag=\(tag)"), category: .network,
            configure: { $0.maximumRedirects = 3 }
        ) {
            self.transportCode($0) == .httpTooManyRedirects
        }
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        // Per call: the request and three redirects followed; the fourth is refused.
        XCTAssertEqual(record.count, 8)
    }

    /// Older rows: HTTPBinRedirectTests.testCredentialsDoNotFollowARedirectToAnotherOrigin,
    /// RedirectTests.testCrossOriginRedirectDropsCredentialsButKeepsOtherFields.
    func testRedirectToAnotherOriginCarriesNoCredentials() async throws {
        let tag = tag()
        let other = try FaultServer.otherURL().appendingPathComponent("ok")
        var target = URLComponents(url: other, resolvingAgainstBaseURL: false)!
        target.queryItems = [URLQueryItem(name: "tag", value: tag)]
        let encoded = target.url!.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        client.sharedHeaders = ["Authorization": "Bearer secret-token"]
        let value = try await client.perform(
            WebServiceCall<OK>(relativePath: "redirect-to?url=\(encoded)&tag=\(tag)"))
        XCTAssertTrue(value.ok)
        let first = try await FaultServer.record(tag, at: FaultServer.url())
        let second = try await FaultServer.record(tag, at: FaultServer.otherURL())
        XCTAssertEqual(first.authorization, ["Bearer secret-token"])
        XCTAssertEqual(second.count, 1)
        XCTAssertEqual(second.authorization, [], "credentials never follow a redirect to another origin")
    }

    // MARK: The disk cache

    private static func okCall(_ tag: String) -> WebServiceCall<OK> {
        WebServiceCall<OK>(relativePath: "ok?tag=\(tag)")
    }

    /// The cache's directory cannot be written: the call still succeeds from the network and
    /// nothing is stored. As root, permissions do not stop writes, so the directory is replaced
    /// by a regular file instead.
    func testUnwritableCacheDirectory() async throws {
        let tag = tag()
        let directory = try temporaryDirectory().appendingPathComponent("cache")
        let cache = try HTTPCache(directory: directory)
        if geteuid() == 0 {
            try FileManager.default.removeItem(at: directory)
            XCTAssertTrue(FileManager.default.createFile(atPath: directory.path, contents: Data("x".utf8)))
        } else {
            XCTAssertEqual(chmod(directory.path, 0o500), 0)
        }
        defer { _ = chmod(directory.path, 0o700) }
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        client.cache = cache
        for _ in 0..<2 {
            let response = try await client.response(for: Self.okCall(tag))
            XCTAssertTrue(response.value.ok)
            XCTAssertEqual(response.source, .network)
        }
        XCTAssertEqual(cache.byteCount, 0)
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2, "nothing was stored, so both calls asked the server")
    }

    /// The disk is full: writes fail (EFBIG here, from a file size limit set around the calls,
    /// as ENOSPC would): the call still succeeds from the network and nothing is stored.
    func testFullDisk() async throws {
        let tag = tag()
        let directory = try temporaryDirectory().appendingPathComponent("cache")
        let cache = try HTTPCache(directory: directory)
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        client.cache = cache
        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved), 0)
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var small = saved
        small.rlim_cur = 64
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small), 0)
        var responses: [WebServiceResponse<OK>] = []
        var failure: (any Error)?
        do {
            for _ in 0..<2 { responses.append(try await client.response(for: Self.okCall(tag))) }
        } catch {
            failure = error
        }
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved), 0)
        signal(SIGXFSZ, previousHandler)
        XCTAssertNil(failure)
        XCTAssertEqual(responses.map(\.source), [.network, .network])
        XCTAssertEqual(cache.byteCount, 0)
        XCTAssertEqual(files(in: directory), [], "no partial file is left")
        let record = try await FaultServer.record(tag, at: FaultServer.url())
        XCTAssertEqual(record.count, 2)
    }

    /// A stored response's file is damaged (cut short, garbage, another format version): the
    /// call asks the server again and succeeds, the damaged file is replaced by a good one, and
    /// the next call is served from it. Holds for the cache that wrote the file and for a new one
    /// on the same directory (the next process).
    func testCorruptedCacheEntries() async throws {
        let damages: [(String, (Data) -> Data)] = [
            ("truncated", { $0.prefix($0.count / 2) }),
            ("garbage", { Data(repeating: 0xA5, count: $0.count) }),
            (
                "version",
                {
                    var data = $0; data[5] = 99; return data
                }
            ),
            ("empty", { _ in Data() }),
        ]
        for (name, damage) in damages {
            for reopened in [false, true] {
                let tag = tag()
                let directory = try temporaryDirectory().appendingPathComponent("cache")
                var cache = try HTTPCache(directory: directory)
                let client = WebServiceClient(serviceRoot: try FaultServer.url())
                client.cache = cache
                _ = try await client.perform(Self.okCall(tag))
                let entries = files(in: directory)
                XCTAssertEqual(entries.count, 1, name)
                for entry in entries {
                    let path = directory.appendingPathComponent(entry)
                    try damage(try Data(contentsOf: path)).write(to: path)
                }
                if reopened {
                    cache = try HTTPCache(directory: directory)
                    client.cache = cache
                }
                let again = try await client.response(for: Self.okCall(tag))
                XCTAssertTrue(again.value.ok, name)
                XCTAssertEqual(again.source, .network, "\(name), reopened: \(reopened)")
                let cached = try await client.response(for: Self.okCall(tag))
                XCTAssertEqual(cached.source, .cache, "\(name), reopened: \(reopened): the good response was stored")
                let record = try await FaultServer.record(tag, at: FaultServer.url())
                XCTAssertEqual(record.count, 2, "\(name), reopened: \(reopened)")
            }
        }
    }
}
