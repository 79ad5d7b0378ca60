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
    }

    /// A difference the library is right to make: its name, the RFC section that allows the
    /// library's reading, and which cases it covers.
    struct AcceptedDifference: Sendable {
        var name: String
        var section: String
        var covers: @Sendable (Case, Verdict) -> Bool
    }

    /// Every accepted difference between h11 and the library.
    static let acceptedDifferences: [AcceptedDifference] = []

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
                    + "h11 \(example.reference) \(example.note), library \(Self.libraryVerdict(example.method, example.response))")
        }
    }

    /// How an unexplained difference is grouped in the failure messages.
    static func key(_ testCase: Case, _ verdict: Verdict) -> String {
        switch (testCase.reference, verdict) {
        case (.error, .response): "h11 refuses, library reads: \(testCase.note.prefix(28))"
        case (.response, .error(let message)): "library refuses, h11 reads: \(message.prefix(40))"
        case (.response(let reference), .response(let reading)):
            if reference.status != reading.status || reference.interim != reading.interim { "status" }
            else if reference.body != reading.body { "body" }
            else if reference.reusable != reading.reusable { "reuse: h11 \(reference.reusable)" }
            else { "fields" }
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
            $0.name.caseInsensitiveEquals("Transfer-Encoding") ? HTTPHeaders.Field(name: $0.name, value: $0.value.lowercased()) : $0
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
                fields: fields, droppedCookies: dropped))
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
                let fields: [HTTPHeaders.Field] = parts[8] == "-" ? [] : parts[8].split(separator: ",").map { pair in
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
                Case(group: parts[0], method: parts[1], response: decoded(parts[2]), reference: reference, note: parts[9]))
        }
        return cases
    }

    private static func decoded(_ base64: String) -> [UInt8] { Data(base64Encoded: base64).map { Array($0) } ?? [] }
}
