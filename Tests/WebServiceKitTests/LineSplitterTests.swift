import XCTest

@testable import WebServiceKit

/// ``LineSplitter``: LF, CRLF and (for Server-Sent Events) lone CR line ends, whatever the pieces.
final class LineSplitterTests: XCTestCase {
    private func lines(
        _ pieces: [[UInt8]], loneCR: Bool, limit: Int = 100, unterminatedAllowed: Bool = true
    ) throws -> [String] {
        var splitter = LineSplitter(maximumLineLength: limit, splitsAtLoneCR: loneCR)
        var lines: [[UInt8]] = []
        for piece in pieces { lines += try splitter.append(piece) }
        if let last = try splitter.finish(allowingUnterminatedLine: unterminatedAllowed) { lines.append(last) }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    private func lines(_ text: String, loneCR: Bool) throws -> [String] {
        try lines([Array(text.utf8)], loneCR: loneCR)
    }

    func testLineEnds() throws {
        XCTAssertEqual(try lines("a\nb\r\nc\rd\r\r\ne", loneCR: true), ["a", "b", "c", "d", "", "e"])
        XCTAssertEqual(try lines("a\nb\r\nc\rd\r\r\ne", loneCR: false), ["a", "b", "c\rd\r", "e"])
        XCTAssertEqual(try lines("\n\n", loneCR: false), ["", ""])
        XCTAssertEqual(try lines("x\r", loneCR: true), ["x"])
        XCTAssertEqual(try lines("x\r", loneCR: false), ["x\r"], "a CR with nothing after it is content")
    }

    func testEveryCutAndByteAtATimeGiveTheSameLines() throws {
        let stream = Array("one\r\ntwo\r\rthree\n\r\n\n\rfour\r".utf8) + [0xE2, 0x82, 0xAC, 0x0D, 0x0A, 0x41]
        for loneCR in [true, false] {
            let whole = try lines([stream], loneCR: loneCR)
            XCTAssertEqual(try lines(stream.map { [$0] }, loneCR: loneCR), whole)
            for cut in 0...stream.count {
                XCTAssertEqual(
                    try lines([Array(stream[..<cut]), Array(stream[cut...])], loneCR: loneCR), whole, "cut at \(cut)")
            }
        }
    }

    func testTheLastLineOnlyAtTheEndAndOnlyWhereAllowed() throws {
        var splitter = LineSplitter(maximumLineLength: 10, splitsAtLoneCR: false)
        XCTAssertEqual(try splitter.append(Array("a\nb".utf8)), [[0x61]])
        XCTAssertThrowsError(try splitter.finish(allowingUnterminatedLine: false)) { error in
            XCTAssertEqual(error as? StreamParseError, .unterminatedLine(length: 1))
        }
        XCTAssertEqual(try lines([Array("a\n".utf8)], loneCR: false, unterminatedAllowed: false), ["a"])
    }

    func testTheLineLengthLimitCountsContentNotTheLineEnd() throws {
        XCTAssertEqual(try lines([Array("1234\r\n".utf8)], loneCR: false, limit: 4), ["1234"])
        XCTAssertEqual(try lines([Array("1234\r".utf8), Array("\n".utf8)], loneCR: false, limit: 4), ["1234"])
        XCTAssertEqual(try lines([Array("1234\r\r\n".utf8)], loneCR: true, limit: 4), ["1234", ""])
        for text in ["12345\n", "1234\rx\n", "1234\r\r\n", "1234\r"] {
            XCTAssertThrowsError(try lines([Array(text.utf8)], loneCR: false, limit: 4), text.debugDescription) {
                XCTAssertEqual($0 as? StreamParseError, .lineTooLong(limit: 4))
            }
        }
        // The error is kept: later pieces do not resume the stream.
        var splitter = LineSplitter(maximumLineLength: 2, splitsAtLoneCR: true)
        XCTAssertThrowsError(try splitter.append(Array("abc".utf8)))
        XCTAssertThrowsError(try splitter.append(Array("\n".utf8)))
    }
}
