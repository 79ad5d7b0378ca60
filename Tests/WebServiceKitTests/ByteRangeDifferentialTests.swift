import Foundation
import XCTest

@testable import WebServiceKit

/// The cache's `Range` parser (``RangeRequest``, ``ByteRangeSpec``) against an independent one:
/// Werkzeug's `parse_range_header` and `Range.range_for_length` (pinned in
/// `Tests/Servers/requirements-differential.txt`), on 30,000 generated values
/// (`Tests/Differential/range_cases.py`: the grammar of RFC 9110 §14.1.2 with leading zeros,
/// numbers far past 2^63, signs, whitespace, empty elements, other units, and mutations).
///
/// Werkzeug differs from RFC 9110 on purpose in a few places; each is an accepted difference
/// below, with the section it departs from, applied as a rule (not by skipping the case), and
/// counted. Anything else fails the test.
///
/// `Scripts/test` writes the cases and sets `WEBSERVICEKIT_RANGE_DIFFERENTIAL_CASES` to their
/// file; the test is skipped without it. To rerun by hand:
///
///     .venv-differential/bin/python Tests/Differential/range_cases.py /tmp/range-cases.tsv
///     WEBSERVICEKIT_RANGE_DIFFERENTIAL_CASES=/tmp/range-cases.tsv \
///         swift test --skip-build --filter ByteRangeDifferentialTests
final class ByteRangeDifferentialTests: XCTestCase {
    /// The lengths `range_cases.py` resolves each value in.
    private static let lengths: [Int64] = [0, 1, 26, 1000, .max]

    /// Werkzeug's reading: `nil` for None, otherwise the unit and (begin, end) pairs as written
    /// by Python (end exclusive, empty when open; a suffix is begin `-N`).
    private struct Reading: Equatable {
        var unit: String
        var pairs: [Pair]
    }

    private struct Pair: Equatable {
        var begin: String
        var end: String
    }

    private struct Case {
        let value: String
        let reading: Reading?
        let resolutions: [String]
    }

    func testTheParserAgreesWithWerkzeug() throws {
        guard let path = ProcessInfo.processInfo.environment["WEBSERVICEKIT_RANGE_DIFFERENTIAL_CASES"] else {
            throw XCTSkip("WEBSERVICEKIT_RANGE_DIFFERENTIAL_CASES names no file of cases (Scripts/test writes one)")
        }
        let cases = try Self.cases(in: path)
        XCTAssertGreaterThanOrEqual(cases.count, 30_000)
        var accepted: [String: Int] = [:]
        var unexplained: [String] = []
        var agreements = 0
        var resolutionsCompared = 0
        for testCase in cases {
            let parsed = RangeRequest(fieldValue: testCase.value)
            switch Self.compareParse(parsed, testCase) {
            case .agree: agreements += 1
            case .accepted(let name): accepted[name, default: 0] += 1
            case .unexplained(let why):
                unexplained.append("\(testCase.value.debugDescription): \(why)")
                continue
            }
            // The resolution, where Werkzeug has one range of bytes and our readings agree.
            guard let reading = testCase.reading, reading.unit == "bytes", reading.pairs.count == 1,
                let spec = parsed.singleByteRange
            else { continue }
            for (index, length) in Self.lengths.enumerated() {
                resolutionsCompared += 1
                let ours = spec.resolved(length: length)
                let theirs = testCase.resolutions[index]
                if Self.sameResolution(ours, theirs) { continue }
                // A saturated suffix stands for one at least Int64.max long, longer than any length.
                if case .suffix(let suffixLength) = spec, suffixLength > length || suffixLength == .max, theirs == "-",
                    ours != nil
                {
                    // RFC 9110 §14.1.2: "If the selected representation is shorter than the
                    // specified suffix-length, the entire representation is used."
                    accepted["a suffix longer than the representation is all of it (Werkzeug: none)", default: 0] += 1
                    continue
                }
                unexplained.append(
                    "\(testCase.value.debugDescription) of \(length): ours \(String(describing: ours)), Werkzeug \(theirs)"
                )
            }
        }
        print(
            "range differential: \(cases.count) values, \(agreements) readings alike, \(resolutionsCompared) resolutions compared"
        )
        for (name, count) in accepted.sorted(by: { $0.key < $1.key }) {
            print("  accepted difference: \(name): \(count)")
        }
        XCTAssertGreaterThan(agreements, cases.count / 2)
        XCTAssertTrue(
            unexplained.isEmpty, "\(unexplained.count) unexplained:\n" + unexplained.prefix(20).joined(separator: "\n"))
    }

    private enum Verdict {
        case agree
        case accepted(String)
        case unexplained(String)
    }

    private static func compareParse(_ parsed: RangeRequest, _ testCase: Case) -> Verdict {
        let theirs = testCase.reading
        switch parsed {
        case .bytes:
            let modelled = werkzeugReading(of: parsed, value: testCase.value)
            if case .unknown = modelled {
                return .accepted("a first position and the previous end both past Int64.max: order not compared")
            }
            guard case .reading(let expected, let rule) = modelled else { return .unexplained("no model") }
            guard matches(expected, theirs) else {
                return .unexplained(
                    "ours \(parsed), modelled \(String(describing: expected)), Werkzeug \(String(describing: theirs))")
            }
            return rule.map { .accepted($0) } ?? .agree
        case .otherUnit:
            guard let theirs, theirs.unit == "bytes" else { return .agree }
            return .unexplained("another unit for us, bytes for Werkzeug: \(theirs)")
        case .invalid:
            guard let theirs else { return .agree }
            guard theirs.unit == "bytes" else {
                // RFC 9110 §14.1: range-unit is a token; Werkzeug takes any text before `=`.
                return .accepted("Werkzeug takes any text as the unit (§14.1)")
            }
            // Werkzeug strips spaces inside an element (`0 - 5`), which the ABNF has none of,
            // and reads `-0` as a last position (`0--0`); with those undone, the readings agree.
            let lenient = lenientForm(testCase.value)
            let reparsed = RangeRequest(fieldValue: lenient)
            guard case .bytes = reparsed,
                case .reading(let expected, _) = werkzeugReading(of: reparsed, value: lenient),
                matches(expected, theirs)
            else {
                return .unexplained("invalid for us, Werkzeug \(theirs)")
            }
            return .accepted("Werkzeug allows whitespace inside an element or a last position -0 (§14.1.2 ABNF)")
        }
    }

    private enum Modelled {
        case reading(Reading?, rule: String?)
        case unknown
    }

    /// What Werkzeug reads, given our parse of `value`: its stricter rules applied to our
    /// ranges. Werkzeug refuses empty list elements (RFC 9110 §5.6.1.2: a recipient ignores
    /// them), `-0` (§14.1.2: valid, not satisfiable), and ranges out of ascending order, or
    /// overlapping, or after a suffix (§14.2 lets a server ignore or reject such fields).
    private static func werkzeugReading(of parsed: RangeRequest, value: String) -> Modelled {
        guard case .bytes(let specs) = parsed else { return .reading(nil, rule: nil) }
        let set = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).last ?? ""
        let elements = set.split(separator: ",", omittingEmptySubsequences: false)
        if elements.contains(where: { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).isEmpty }) {
            return .reading(nil, rule: "Werkzeug refuses empty list elements (§5.6.1.2)")
        }
        var pairs: [Pair] = []
        var lastEnd: Int64 = 0  // -1 after an open range or a suffix
        for spec in specs {
            switch spec {
            case .suffix(let length):
                if lastEnd < 0 { return .reading(nil, rule: "Werkzeug refuses a range after an open one (§14.2)") }
                if length == 0 {
                    return .reading(nil, rule: "Werkzeug refuses a suffix of 0 (§14.1.2: valid, unsatisfiable)")
                }
                pairs.append(Pair(begin: "-\(length)", end: ""))
                lastEnd = -1
            case .from(let first, let last):
                // Both past Int64.max: their order is unknown to a saturating parser.
                if first == .max && lastEnd == .max { return .unknown }
                if first < lastEnd || lastEnd < 0 {
                    return .reading(nil, rule: "Werkzeug refuses ranges out of ascending order (§14.2)")
                }
                pairs.append(Pair(begin: "\(first)", end: last.map { $0 == .max ? "max" : "\($0 + 1)" } ?? ""))
                lastEnd = last.map { $0 == .max ? .max : $0 + 1 } ?? -1
            }
        }
        return .reading(Reading(unit: "bytes", pairs: pairs), rule: nil)
    }

    /// Whether our modelled reading is Werkzeug's, numbers compared with saturation: ours stop at
    /// `Int64.max`, Python's do not.
    private static func matches(_ ours: Reading?, _ theirs: Reading?) -> Bool {
        guard let ours, let theirs else { return ours == nil && theirs == nil }
        guard ours.unit == theirs.unit, ours.pairs.count == theirs.pairs.count else { return false }
        return zip(ours.pairs, theirs.pairs).allSatisfy { mine, python in
            sameNumber(mine.begin, python.begin) && sameNumber(mine.end, python.end)
        }
    }

    /// `ours` is a decimal, `-` and a decimal, `max` (a saturated last position plus one) or
    /// empty; a saturated number (`Int64.max`) stands for any number at least that large.
    private static func sameNumber(_ ours: String, _ theirs: String) -> Bool {
        if ours.isEmpty || theirs.isEmpty { return ours == theirs }
        if ours == "max" { return Int64(theirs) == nil }
        let negative = ours.hasPrefix("-")
        guard negative == theirs.hasPrefix("-") else { return false }
        let mine = Int64(ours.drop { $0 == "-" })
        let python = Int64(theirs.drop { $0 == "-" })
        if mine == .max { return python == nil || python == .max }
        return mine == python
    }

    private static func sameResolution(_ ours: ClosedRange<Int64>?, _ theirs: String) -> Bool {
        guard let ours else { return theirs == "-" }
        return theirs == "\(ours.lowerBound):\(ours.upperBound + 1)"
    }

    /// `value` with spaces and tabs around each `-` of the range set removed, and a last
    /// position `-0…0` written `0`: the leniencies of Werkzeug's parser.
    private static func lenientForm(_ value: String) -> String {
        guard let equals = value.firstIndex(of: "=") else { return value }
        var set = String(value[value.index(after: equals)...])
        while let range = set.range(of: #"[ \t]+-|-[ \t]+"#, options: .regularExpression) {
            set.replaceSubrange(range, with: "-")
        }
        while let range = set.range(of: #"--0+(?=$|[ \t]*,)"#, options: .regularExpression) {
            set.replaceSubrange(range, with: "-0")
        }
        return String(value[...equals]) + set
    }

    private static func cases(in path: String) throws -> [Case] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 3, let value = Data(base64Encoded: String(parts[0])),
                let parsed = Data(base64Encoded: String(parts[1]))
            else { throw CocoaError(.fileReadCorruptFile) }
            let reading = String(decoding: parsed, as: UTF8.self)
            return Case(
                value: String(decoding: value, as: UTF8.self), reading: Self.reading(reading),
                resolutions: parts[2].split(separator: ";").map(String.init))
        }
    }

    /// "-" or "UNIT begin:end;begin:end".
    private static func reading(_ text: String) -> Reading? {
        guard text != "-", let space = text.lastIndex(of: " ") else { return nil }
        let pairs = text[text.index(after: space)...].split(separator: ";").map { pair in
            let halves = pair.split(separator: ":", omittingEmptySubsequences: false)
            return Pair(begin: String(halves.first ?? ""), end: String(halves.dropFirst().first ?? ""))
        }
        return Reading(unit: String(text[..<space]), pairs: pairs)
    }
}
