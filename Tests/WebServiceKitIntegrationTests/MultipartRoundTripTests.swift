import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Multipart bodies sent for real and read back by a strict third-party parser (PyPI
/// `multipart` 2.0.1, strict mode) and by httpbin (werkzeug).
final class MultipartRoundTripTests: XCTestCase {
    struct ParsedPart: Decodable, Sendable, Equatable {
        let name: String
        let filename: String?
        let contentType: String
        let size: Int
        let sha256: String
        let text: String

        enum CodingKeys: String, CodingKey {
            case name, filename, size, sha256, text
            case contentType = "content_type"
        }
    }

    private struct HTTPBinForm: Decodable, Sendable {
        let form: [String: String]
        let files: [String: String]
    }

    private static let echo = WebServiceCall<[ParsedPart]>(method: .post, relativePath: "parts")

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-multipart-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func file(_ name: String, bytes: Int, seed: UInt8 = 7) throws -> (URL, Data) {
        var data = Data(count: bytes)
        data.withUnsafeMutableBytes { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 31 &+ Int(seed)) }
        }
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return (url, data)
    }

    func testStrictParserReadsEveryPartBackExactly() async throws {
        let client = WebServiceClient(serviceRoot: try HTTPBin.multipartEchoURL())
        let (big, bigData) = try file("photo.jpg", bytes: 3_000_017)
        let (empty, _) = try file("empty.bin", bytes: 0)
        let parts: [any Sendable] = [
            FormData(name: "title", value: "Привет, world"),
            FormData(name: "photo", fileURL: big, contentType: "image/jpeg"),
            [
                FormData(name: "q\"uote\r\nd", value: "x"),
                FormData(name: "empty", fileURL: empty),
                FormData(name: "same", data: Data("one".utf8), fileName: "1.txt", contentType: "text/plain"),
                FormData(name: "same", data: Data("two".utf8), fileName: "2.txt", contentType: "text/plain"),
            ],
        ]
        let parsed = try await client.perform(Self.echo, parts)
        XCTAssertEqual(parsed.map(\.name), ["title", "photo", "q\"uote\r\nd", "empty", "same", "same"])
        XCTAssertEqual(parsed.map(\.filename), [nil, "photo.jpg", nil, "empty.bin", "1.txt", "2.txt"])
        XCTAssertEqual(parsed[0].text, "Привет, world")
        XCTAssertEqual(parsed[1].contentType, "image/jpeg")
        XCTAssertEqual(parsed[1].size, bigData.count)
        XCTAssertEqual(parsed[3].size, 0)
        XCTAssertEqual(parsed[3].contentType, "application/octet-stream")
        XCTAssertEqual(parsed[4...].map(\.text), ["one", "two"])
        XCTAssertEqual(parsed[2].contentType, "text/plain", "no Content-Type means text/plain (RFC 7578 §4.4)")
        // The strict parser's SHA-256 of the 3 MB file equals the digest of the bytes on disk.
        let expected = try await client.perform(
            Self.echo, [FormData(name: "check", data: bigData, fileName: "in-memory.bin")])
        XCTAssertEqual(parsed[1].sha256, expected.first?.sha256)
    }

    func testCustomBoundaryAndStreamPart() async throws {
        let call = WebServiceCall<[ParsedPart]>(
            method: .post, relativePath: "parts", multipartBoundary: "custom'()+_,-./:=?boundary")
        let client = WebServiceClient(serviceRoot: try HTTPBin.multipartEchoURL())
        let payload = Data(repeating: 0x41, count: 200_000)
        let parsed = try await client.perform(
            call, [FormData(name: "s", length: Int64(payload.count), fileName: "s.bin") { InputStream(data: payload) }])
        XCTAssertEqual(parsed.first?.size, 200_000)
        XCTAssertEqual(parsed.first?.text, String(repeating: "A", count: 256))
    }

    func testHttpbinEchoesFieldsAndFiles() async throws {
        let client = try HTTPBin.client()
        let (doc, _) = try file("notes.txt", bytes: 0)
        try Data("line one\nline two\n".utf8).write(to: doc)
        let call = WebServiceCall<HTTPBinForm>(method: .post, relativePath: "post")
        let echoed = try await client.perform(
            call,
            [
                FormData(name: "city", value: "Москва"),
                FormData(name: "doc", fileURL: doc, contentType: "text/plain"),
                FormData(name: "dup", data: Data("first".utf8), fileName: "a.txt", contentType: "text/plain"),
                FormData(name: "dup", data: Data("second".utf8), fileName: "b.txt", contentType: "text/plain"),
            ])
        XCTAssertEqual(echoed.form["city"], "Москва")
        XCTAssertEqual(echoed.files["doc"], "line one\nline two\n")
        // httpbin keeps only the first file of a name; the strict parser test covers both.
        XCTAssertEqual(echoed.files["dup"], "first")
    }

    func testUploadProgressIsCumulativeAndEndsOnceAtOne() async throws {
        let client = WebServiceClient(serviceRoot: try HTTPBin.multipartEchoURL())
        let (big, _) = try file("progress.bin", bytes: 8_000_000)
        let events = EventLog()
        let call = WebServiceCall<[ParsedPart]>(method: .post, relativePath: "parts", progressParameter: 1)
        let progress: ProgressHandler = { fraction, expected in events.append(fraction, expected) }
        let done = expectation(description: "done")
        client.perform(
            call, [FormData(name: "f", fileURL: big), progress],
            success: { _ in
                events.append(-1, -2)  // the completion marker
                done.fulfill()
            }, failure: { XCTFail("\($0)") })
        await fulfillment(of: [done], timeout: 60)
        let recorded = events.entries
        XCTAssertEqual(recorded.first?.0, 0)
        XCTAssertEqual(recorded.last?.1, -2, "nothing after the completion callback")
        let body = recorded.dropFirst().dropLast()
        XCTAssertEqual(recorded.first?.1, body.last?.1, "the start carries the body's length, known at once")
        XCTAssertEqual(body.last?.0, 1)
        XCTAssertEqual(body.filter { $0.0 == 1 }.count, 1, "exactly one 1.0")
        XCTAssertGreaterThan(body.count, 3, "intermediate progress was reported")
        let fractions = body.map(\.0)
        XCTAssertEqual(fractions, fractions.sorted(), "cumulative and monotonic")
        XCTAssertTrue(body.allSatisfy { $0.1 > 8_000_000 }, "the expected length is the whole body")
        XCTAssertLessThanOrEqual(body.count, 102, "coalesced to one call per 1 %")
    }

    func testAStreamThatEndsEarlyFailsTheCallWithATypedError() async throws {
        let client = WebServiceClient(serviceRoot: try HTTPBin.multipartEchoURL())
        let short = Data(repeating: 1, count: 10_000)
        do {
            _ = try await client.perform(
                Self.echo, [FormData(name: "s", length: 50_000, fileName: "s.bin") { InputStream(data: short) }])
            XCTFail("a body shorter than announced must not succeed")
        } catch {
            guard case .requestSerialization(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("early"), reason)
        }
    }
}

/// Progress events in the order the callback queue delivered them.
final class EventLog: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var storage: [(Double, Int64)] = []
    func append(_ fraction: Double, _ expected: Int64) { lock.withLock { storage.append((fraction, expected)) } }
    var entries: [(Double, Int64)] { lock.withLock { storage } }
}
