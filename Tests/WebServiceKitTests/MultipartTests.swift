import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exact bytes of multipart bodies (RFC 7578 framing over RFC 2046 §5.1.1 delimiters).
final class MultipartTests: XCTestCase {
    private static let upload = WebServiceCall<Data>(method: .post, relativePath: "up", multipartBoundary: "XyZ")

    /// The transport of the last `body(_:call:)`.
    private var stubs = StubTransport()

    private func body(_ parts: [any Sendable], call: WebServiceCall<Data> = upload) async throws -> (
        String, WebServiceRequest
    ) {
        let (client, stubs) = makeStubClient()
        self.stubs = stubs
        _ = try await client.perform(call, parts)
        let request = try XCTUnwrap(stubs.requests.last?.request)
        let data = try XCTUnwrap(request.httpBody ?? Self.drain(request.httpBodyStream))
        return (String(decoding: data, as: UTF8.self), request)
    }

    static func drain(_ stream: InputStream?) -> Data? {
        guard let stream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }

    func testOneTextField() async throws {
        let (text, request) = try await body([FormData(name: "title", value: "Holiday")])
        XCTAssertEqual(text, "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n--XyZ--\r\n")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "multipart/form-data; boundary=XyZ")
    }

    func testFileFromBytesAndMixedArgumentsInOrder() async throws {
        let (text, _) = try await body([
            FormData(name: "a", value: "1"),
            [
                FormData(name: "f", data: Data("PNG".utf8), fileName: "x.png", contentType: "image/png"),
                FormData(name: "b", data: Data("raw".utf8), fileName: "r.bin"),
            ],
        ])
        XCTAssertEqual(
            text,
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.png\"\r\nContent-Type: image/png\r\n\r\nPNG\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"b\"; filename=\"r.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\nraw\r\n--XyZ--\r\n")
    }

    func testUnicodeQuotesAndLineBreaksInNames() async throws {
        let (text, _) = try await body([
            FormData(name: "имя \"q\"\r\nX-Evil: 1", data: Data(), fileName: "файл\n\".txt", contentType: "text/plain")
        ])
        XCTAssertEqual(
            text,
            "--XyZ\r\nContent-Disposition: form-data; name=\"имя %22q%22%0D%0AX-Evil: 1\"; filename=\"файл%0A%22.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n\r\n--XyZ--\r\n")
    }

    func testPartContentTypeWithCRLFIsRefused() async {
        let (client, stubs) = makeStubClient()
        do {
            _ = try await client.perform(
                Self.upload, [FormData(name: "f", data: Data(), fileName: "a", contentType: "a\r\nb: c")])
            XCTFail("must refuse")
        } catch {
            guard case .invalidHeader = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testFilePartsStreamFromDiskWithAnExactLength() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.csv")
        try Data("a,b\n1,2\n".utf8).write(to: file)
        let empty = directory.appendingPathComponent("empty.bin")
        try Data().write(to: empty)
        let (text, request) = try await body([
            FormData(name: "doc", fileURL: file, contentType: "text/csv"), FormData(name: "e", fileURL: empty),
        ])
        XCTAssertNil(request.httpBody, "a file part is streamed, not loaded")
        XCTAssertEqual(
            text,
            "--XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"report.csv\"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"e\"; filename=\"empty.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n\r\n--XyZ--\r\n")
        XCTAssertEqual(stubs.requests.last?.uploadLength, Int64(text.utf8.count), "the length is computed up front")
        #if canImport(FoundationNetworking)
            // Foundation on Linux sends streams chunked; a Content-Length beside it is forbidden.
            XCTAssertNil(request.value(forHTTPHeaderField: "Content-Length"))
        #else
            XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Length"), String(text.utf8.count))
        #endif
    }

    /// The file is sized when the call starts; reading it later finds it changed.
    func testFileThatChangesSizeWhileUploadingFailsTheBodyStream() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("live.log")
        for (label, changed) in [("shrank", Data(repeating: 1, count: 10)), ("grew", Data(repeating: 1, count: 5000))] {
            try Data(repeating: 1, count: 1000).write(to: file)
            let (client, stubs) = makeStubClient()
            _ = try await client.perform(Self.upload, [FormData(name: "f", fileURL: file)])
            let request = try XCTUnwrap(stubs.requests.last?.request)
            try changed.write(to: file)
            let stream = try XCTUnwrap(request.httpBodyStream)
            stream.open()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var last = 0
            repeat { last = stream.read(&buffer, maxLength: buffer.count) } while last > 0
            XCTAssertEqual(last, -1, "\(label): the stream must fail, not end")
            XCTAssertEqual(stream.streamStatus, .error, label)
            XCTAssertNotNil(stream.streamError, label)
        }
    }

    func testMissingFileAndDirectoryAreTypedErrors() async {
        let (client, stubs) = makeStubClient()
        for url in [URL(fileURLWithPath: "/nonexistent/\(UUID())"), FileManager.default.temporaryDirectory] {
            do {
                _ = try await client.perform(Self.upload, [FormData(name: "f", fileURL: url)])
                XCTFail("must fail for \(url)")
            } catch {
                guard case .invalidArguments(_, let reason) = error.reason else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains(url.path), reason)
            }
        }
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testRandomBoundaryConformsAndAvoidsTheContent() async throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "up")
        let (text, request) = try await body([FormData(name: "a", value: "--WebServiceKit-")], call: call)
        let contentType = try XCTUnwrap(request.value(forHTTPHeaderField: "Content-Type"))
        let boundary = String(try XCTUnwrap(contentType.components(separatedBy: "boundary=").last))
        XCTAssertTrue((1...70).contains(boundary.count), boundary)
        XCTAssertTrue(text.hasPrefix("--\(boundary)\r\n"))
        XCTAssertTrue(text.hasSuffix("--\(boundary)--\r\n"))
        XCTAssertEqual(text.components(separatedBy: "--\(boundary)").count, 3, "the boundary occurs only as delimiters")
    }

    func testQuotedBoundaryInContentType() async throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "up", multipartBoundary: "a:b=c")
        let (_, request) = try await body([FormData(name: "a", value: "1")], call: call)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "multipart/form-data; boundary=\"a:b=c\"")
    }

    func testOneShotStreamCannotBeReplayedForARetry() async {
        final class Retrier: AuthenticationProvider {
            func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest
            { request }
            func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor)
                async throws
                -> AuthenticationDecision
            { response.statusCode == 401 ? .retry : .proceed }
        }
        let stubs = StubTransport(fallback: .status(401))
        let client = WebServiceClient(serviceRoot: URL(string: "https://x.test/")!, transport: stubs)
        client.authenticationProvider = Retrier()
        let stream = InputStream(data: Data(repeating: 7, count: 2_000_000))
        do {
            _ = try await client.perform(Self.upload, [FormData(name: "s", inputStream: stream, length: 2_000_000)])
            XCTFail("must fail")
        } catch {
            guard case .requestSerialization(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("cannot be read again"), reason)
        }
        XCTAssertEqual(stubs.requests.count, 1)
    }
}
