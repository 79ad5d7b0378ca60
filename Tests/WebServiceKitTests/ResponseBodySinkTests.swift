import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The call's one response-body sink, seen from custom transports: one that writes into it and
/// one that returns its body in memory get the same size limit, the same download file and
/// progress counted once.
final class ResponseBodySinkTests: XCTestCase {
    private static let data = WebServiceCall<Data>(relativePath: "data")
    private static let file = WebServiceCall<DownloadedFile>(relativePath: "file")
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-sink-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func client(
        limit: Int? = nil,
        _ script: @escaping @Sendable (WebServiceRequest, TransportContext) async throws -> TransportResponse
    ) -> WebServiceClient {
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://api.example.com/")!, transport: ScriptedTransport(script: script))
        client.maximumResponseBodySize = limit
        return client
    }

    private func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// `count` bytes that differ from one position to the next, so that a misplaced chunk shows.
    private static func pattern(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// Writes `body` into the call's sink in chunks of `chunk` bytes, as a streaming transport does.
    private static func write(
        _ body: Data, status: Int = 200, chunk: Int, announcing: Bool = true, into context: TransportContext
    ) throws -> TransportResponse {
        let sink = context.responseBody
        try sink.begin(statusCode: status, expectedLength: announcing ? Int64(body.count) : nil)
        var start = body.startIndex
        while start < body.endIndex {
            let end = min(start + chunk, body.endIndex)
            try sink.append(body[start..<end])
            start = end
        }
        return try sink.finish(TransportResponse(statusCode: status))
    }

    // MARK: A custom transport that returns its body in memory

    func testACustomTransportsInMemoryBodyReachesTheDownloadFile() async throws {
        let body = Self.pattern(200_000)
        let client = client { _, _ in TransportResponse(statusCode: 200, body: body) }
        let destination = directory.appendingPathComponent("custom.bin")
        let response = try await client.response(for: Self.file, [DownloadDestination(destination)])
        XCTAssertEqual(response.value, DownloadedFile(url: destination, byteCount: 200_000))
        XCTAssertEqual(response.body, Data(), "the body is in the file, not in the response")
        XCTAssertEqual(try Data(contentsOf: destination), body)
        XCTAssertEqual(try contents(), ["custom.bin"])
    }

    func testACustomTransportsOversizedInMemoryBodyIsRefused() async {
        let client = client(limit: 100) { _, _ in TransportResponse(statusCode: 201, body: Data(count: 101)) }
        let error = await failure { _ = try await client.perform(Self.data) }
        guard case .responseTooLarge(100, 201)? = error?.reason else {
            return XCTFail("expected responseTooLarge, got \(String(describing: error))")
        }
    }

    func testTheLimitDoesNotApplyToADownloadFile() async throws {
        let client = client(limit: 10) { _, _ in TransportResponse(statusCode: 200, body: Data(count: 1000)) }
        let destination = directory.appendingPathComponent("big.bin")
        let file = try await client.perform(Self.file, [DownloadDestination(destination)])
        XCTAssertEqual(file.byteCount, 1000)
    }

    // MARK: A custom transport that writes into the sink

    func testABodyWrittenIntoTheSinkReachesTheDownloadFileAndTheRedirectBeforeItDoesNot() async throws {
        let body = Self.pattern(300_000, seed: 7)
        let client = client { request, context in
            if request.url?.path == "/file" {
                // A redirect's body is never the download: it stays in memory.
                var redirect = try Self.write(Data("moved".utf8), status: 302, chunk: 2, into: context)
                redirect.headers["Location"] = "/elsewhere"
                XCTAssertNil(redirect.bodyFileLength)
                XCTAssertEqual(redirect.body, Data("moved".utf8))
                return redirect
            }
            XCTAssertTrue(context.responseBody.writesToFile(statusCode: 200))
            let response = try Self.write(body, chunk: 4096, into: context)
            XCTAssertEqual(response.bodyFileLength, 300_000)
            XCTAssertEqual(response.body, Data(), "the body is in the file")
            return response
        }
        let destination = directory.appendingPathComponent("sunk.bin")
        let file = try await client.perform(Self.file, [DownloadDestination(destination)])
        XCTAssertEqual(file.byteCount, 300_000)
        XCTAssertEqual(try Data(contentsOf: destination), body)
        XCTAssertEqual(try contents(), ["sunk.bin"])
    }

    func testAFileBoundErrorBodyKeepsItsFirst64KiBForTheErrorAndLeavesNoFile() async throws {
        let body = Self.pattern(100_000, seed: 3)
        let client = client { _, context in try Self.write(body, status: 500, chunk: 10_000, into: context) }
        let destination = directory.appendingPathComponent("error.bin")
        let error = await failure { _ = try await client.perform(Self.file, [DownloadDestination(destination)]) }
        guard case .unacceptableStatus(500, _, let kept)? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(kept, body.prefix(64 * 1024))
        XCTAssertEqual(try contents(), [])
    }

    func testAContentLengthOverTheLimitIsRefusedBeforeAnyByte() async {
        let appended = Locked(false)
        let client = client(limit: 1000) { _, context in
            try context.responseBody.begin(statusCode: 200, expectedLength: 1001)
            appended.set(true)
            return try context.responseBody.finish(TransportResponse(statusCode: 200))
        }
        let error = await failure { _ = try await client.perform(Self.data) }
        guard case .responseTooLarge(1000, 200)? = error?.reason else {
            return XCTFail("expected responseTooLarge, got \(String(describing: error))")
        }
        XCTAssertFalse(appended.value, "begin throws: the transport reads no byte of the body")
    }

    func testABodyWithoutALengthIsRefusedAsSoonAsItPassesTheLimit() async {
        let appends = Locked(0)
        let client = client(limit: 1000) { _, context in
            try context.responseBody.begin(statusCode: 200, expectedLength: nil)
            for _ in 0..<100 {
                try context.responseBody.append(Data(count: 300))
                appends.set(appends.value + 1)
            }
            return try context.responseBody.finish(TransportResponse(statusCode: 200))
        }
        let error = await failure { _ = try await client.perform(Self.data) }
        guard case .responseTooLarge(1000, 200)? = error?.reason else {
            return XCTFail("expected responseTooLarge, got \(String(describing: error))")
        }
        XCTAssertEqual(appends.value, 3, "the fourth 300-byte chunk passes 1000 bytes and is refused")
    }

    func testProgressOfABodyWrittenIntoTheSinkIsCountedOnce() async throws {
        let client = client { _, context in
            try Self.write(Data(count: 1000), chunk: 100, into: context)
        }
        let recorder = ProgressRecorder()
        let response = try await client.response(for: Self.data, arguments: [], progress: recorder.rich)
        XCTAssertEqual(response.body.count, 1000, "the body is not poured in a second time")
        let downloads = recorder.richEvents.filter { $0.direction == .download }
        XCTAssertEqual(downloads.map(\.completedBytes), [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
        XCTAssertEqual(downloads.filter(\.isFinished).count, 1)
        XCTAssertTrue(downloads.allSatisfy { $0.completedBytes <= 1000 })
    }

    func testProgressOfADownloadFileWrittenIntoTheSinkIsCountedOnce() async throws {
        let client = client { _, context in
            try Self.write(Self.pattern(1000), chunk: 250, into: context)
        }
        let recorder = ProgressRecorder()
        let destination = directory.appendingPathComponent("progress.bin")
        let file = try await client.perform(
            Self.file, arguments: [DownloadDestination(destination)], progress: recorder.rich)
        XCTAssertEqual(file.byteCount, 1000)
        XCTAssertEqual(try Data(contentsOf: destination), Self.pattern(1000))
        XCTAssertEqual(recorder.richEvents.map(\.completedBytes), [0, 250, 500, 750, 1000])
        XCTAssertEqual(recorder.richEvents.map(\.fraction), [0, 0.25, 0.5, 0.75, 1])
    }

    func testAnInterceptorsAnswerToADownloadCallReachesTheFile() async throws {
        struct Answer: WebServiceInterceptor {
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                .respond(TransportResponse(statusCode: 200, body: Data("from the interceptor".utf8)))
            }
        }
        let client = client { _, _ in
            XCTFail("the interceptor answers")
            return TransportResponse(statusCode: 500)
        }
        client.interceptors = [Answer()]
        let destination = directory.appendingPathComponent("answer.txt")
        let file = try await client.perform(Self.file, [DownloadDestination(destination)])
        XCTAssertEqual(file.byteCount, 20)
        XCTAssertEqual(try String(contentsOf: destination, encoding: .utf8), "from the interceptor")
    }

    func testAppendingBeforeBeginningIsATypedError() async {
        let client = client { _, context in
            try context.responseBody.append(Data(count: 1))
            return TransportResponse(statusCode: 200)
        }
        let error = await failure { _ = try await client.perform(Self.data) }
        guard case .invalidCall? = error?.reason else { return XCTFail("\(String(describing: error))") }
    }
}

/// A value shared between a transport's script and the test.
private final class Locked<Value: Sendable>: @unchecked Sendable {  // `stored` is guarded by `lock`
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}
