import Foundation

/// The one-pass redaction of log messages (``LogRedaction/Secrets``, ``SecretSearch``): a body a
/// server sent, scrubbed of the call's secrets before it reaches a log or an error.
///
/// Input: fields split at 0xFF (see ``fuzzFields(_:)``): the last is the text (a response body),
/// every other one a secret, as a call collects them from its redacted fields.
///
/// Invariants, beyond never trapping, checked against a brute-force search of every secret at
/// every byte of the text: every occurrence of a stored secret lies inside a hidden range; every
/// hidden byte belongs to an occurrence (or, for a text cut short, to its end that begins a
/// secret); the ranges are in order and apart; and the scrubbed text is the text with each range
/// replaced by the placeholder, so no secret's occurrence survives it.
enum RedactionTarget {
    static func run(_ bytes: [UInt8]) {
        var fields = fuzzFields(bytes)
        guard let text = fields.popLast() else { return }
        var secrets = LogRedaction.Secrets()
        for field in fields { secrets.insert(field) }
        let stored = secrets.values.map { Array($0.utf8) }
        let textBytes = Array(text.utf8)
        let minimumTail = LogRedaction.Matcher.minimumScrubbedLength / 2
        for truncated in [false, true] {
            let ranges =
                stored.isEmpty
                ? []
                : textBytes.withUnsafeBufferPointer {
                    SecretSearch(secrets.values).rangesToHide(
                        in: $0, truncated: truncated, minimumTailLength: minimumTail)
                }
            // In order, apart (overlapping occurrences were merged), inside the text.
            for (index, range) in ranges.enumerated() {
                fuzzCheck(range.lowerBound >= 0 && range.upperBound <= textBytes.count, "a range outside the text")
                fuzzCheck(!range.isEmpty, "an empty range")
                if index > 0 { fuzzCheck(ranges[index - 1].upperBound <= range.lowerBound, "ranges out of order") }
            }
            // Every occurrence, found the slow way, is hidden whole.
            var covered = [Bool](repeating: false, count: textBytes.count)
            for secret in stored where secret.count <= textBytes.count {
                for start in 0...(textBytes.count - secret.count)
                where textBytes[start..<(start + secret.count)].elementsEqual(secret) {
                    let occurrence = start..<(start + secret.count)
                    let hidden = ranges.contains {
                        $0.lowerBound <= occurrence.lowerBound && occurrence.upperBound <= $0.upperBound
                    }
                    fuzzCheck(hidden, "an occurrence of a secret at \(start) is not hidden")
                    for position in occurrence { covered[position] = true }
                }
            }
            // The cut end: the longest end of the text that begins a secret, at least minimumTail long.
            if truncated {
                var tail = 0
                for secret in stored {
                    for length in stride(from: min(secret.count, textBytes.count), through: 1, by: -1)
                    where textBytes.suffix(length).elementsEqual(secret.prefix(length)) {
                        tail = max(tail, length)
                        break
                    }
                }
                if tail >= minimumTail {
                    for position in (textBytes.count - tail)..<textBytes.count { covered[position] = true }
                }
            }
            // Nothing else is hidden.
            for range in ranges {
                fuzzCheck(range.allSatisfy { covered[$0] }, "a byte hidden that belongs to no secret")
            }
            // The scrubbed text is the text with each range replaced.
            var expected: [UInt8] = []
            var start = 0
            for range in ranges {
                expected += textBytes[start..<range.lowerBound]
                expected += LogRedaction.placeholder.utf8
                start = range.upperBound
            }
            expected += textBytes[start...]
            let scrubbed = truncated ? secrets.scrub(truncated: text) : secrets.scrub(text)
            fuzzCheck(Array(scrubbed.utf8) == expected, "the scrubbed text is not the text with its ranges replaced")
        }
    }
}
