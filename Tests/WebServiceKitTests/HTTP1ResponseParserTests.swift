import Foundation
import XCTest

@testable import WebServiceKit

final class HTTP1ResponseParserTests: XCTestCase {
    /// Feeds `text` in pieces of `size` bytes, then the end of the connection.
    private func parse(_ text: String, method: String = "POST", pieces size: Int = .max, close: Bool = true) throws
        -> (parser: HTTP1ResponseParser, events: [HTTP1ResponseParser.Event])
    {
        var parser = HTTP1ResponseParser(requestMethod: method)
        var events: [HTTP1ResponseParser.Event] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            events += try parser.feed(bytes[start..<end])
            start = end
        }
        if close { try parser.finish() }
        return (parser, events)
    }

    private func body(_ parser: HTTP1ResponseParser) -> String { String(decoding: parser.body, as: UTF8.self) }

    func testContentLengthBodyInEveryPieceSize() throws {
        let text = "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world"
        for size in [1, 2, 3, 7, 64, .max] {
            let (parser, events) = try parse(text, pieces: size, close: false)
            XCTAssertTrue(parser.isComplete, "pieces of \(size)")
            XCTAssertEqual(body(parser), "hello world")
            XCTAssertEqual(parser.head?.statusCode, 201)
            XCTAssertEqual(parser.head?.headers.values(for: "content-type"), ["text/plain"])
            XCTAssertEqual(events.count, 1)
        }
    }

    func testChunkedBodyWithExtensionsAndTrailers() throws {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n"
        for size in [1, 4, .max] {
            let (parser, _) = try parse(text, pieces: size, close: false)
            XCTAssertTrue(parser.isComplete)
            XCTAssertEqual(body(parser), "hello world")
        }
    }

    func testInterimResponsesAreReportedThenSkipped() throws {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let (parser, events) = try parse(text, close: false)
        XCTAssertEqual(events.first, .interim(100))
        XCTAssertEqual(events.dropFirst().first, .interim(103))
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(body(parser), "ok")
    }

    func testBodyUntilCloseAndNoBodyCases() throws {
        let untilClose = try parse("HTTP/1.1 200 OK\r\n\r\nall of it").parser
        XCTAssertEqual(body(untilClose), "all of it")
        // RFC 9112 §6.3: HEAD, 204 and 304 have no body whatever the fields say.
        let head = try parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", method: "HEAD", close: false).parser
        XCTAssertTrue(head.isComplete)
        for status in [204, 304] {
            let parser = try parse("HTTP/1.1 \(status) X\r\nContent-Length: 3\r\n\r\n", close: false).parser
            XCTAssertTrue(parser.isComplete)
            XCTAssertEqual(parser.body, [])
        }
    }

    func testBareLineFeedsAndFoldedFieldsAreRead() throws {
        let parser = try parse("HTTP/1.0 200 OK\nX-A: one\n  two\nContent-Length: 1\n\nz", close: false).parser
        XCTAssertEqual(parser.head?.headers.values(for: "X-A"), ["one two"])
        XCTAssertEqual(body(parser), "z")
    }

    func testRepeatedFieldsKeepTheirOrder() throws {
        let parser = try parse("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n")
            .parser
        XCTAssertEqual(parser.head?.headers.values(for: "set-cookie"), ["a=1", "b=2"])
    }

    func testCutShortResponsesFail() {
        let cases = [
            "": "without a response",
            "HTTP/1.1 200 OK\r\nContent-": "head was cut short",
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort": "before the end",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel": "before the end",
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }

    func testMalformedResponsesFail() {
        let cases = [
            "HTTP/2 200 OK\r\n\r\n",
            "HTTP/1.1 20 OK\r\n\r\n",
            "HTTP/1.1 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            "HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
            "HTTP/1.1 101 Switching Protocols\r\n\r\n",
        ]
        for text in cases {
            XCTAssertThrowsError(try parse(text, close: false), text)
        }
    }

    func testAnOversizedHeadFails() {
        let text = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: HTTP1ResponseParser.maximumHeadSize + 1)
        XCTAssertThrowsError(try parse(text, close: false)) { error in
            XCTAssertTrue("\(error)".contains("larger than"))
        }
    }

    func testAConnectionIsReusableOnlyAfterAFramedHTTP11ResponseThatKeepsItOpen() throws {
        let framed = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        XCTAssertTrue(try parse(framed, method: "GET", close: false).parser.leavesConnectionReusable)
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"
        XCTAssertTrue(try parse(chunked, method: "GET", pieces: 3, close: false).parser.leavesConnectionReusable)
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"
        XCTAssertTrue(try parse(head, method: "HEAD", close: false).parser.leavesConnectionReusable)
        let notReusable = [
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive, Close\r\n\r\nok",
            "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
            // Something after the response: the connection's bytes are out of step.
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1",
            // Not complete yet.
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok",
        ]
        for text in notReusable {
            XCTAssertFalse(try parse(text, method: "GET", close: false).parser.leavesConnectionReusable, text)
        }
        // A body that ends when the connection closes.
        let untilClose = "HTTP/1.1 200 OK\r\n\r\nok"
        XCTAssertFalse(try parse(untilClose, method: "GET", close: true).parser.leavesConnectionReusable)
    }

    func testTheStatusLineVersionIsKept() throws {
        XCTAssertEqual(try parse("HTTP/1.0 204 No Content\r\n\r\n", close: false).parser.head?.version, "HTTP/1.0")
        XCTAssertFalse(HTTP1ResponseParser(requestMethod: "GET").hasReceivedBytes)
        XCTAssertTrue(try parse("HTTP/1.", close: false).parser.hasReceivedBytes)
    }

    func testEqualRepeatedContentLengthsAreOneLength() throws {
        let parser = try parse("HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok", close: false)
            .parser
        XCTAssertEqual(body(parser), "ok")
    }

    func testADrainedBodyIsHandedOverInOrderAndForgotten() throws {
        var parser = HTTP1ResponseParser(requestMethod: "GET")
        var drained: [UInt8] = []
        let bytes = Array(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n".utf8)
        for byte in bytes {
            _ = try parser.feed([byte])
            parser.drainBody { drained += $0 }
            XCTAssertTrue(parser.body.isEmpty)
        }
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(String(decoding: drained, as: UTF8.self), "abcdefg")
    }

    func testALargeBodyInManyPiecesIsKeptWhole() throws {
        let payload = String(repeating: "0123456789abcdef", count: 20_000)
        let (parser, _) = try parse(
            "HTTP/1.1 200 OK\r\nContent-Length: \(payload.utf8.count)\r\n\r\n" + payload, pieces: 4096, close: false)
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(body(parser), payload)
    }
}

/// RFC 9112's grammar, strictly: each case the issue "Trust the wire" found, and its neighbours.
extension HTTP1ResponseParserTests {
    private func chunked(_ chunks: String, head: String = "") -> String {
        "HTTP/1.1 200 OK\r\n\(head)Transfer-Encoding: chunked\r\n\r\n" + chunks
    }

    /// The parse error `text` gives, fed whole and then byte by byte (the same one both ways).
    private func failure(_ text: String, method: String = "GET", file: StaticString = #filePath, line: UInt = #line)
        -> HTTP1ParseError?
    {
        var errors: [HTTP1ParseError] = []
        for size in [Int.max, 1] {
            do {
                _ = try parse(text, method: method, pieces: size)
                XCTFail("accepted \(text.debugDescription)", file: file, line: line)
            } catch let error as HTTP1ParseError {
                errors.append(error)
            } catch {
                XCTFail("\(error)", file: file, line: line)
            }
        }
        XCTAssertEqual(errors.first?.kind, errors.last?.kind, text.debugDescription, file: file, line: line)
        return errors.first
    }

    func testChunkSizesAreHexDigitsWithoutSignOrSpace() throws {
        // RFC 9112 §7.1: chunk-size = 1*HEXDIG. `-5` trapped, `+5` and `-0` were accepted.
        for size in ["-5", "+5", "-0", "+0", " 5", "0x5", "5 ", "5\t", "", "g", "5\u{0}"] {
            let error = failure(chunked("\(size)\r\nhello\r\n0\r\n\r\n"))
            XCTAssertEqual(error?.kind, .chunkSize, size.debugDescription)
        }
        let huge = failure(chunked("8000000000000000\r\nhello\r\n"))
        XCTAssertEqual(huge?.kind, .chunkSize)
        XCTAssertTrue(huge?.description.contains("larger than") ?? false)
        for size in ["5", "05", "0000000000000000000005"] {
            let parser = try parse(chunked("\(size)\r\nhello\r\n0\r\n\r\n"), close: false).parser
            XCTAssertEqual(body(parser), "hello", size)
        }
        let mixed = try parse(chunked("A\r\n0123456789\r\nb\r\n0123456789a\r\n0\r\n\r\n"), close: false).parser
        assertComplete(mixed, body: "01234567890123456789a")
    }

    private func assertComplete(_ parser: HTTP1ResponseParser, body text: String, line: UInt = #line) {
        XCTAssertTrue(parser.isComplete, line: line)
        XCTAssertEqual(body(parser), text, line: line)
    }

    func testChunkExtensionsFollowTheirGrammar() throws {
        // RFC 9112 §7.1.1: *( BWS ";" BWS token [ BWS "=" BWS ( token / quoted-string ) ] ).
        let valid = ["5;a", "5;a=b", "5 ; a = b", "5;a;b=c", "5\t;a=\"q \\\" x;y\"", "5;a=\"\""]
        for line in valid {
            assertComplete(try parse(chunked("\(line)\r\nhello\r\n0;end\r\n\r\n"), close: false).parser, body: "hello")
        }
        let invalid = [
            "5;", "5;=b", "5;a=", "5;a=\"open", "5;a b", "5;a=b ", "5;a=b;", "5;a=\"\u{1}\"", "5;a=b\rc", "5;é",
        ]
        for line in invalid {
            XCTAssertEqual(
                failure(chunked("\(line)\r\nhello\r\n0\r\n\r\n"))?.kind, .chunkExtension, line.debugDescription)
        }
    }

    func testChunkFramingNeedsCRLF() {
        // Chunk lines are not field lines: §2.2's bare LF does not apply to them (§7.1).
        XCTAssertEqual(failure(chunked("5\nhello\r\n0\r\n\r\n"))?.kind, .chunkSize)
        XCTAssertEqual(failure(chunked("5\r\nhello\n0\r\n\r\n"))?.kind, .chunkData)
        XCTAssertEqual(failure(chunked("5\r\nhelloXY0\r\n\r\n"))?.kind, .chunkData)
        XCTAssertEqual(failure(chunked("5\r\nhello\r0\r\n\r\n"))?.kind, .chunkData)
        let long = String(repeating: "0", count: HTTP1ResponseParser.maximumChunkLineSize + 1)
        XCTAssertEqual(failure(chunked(long))?.kind, .chunkSize)
    }

    func testTrailersAreFieldsBoundedAndKeptApart() throws {
        let parser = try parse(chunked("2\r\nok\r\n0\r\nX-Sum: 1\r\n  2\nX-B: b\n\n"), close: false).parser
        assertComplete(parser, body: "ok")
        XCTAssertEqual(parser.trailers.values(for: "x-sum"), ["1 2"])
        XCTAssertEqual(parser.trailers.values(for: "x-b"), ["b"])
        XCTAssertNil(parser.head?.headers["X-Sum"])
        XCTAssertEqual(failure(chunked("2\r\nok\r\n0\r\nNo colon\r\n\r\n"))?.kind, .fieldLine)
        XCTAssertEqual(failure(chunked("2\r\nok\r\n0\r\nX : 1\r\n\r\n"))?.kind, .fieldLine)
        XCTAssertEqual(failure(chunked("2\r\nok\r\n0\r\nX: a\u{0}b\r\n\r\n"))?.kind, .trailerValue)
        XCTAssertEqual(failure(chunked("2\r\nok\r\n0\r\nX: a\rb\r\n\r\n"))?.kind, .trailerValue)
        // Other control characters may stay, as in the head (RFC 9110 §5.5).
        let control = try parse(chunked("2\r\nok\r\n0\r\nX: a\u{1}b\r\n\r\n"), close: false).parser
        XCTAssertEqual(control.trailers["X"], "a\u{1}b")
        let big = "X: " + String(repeating: "t", count: HTTP1ResponseParser.maximumHeadSize) + "\r\n\r\n"
        XCTAssertEqual(failure(chunked("2\r\nok\r\n0\r\n" + big))?.kind, .sectionTooLarge)
        XCTAssertEqual(failure(chunked("2\r\nok\r\n0\r\n" + String(big.dropLast(2))))?.kind, .sectionTooLarge)
        // A trailer section cut short by the close is an error, not the end of the body.
        XCTAssertEqual(failure(chunked("2\r\nok\r\n0\r\nX: 1\r\n"))?.kind, .cutShort)
    }

    func testTransferCodingsTheClientDoesNotDecodeFail() throws {
        // The bytes of such a coding were handed over as the body, or read to the close (`foo` with
        // a Content-Length): RFC 9112 §6.1 and §6.3 item 4. `chunked` is applied once, last.
        let codings = [
            "compress, chunked", "foo", "chunked, gzip", "chunked, chunked", "identity", "chunked;q=1", "", " , ",
            "gzip;q=1, chunked", "gzip\u{A0}, chunked",
            // Unicode spaces and case mappings are not SP, HTAB or ASCII case (RFC 9110 §5.6.1).
            "chunked\u{A0}", "\u{A0}chunked", "chun\u{212A}ed", "chunke\u{0307}d",
        ]
        for coding in codings {
            let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: \(coding)\r\nContent-Length: 5\r\n\r\nhello"
            XCTAssertEqual(failure(text)?.kind, .transferCoding, coding.debugDescription)
        }
        let twice = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        XCTAssertEqual(failure(twice)?.kind, .transferCoding)
        // Names are case-insensitive; empty list elements are ignored (RFC 9110 §5.6.1).
        for coding in ["Chunked", "CHUNKED", "chunked ,", ", chunked"] {
            let text = chunked("2\r\nok\r\n0\r\n\r\n").replacingOccurrences(of: ": chunked", with: ": \(coding)")
            let parser = try parse(text, method: "GET", close: false).parser
            assertComplete(parser, body: "ok")
            XCTAssertTrue(parser.leavesConnectionReusable, coding)
        }
    }

    /// gzip, x-gzip and deflate before a final chunked frame by chunked; alone (or last) the body
    /// runs to the close (RFC 9112 §6.3 item 4). The parser hands the body over still coded, with
    /// its codings in the order they were applied, for the intake to decode.
    func testCodingsTheClientDecodesAreFramedAndListed() throws {
        let beforeChunked =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: GZIP, x-gzip\r\nTransfer-Encoding: Deflate, chunked\r\n"
            + "\r\n2\r\nok\r\n0\r\n\r\n"
        let chunkedParser = try parse(beforeChunked, method: "GET", close: false).parser
        assertComplete(chunkedParser, body: "ok")
        XCTAssertEqual(chunkedParser.transferCodings, ["gzip", "x-gzip", "deflate"])
        XCTAssertTrue(chunkedParser.leavesConnectionReusable)
        for fields in ["Transfer-Encoding: gzip\r\n", "Transfer-Encoding: gzip\r\nContent-Length: 2\r\n"] {
            let alone = "HTTP/1.1 200 OK\r\n\(fields)\r\nokay"
            XCTAssertFalse(try parse(alone, method: "GET", close: false).parser.isComplete, "complete before the close")
            let parser = try parse(alone, method: "GET", close: true).parser
            assertComplete(parser, body: "okay")
            XCTAssertEqual(parser.transferCodings, ["gzip"])
            XCTAssertFalse(parser.leavesConnectionReusable)
        }
    }

    func testTransferEncodingWithContentLengthIsChunkedAndNotReused() throws {
        // RFC 9112 §6.3 item 3: Transfer-Encoding overrides Content-Length; the pair is a sign of
        // smuggling, so the connection is closed after the response.
        let parser = try parse(
            chunked("2\r\nok\r\n0\r\n\r\n", head: "Content-Length: 100\r\n"), method: "GET", close: false
        )
        .parser
        assertComplete(parser, body: "ok")
        XCTAssertNil(parser.bodyLength)
        XCTAssertFalse(parser.leavesConnectionReusable)
    }

    func testTransferEncodingInAnHTTP10ResponseFails() {
        // RFC 9112 §6.1: the framing of an HTTP/1.0 message with Transfer-Encoding is faulty.
        let text = "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\nok\r\n0\r\n\r\n"
        let error = failure(text)
        XCTAssertEqual(error?.kind, .transferCoding)
        XCTAssertTrue(error?.description.contains("HTTP/1.0") ?? false)
    }

    func testContentLengthIsOneDecimalValue() throws {
        // RFC 9112 §6.3 item 5; `Content-Length:` empty or `,` was read as "no length".
        let invalid = [
            "", ",", "1,,1", "+5", "-5", "5 5", "0x5", "5, 6", " , 5", "5,", "99999999999999999999", "5.0", "٥",
        ]
        for value in invalid {
            let text = "HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\nhello"
            XCTAssertEqual(failure(text)?.kind, .contentLength, value.debugDescription)
        }
        XCTAssertEqual(
            failure("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 05\r\n\r\nhello")?.kind, .contentLength)
        // RFC 9110 §8.6: the same value repeated is that value.
        for fields in ["Content-Length: 5, 5", "Content-Length: 5\r\nContent-Length: 5,5", "Content-Length: 005"] {
            let parser = try parse("HTTP/1.1 200 OK\r\n\(fields)\r\n\r\nhello", close: false).parser
            assertComplete(parser, body: "hello")
        }
        // An invalid length fails even where no body follows.
        XCTAssertEqual(failure("HTTP/1.1 204 No Content\r\nContent-Length: x\r\n\r\n")?.kind, .contentLength)
        XCTAssertEqual(failure("HTTP/1.1 200 OK\r\nContent-Length: ,\r\n\r\n", method: "HEAD")?.kind, .contentLength)
    }

    func testStatusLinesFollowTheGrammar() throws {
        // RFC 9112 §4: HTTP-version SP 3DIGIT SP [ reason-phrase ]; only HTTP/1.x (§2.3).
        let invalid = [
            "HTTP/2.0 200 OK", "HTTP/0.9 200 OK", "HTTP/1.1 200OK", "HTTP/1.1  200 OK", "http/1.1 200 OK",
            "HTTP/1.1 2000 OK", "HTTP/1.1 099 X", "HTTP/1.1 600 X", "HTTP/1.1 +20 X", "HTTP/1.1 200 O\u{1}K",
            "HTTP/1.1 200\tOK", "HTTP/1.10 200 OK", "HTTP/1 200 OK", " HTTP/1.1 200 OK", "HTTP/1.1 200 OK\r",
            "HTTP/1.1 200 O\rK", "HTTP/1.1 200 OK\u{7F}", "HTTP/1.1\t200 OK", "HTTP/1.x 200 OK",
        ]
        for line in invalid {
            XCTAssertEqual(failure("\(line)\r\nContent-Length: 0\r\n\r\n")?.kind, .statusLine, line.debugDescription)
        }
        for line in ["HTTP/1.1 200", "HTTP/1.1 200 ", "HTTP/1.1 299 \tWhatever\t reason é"] {
            let parser = try parse("\(line)\r\nContent-Length: 0\r\n\r\n", method: "GET", close: false).parser
            XCTAssertTrue(parser.leavesConnectionReusable, line)
        }
        // A later minor version is read as HTTP/1.1 (RFC 9112 §2.3).
        let later = try parse("HTTP/1.2 200 OK\r\nContent-Length: 0\r\n\r\n", method: "GET", close: false).parser
        XCTAssertEqual(later.head?.version, "HTTP/1.2")
        XCTAssertTrue(later.leavesConnectionReusable)
    }

    func testFieldLinesFollowTheGrammar() throws {
        // RFC 9112 §5.1: no whitespace between name and colon; names are tokens (RFC 9110 §5.1).
        let error = failure("HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello")
        XCTAssertEqual(error?.kind, .fieldLine)
        XCTAssertTrue(error?.description.contains("§5.1") ?? false)
        for line in ["X\tY: 1", "Na\rme: 1", ": empty", "X\u{0}: 1", "Ünï: 1", "(x): 1"] {
            XCTAssertEqual(failure("HTTP/1.1 200 OK\r\n\(line)\r\n\r\n")?.kind, .fieldLine, line.debugDescription)
        }
        // §5.2: obs-fold at the start has nothing to continue.
        XCTAssertEqual(failure("HTTP/1.1 200 OK\r\n folded: 1\r\n\r\n")?.kind, .fieldLine)
        // obs-fold (OWS CRLF RWS) becomes one SP; values lose SP and HTAB at their ends only.
        let text =
            "HTTP/1.1 200 OK\r\nX-A: one \t\r\n\t two \r\nX-B:\u{A0}nbsp\u{A0}\r\nX-C:\r\n  \r\nContent-Length: 0\r\n\r\n"
        let head = try parse(text, close: false).parser.head
        XCTAssertEqual(head?.headers.values(for: "x-a"), ["one two"])
        XCTAssertEqual(head?.headers.values(for: "x-b"), ["\u{A0}nbsp\u{A0}"])
        XCTAssertEqual(head?.headers.values(for: "x-c"), [""])
        // CR, NUL and other controls inside a value are left to the call pipeline's one check.
        let raw = try parse("HTTP/1.1 200 OK\r\nX: a\rb\u{0}c\u{1}\r\nContent-Length: 0\r\n\r\n", close: false).parser
        XCTAssertEqual(raw.head?.headers["X"], "a\rb\u{0}c\u{1}")
    }

    func testHeadSizeIsBoundedHoweverItArrives() {
        let field = "X: " + String(repeating: "a", count: HTTP1ResponseParser.maximumHeadSize) + "\r\n"
        // Whole (the end of the head already there) and without its end.
        XCTAssertEqual(failure("HTTP/1.1 200 OK\r\n\(field)\r\n")?.kind, .sectionTooLarge)
        XCTAssertEqual(failure("HTTP/1.1 200 OK\r\n\(field)")?.kind, .sectionTooLarge)
    }

    func testInterimResponseFieldsMayNotBreakLines() throws {
        // RFC 9110 §5.5: CR, LF or NUL in any field value make the message invalid, even where the
        // field is not used; other controls may stay.
        for value in ["a\rb", "a\u{0}b"] {
            let text = "HTTP/1.1 103 Early Hints\r\nLink: \(value)\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
            XCTAssertEqual(failure(text)?.kind, .fieldLine, value.debugDescription)
        }
        let text = "HTTP/1.1 103 Early Hints\r\nLink: a\u{1}b\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
        XCTAssertEqual(try parse(text, close: false).events.first, .interim(103))
    }

    func testInterimAndBodilessResponses() throws {
        // RFC 9110 §15.2.2: this client never asks to switch protocols.
        XCTAssertEqual(failure("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n")?.kind, .switchingProtocols)
        // A HEAD or 304 response may carry the Transfer-Encoding a GET would have (RFC 9112 §6.1).
        let head = try parse(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", method: "HEAD", close: false
        ).parser
        XCTAssertTrue(head.leavesConnectionReusable)
        for status in [204, 304] {
            let text = "HTTP/1.1 \(status) X\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc"
            let parser = try parse(text, method: "GET", close: false).parser
            XCTAssertTrue(parser.isComplete)
            XCTAssertEqual(parser.body, [])
            // The bytes after it are no response to anything: the connection is out of step.
            XCTAssertFalse(parser.leavesConnectionReusable)
        }
        // A 204 with a length other than 0 or a coding breaks RFC 9110 §8.6 / RFC 9112 §6.1: its
        // connection is not used again, as a body may follow. A 304 may carry the GET's length.
        let framed204: [(String, Bool)] = [
            ("HTTP/1.1 204 X\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.1 204 X\r\nContent-Length: 3\r\n\r\n", false),
            ("HTTP/1.1 204 X\r\nTransfer-Encoding: chunked\r\n\r\n", false),
            ("HTTP/1.1 304 X\r\nContent-Length: 3\r\n\r\n", true),
        ]
        for (text, reusable) in framed204 {
            XCTAssertEqual(try parse(text, method: "GET", close: false).parser.leavesConnectionReusable, reusable, text)
        }
        let interim =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX: y\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"
        let parser = try parse(interim, method: "GET", pieces: 1, close: false)
        XCTAssertEqual(parser.events, [.interim(100), .interim(102), .head(parser.parser.head!)])
        XCTAssertTrue(parser.parser.leavesConnectionReusable)
    }

    func testConnectionPersistenceRules() throws {
        // RFC 9112 §9.3: HTTP/1.1 persists unless `close`; HTTP/1.0's keep-alive is not honoured.
        let cases: [(String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.1 200 OK\r\nConnection: Upgrade, CLOSE\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.1 200 OK\r\nConnection: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", false),
        ]
        for (text, reusable) in cases {
            XCTAssertEqual(try parse(text, method: "GET", close: false).parser.leavesConnectionReusable, reusable, text)
        }
        // A body framed by the close never leaves a connection to reuse.
        let untilClose = try parse("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\nall", method: "GET").parser
        assertComplete(untilClose, body: "all")
        XCTAssertFalse(untilClose.leavesConnectionReusable)
    }

    func testEveryErrorIsTypedAndDescribed() {
        let error = failure(chunked("-5\r\nhello\r\n0\r\n\r\n"))
        XCTAssertTrue(error?.description.contains("RFC 9112 §7.1") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.description.contains("\"-5\"") ?? false, "\(String(describing: error))")
    }
}
