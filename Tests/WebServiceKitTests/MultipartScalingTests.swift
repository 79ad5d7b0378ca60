import Foundation
import XCTest

@testable import WebServiceKit

/// Bodies of many parts (issue 25, item 1): consecutive in-memory segments are joined in one pass,
/// and the body is byte for byte what a plain reference build of RFC 7578 framing gives.
final class MultipartScalingTests: XCTestCase {
    private static let boundary = "Scale-Boundary"

    // MARK: Merging

    func testAdjacentByteSegmentsMergeIntoExactlyOneSegment() {
        let count = 10_000
        let segments = (0..<count).map { MultipartSegment.bytes(Data("<\($0)>".utf8)) }
        let merged = MultipartSegment.merged(segments)
        XCTAssertEqual(merged.count, 1)
        guard case .bytes(let data)? = merged.first else { return XCTFail("expected one byte segment") }
        XCTAssertEqual(data, Data((0..<count).map { "<\($0)>" }.joined().utf8))
    }

    func testFileAndStreamSegmentsSplitTheRuns() throws {
        let file = URL(fileURLWithPath: "/nonexistent/part.bin")
        let open: @Sendable () throws -> InputStream = { InputStream(data: Data("s".utf8)) }
        let segments: [MultipartSegment] = [
            .bytes(Data("a".utf8)), .bytes(Data("b".utf8)), .file(file, length: 3), .bytes(Data("c".utf8)),
            .stream(open, length: 1, isReplayable: true), .bytes(Data("d".utf8)), .bytes(Data()),
            .bytes(Data("e".utf8)),
        ]
        let merged = MultipartSegment.merged(segments)
        XCTAssertEqual(merged.count, 5)
        XCTAssertEqual(merged.map(\.length), [2, 3, 1, 1, 2])
        guard case .bytes(let first) = merged[0], case .file(let url, 3) = merged[1],
            case .bytes(let single) = merged[2], case .stream = merged[3], case .bytes(let last) = merged[4]
        else { return XCTFail("unexpected segments \(merged)") }
        XCTAssertEqual(first, Data("ab".utf8))
        XCTAssertEqual(url, file)
        XCTAssertEqual(single, Data("c".utf8))
        XCTAssertEqual(last, Data("de".utf8))
        XCTAssertTrue(MultipartSegment.merged([]).isEmpty)
    }

    // MARK: Whole bodies against a reference

    /// A straightforward build of the body the parts should give (RFC 7578 §4, RFC 2046 §5.1.1):
    /// each part `--B CRLF headers CRLF CRLF content CRLF`, then `--B-- CRLF`.
    private func referenceBody(_ parts: [(name: String, fileName: String?, type: String?, content: Data)]) -> Data {
        var body = Data()
        for part in parts {
            var head = "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let fileName = part.fileName { head += "; filename=\"\(fileName)\"" }
            head += "\r\n"
            if let type = part.type { head += "Content-Type: \(type)\r\n" }
            head += "\r\n"
            body += Data(head.utf8) + part.content + Data("\r\n".utf8)
        }
        return body + Data("--\(Self.boundary)--\r\n".utf8)
    }

    private func bytes(of body: RequestBody) throws -> Data {
        switch body.storage {
        case .data(let data): return data
        case .stream(let open, let length, _):
            let stream = try open()
            stream.open()
            defer { stream.close() }
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = stream.read(&buffer, maxLength: buffer.count)
                XCTAssertGreaterThanOrEqual(
                    count, 0, "the body stream failed: \(String(describing: stream.streamError))")
                if count <= 0 { break }
                data.append(contentsOf: buffer[0..<count])
            }
            XCTAssertEqual(Int64(data.count), length, "the announced length")
            return data
        }
    }

    func testManyPartsWithAFileBetweenThemMatchTheReference() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "MultipartScalingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fileURL = directory.appendingPathComponent("middle.txt")
        let fileContent = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try fileContent.write(to: fileURL)

        var parts: [FormData] = []
        var expected: [(name: String, fileName: String?, type: String?, content: Data)] = []
        for index in 0..<3_000 {
            if index == 1_500 {
                parts.append(FormData(name: "file", fileURL: fileURL, contentType: "text/plain"))
                expected.append(("file", "middle.txt", "text/plain", fileContent))
            }
            if index % 7 == 3 {
                let blob = Data((0..<(index % 50)).map { UInt8(truncatingIfNeeded: $0 + index) })
                parts.append(FormData(name: "blob\(index)", data: blob, fileName: "b\(index).bin"))
                expected.append(("blob\(index)", "b\(index).bin", "application/octet-stream", blob))
            } else if index % 11 == 5 {
                let blob = Data("raw \(index)".utf8)
                parts.append(FormData(name: "raw\(index)", data: blob, contentType: "application/x-raw"))
                expected.append(("raw\(index)", nil, "application/x-raw", blob))
            } else {
                parts.append(FormData(name: "field\(index)", value: "välue \(index)"))
                expected.append(("field\(index)", nil, nil, Data("välue \(index)".utf8)))
            }
        }
        let form = MultipartForm(parts: parts, boundary: Self.boundary)
        let body = try form.makeBody()
        XCTAssertEqual(try bytes(of: body), referenceBody(expected))
        XCTAssertEqual(body.length.map(Int.init), referenceBody(expected).count)
    }

    func testManyInMemoryPartsMatchTheReferenceAsBytesAndAsAStream() throws {
        let parts = (0..<20_000).map { FormData(name: "f\($0)", value: "v\($0)") }
        let expected = referenceBody((0..<20_000).map { ("f\($0)", nil, nil, Data("v\($0)".utf8)) })
        let form = MultipartForm(parts: parts, boundary: Self.boundary)
        let inMemory = try form.makeBody(inMemoryLimit: Int.max)
        guard case .data(let data) = inMemory.storage else { return XCTFail("expected bytes under the limit") }
        XCTAssertEqual(data, expected)
        let streamed = try form.makeBody(inMemoryLimit: 1_000)
        guard case .stream = streamed.storage else { return XCTFail("expected a stream over the limit") }
        XCTAssertEqual(try bytes(of: streamed), expected)
    }
}
