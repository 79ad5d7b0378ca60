import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streamed bodies to plain `http` URLs, sent by the transport's own HTTP/1.1 path (the default on
/// Linux), against the local httpbin under gunicorn.
final class DirectUploadTests: XCTestCase {
    private static let anything = WebServiceCall<Echo>(method: .post, relativePath: "anything")

    private func client(direct: Bool = true, configuration: URLSessionConfiguration = .ephemeral) throws
        -> WebServiceClient
    {
        WebServiceClient(
            serviceRoot: try HTTPBin.url(),
            transport: RoutingTransport(configuration: configuration, usesDirectHTTP1: direct))
    }

    private func body(length: Int64, announced: Int64?? = .none, delay: TimeInterval = 0, opens: Counter? = nil)
        -> RequestBody
    {
        .stream(length: announced ?? length) {
            opens?.increment()
            return PatternStream(length: length, delay: delay)
        }
    }

    /// The error a call fails with (`catch` patterns on typed errors crash Swift 6.3's SILGen here).
    private func failure(_ call: () async throws -> Void) async -> WebServiceError? {
        do {
            try await call()
            return nil
        } catch {
            return error as? WebServiceError
        }
    }

    func testAKnownLengthGoesAsContentLength() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
        let length: Int64 = 3 * 1024 * 1024 + 17
        let echo = try await client().perform(Self.anything, body(length: length))
        XCTAssertEqual(echo.headers["Content-Length"], String(length))
        XCTAssertNil(echo.headers["Transfer-Encoding"])
        XCTAssertEqual(Int64(echo.data.utf8.count), length)
        XCTAssertEqual(echo.data.prefix(26), "abcdefghijklmnopqrstuvwxyz")
    }

    func testAnUnknownLengthGoesChunked() async throws {
        let echo = try await client().perform(Self.anything, body(length: 100_000, announced: .some(nil)))
        XCTAssertEqual(echo.headers["Transfer-Encoding"], "chunked")
        XCTAssertEqual(echo.data.utf8.count, 100_000)
    }

    func testTheSessionPathStillWorksWhenTurnedOff() async throws {
        // Without a Content-Type, libcurl would label the body a form and httpbin would parse it.
        let call = WebServiceCall<Echo>(
            method: .post, relativePath: "anything", headers: ["Content-Type": "application/octet-stream"])
        let echo = try await client(direct: false).perform(call, body(length: 300_000))
        XCTAssertEqual(echo.data.utf8.count, 300_000)
        XCTAssertEqual(echo.headers["Transfer-Encoding"], "chunked")
    }

    func testA307ReplaysTheBodyFromAFreshStream() async throws {
        let opens = Counter()
        let call = WebServiceCall<Echo>(method: .post, relativePath: "redirect-to?url=/anything&status_code=307")
        let echo = try await client().perform(call, body(length: 2_000_000, opens: opens))
        XCTAssertEqual(echo.method, "POST")
        XCTAssertEqual(echo.data.utf8.count, 2_000_000)
        XCTAssertEqual(opens.value, 2)
    }

    func testAnEarlyRefusalEndsTheUploadWithTheServersAnswer() async throws {
        let opens = Counter()
        let call = WebServiceCall<Echo>(method: .post, relativePath: "status/413")
        let length: Int64 = 1 << 30
        let started = Date()
        let client = try client()
        let error = await failure { _ = try await client.perform(call, body(length: length, opens: opens)) }
        guard case .unacceptableStatus(let code, _, _)? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(code, 413)
        XCTAssertEqual(opens.value, 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the gigabyte was not sent")
    }

    func testAChallengeAnsweredBeforeTheBodyRetriesWithAFreshStream() async throws {
        let opens = Counter()
        let client = try client()
        client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "passwd")
        // httpbin's /status/401 always challenges: one retry with credentials, then the provider
        // gives up. Each 401 comes before the 64 MiB body is sent (Expect: 100-continue).
        let call = WebServiceCall<Echo>(method: .post, relativePath: "status/401")
        let started = Date()
        let error = await failure { _ = try await client.perform(call, body(length: 64 << 20, opens: opens)) }
        guard case .authentication(let message)? = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(message.contains("refused the Basic credentials"), message)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(opens.value, 2)
    }

    func testCancellingMidUploadSaysCancelled() async throws {
        let client = try client()
        let slow = body(length: 1 << 30, delay: 0.005)
        let call = Self.anything
        let task = Task { [client, slow, call] () async throws -> Echo in try await client.perform(call, slow) }
        try await Task.sleep(nanoseconds: 300_000_000)
        let cancelledAt = Date()
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result, case .cancelled? = (error as? WebServiceError)?.reason else {
            return XCTFail("\(result)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 2)
    }

    func testADeadlineEndsAStalledExchange() async throws {
        // The server waits 3 s before answering; the call allows 1 s.
        let call = WebServiceCall<Echo>(method: .post, relativePath: "delay/3", timeout: 1)
        let client = try client()
        let error = await failure { _ = try await client.perform(call, body(length: 10_000)) }
        guard case .transport(let urlError)? = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(urlError.code, .timedOut)
    }

    func testAClosedPortIsCannotConnect() async throws {
        let client = WebServiceClient(
            serviceRoot: URL(string: "http://127.0.0.1:9/")!,
            transport: RoutingTransport(configuration: .ephemeral, usesDirectHTTP1: true))
        let error = await failure { _ = try await client.perform(Self.anything, body(length: 10)) }
        guard case .transport(let urlError)? = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(urlError.code, .cannotConnectToHost)
    }

    func testAStreamShorterThanItsLengthFailsClearly() async throws {
        let client = try client()
        let error = await failure {
            _ = try await client.perform(Self.anything, body(length: 1000, announced: .some(5000)))
        }
        guard case .requestSerialization(let message)? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertTrue(message.contains("1000 of its 5000 bytes"), message)
    }

    func testCookiesFollowTheSessionConfiguration() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try XCTUnwrap(configuration.httpCookieStorage)
        let root = try HTTPBin.url()
        storage.setCookie(
            try XCTUnwrap(
                HTTPCookie(properties: [.name: "session", .value: "abc", .path: "/", .domain: root.host!])))
        let client = try client(configuration: configuration)
        let echo = try await client.perform(Self.anything, body(length: 10))
        XCTAssertEqual(echo.headers["Cookie"], "session=abc")
        let setter = WebServiceCall<Data>(method: .post, relativePath: "response-headers?Set-Cookie=flavour%3Doat")
        _ = try await client.perform(setter, body(length: 10))
        XCTAssertEqual(storage.cookies(for: root)?.first { $0.name == "flavour" }?.value, "oat")
    }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// `length` bytes of `abc…z` repeated, optionally slow: a body without a file.
final class PatternStream: InputStream {
    private let length: Int64
    private let delay: TimeInterval
    private var offset: Int64 = 0
    private var status: Stream.Status = .notOpen

    init(length: Int64, delay: TimeInterval) {
        self.length = length
        self.delay = delay
        super.init(data: Data())
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { nil }
    override var hasBytesAvailable: Bool { offset < length }
    override func open() { status = .open }
    override func close() { status = .closed }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let count = Int(min(Int64(len), length - offset))
        for index in 0..<count { buffer[index] = UInt8(ascii: "a") + UInt8((offset + Int64(index)) % 26) }
        offset += Int64(count)
        if offset == length { status = .atEnd }
        return count
    }
}
