import Foundation
import XCTest

@testable import WebServiceKit

/// ``ServerSentEventParser`` against an independent reading of the same streams: httpx-sse's
/// `SSELineDecoder` and `SSEDecoder` (pinned in `Tests/Servers/requirements-differential.txt`), on
/// 5,000 generated streams (`Tests/Differential/sse_cases.py`: known and unknown fields, comments,
/// NUL, invalid UTF-8, LF / CRLF / lone CR, a BOM, odd retry values, byte mutations), which the
/// script feeds to httpx-sse in random pieces.
///
/// httpx-sse departs from WHATWG HTML §9.2.6 in two places; each is an accepted difference below,
/// applied as a rule (not by skipping the stream) and counted. Anything else fails the test.
/// - It dispatches a block without any `data` line when the block set an event type, an ID or a
///   retry, or an ID was ever set ("If the data buffer is an empty string, set the data buffer and
///   the event type buffer to the empty string and return").
/// - It reads `retry` with Python's `int()`, which takes signs, surrounding spaces, underscores and
///   non-ASCII digits ("If the field value consists of only ASCII digits ... Otherwise, ignore the
///   field"); and it has no upper bound where ours saturates at `Int.max`.
/// (httpx leaves a leading BOM to its caller; the script removes it, as the standard's decoder does.)
///
/// `Scripts/test` writes the cases and sets `WEBSERVICEKIT_SSE_DIFFERENTIAL_CASES` to their
/// file; the test is skipped without it. To rerun by hand:
///
///     .venv-differential/bin/python Tests/Differential/sse_cases.py /tmp/sse-cases.tsv
///     WEBSERVICEKIT_SSE_DIFFERENTIAL_CASES=/tmp/sse-cases.tsv \
///         swift test --skip-build --filter ServerSentEventDifferentialTests
final class ServerSentEventDifferentialTests: XCTestCase {
    /// One event as httpx-sse dispatched it, with what the script saw of its block.
    private struct Theirs {
        var event: ServerSentEvent
        var hadData: Bool
        var lenientRetry: Bool
        var hugeRetry: Bool
    }

    func testTheParserAgreesWithHTTPXSSE() throws {
        guard let path = ProcessInfo.processInfo.environment["WEBSERVICEKIT_SSE_DIFFERENTIAL_CASES"] else {
            throw XCTSkip("WEBSERVICEKIT_SSE_DIFFERENTIAL_CASES names no file of cases (Scripts/test writes one)")
        }
        let text = try String(contentsOfFile: path, encoding: .ascii)
        var streams = 0
        var eventsCompared = 0
        var accepted: [String: Int] = [:]
        var unexplained: [String] = []
        for line in text.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count == 2, let stream = Data(base64Encoded: String(columns[0])) else {
                XCTFail("a malformed case: \(line.prefix(80))")
                continue
            }
            streams += 1
            let bytes = [UInt8](stream)
            var theirs: [Theirs] = []
            for field in columns[1].split(separator: ";") {
                guard let event = Self.event(field) else {
                    XCTFail("a malformed event: \(field)")
                    continue
                }
                theirs.append(event)
            }
            let ours = try Self.parse([bytes])
            XCTAssertEqual(
                try Self.parse(bytes.map { [$0] }), ours, "a byte at a time: \(stream.base64EncodedString())")

            // httpx-sse dispatches blocks without data; the standard dispatches nothing for them.
            let withData = theirs.filter(\.hadData)
            if withData.count < theirs.count {
                accepted["a block without data dispatched (httpx-sse)", default: 0] += theirs.count - withData.count
            }
            guard withData.count == ours.count else {
                unexplained.append("\(stream.base64EncodedString()): \(ours.count) events, httpx-sse \(withData.count)")
                continue
            }
            for (mine, their) in zip(ours, withData) {
                eventsCompared += 1
                var expected = their.event
                if mine.retry != expected.retry {
                    if their.lenientRetry {
                        accepted["a retry int() takes that is not ASCII digits only", default: 0] += 1
                        expected.retry = mine.retry
                    } else if their.hugeRetry, mine.retry == .max {
                        accepted["a retry past Int.max (ours: Int.max)", default: 0] += 1
                        expected.retry = mine.retry
                    }
                }
                if mine != expected {
                    unexplained.append("\(stream.base64EncodedString()): \(mine) vs httpx-sse \(their.event)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(streams, 5_000)
        XCTAssertGreaterThan(eventsCompared, 5_000)
        XCTAssertTrue(
            unexplained.isEmpty, "\(unexplained.count) unexplained:\n" + unexplained.prefix(20).joined(separator: "\n"))
        print("SSE differential: \(streams) streams, \(eventsCompared) events compared; accepted: \(accepted)")
    }

    private static func parse(_ pieces: [[UInt8]]) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for piece in pieces { events += try parser.append(piece) }
        try parser.finish()
        return events
    }

    /// `type,data,id,retry,had_data,lenient_retry,huge_retry` as `sse_cases.py` writes it.
    private static func event(_ field: Substring) -> Theirs? {
        let parts = field.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 7 else { return nil }
        func text(_ part: Substring) -> String? {
            Data(base64Encoded: String(part)).map { String(decoding: $0, as: UTF8.self) }
        }
        guard let type = text(parts[0]), let data = text(parts[1]), let id = text(parts[2]) else { return nil }
        // A retry Python read past Int.max stays nil here; the huge_retry flag explains it.
        let retry = parts[3] == "-" ? nil : Int(parts[3])
        let event = ServerSentEvent(type: type, data: data, id: id, retry: retry)
        return Theirs(event: event, hadData: parts[4] == "1", lenientRetry: parts[5] == "1", hugeRetry: parts[6] == "1")
    }
}
