import Foundation
import XCTest

@testable import WebServiceKit
@testable import WebServiceKitOData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One test per finding of the libFuzzer targets in `Tests/Fuzz` (run with `Scripts/fuzz`): each
/// feeds the input that broke an invariant, or crashed, through the same code. The inputs are
/// also in the seed corpus, under `Tests/Fuzz/Corpus/<target>/`.
final class FuzzRegressionTests: XCTestCase {
    // MARK: - template: structure characters followed by a combining mark

    /// `template/crash-combining-mark-after-slash`: a leading `/` that a combining mark (U+065C)
    /// follows is one `Character` that is not `/`, so `hasPrefix("/")` missed it and the path was
    /// appended to the service root (`…/v1//%D9%9C…`) instead of resolved against the origin.
    func testLeadingSlashBeforeACombiningMarkAnchorsAtTheOrigin() throws {
        let input: [UInt8] = [
            0x2F, 0xD9, 0x9C, 0x99, 0x3C, 0xDA, 0x99, 0x9E, 0x3E, 0x25, 0x66, 0x61, 0xDB, 0x61, 0xDB, 0xC3,
            0x25, 0x66, 0x61, 0xDB, 0xC2, 0xC3, 0x25, 0x90, 0x90, 0x90, 0xDB, 0x61, 0x90, 0x7F,
        ]
        let template = try URLTemplate.parse(String(decoding: input, as: UTF8.self))
        XCTAssertEqual(template.anchor, .origin)
        XCTAssertEqual(try URLTemplate.parse("/\u{301}x").anchor, .origin)
        XCTAssertEqual(try URLTemplate.parse("/\u{301}x").path.parts, [.literal("/%CC%81x")])
    }

    /// The same mistake for `?`, `&`, `=` and `#`: found in the bytes, whatever follows them.
    func testQueryAndFragmentCharactersBeforeACombiningMarkStillCount() throws {
        let query = try URLTemplate.parse("items?\u{301}a=1&\u{301}b=%%0%%")
        XCTAssertEqual(query.path.parts, [.literal("items")])
        XCTAssertEqual(query.query.map(\.name.parts), [[.literal("%CC%81a")], [.literal("%CC%81b")]])
        XCTAssertEqual(query.query.map { $0.value?.parts }, [[.literal("1")], [.argument(0)]])
        let equals = try URLTemplate.parse("x?a=\u{301}v")
        XCTAssertEqual(equals.query.first?.value?.parts, [.literal("%CC%81v")])
        XCTAssertThrowsError(try URLTemplate.parse("x#\u{301}top"), "a fragment is refused")
        XCTAssertThrowsError(try Template.parse("a%%\u{301}1%%"), "a wildcard that is not digits is refused")
        XCTAssertThrowsError(try Template.parse("%%\u{301}"), "an unterminated wildcard is refused")
    }

    // MARK: - odata-literal: instants

    private func literal(_ value: some ODataLiteralConvertible, _ version: ODataVersion = .v401) throws -> String {
        try value.odataLiteral.text(for: version)
    }

    private func assertInvalidValue(
        _ value: some ODataLiteralConvertible, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try literal(value), file: file, line: line) { error in
            guard case .invalidValue = error as? ODataQueryError else {
                return XCTFail("expected invalidValue, got \(error)", file: file, line: line)
            }
        }
    }

    /// `odata-literal/instant-nan`: `Int(NaN)` trapped (so did an infinite `Date`).
    func testNonFiniteInstantIsATypedError() {
        assertInvalidValue(Date(timeIntervalSince1970: .nan))
        assertInvalidValue(Date(timeIntervalSince1970: .infinity))
        assertInvalidValue(Date(timeIntervalSince1970: -.infinity))
    }

    /// `odata-literal/instant-far`: year 10000 was written with five digits, which `dateTimeOffsetValue`
    /// does not allow, also when the microsecond rounding carried 9999-12-31T23:59:59.9999999 over.
    func testInstantPastYear9999IsATypedError() throws {
        assertInvalidValue(Date(timeIntervalSince1970: 253_402_300_800))
        assertInvalidValue(Date(timeIntervalSince1970: 253_402_300_799.999_999_9))
        assertInvalidValue(Date(timeIntervalSince1970: -62_135_596_801))
        XCTAssertEqual(try literal(Date(timeIntervalSince1970: 253_402_300_799)), "9999-12-31T23:59:59Z")
    }

    /// `odata-literal/instant-early`: Foundation's Gregorian calendar is Julian before 1582-10-15,
    /// so 0001-01-01T00:00:00Z came out as `0001-01-03T00:00:00Z`; OData (ISO 8601) is proleptic
    /// Gregorian.
    func testInstantsBefore1582AreProlepticGregorian() throws {
        XCTAssertEqual(try literal(Date(timeIntervalSince1970: -62_135_596_800)), "0001-01-01T00:00:00Z")
        XCTAssertEqual(try literal(Date(timeIntervalSince1970: -12_219_292_800)), "1582-10-15T00:00:00Z")
        XCTAssertEqual(try literal(Date(timeIntervalSince1970: -12_219_292_801)), "1582-10-14T23:59:59Z")
        XCTAssertEqual(try literal(ODataDate(year: 1582, month: 10, day: 10)), "1582-10-10")
        assertInvalidValue(ODataDate(year: 1500, month: 2, day: 29))
        XCTAssertEqual(try literal(ODataDate(year: 1600, month: 2, day: 29)), "1600-02-29")
    }

    // MARK: - odata-literal, challenge: quotes before a combining mark

    /// `odata-literal/crash-quote-before-combining-mark`: `replacingOccurrences(of: "'", with: "''")`
    /// compares `Character`s, and a quote that a combining mark follows is part of another one, so
    /// it stayed single and ended the string literal early: the rest of the value became filter
    /// syntax on the server.
    func testQuoteBeforeACombiningMarkIsDoubledInAnODataString() throws {
        let text = try literal("x'\u{301} or true or 'a")
        XCTAssertEqual(Array(text.unicodeScalars), Array("'x''\u{301} or true or ''a'".unicodeScalars))
        XCTAssertEqual(Array(try literal("'\u{20DD}", .v2).unicodeScalars), Array("'''\u{20DD}'".unicodeScalars))
    }

    /// `challenge/crash-backslash-before-combining-mark`: the Digest answer's quoted strings missed a
    /// `\` or `"` that a combining mark follows, so a server's realm or nonce did not read back
    /// from the `Authorization` value (a `"` ended the quoted string early).
    func testQuoteAndBackslashBeforeACombiningMarkAreEscapedInDigestAnswers() throws {
        XCTAssertEqual(
            Array(DigestAnswer.quoted("a\"\u{301}b\\\u{5A3}").unicodeScalars),
            Array("\"a\\\"\u{301}b\\\\\u{5A3}\"".unicodeScalars))
        let field = "Digest realm=\"r\\\"\u{301}\", nonce=\"n\\\\\u{5A3}\""
        let digest = try XCTUnwrap(try DigestChallenge.strongest(in: try AuthenticationChallenge.parse(field)))
        XCTAssertEqual(Array(digest.realm.unicodeScalars), Array("r\"\u{301}".unicodeScalars))
        XCTAssertEqual(Array(digest.nonce.unicodeScalars), Array("n\\\u{5A3}".unicodeScalars))
        let value = try DigestAnswer(challenge: digest, user: "u", password: "p").authorization(
            method: "GET", uri: "/", body: nil, nonceCount: 1, cnonce: "c")
        let credentials = try XCTUnwrap(try AuthenticationChallenge.parse(value).first)
        XCTAssertEqual(
            credentials[parameter: "realm"].map { Array($0.unicodeScalars) }, Array(digest.realm.unicodeScalars))
        XCTAssertEqual(
            credentials[parameter: "nonce"].map { Array($0.unicodeScalars) }, Array(digest.nonce.unicodeScalars))
    }

    // MARK: - odata-literal: durations

    /// `odata-literal/duration-parts`: `ODataDuration(days:hours:minutes:seconds:)` multiplied in
    /// `Int` and trapped on overflow.
    func testDurationFromHugeComponentsDoesNotTrap() throws {
        let duration = ODataDuration(days: Int.max, hours: Int.max, minutes: Int.min)
        let expected =
            Decimal(Int.max) * 86_400 + Decimal(Int.max) * 3_600 + Decimal(Int.min) * 60
        XCTAssertEqual(duration.seconds, expected)
        assertInvalidValue(duration)
    }

    /// `odata-literal/duration-huge`: a length beyond `Int` was split with `intValue`, which
    /// does not hold it, and written as garbage; NaN was written too.
    func testDurationOutOfRangeOrNaNIsATypedError() throws {
        assertInvalidValue(ODataDuration(seconds: try XCTUnwrap(Decimal(string: "1e30"))))
        assertInvalidValue(ODataDuration(seconds: -(try XCTUnwrap(Decimal(string: "1e19")))))
        assertInvalidValue(ODataDuration(seconds: .nan))
        XCTAssertEqual(
            try literal(ODataDuration(seconds: Decimal(Int64.max))), "duration'P106751991167300DT15H30M7S'")
        XCTAssertEqual(
            try literal(ODataDuration(seconds: try XCTUnwrap(Decimal(string: "-86400.000000000001")))),
            "duration'-P1DT0.000000000001S'")
    }

    // MARK: - multipart: a fixed boundary inside a part

    /// `multipart/boundary-in-content`: with a descriptor's fixed boundary, a part holding
    /// `CRLF--boundary` ended early and the body had more parts than the call sent. A bare LF
    /// counts too, for servers that accept one as a line break.
    func testFixedBoundaryInsideAPartIsATypedError() {
        for content in ["1\r\n--XyZ--\r\n", "--XyZ", "a\r\n--XyZx", "a\n--XyZ"] {
            let form = MultipartForm(parts: [FormData(name: "a", value: content)], boundary: "XyZ")
            XCTAssertThrowsError(try form.makeBody(), content.debugDescription) { error in
                guard case .invalidArguments(nil, let reason) = (error as? WebServiceError)?.reason else {
                    return XCTFail("expected invalidArguments, got \(error)")
                }
                XCTAssertTrue(reason.contains("boundary \"XyZ\""), reason)
            }
        }
        for content in ["XyZ", "-XyZ", "a--XyZ", "\r--XyZ", "a\r\n-XyZ"] {
            let form = MultipartForm(parts: [FormData(name: "a", value: content)], boundary: "XyZ")
            XCTAssertNoThrow(try form.makeBody(), "\(content.debugDescription) cannot end the part")
        }
    }

    // MARK: - response-intake: the error of the earliest bytes, whatever the pieces

    /// The outcome of `response` fed to a ``ResponseIntake`` in pieces of `size` (whole for `nil`)
    /// until its parser is complete, then ended as the event loop ends it: the error's code, or
    /// `nil` for a response.
    private func intakeError(_ response: [UInt8], limit: Int? = nil, pieces size: Int?) -> String? {
        let context = TransportContext(
            call: CallDescriptor(CallFields(relativePath: "x"), supportsSerializationRoot: false), uploadLength: nil,
            progress: nil, responseBody: ResponseBodySink(maximumSize: limit, download: nil, progress: nil))
        var intake = ResponseIntake(method: "GET", context: context)
        var offset = 0
        do {
            while offset < response.count, !intake.parser.isComplete {
                let end = min(response.count, offset + (size ?? response.count))
                try intake.take(response[offset..<end])
                offset = end
            }
            _ = try intake.finish(url: URL(string: "http://127.0.0.1/x")!)
            return nil
        } catch let error as URLError {
            return "URLError \(error.code.rawValue)"
        } catch let error as WebServiceError {
            if case .responseTooLarge = error.reason { return "responseTooLarge" }
            return "\(error)"
        } catch {
            return "\(error)"
        }
    }

    /// `response-intake/gzip-fault-then-framing-fault`: a gzip body whose first chunk is not valid
    /// DEFLATE data, followed by a chunk that lacks its CRLF. Fed in pieces, the decoder refused the
    /// first chunk (`.cannotDecodeContentData`) before the framing fault arrived; fed whole, the
    /// parser reached the framing fault first and the call failed with `.badServerResponse`. The
    /// intake now moves the body parsed before a framing fault into the sink (and its decoder)
    /// first, so the error is that of the earliest bytes however the socket splits them.
    func testAnUndecodableBodyBeforeAFramingFaultFailsTheSameInEveryPiece() {
        let response =
            Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n14\r\n".utf8)
            + [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x02, 0x0B, 0x03] + Array("HTTP/1.0".utf8) + [0x00, 0x00]
            + Array(" 200 O".utf8) + [0x00] + Array("K".utf8)
        let expected = "URLError \(URLError.Code.cannotDecodeContentData.rawValue)"
        for size in [nil, 13, 1] {
            XCTAssertEqual(intakeError(response, pieces: size), expected, "pieces of \(size ?? response.count)")
        }
    }

    /// `response-intake/over-limit-then-malformed`: the same order for the size limit: a chunk that
    /// passes the limit, then a malformed chunk size, is over the limit in one piece as in several.
    func testABodyOverTheLimitBeforeAFramingFaultFailsTheSameInEveryPiece() {
        let response =
            Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n14\r\n0123456789abcdefghij\r\nzz\r\n".utf8)
        for size in [nil, 60, 1] {
            XCTAssertEqual(
                intakeError(response, limit: 16, pieces: size), "responseTooLarge",
                "pieces of \(size ?? response.count)")
        }
        // With no limit, the framing fault is the error.
        XCTAssertEqual(
            intakeError(response, pieces: nil), "URLError \(URLError.Code.badServerResponse.rawValue)")
    }
}
