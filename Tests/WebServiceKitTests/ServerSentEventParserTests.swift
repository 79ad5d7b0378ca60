import Foundation
import XCTest

@testable import WebServiceKit

/// ``ServerSentEventParser`` against WHATWG HTML §9.2.6 "Interpreting an event stream": the
/// standard's own examples, every rule, and every way of cutting a stream into pieces.
final class ServerSentEventParserTests: XCTestCase {
    /// The events of `stream` fed whole, then ended.
    private func events(_ stream: [UInt8], maximumDataSize: Int = 1 << 20) throws -> [ServerSentEvent] {
        try events(pieces: [stream], maximumDataSize: maximumDataSize)
    }

    private func events(_ text: String) throws -> [ServerSentEvent] { try events(Array(text.utf8)) }

    private func events(pieces: [[UInt8]], maximumDataSize: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maximumLineLength: 4 << 20, maximumDataSize: maximumDataSize)
        var events: [ServerSentEvent] = []
        for piece in pieces { events += try parser.append(piece) }
        try parser.finish()
        return events
    }

    private func message(_ data: String, id: String = "", type: String = "message", retry: Int? = nil)
        -> ServerSentEvent
    {
        ServerSentEvent(type: type, data: data, id: id, retry: retry)
    }

    // MARK: The standard's examples

    func testMultiLineDataIsJoinedWithLineFeeds() throws {
        XCTAssertEqual(try events("data: YHOO\ndata: +2\ndata: 10\n\n"), [message("YHOO\n+2\n10")])
    }

    func testCommentsIDsAndALeadingSpace() throws {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        XCTAssertEqual(
            try events(stream),
            [message("first event", id: "1"), message("second event"), message(" third event")])
    }

    func testEmptyDataLinesAndTheDiscardedLastEvent() throws {
        // "The following stream fires two events": "" and "\n"; the last `data` has no empty line.
        XCTAssertEqual(try events("data\n\ndata\ndata\n\ndata:"), [message(""), message("\n")])
    }

    func testOneLeadingSpaceIsOptional() throws {
        XCTAssertEqual(try events("data:test\n\ndata: test\n\n"), [message("test"), message("test")])
    }

    // MARK: Rules

    func testEventTypeDefaultsToMessageAndIsResetAfterEachEvent() throws {
        XCTAssertEqual(
            try events("event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n"),
            [message("1", type: "add"), message("2"), message("3")])
    }

    func testLineEndsCRLFAndLoneCR() throws {
        XCTAssertEqual(
            try events("data: a\r\ndata: b\rdata: c\n\r\nid: 7\r\rdata: d\r\r"),
            [message("a\nb\nc"), message("d", id: "7")])
    }

    func testOneLeadingBOMIsStrippedAndASecondIsNot() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        XCTAssertEqual(try events(bom + Array("data: x\n\n".utf8)), [message("x")])
        // A second BOM is part of the first field name, which is then unknown.
        XCTAssertEqual(try events(bom + bom + Array("data: x\n\ndata: y\n\n".utf8)), [message("y")])
        // A BOM later in the stream is text.
        XCTAssertEqual(try events(Array("data: ".utf8) + bom + [0x0A, 0x0A]), [message("\u{FEFF}")])
        // A stream that is only part of a BOM ends without an event or an error.
        XCTAssertEqual(try events([0xEF, 0xBB]), [])
    }

    func testInvalidUTF8IsReplaced() throws {
        XCTAssertEqual(
            try events([0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0xE2, 0x82, 0x0A, 0x0A]), [message("\u{FFFD}\u{FFFD}")])
    }

    func testAnIDWithNULIsIgnored() throws {
        XCTAssertEqual(
            try events("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n"), [message("a", id: "1"), message("b", id: "1")])
    }

    func testTheLastEventIDIsSetByABlockWithoutData() throws {
        var parser = ServerSentEventParser()
        XCTAssertEqual(try parser.append(Array("id: 5\n".utf8)), [])
        XCTAssertEqual(parser.lastEventID, "", "the buffer is copied only at the empty line")
        XCTAssertEqual(try parser.append(Array("\n".utf8)), [])
        XCTAssertEqual(parser.lastEventID, "5")
        XCTAssertEqual(try parser.append(Array("data: x\n\n".utf8)), [message("x", id: "5")])
    }

    func testRetryTakesASCIIDigitsOnly() throws {
        let stream =
            "retry: 1500\ndata: a\n\nretry: 1x\ndata: b\n\nretry: +5\nretry: -1\nretry:  7\nretry:\nretry: \u{0661}\ndata: c\n\n"
        var parser = ServerSentEventParser()
        XCTAssertEqual(
            try parser.append(Array(stream.utf8)), [message("a", retry: 1500), message("b"), message("c")])
        XCTAssertEqual(parser.reconnectionTime, 1500)
        XCTAssertEqual(try parser.append(Array("retry: 99999999999999999999999\n\n".utf8)), [])
        XCTAssertEqual(parser.reconnectionTime, Int.max)
    }

    func testFieldsWithoutColonsAndUnknownFields() throws {
        XCTAssertEqual(
            try events("event\ndata\nfoo: bar\nDATA: no\n data: no\nid\n\n"), [message("")])
    }

    func testTheIncompleteLastEventIsDiscarded() throws {
        XCTAssertEqual(try events("data: a\n\ndata: b\n"), [message("a")])
        XCTAssertEqual(try events("data: a\n\ndata: b"), [message("a")])
    }

    // MARK: Pieces

    /// Streams whose events must not depend on where the stream is cut.
    private static let streams: [[UInt8]] = [
        Array(
            ": c\r\nevent: e\r\ndata: one\r\ndata:two\r\rid: 1\r\n\r\ndata\n\ndata: \u{00E9}\u{20AC}\u{1F600}\r\n\r\n"
                .utf8),
        [0xEF, 0xBB, 0xBF] + Array("data: a\r\r\ndata: b\n\r\n\rretry: 12\rdata: c\r\r".utf8),
        Array("id: x\u{0}y\nid: 3\n\ndata: \r\n\r\ndata: \u{FEFF}\n\n".utf8) + [0xE2, 0x82, 0x0D, 0x0D],
    ]

    func testEveryCutGivesTheSameEvents() throws {
        for stream in Self.streams {
            let whole = try events(stream)
            XCTAssertFalse(whole.isEmpty)
            XCTAssertEqual(try events(pieces: stream.map { [$0] }), whole, "a byte at a time")
            for cut in 0...stream.count {
                let pieces = [Array(stream[..<cut]), Array(stream[cut...])]
                XCTAssertEqual(try events(pieces: pieces), whole, "cut at \(cut)")
            }
        }
    }

    func testACRAtTheEndOfAPieceAndLFAtTheStartOfTheNextAreOneLineEnd() throws {
        var parser = ServerSentEventParser()
        XCTAssertEqual(try parser.append(Array("data: a\r".utf8)), [])
        // The LF completes the CRLF of "data: a"; the CR after it is the empty line.
        XCTAssertEqual(try parser.append(Array("\n\r".utf8)), [message("a")])
        XCTAssertEqual(try parser.append(Array("\ndata: b\r\n\r\n".utf8)), [message("b")])
    }

    // MARK: Limits

    func testATwoMegabyteEvent() throws {
        let data = String(repeating: "0123456789abcdef", count: 131_072)
        let stream = Array("data: \(data)\n\n".utf8)
        var pieces: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            pieces.append(Array(stream[offset..<min(stream.count, offset + 65_521)]))
            offset += 65_521
        }
        XCTAssertEqual(try events(pieces: pieces, maximumDataSize: 4 << 20), [message(data)])
    }

    func testDataPastTheLimitIsATypedError() throws {
        let stream = Array("data: 12345\ndata: 6789\n\n".utf8)
        XCTAssertEqual(try events(stream, maximumDataSize: 10), [message("12345\n6789")])
        XCTAssertThrowsError(try events(stream, maximumDataSize: 9)) { error in
            XCTAssertEqual(error as? StreamParseError, .eventTooLarge(limit: 9))
        }
    }

    func testTheFirstLimitReachedIsTheErrorHoweverTheStreamIsCut() throws {
        // The data limit is passed on the first line, the line limit on the second: fed whole, the
        // first line is interpreted before the second is split (a finding of the `sse` fuzz target).
        let stream = Array("data: 123456789\ndata: 0123456789abcdefghij\n\n".utf8)
        for pieces in [[stream], stream.map { [$0] }] {
            var parser = ServerSentEventParser(maximumLineLength: 16, maximumDataSize: 8)
            XCTAssertThrowsError(try pieces.forEach { _ = try parser.append($0) }) { error in
                XCTAssertEqual(error as? StreamParseError, .eventTooLarge(limit: 8))
            }
            XCTAssertThrowsError(try parser.finish(), "the error is kept")
        }
    }

    func testALinePastTheLimitIsATypedError() throws {
        var parser = ServerSentEventParser(maximumLineLength: 8)
        XCTAssertEqual(try parser.append(Array("data: 12\n\n".utf8)), [message("12")])
        XCTAssertThrowsError(try parser.append(Array("data: 123".utf8))) { error in
            XCTAssertEqual(error as? StreamParseError, .lineTooLong(limit: 8))
        }
    }
}
