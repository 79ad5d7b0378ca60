import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The event loop feeds ``ResponseIntake`` the bytes of a socket in whatever pieces the kernel
/// hands over: a fixed table of responses, each fed whole, split in two at every point, and a byte
/// at a time, must end the same way every time (the deterministic twin of the `response-intake`
/// fuzz target). Each entry also states what the whole feed gives, so a table that only agreed
/// with itself would still fail.
final class ResponseIntakeSplitTests: XCTestCase {
    /// What the intake made of a response, as the loop ends it.
    struct Outcome: Equatable {
        /// The error's kind and text; `nil` for a response.
        var error: String?
        var statusCode = 0
        var headers = HTTPHeaders()
        var body = Data()
        /// The parser had the whole response before the bytes ran out.
        var isComplete = false
        /// The connection can carry the next request (and no more bytes came after the response).
        var isReusable = false
    }

    /// What a table entry must give fed whole.
    enum Expected {
        case response(status: Int, body: String, complete: Bool, reusable: Bool)
        case urlError(URLError.Code)
        case tooLarge
    }

    struct Entry {
        let name: String
        var method = "GET"
        var limit: Int? = nil
        let bytes: [UInt8]
        let expected: Expected
    }

    private static let url = URL(string: "http://127.0.0.1/split")!

    private static func chunk(_ data: [UInt8], extensions: String = "") -> [UInt8] {
        Array((String(data.count, radix: 16) + extensions + "\r\n").utf8) + data + [13, 10]
    }

    /// `hello, intake! ` 20 times, gzip-compressed by Python's zlib (mtime 0).
    private static let gzipped: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 215, 81, 200, 204, 43, 73, 204, 78, 85, 84, 200, 24,
        229, 226, 230, 2, 0, 47, 9, 21, 80, 44, 1, 0, 0,
    ]

    static let table: [Entry] = [
        Entry(
            name: "chunked with extensions and trailers",
            bytes: Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                + chunk(Array("hello, ".utf8), extensions: ";name=value")
                + chunk(Array("world".utf8), extensions: " ;a=\"q\\\"s\";b")
                + Array("0;last\r\nX-Checksum: abc\r\nServer-Timing: total;dur=1\r\n\r\n".utf8),
            expected: .response(status: 200, body: "hello, world", complete: true, reusable: true)),
        Entry(
            name: "content-length",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 11\r\nContent-Type: text/plain\r\n\r\nhello there".utf8),
            expected: .response(status: 200, body: "hello there", complete: true, reusable: true)),
        Entry(
            name: "1xx then 200",
            bytes: Array(
                ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok").utf8),
            expected: .response(status: 200, body: "ok", complete: true, reusable: true)),
        Entry(
            name: "HEAD with a length and a coding", method: "HEAD",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nTransfer-Encoding: chunked\r\n\r\n".utf8),
            expected: .response(status: 200, body: "", complete: true, reusable: true)),
        Entry(
            name: "read to the close",
            bytes: Array("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close".utf8),
            expected: .response(status: 200, body: "until the close", complete: false, reusable: false)),
        Entry(
            name: "304 with a length",
            bytes: Array("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 10\r\n\r\n".utf8),
            expected: .response(status: 304, body: "", complete: true, reusable: true)),
        Entry(
            name: "204 with a length: complete, not reusable",
            bytes: Array("HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\nabc".utf8),
            expected: .response(status: 204, body: "", complete: true, reusable: false)),
        Entry(
            name: "Connection: close",
            bytes: Array("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbye!".utf8),
            expected: .response(status: 200, body: "bye!", complete: true, reusable: false)),
        Entry(
            name: "bytes after the response",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n".utf8),
            expected: .response(status: 200, body: "ok", complete: true, reusable: false)),
        Entry(
            name: "gzip, chunked",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                + chunk(Array(gzipped[..<17])) + chunk(Array(gzipped[17...])) + Array("0\r\n\r\n".utf8),
            expected: .response(
                status: 200, body: String(repeating: "hello, intake! ", count: 20), complete: true, reusable: true)),
        Entry(
            name: "cut short",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nfive!".utf8),
            expected: .urlError(.networkConnectionLost)),
        Entry(
            name: "a malformed chunk size",
            bytes: Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n".utf8),
            expected: .urlError(.badServerResponse)),
        Entry(
            name: "a length over the limit", limit: 8,
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n123456789".utf8),
            expected: .tooLarge),
        // The body passes the limit before the framing breaks: in byte order the limit comes first,
        // and a feed that reaches the fault in the same piece must say so too.
        Entry(
            name: "over the limit, then malformed", limit: 16,
            bytes: Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                + chunk(Array("0123456789abcdefghij".utf8)) + Array("zz\r\n".utf8),
            expected: .tooLarge),
        // The body's first bytes are no gzip header: refused before the framing breaks after them.
        Entry(
            name: "a corrupt gzip body, then malformed",
            bytes: Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                + chunk(Array("not gzip at all".utf8)) + Array("zz\r\n".utf8),
            expected: .urlError(.cannotDecodeContentData)),
    ]

    /// Feeds `bytes` in the pieces that `cuts` (offsets, ascending) make, until the parser is
    /// complete, then ends the stream as the loop does.
    static func outcome(of entry: Entry, cuts: [Int]) -> Outcome {
        let context = TransportContext(
            call: CallDescriptor(CallFields(relativePath: "split"), supportsSerializationRoot: false),
            uploadLength: nil, progress: nil,
            responseBody: ResponseBodySink(maximumSize: entry.limit, download: nil, progress: nil))
        var intake = ResponseIntake(method: entry.method, context: context)
        let bytes = entry.bytes
        var offset = 0
        do {
            for end in cuts + [bytes.count] where end > offset {
                guard !intake.parser.isComplete else { break }
                try bytes[offset..<end].withUnsafeBytes { try intake.take($0) }
                offset = end
            }
            let complete = intake.parser.isComplete
            guard intake.parser.hasReceivedBytes else { return Outcome(error: "no response") }
            let response = try intake.finish(url: url)
            return Outcome(
                statusCode: response.statusCode, headers: response.headers, body: response.body,
                isComplete: complete, isReusable: intake.parser.leavesConnectionReusable && offset == bytes.count)
        } catch let error as URLError {
            return Outcome(error: "URLError \(error.code.rawValue): \(error.localizedDescription)")
        } catch let error as WebServiceError {
            guard case .responseTooLarge(let limit, let statusCode) = error.reason else {
                return Outcome(error: "\(type(of: error)) \(error)")
            }
            return Outcome(error: "responseTooLarge(limit: \(limit), statusCode: \(statusCode))")
        } catch {
            return Outcome(error: "\(type(of: error)) \(error)")
        }
    }

    func testEveryTableEntryFedWholeGivesWhatItStates() {
        for entry in Self.table {
            let whole = Self.outcome(of: entry, cuts: [])
            switch entry.expected {
            case .response(let status, let body, let complete, let reusable):
                XCTAssertNil(whole.error, entry.name)
                XCTAssertEqual(whole.statusCode, status, entry.name)
                XCTAssertEqual(String(decoding: whole.body, as: UTF8.self), body, entry.name)
                XCTAssertEqual(whole.isComplete, complete, entry.name)
                XCTAssertEqual(whole.isReusable, reusable, entry.name)
            case .urlError(let code):
                XCTAssertTrue(whole.error?.hasPrefix("URLError \(code.rawValue):") == true, "\(entry.name): \(whole)")
            case .tooLarge:
                XCTAssertTrue(whole.error?.contains("responseTooLarge") == true, "\(entry.name): \(whole)")
            }
        }
    }

    func testEverySplitInTwoEndsAsTheWholeFeed() {
        for entry in Self.table {
            let whole = Self.outcome(of: entry, cuts: [])
            for cut in 1..<entry.bytes.count {
                let split = Self.outcome(of: entry, cuts: [cut])
                XCTAssertEqual(split, whole, "\(entry.name), split at \(cut)")
                if split != whole { break }
            }
        }
    }

    func testAByteAtATimeEndsAsTheWholeFeed() {
        for entry in Self.table {
            let whole = Self.outcome(of: entry, cuts: [])
            let bytewise = Self.outcome(of: entry, cuts: Array(1..<max(1, entry.bytes.count)))
            XCTAssertEqual(bytewise, whole, entry.name)
        }
    }
}
