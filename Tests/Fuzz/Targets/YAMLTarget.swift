import Foundation

/// The YAML reader (``YAMLReader``, YAML 1.2.2 as OpenAPI documents use it) on any bytes, read as
/// UTF-8 with small bounds (nesting 512, aliases 20,000 nodes) so that each run stays fast.
///
/// Beyond not crashing, hanging or leaking:
/// - every node's line and column, and an error's, are within the text (a line of it, at most one
///   column past its end);
/// - the same text given as a `String` gives the same tree or the same error, and so does the same
///   text in UTF-16 (big-endian, after a byte order mark) read by ``YAMLReader/node(fromEncoded:limits:)``;
/// - the bytes read as any encoding (``YAMLReader/node(fromEncoded:limits:)``: UTF-16 and UTF-32
///   where their zeros say so) give a tree or an error, never a trap;
/// - where the tree converts to a ``YAMLValue``: no object has two members with one key, and
///   (without infinities or NaN, at most 100 levels deep) writing the value as JSON with
///   `JSONSerialization` and reading it back gives the same value (a double to a relative 1e-12:
///   Foundation reads large numbers back through an integer type or a decimal; and not where a text
///   holds a U+FEFF, which Foundation's reader drops at times, taking it for a byte order mark).
enum YAMLTarget {
    static let limits = YAMLLimits(maximumDepth: 512, maximumAliasExpansion: 20_000)

    static func run(_ bytes: [UInt8]) {
        let lineLengths = lineLengths(bytes)
        let fromBytes = Result { () throws(YAMLError) in try YAMLReader.node(fromUTF8: bytes, limits: limits) }
        if lineLengths != nil {
            let text = String(decoding: bytes, as: UTF8.self)
            let fromText = Result { () throws(YAMLError) in try YAMLReader.node(from: text, limits: limits) }
            switch (fromBytes, fromText) {
            case (.success(let a), .success(let b)): fuzzCheck(a == b, "the String reading differs: \(a) vs \(b)")
            case (.failure(let a), .failure(let b)):
                fuzzCheck(a == b, "the String reading fails otherwise: \(a) vs \(b)")
            default: fuzzCheck(false, "bytes and String disagree: \(fromBytes) vs \(fromText)")
            }
            if text.unicodeScalars.first != "\u{FEFF}" {
                var utf16: [UInt8] = [0xFE, 0xFF]
                for unit in text.utf16 { utf16 += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                let fromUTF16 = Result { () throws(YAMLError) in try YAMLReader.node(fromEncoded: utf16, limits: limits)
                }
                switch (fromBytes, fromUTF16) {
                case (.success(let a), .success(let b)): fuzzCheck(a == b, "the UTF-16 reading differs: \(a) vs \(b)")
                case (.failure(let a), .failure(let b)):
                    fuzzCheck(a == b, "the UTF-16 reading fails otherwise: \(a) vs \(b)")
                default: fuzzCheck(false, "UTF-8 and UTF-16 disagree: \(fromBytes) vs \(fromUTF16)")
                }
            }
        }
        _ = try? YAMLReader.node(fromEncoded: bytes, limits: limits)
        let node: YAMLNode
        switch fromBytes {
        case .failure(let error):
            if let lineLengths { checkPlace(error.line, error.column, lineLengths, "the error \(error)") }
            return
        case .success(let root): node = root
        }
        guard let lineLengths else { return fuzzCheck(false, "malformed UTF-8 was read") }
        var stack = [node]
        var visited = 0
        while let next = stack.popLast(), visited < 100_000 {
            visited += 1
            checkPlace(next.line, next.column, lineLengths, "the node \(next.content)")
            switch next.content {
            case .scalar: break
            case .sequence(let elements): stack += elements
            case .mapping(let pairs):
                for pair in pairs { stack += [pair.key, pair.value] }
            }
        }
        guard let value = try? node.value() else { return }
        checkUniqueKeys(value)
        guard isPlain(value, depth: 0) else { return }
        guard let data = try? JSONSerialization.data(withJSONObject: foundation(value), options: [.fragmentsAllowed])
        else { return fuzzCheck(false, "JSONSerialization cannot write \(value)") }
        guard let back = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return fuzzCheck(false, "JSONSerialization cannot read its own \(String(decoding: data, as: UTF8.self))")
        }
        fuzzCheck(same(value, back), "the JSON round trip changed \(value) into \(back)")
    }

    /// The length in Unicode scalars of each line of the text (after a leading byte order mark);
    /// `nil` when the bytes are not UTF-8.
    static func lineLengths(_ bytes: [UInt8]) -> [Int]? {
        var text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes else { return nil }
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        var lengths = [0]
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if previous == "\r" { lengths[lengths.count - 1] -= 1 }
                lengths.append(0)
            } else if previous == "\r" {
                lengths[lengths.count - 1] -= 1
                lengths.append(1)
            } else {
                lengths[lengths.count - 1] += 1
            }
            previous = scalar
        }
        if previous == "\r" {
            lengths[lengths.count - 1] -= 1
            lengths.append(0)
        }
        return lengths
    }

    static func checkPlace(_ line: Int, _ column: Int, _ lineLengths: [Int], _ what: @autoclosure () -> String) {
        fuzzCheck(
            line >= 1 && line <= lineLengths.count && column >= 1 && column <= lineLengths[line - 1] + 1,
            "\(what()) is at \(line):\(column), outside the text (lines \(lineLengths))")
    }

    static func checkUniqueKeys(_ value: YAMLValue) {
        var stack = [value]
        while let next = stack.popLast() {
            switch next {
            case .array(let elements): stack += elements
            case .object(let members):
                fuzzCheck(Set(members.map(\.key)).count == members.count, "an object with a key twice: \(members)")
                stack += members.map(\.value)
            default: break
            }
        }
    }

    /// No infinity nor NaN (JSON has neither), no U+FEFF, and not deeper than `JSONSerialization` reads.
    static func isPlain(_ value: YAMLValue, depth: Int) -> Bool {
        guard depth < 100 else { return false }
        switch value {
        case .double(let number): return number.isFinite
        case .string(let text): return !text.unicodeScalars.contains("\u{FEFF}")
        case .array(let elements): return elements.allSatisfy { isPlain($0, depth: depth + 1) }
        case .object(let members):
            return members.allSatisfy {
                !$0.key.unicodeScalars.contains("\u{FEFF}") && isPlain($0.value, depth: depth + 1)
            }
        default: return true
        }
    }

    static func foundation(_ value: YAMLValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): NSNumber(value: flag)
        case .int(let number): NSNumber(value: number)
        case .double(let number): NSNumber(value: number)
        case .string(let text): text
        case .array(let elements): elements.map(foundation)
        case .object(let members):
            Dictionary(members.map { ($0.key, foundation($0.value)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Whether `back`, read by `JSONSerialization`, is `value` (numbers compared by value).
    static func same(_ value: YAMLValue, _ back: Any) -> Bool {
        switch value {
        case .null: return back is NSNull
        case .bool(let flag): return (back as? NSNumber)?.boolValue == flag && !(back is String)
        case .int(let number):
            guard let read = back as? NSNumber else { return false }
            return read.int64Value == number || read.doubleValue == Double(number)
        case .double(let number):
            // Foundation reads large numbers back through an integer type or NSDecimalNumber, which
            // round them once more: equal to a relative 1e-12.
            guard let read = (back as? NSNumber)?.doubleValue else { return false }
            return read == number || abs(read - number) <= abs(number) * 1e-12
        case .string(let text): return back as? String == text
        case .array(let elements):
            guard let read = back as? [Any], read.count == elements.count else { return false }
            return zip(elements, read).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let read = back as? [String: Any], read.count == members.count else { return false }
            return members.allSatisfy { member in read[member.key].map { same(member.value, $0) } ?? false }
        }
    }
}
