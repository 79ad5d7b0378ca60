import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

/// The one-pass scrub (``LogRedaction/Secrets`` over a ``SecretSearch``) against the search and
/// replace per secret it replaced, and redaction with many secrets.
final class RedactionScalingTests: XCTestCase {
    // MARK: Differential

    /// Pieces of texts and secrets: one-, two- and four-byte scalars, a combining mark that can
    /// follow anything (also begin a secret), and a percent-encoded `x`, so that a secret's
    /// decoded form is hidden too. None of the placeholder's characters, so that a visible secret
    /// can never be made of a placeholder and its neighbours; and no precomposed character, so that
    /// every string is in NFD and two strings are canonically equivalent only when their scalars
    /// are the same (see `testTheOldTailCheckComparedCharacters`).
    private static let atoms = ["x", "y", "0", "1", "\u{301}", "ж", "😀", "%78"]

    func testTheOnePassScrubHidesAtLeastWhatTheSearchAndReplacePerSecretHid() {
        var random = SplitMix64(seed: 25)
        var equal = 0
        var differingOnOverlaps = 0
        var differingOnMarks = 0
        var differingOnTails = 0
        for round in 0..<4000 {
            var secrets = LogRedaction.Secrets()
            var reference = ReferenceSecrets()
            var values: [String] = []
            for _ in 0..<(1 + random.next(below: 5)) {
                let value = secretLike(after: values, random: &random)
                values.append(value)
                secrets.insert(value)
                reference.insert(value)
            }
            XCTAssertEqual(Set(secrets.values), Set(reference.values), "round \(round)")
            let text = textLike(with: reference.values, random: &random)
            for truncated in [false, true] {
                let new = truncated ? secrets.scrub(truncated: text) : secrets.scrub(text)
                let old = truncated ? reference.scrub(truncated: text) : reference.scrub(text)
                let context =
                    "round \(round) truncated \(truncated): \(debug(text)) secrets \(reference.values.map(debug))"
                assertNothingVisible(of: reference.values, in: new, truncated: truncated, context)
                // Both answers keep the text outside the placeholders in order: the new one shows no
                // more of it.
                XCTAssertLessThanOrEqual(visible(new).utf8.count, visible(old).utf8.count, context)
                if new == old {
                    equal += 1
                    continue
                }
                // Where they differ, the new answer hides more, for one of three reasons:
                // - occurrences overlap without one containing the other ("xy0011" and "11yy00" in
                //   "xy0011yy00", or "0x0x0x" repeated over itself in "0x0x0x0x"): the old scrub
                //   replaced the longer value, or the first occurrence, and left the rest of the
                //   other visible; the new one replaces the union of the occurrences with one
                //   placeholder;
                // - a value inside another as long in Characters ("x0y01ж" and "x0y01ж\u{301}"): the
                //   old scrub sorted by Characters, could replace the shorter first and leave the
                //   combining mark; the new one replaces the longer whole;
                // - the text was cut: the old check compared Characters, one value at a time (the
                //   longest first, stopping at the first that matched), the new one the longest end
                //   of the text, in bytes, that begins any value (a cut before a combining mark, or a
                //   shorter value's longer beginning).
                let overlaps = overlaps(of: reference.values, in: text)
                if overlaps.partial {
                    differingOnOverlaps += 1
                } else if overlaps.sameLengthInside {
                    differingOnMarks += 1
                } else {
                    XCTAssertTrue(
                        truncated, "differs without overlapping occurrences: \(context)\nnew \(new)\nold \(old)")
                    differingOnTails += 1
                }
            }
        }
        // The generator reaches every case.
        XCTAssertGreaterThan(equal, 1000)
        XCTAssertGreaterThan(differingOnOverlaps, 20)
        XCTAssertGreaterThan(differingOnMarks, 5)
        XCTAssertGreaterThan(differingOnTails, 20)
    }

    func testManySecretsSharingBeginningsAgainstTheReference() {
        // Wide states (more than eight transitions, searched by halves) need many secrets over a
        // wide alphabet; shared beginnings make long common paths and overlaps.
        var random = SplitMix64(seed: 4096)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_.~").map(String.init) + ["\u{301}", "ж"]
        func word(_ count: Int) -> String {
            (0..<count).map { _ in alphabet[Int(random.next(below: UInt64(alphabet.count)))] }.joined()
        }
        for round in 0..<6 {
            let stems = (0..<4).map { _ in word(2 + Int(random.next(below: 3))) }
            var secrets = LogRedaction.Secrets()
            var reference = ReferenceSecrets()
            for _ in 0..<300 {
                let value = stems[Int(random.next(below: 4))] + word(4 + Int(random.next(below: 5)))
                secrets.insert(value)
                reference.insert(value)
            }
            var text = ""
            for _ in 0..<200 {
                let value = reference.values[Int(random.next(below: UInt64(reference.values.count)))]
                switch random.next(below: 3) {
                case 0: text += value
                case 1: text += String(value.prefix(1 + Int(random.next(below: UInt64(value.count)))))
                default: text += word(1 + Int(random.next(below: 6)))
                }
            }
            for truncated in [false, true] {
                let new = truncated ? secrets.scrub(truncated: text) : secrets.scrub(text)
                let old = truncated ? reference.scrub(truncated: text) : reference.scrub(text)
                let context = "round \(round) truncated \(truncated)"
                assertNothingVisible(of: reference.values, in: new, truncated: truncated, context)
                XCTAssertLessThanOrEqual(visible(new).utf8.count, visible(old).utf8.count, context)
            }
        }
    }

    func testTheOldTailCheckComparedCharacters() {
        // A class the differential test leaves out: a text that ends with the beginning of a secret
        // in another (canonically equivalent) encoding. The old end check compared Characters and
        // hid it, while its whole-value search (`.literal`) never matched such a value anywhere
        // else in the text; the new scrub compares code units everywhere, as the whole-value search
        // always did.
        var secrets = LogRedaction.Secrets()
        secrets.insert("caf\u{E9}-token-123")
        XCTAssertEqual(secrets.scrub("x cafe\u{301}-token-123"), "x cafe\u{301}-token-123")
        XCTAssertEqual(secrets.scrub(truncated: "x caf\u{E9}-t"), "x [redacted]")
        XCTAssertEqual(secrets.scrub(truncated: "x cafe\u{301}-t"), "x cafe\u{301}-t")
    }

    func testOverlappingAndTouchingValues() {
        var secrets = LogRedaction.Secrets()
        for value in ["abcdef-1", "f-1234xyz", "bcdef-", "qqqqqq", "secret-0001"] { secrets.insert(value) }
        // One containing another, and one value's end being another's beginning: one placeholder.
        XCTAssertEqual(secrets.scrub("<abcdef-1>"), "<[redacted]>")
        XCTAssertEqual(secrets.scrub("<abcdef-1234xyz>"), "<[redacted]>")
        // Repeated over itself.
        XCTAssertEqual(secrets.scrub("<qqqqqqqqq>"), "<[redacted]>")
        // Touching occurrences stay apart, as before.
        XCTAssertEqual(secrets.scrub("secret-0001secret-0001"), "[redacted][redacted]")
        // The end of a cut text, also right after a whole value.
        XCTAssertEqual(secrets.scrub(truncated: "id secret-0"), "id [redacted]")
        XCTAssertEqual(secrets.scrub(truncated: "id secret-0001sec"), "id [redacted][redacted]")
        XCTAssertEqual(secrets.scrub(truncated: "id se"), "id se", "two bytes are not enough")
        XCTAssertEqual(secrets.scrub("id secret-0"), "id secret-0", "a whole text keeps its end")
        // A percent-encoded value is hidden decoded too.
        var encoded = LogRedaction.Secrets()
        encoded.insert("a%20b%20c%20d")
        XCTAssertEqual(encoded.scrub("a%20b%20c%20d or a b c d"), "[redacted] or [redacted]")
        XCTAssertEqual(encoded.scrub(body: Data("a b c d".utf8)), Data("[redacted]".utf8))
        let binary = Data([0xFF, 0x61, 0x20, 0x62])
        XCTAssertEqual(encoded.scrub(body: binary), binary)
    }

    func testACopyMadeBeforeAnInsertDoesNotSeeTheNewValue() {
        var first = LogRedaction.Secrets()
        first.insert("first-secret")
        XCTAssertEqual(first.scrub("first-secret second-secret"), "[redacted] second-secret")
        var second = first
        second.insert("second-secret")
        var third = first
        third.insert("third-secret")
        XCTAssertEqual(second.scrub("first-secret second-secret third-secret"), "[redacted] [redacted] third-secret")
        XCTAssertEqual(third.scrub("first-secret second-secret third-secret"), "[redacted] second-secret [redacted]")
        XCTAssertEqual(first.scrub("first-secret second-secret third-secret"), "[redacted] second-secret third-secret")
        // Short values are hidden only in their own field.
        first.insert("short")
        XCTAssertEqual(first.values, ["first-secret"])
    }

    // MARK: Many secrets

    func testAThousandSecretsInOneTextAreAllHidden() {
        var random = SplitMix64(seed: 1000)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_")
        var values = Set<String>()
        while values.count < 1000 {
            let length = 6 + Int(random.next(below: 25))
            values.insert(String((0..<length).map { _ in alphabet[Int(random.next(below: UInt64(alphabet.count)))] }))
        }
        var secrets = LogRedaction.Secrets()
        for value in values { secrets.insert(value) }
        XCTAssertEqual(secrets.values.count, 1000)
        // Each value twice: once between spaces, once glued to the next one.
        let ordered = values.sorted()
        let text = ordered.joined(separator: " ") + " " + ordered.joined() + " " + ordered.joined(separator: "\u{301}")
        let scrubbed = secrets.scrub(text)
        let cut = secrets.scrub(truncated: String(text.dropLast(3)))
        for value in values {
            XCTAssertNil(scrubbed.range(of: value, options: .literal), value)
            XCTAssertNil(cut.range(of: value, options: .literal), value)
        }
        XCTAssertFalse(cut.hasSuffix(String(ordered[ordered.count - 1].dropLast(3))), cut)
        XCTAssertGreaterThanOrEqual(scrubbed.components(separatedBy: LogRedaction.placeholder).count - 1, 1001)
    }

    func testAThousandRedactedHeadersLoggedAtBody() async throws {
        let count = 1000
        let secret = { (index: Int) in "header-secret-\(index)-value" }
        let echo = (0..<count).map(secret).joined(separator: ",")
        let stubs = StubTransport(
            fallback: .init(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data(echo.utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .body
        client.logBodyLimit = echo.utf8.count + 1
        client.logRedaction = LogRedaction(headers: Set((0..<count).map { "X-Secret-\($0)" }))
        let headers = Dictionary(uniqueKeysWithValues: (0..<count).map { ("X-Secret-\($0)", secret($0)) })
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: "echo", headers: headers))
        XCTAssertEqual(logger.messages.count, 2)
        let request = logger.texts[0]
        let response = logger.texts[1]
        XCTAssertEqual(request.components(separatedBy: ": [redacted]\n").count - 1, count, request)
        XCTAssertEqual(
            response.split(separator: "\n").first { $0.hasPrefix("[redacted]") },
            Substring(Array(repeating: "[redacted]", count: count).joined(separator: ",")))
        XCTAssertFalse(logger.everything.contains { $0.contains("header-secret") })
    }

    // MARK: Settings

    func testTheLowercasedNamesFollowEveryChangeOfTheLists() {
        var redaction = LogRedaction(headers: ["X-One"], queryParameters: ["Key"])
        XCTAssertTrue(redaction.redactsHeader("x-one"))
        XCTAssertFalse(redaction.redactsHeader("x-two"))
        let before = redaction
        redaction.headers.insert("X-TWO")
        redaction.queryParameters = ["Token"]
        XCTAssertTrue(redaction.redactsHeader("x-two"))
        XCTAssertTrue(redaction.redactsQueryParameter("TOKEN"))
        XCTAssertFalse(redaction.redactsQueryParameter("key"))
        // The copy taken before the change keeps its own lists.
        XCTAssertFalse(before.redactsHeader("x-two"))
        XCTAssertTrue(before.redactsQueryParameter("KEY"))
        // Equality and hashing follow the lists only, whatever was worked out already.
        let fresh = LogRedaction(headers: ["X-One", "X-TWO"], queryParameters: ["Token"])
        XCTAssertEqual(redaction, fresh)
        XCTAssertEqual(redaction.hashValue, fresh.hashValue)
        XCTAssertNotEqual(redaction, before)
        redaction.headers.remove("X-TWO")
        XCTAssertFalse(redaction.redactsHeader("x-two"))
        XCTAssertTrue(redaction.redactsHeader("AUTHORIZATION"))
    }

    // MARK: Helpers

    private func secretLike(after values: [String], random: inout SplitMix64) -> String {
        func atoms(_ count: Int) -> String {
            (0..<count).map { _ in Self.atoms[Int(random.next(below: UInt64(Self.atoms.count)))] }.joined()
        }
        guard let earlier = values.last, random.next(below: 3) > 0 else { return atoms(5 + Int(random.next(below: 5))) }
        let scalars = Array(earlier.unicodeScalars)
        let cut = Int(random.next(below: UInt64(scalars.count)))
        var view = String.UnicodeScalarView()
        switch random.next(below: 4) {
        case 0:  // Overlapping: the earlier one's end, then more.
            view.append(contentsOf: scalars[cut...])
            return String(view) + atoms(3 + Int(random.next(below: 4)))
        case 1:  // Overlapping the other way: more, then the earlier one's beginning.
            view.append(contentsOf: scalars[..<max(cut, 2)])
            return atoms(3 + Int(random.next(below: 4))) + String(view)
        case 2:  // Containing it.
            return atoms(Int(random.next(below: 3))) + earlier + atoms(1 + Int(random.next(below: 2)))
        default:  // Repeating a short piece.
            let piece = atoms(1 + Int(random.next(below: 3)))
            return String(repeating: piece, count: 3 + Int(random.next(below: 3)))
        }
    }

    private func textLike(with values: [String], random: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<(1 + random.next(below: 8)) {
            let atom = Self.atoms[Int(random.next(below: UInt64(Self.atoms.count)))]
            guard let value = values.randomElement(using: &random), random.next(below: 3) > 0 else {
                text += atom
                continue
            }
            let scalars = Array(value.unicodeScalars)
            var view = String.UnicodeScalarView()
            switch random.next(below: 4) {
            case 0: view.append(contentsOf: scalars.prefix(1 + Int(random.next(below: UInt64(scalars.count)))))
            case 1: view.append(contentsOf: scalars.suffix(1 + Int(random.next(below: UInt64(scalars.count)))))
            default: view.append(contentsOf: scalars)
            }
            text += String(view) + (random.next(below: 2) == 0 ? atom : "")
        }
        return text
    }

    /// No secret in `text`, and, when it was cut, no end of 3 bytes or more that begins one.
    private func assertNothingVisible(
        of values: [String], in text: String, truncated: Bool, _ context: String, line: UInt = #line
    ) {
        let bytes = Array(text.utf8)
        for value in values {
            let secret = Array(value.utf8)
            XCTAssertFalse(
                contains(bytes, secret), "\(debug(value)) visible in \(debug(text)) — \(context)", line: line)
            guard truncated else { continue }
            for length in stride(from: secret.count - 1, through: Matcher.minimumScrubbedLength / 2, by: -1)
            where bytes.count >= length && Array(bytes.suffix(length)) == Array(secret.prefix(length)) {
                XCTFail("the beginning of \(debug(value)) ends \(debug(text)) — \(context)", line: line)
            }
        }
    }

    private typealias Matcher = LogRedaction.Matcher

    /// How the occurrences of secrets in `text` overlap: two overlapping without one containing
    /// the other (or one value twice, overlapping itself), and one containing another of the same
    /// length in Characters (a value and the same value with a combining mark after it).
    private func overlaps(of values: [String], in text: String) -> (partial: Bool, sameLengthInside: Bool) {
        let bytes = Array(text.utf8)
        var occurrences: [(range: Range<Int>, characters: Int)] = []
        for value in values {
            let secret = Array(value.utf8)
            guard secret.count <= bytes.count else { continue }
            for start in 0...(bytes.count - secret.count) where Array(bytes[start..<start + secret.count]) == secret {
                occurrences.append((start..<start + secret.count, value.count))
            }
        }
        var partial = false
        var sameLengthInside = false
        for first in occurrences {
            for second in occurrences where first.range != second.range && first.range.overlaps(second.range) {
                if first.range.clamped(to: second.range) == second.range {
                    sameLengthInside = sameLengthInside || first.characters == second.characters
                } else if second.range.clamped(to: first.range) != first.range {
                    partial = true
                }
            }
        }
        return (partial, sameLengthInside)
    }

    private func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= bytes.count else { return false }
        return (0...(bytes.count - part.count)).contains { Array(bytes[$0..<$0 + part.count]) == part }
    }

    /// `text` without its placeholders.
    private func visible(_ text: String) -> String {
        // `.literal`: a placeholder that a combining mark follows ends in another Character.
        text.replacingOccurrences(of: LogRedaction.placeholder, with: "", options: .literal)
    }

    private func debug(_ text: String) -> String { text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() }
}

/// The scrub as it was before the one-pass search: a search and a replace per secret, the longest
/// first; at the end of a cut text, every length of every secret's beginning. Kept as the
/// reference of the differential test.
private struct ReferenceSecrets {
    private(set) var values: [String] = []

    mutating func insert(_ value: String) {
        var candidates = [value]
        if let decoded = value.removingPercentEncoding, decoded != value { candidates.append(decoded) }
        for candidate in candidates
        where candidate.count >= LogRedaction.Matcher.minimumScrubbedLength && !values.contains(candidate) {
            values.append(candidate)
        }
        values.sort { $0.count > $1.count }
    }

    func scrub(_ text: String) -> String {
        var text = text
        for value in values where text.range(of: value, options: .literal) != nil {
            text = text.replacingOccurrences(of: value, with: LogRedaction.placeholder, options: .literal)
        }
        return text
    }

    func scrub(truncated text: String) -> String {
        var text = scrub(text)
        for value in values {
            var length = min(value.count - 1, text.count)
            while length >= LogRedaction.Matcher.minimumScrubbedLength / 2 {
                if text.hasSuffix(value.prefix(length)) {
                    text = String(text.dropLast(length)) + LogRedaction.placeholder
                    break
                }
                length -= 1
            }
        }
        return text
    }
}
