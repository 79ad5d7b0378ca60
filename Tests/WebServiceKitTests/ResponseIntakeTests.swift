import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The push half of reading a response, which both the blocking path and the event loop feed:
/// whatever the pieces the bytes come in, the response and its (decoded) body are the same.
final class ResponseIntakeTests: XCTestCase {
    private func context(maximumSize: Int? = nil) -> TransportContext {
        TransportContext(
            call: CallDescriptor(CallFields(relativePath: "x"), supportsSerializationRoot: false), uploadLength: nil,
            progress: nil, responseBody: ResponseBodySink(maximumSize: maximumSize, download: nil, progress: nil))
    }

    private let url = URL(string: "http://127.0.0.1/x")!

    /// The response of `bytes` fed in pieces of `size` (all at once for `nil`), and whether the
    /// parser saw it complete before the end of the stream.
    private func response(
        _ bytes: [UInt8], pieces size: Int?, method: String = "GET", maximumSize: Int? = nil
    ) throws -> (TransportResponse, complete: Bool) {
        var intake = ResponseIntake(method: method, context: context(maximumSize: maximumSize))
        var offset = 0
        let step = size ?? bytes.count
        while offset < bytes.count, !intake.parser.isComplete {
            let end = min(bytes.count, offset + step)
            try intake.take(bytes[offset..<end])
            offset = end
        }
        let complete = intake.parser.isComplete
        return (try intake.finish(url: url), complete)
    }

    /// `hello, intake! ` 20 times, gzip-compressed by Python's zlib (mtime 0).
    private static let gzipped: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 215, 81, 200, 204, 43, 73, 204, 78, 85, 84, 200, 24,
        229, 226, 230, 2, 0, 47, 9, 21, 80, 44, 1, 0, 0,
    ]

    func testAChunkedGzipBodyIsTheSameWhateverThePiecesItArrivesIn() throws {
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let halves = [Self.gzipped[..<17], Self.gzipped[17...]]
        for half in halves { bytes += Array(String(half.count, radix: 16).utf8) + [13, 10] + half + [13, 10] }
        bytes += Array("0\r\n\r\n".utf8)
        let expected = Data(String(repeating: "hello, intake! ", count: 20).utf8)
        for size in [nil, 1, 2, 7, 64] {
            let (response, complete) = try response(bytes, pieces: size)
            XCTAssertTrue(complete, "pieces of \(size ?? bytes.count)")
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.body, expected, "pieces of \(size ?? bytes.count)")
            XCTAssertNil(response.headers["Content-Encoding"], "the decoded body has no coding left")
        }
    }

    func testABodyDelimitedByTheCloseEndsAtFinish() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end".utf8)
        for size in [nil, 1, 5] {
            let (response, complete) = try response(bytes, pieces: size)
            XCTAssertFalse(complete, "only the close ends such a body")
            XCTAssertEqual(response.body, Data("until the end".utf8))
        }
    }

    func testABodyCutShortIsALostConnection() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nfive!".utf8)
        XCTAssertThrowsError(try response(bytes, pieces: 3)) { error in
            XCTAssertEqual((error as? URLError)?.code, .networkConnectionLost, "\(error)")
        }
    }

    func testAMalformedHeadIsABadServerResponse() throws {
        let bytes = Array("HTTP/1.1 2x0 OK\r\n\r\n".utf8)
        XCTAssertThrowsError(try response(bytes, pieces: 1)) { error in
            XCTAssertEqual((error as? URLError)?.code, .badServerResponse, "\(error)")
        }
    }

    func testALengthOverTheLimitIsRefusedWithTheHead() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".utf8)
        var intake = ResponseIntake(method: "GET", context: context(maximumSize: 10))
        XCTAssertThrowsError(try intake.take(bytes)) { error in
            guard case .responseTooLarge(let limit, _)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(limit, 10)
        }
    }

    func testAHeadResponseHasNoBody() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".utf8)
        let (response, complete) = try response(bytes, pieces: 4, method: "HEAD")
        XCTAssertTrue(complete)
        XCTAssertEqual(response.body, Data())
    }
}
