import Foundation
import XCTest

@testable import WebServiceKit

/// HTTP1ResponseParser against an independent HTTP/1.1 parser, h11 (pinned in
/// Tests/Servers/requirements-differential.txt), on the responses Tests/Differential/http1_cases.py
/// writes with h11's verdict on each: valid ones, mutations, and RFC 9112 edge cases.
///
/// `Scripts/test` writes the cases and sets `WEBSERVICEKIT_DIFFERENTIAL_CASES` to their file; the
/// test is skipped without it. To rerun by hand:
///
///     .venv-differential/bin/python Tests/Differential/http1_cases.py /tmp/cases.tsv
///     WEBSERVICEKIT_DIFFERENTIAL_CASES=/tmp/cases.tsv swift test --filter HTTP1DifferentialTests
///
/// The library's verdict is the parser's and then the call pipeline's check of the head
/// (``ResponseCheck``), which every transport's response goes through. The verdicts compared: an
/// error, or the status, the interim status codes, the fields, the body and whether the connection
/// may carry another request. Where they differ, the difference must be one of
/// ``acceptedDifferences``, each where RFC 9112 (or RFC 9110) allows the library's reading; any
/// other difference fails the test.
final class HTTP1DifferentialTests: XCTestCase {
    /// One response and h11's verdict on it.
    struct Case: Sendable {
        var group: String
        var method: String
        var response: [UInt8]
        var reference: Verdict
        var note: String
    }

    /// A reading of a response: an error, or what a caller gets.
    enum Verdict: Equatable, Sendable {
        case error(String)
        case response(Reading)
    }

    struct Reading: Equatable, Sendable {
        var status: Int
        var reusable: Bool
        var interim: [Int]
        var body: [UInt8]
        var fields: [HTTPHeaders.Field]
        /// `Set-Cookie` fields ``ResponseCheck`` dropped (CR, LF or NUL in them).
        var droppedCookies = 0
        /// The trailer fields, not compared (h11's are not written).
        var trailers: [HTTPHeaders.Field] = []
    }

    /// A difference the library is right to make: its name, the RFC section that allows the
    /// library's reading, and which cases it covers.
    struct AcceptedDifference: Sendable {
        var name: String
        var section: String
        var covers: @Sendable (Case, Verdict) -> Bool
    }

    /// Every accepted difference between h11 and the library, first match wins. Each one checks
    /// the response for the construct it names, so that no other difference hides behind it.
    static let acceptedDifferences: [AcceptedDifference] = [
        // The library reads, h11 refuses.
        AcceptedDifference(
            name: "BWS before a chunk extension, or more than 20 digits of chunk size", section: "RFC 9112 §7.1, §7.1.1"
        ) {
            testCase, verdict in
            h11Refuses(testCase, verdict, "illegal chunk header")
                && lines(testCase.response).contains { line in
                    let digits = line.prefix(while: isHexDigit)
                    let rest = line.dropFirst(digits.count).drop(while: HTTP1Bytes.isWhitespace)
                    return !digits.isEmpty
                        && (digits.count > 20
                            || (rest.first == UInt8(ascii: ";") && rest.count < line.count - digits.count))
                }
        },
        AcceptedDifference(
            name: "Transfer-Encoding or Content-Length of a response without content is not read",
            section: "RFC 9112 §6.3 item 1"
        ) {
            testCase, verdict in
            guard case .response(let reading) = verdict else { return false }
            return h11RefusesFraming(testCase, verdict)
                && (testCase.method == "HEAD" || [204, 304].contains(reading.status))
        },
        AcceptedDifference(name: "Empty elements of the Transfer-Encoding list are ignored", section: "RFC 9110 §5.6.1")
        {
            testCase, verdict in
            guard case .response(let reading) = verdict else { return false }
            let values = HTTPHeaders(reading.fields).values(for: "Transfer-Encoding")
            return h11RefusesFraming(testCase, verdict) && HTTP1ResponseParser.listElements(values).count == 1
                && (values.count > 1 || values[0].contains(","))
        },
        AcceptedDifference(
            name: "gzip, x-gzip, deflate transfer codings before a final chunked or alone (the body runs to the close)",
            section: "RFC 9112 §6.3 item 4, §7"
        ) {
            testCase, verdict in
            guard case .response(let reading) = verdict, h11RefusesFraming(testCase, verdict) else { return false }
            var codings = HTTP1ResponseParser.listElements(HTTPHeaders(reading.fields).values(for: "Transfer-Encoding"))
                .map { String(decoding: $0, as: UTF8.self).lowercased() }
            if codings.last == "chunked" { codings.removeLast() }
            return !codings.isEmpty && codings.allSatisfy(HTTP1ResponseParser.decodedTransferCodings.contains)
        },
        AcceptedDifference(name: "A Content-Length of more than 20 digits (leading zeros)", section: "RFC 9110 §8.6") {
            testCase, verdict in
            guard case .response(let reading) = verdict else { return false }
            return h11Refuses(testCase, verdict, "bad Content-Length")
                && HTTPHeaders(reading.fields).values(for: "Content-Length").contains { $0.utf8.count > 20 }
        },
        AcceptedDifference(
            name: "Framing fields of 1xx responses and of the trailer section are not read",
            section: "RFC 9112 §6.3 item 1, RFC 9110 §6.5.1"
        ) {
            testCase, verdict in
            guard case .response(let reading) = verdict else { return false }
            let trailerFraming = reading.trailers.contains {
                $0.name.caseInsensitiveEquals("Transfer-Encoding") || $0.name.caseInsensitiveEquals("Content-Length")
            }
            return h11RefusesFraming(testCase, verdict) && (!reading.interim.isEmpty || trailerFraming)
                && h11AcceptsFraming(reading.fields)
        },
        AcceptedDifference(name: "VT and FF in a field value are kept, as other controls", section: "RFC 9110 §5.5") {
            testCase, verdict in
            h11Refuses(testCase, verdict, "illegal header line")
                && testCase.response.contains { $0 == 0x0B || $0 == 0x0C }
        },
        AcceptedDifference(
            name: "A Set-Cookie field with CR, LF or NUL is dropped, the response kept",
            section: "RFC 9110 §5.5, RFC 6265 §5.2"
        ) {
            testCase, verdict in
            guard case .response(let reading) = verdict, case .error = testCase.reference else { return false }
            return reading.droppedCookies > 0
        },
        // The library refuses, h11 reads.
        AcceptedDifference(name: "Whitespace after a chunk size", section: "RFC 9112 §7.1") { testCase, verdict in
            libraryRefuses(testCase, verdict, "chunkSize")
                && lines(testCase.response).contains { line in
                    let digits = line.prefix(while: isHexDigit)
                    let rest = line.dropFirst(digits.count)
                    return !digits.isEmpty && !rest.isEmpty && rest.allSatisfy(HTTP1Bytes.isWhitespace)
                }
        },
        AcceptedDifference(name: "A chunk extension outside its grammar", section: "RFC 9112 §7.1.1") {
            testCase, verdict in
            libraryRefuses(testCase, verdict, "chunkExtension")
                && lines(testCase.response).contains { line in
                    let digits = line.prefix(while: isHexDigit)
                    return !digits.isEmpty
                        && line.dropFirst(digits.count).drop(while: HTTP1Bytes.isWhitespace).first == UInt8(ascii: ";")
                }
        },
        AcceptedDifference(name: "An HTTP version other than 1.x", section: "RFC 9112 §2.3") { testCase, verdict in
            libraryRefuses(testCase, verdict, "statusLine")
                && statusLines(testCase.response).contains {
                    $0.count > 5 && $0[$0.startIndex + 5] != UInt8(ascii: "1")
                }
        },
        AcceptedDifference(name: "A status code outside 100–599", section: "RFC 9110 §15") { testCase, verdict in
            libraryRefuses(testCase, verdict, "statusLine")
                && statusLines(testCase.response).contains { line in
                    guard line.count >= 12, let code = Int(String(decoding: line.dropFirst(9).prefix(3), as: UTF8.self))
                    else {
                        return false
                    }
                    return !(100...599).contains(code)
                }
        },
        AcceptedDifference(name: "A control character in the reason phrase", section: "RFC 9112 §4") {
            testCase, verdict in
            libraryRefuses(testCase, verdict, "statusLine")
                && statusLines(testCase.response).contains {
                    $0.dropFirst(12).contains(where: HTTP1Bytes.isControlOtherThanTab)
                }
        },
        AcceptedDifference(name: "Transfer-Encoding in an HTTP/1.0 response", section: "RFC 9112 §6.1") {
            testCase, verdict in
            guard case .response(let reference) = testCase.reference else { return false }
            return libraryRefuses(testCase, verdict, "transferCoding")
                && HTTPHeaders(reference.fields).contains("Transfer-Encoding")
                && statusLines(testCase.response).contains { $0.starts(with: "HTTP/1.0 ".utf8) }
        },
        AcceptedDifference(name: "A Content-Length past the largest Int", section: "RFC 9110 §8.6") {
            testCase, verdict in
            guard case .response(let reference) = testCase.reference else { return false }
            return libraryRefuses(testCase, verdict, "contentLength")
                && HTTPHeaders(reference.fields).values(for: "Content-Length").contains { value in
                    value.utf8.allSatisfy(HTTP1Bytes.isDigit) && HTTP1Bytes.decimal(value.utf8) == nil
                }
        },
        // Both read, differently.
        AcceptedDifference(name: "obs-fold with the whitespace before it is one SP", section: "RFC 9112 §5.2") {
            testCase, verdict in
            guard case .response(let reading) = verdict else { return false }
            return agreeAcrossFolds(reading, testCase)
        },
        AcceptedDifference(
            name: "Transfer-Encoding with Content-Length: the connection is not reused", section: "RFC 9112 §6.3 item 3"
        ) {
            testCase, verdict in
            guard case .response(var reading) = verdict, case .response(let reference) = testCase.reference else {
                return false
            }
            let headers = HTTPHeaders(reading.fields)
            guard reference.reusable, !reading.reusable, headers.contains("Transfer-Encoding"),
                headers.contains("Content-Length")
            else { return false }
            reading.reusable = true
            return agreeAcrossFolds(reading, testCase)
        },
        AcceptedDifference(
            name: "A 204 with Transfer-Encoding or a length: the connection is not reused",
            section: "RFC 9110 §8.6, RFC 9112 §6.1"
        ) {
            testCase, verdict in
            guard case .response(var reading) = verdict, case .response(let reference) = testCase.reference else {
                return false
            }
            let headers = HTTPHeaders(reading.fields)
            let length = (try? HTTP1ResponseParser.contentLength(of: headers)) ?? nil
            guard reading.status == 204, testCase.method != "HEAD", reference.reusable, !reading.reusable,
                headers.contains("Transfer-Encoding") || (length ?? 0) > 0
            else { return false }
            reading.reusable = true
            return agreeAcrossFolds(reading, testCase)
        },
    ]

    /// Whether `reading` is h11's, or would be if every run of SP and HTAB in a field value were
    /// one SP, in a response with obs-fold (h11 keeps the whitespace before the fold).
    private static func agreeAcrossFolds(_ reading: Reading, _ testCase: Case) -> Bool {
        guard case .response(let reference) = testCase.reference else { return false }
        if agree(.response(reading), .response(reference)) { return true }
        let folds = zip(testCase.response, testCase.response.dropFirst()).contains {
            $0 == HTTP1Bytes.lf && HTTP1Bytes.isWhitespace($1)
        }
        func collapsed(_ reading: Reading) -> Verdict {
            var reading = reading
            reading.fields = reading.fields.map {
                HTTPHeaders.Field(name: $0.name, value: collapsingWhitespace($0.value))
            }
            return .response(reading)
        }
        return folds && agree(collapsed(reading), collapsed(reference))
    }

    private static func h11Refuses(_ testCase: Case, _ verdict: Verdict, _ message: String) -> Bool {
        guard case .error(let reason) = testCase.reference, case .response = verdict else { return false }
        return reason.hasPrefix(message)
    }

    /// h11 refuses for a Transfer-Encoding or Content-Length field.
    private static func h11RefusesFraming(_ testCase: Case, _ verdict: Verdict) -> Bool {
        ["Only Transfer-Encoding", "multiple Transfer-Encoding", "bad Content-Length", "conflicting Content-Length"]
            .contains { h11Refuses(testCase, verdict, $0) }
    }

    /// Whether h11 would take these fields' framing: one `Transfer-Encoding: chunked` at most, and
    /// Content-Length fields that are one value of at most 20 digits.
    private static func h11AcceptsFraming(_ fields: [HTTPHeaders.Field]) -> Bool {
        let headers = HTTPHeaders(fields)
        let codings = headers.values(for: "Transfer-Encoding")
        guard codings.count <= 1, codings.allSatisfy({ $0.lowercased() == "chunked" }) else { return false }
        let lengths = Set(
            headers.values(for: "Content-Length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { $0.trimmingCharacters(in: .whitespaces) })
        return lengths.count <= 1
            && lengths.allSatisfy { !$0.isEmpty && $0.count <= 20 && $0.utf8.allSatisfy(HTTP1Bytes.isDigit) }
    }

    private static func libraryRefuses(_ testCase: Case, _ verdict: Verdict, _ kind: String) -> Bool {
        guard case .response = testCase.reference, case .error(let reason) = verdict else { return false }
        return reason == kind
    }

    /// The response's lines, split at LF, without a CR before it.
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: HTTP1Bytes.lf, omittingEmptySubsequences: false).map {
            $0.last == HTTP1Bytes.cr ? $0.dropLast() : $0
        }
    }

    private static func statusLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        lines(bytes).filter { $0.starts(with: "HTTP/".utf8) }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { HTTP1Bytes.hexValue(byte) != nil }

    private static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    func testTheParserAgreesWithH11() throws {
        guard let path = ProcessInfo.processInfo.environment["WEBSERVICEKIT_DIFFERENTIAL_CASES"] else {
            throw XCTSkip("WEBSERVICEKIT_DIFFERENTIAL_CASES names no file of cases (Scripts/test writes one)")
        }
        let cases = try Self.cases(in: path)
        XCTAssertGreaterThanOrEqual(cases.count, 100_000)
        var accepted: [String: Int] = [:]
        var unexplained: [String: [Case]] = [:]
        var agreements = 0
        for testCase in cases {
            let verdict = Self.libraryVerdict(testCase.method, testCase.response)
            if Self.agree(verdict, testCase.reference) {
                agreements += 1
            } else if let difference = Self.acceptedDifferences.first(where: { $0.covers(testCase, verdict) }) {
                accepted[difference.name + " (" + difference.section + ")", default: 0] += 1
            } else {
                unexplained[Self.key(testCase, verdict), default: []].append(testCase)
            }
        }
        print("differential: \(cases.count) responses, \(agreements) verdicts alike")
        for (name, count) in accepted.sorted(by: { $0.value > $1.value }) {
            print("differential: accepted difference: \(count) × \(name)")
        }
        for (key, examples) in unexplained.sorted(by: { $0.value.count > $1.value.count }) {
            let example = examples[0]
            XCTFail(
                "\(examples.count) × \(key); e.g. \(example.group) \(example.method) "
                    + "\(String(decoding: example.response.prefix(300), as: UTF8.self).debugDescription): "
                    + "h11 \(example.reference) \(example.note), library \(Self.libraryVerdict(example.method, example.response))"
            )
        }
    }

    /// How an unexplained difference is grouped in the failure messages.
    static func key(_ testCase: Case, _ verdict: Verdict) -> String {
        switch (testCase.reference, verdict) {
        case (.error, .response): "h11 refuses, library reads: \(testCase.note.prefix(28))"
        case (.response, .error(let message)): "library refuses, h11 reads: \(message.prefix(40))"
        case (.response(let reference), .response(let reading)):
            if reference.status != reading.status || reference.interim != reading.interim {
                "status"
            } else if reference.body != reading.body {
                "body"
            } else if reference.reusable != reading.reusable {
                "reuse: h11 \(reference.reusable)"
            } else {
                "fields"
            }
        case (.error, .error): "none"
        }
    }

    /// Whether two verdicts are the same: both errors, or the same reading, fields compared as h11
    /// reports them (one `Content-Length` field for equal repeated ones, `Transfer-Encoding`
    /// lowercased).
    static func agree(_ verdict: Verdict, _ reference: Verdict) -> Bool {
        switch (verdict, reference) {
        case (.error, .error): return true
        case (.response(let reading), .response(let expected)):
            return reading.status == expected.status && reading.interim == expected.interim
                && reading.body == expected.body && reading.reusable == expected.reusable
                && comparable(reading.fields) == comparable(expected.fields)
        default: return false
        }
    }

    private static func comparable(_ fields: [HTTPHeaders.Field]) -> [HTTPHeaders.Field] {
        fields.filter { !$0.name.caseInsensitiveEquals("Content-Length") }.map {
            $0.name.caseInsensitiveEquals("Transfer-Encoding")
                ? HTTPHeaders.Field(name: $0.name, value: $0.value.lowercased()) : $0
        }
    }

    /// The parser's verdict, fed the response whole, then the end of the connection unless it is
    /// complete; then ``ResponseCheck``'s rule for the head's fields.
    static func libraryVerdict(_ method: String, _ bytes: [UInt8]) -> Verdict {
        var parser = HTTP1ResponseParser(requestMethod: method)
        var interim: [Int] = []
        do {
            for event in try parser.feed(bytes) {
                if case .interim(let status) = event { interim.append(status) }
            }
            if !parser.isComplete { try parser.finish() }
        } catch {
            return .error("\(error.kind)")
        }
        guard let head = parser.head else { return .error("no head") }
        var fields: [HTTPHeaders.Field] = []
        var dropped = 0
        for field in head.headers.fields {
            if ResponseCheck.breaksLines(field.value) {
                guard field.name.caseInsensitiveEquals("Set-Cookie") else { return .error("fieldValue") }
                dropped += 1
            } else {
                fields.append(field)
            }
        }
        return .response(
            Reading(
                status: head.statusCode, reusable: parser.leavesConnectionReusable, interim: interim, body: parser.body,
                fields: fields, droppedCookies: dropped, trailers: parser.trailers.fields))
    }

    /// Reads the cases file (its format is in Tests/Differential/http1_cases.py).
    static func cases(in path: String) throws -> [Case] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var cases: [Case] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 10 else { throw CocoaError(.fileReadCorruptFile) }
            let reference: Verdict
            if parts[3] == "error" {
                reference = .error(parts[9])
            } else {
                let fields: [HTTPHeaders.Field] =
                    parts[8] == "-"
                    ? []
                    : parts[8].split(separator: ",").map { pair in
                        let halves = pair.split(separator: ":", omittingEmptySubsequences: false)
                        return HTTPHeaders.Field(
                            name: String(decoding: decoded(String(halves[0])), as: UTF8.self),
                            value: String(decoding: decoded(String(halves.last ?? "")), as: UTF8.self))
                    }
                reference = .response(
                    Reading(
                        status: Int(parts[4]) ?? -1, reusable: parts[5] == "1",
                        interim: parts[6] == "-" ? [] : parts[6].split(separator: ",").compactMap { Int($0) },
                        body: decoded(parts[7]), fields: fields))
            }
            cases.append(
                Case(
                    group: parts[0], method: parts[1], response: decoded(parts[2]), reference: reference, note: parts[9]
                ))
        }
        return cases
    }

    private static func decoded(_ base64: String) -> [UInt8] { Data(base64Encoded: base64).map { Array($0) } ?? [] }
}
