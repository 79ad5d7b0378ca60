/// A scalar read under YAML 1.2's core schema.
enum YAMLScalarValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    /// An integer beyond `Int64`.
    case bigInteger(YAMLBigInteger)
    case float(Double)
    case string(String)
}

/// An integer of the core schema too large for `Int64`: its canonical text (for comparing keys)
/// and the nearest `Double` (infinite when beyond `Double`'s range).
struct YAMLBigInteger: Sendable, Equatable {
    /// `-`, then `d`, `o` or `x` for the base the text used, then the digits without leading
    /// zeros (hexadecimal ones in lower case).
    var canonical: String
    var approximation: Double
}

/// YAML 1.2's core schema (§10.3.2): which type a plain scalar's text resolves to, and the value.
///
/// | type  | text |
/// | ----- | ---- |
/// | null  | `null` `Null` `NULL` `~` and the empty text |
/// | bool  | `true` `True` `TRUE` `false` `False` `FALSE` |
/// | int   | `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+` |
/// | float | `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?\.(inf|Inf|INF)`, `\.(nan|NaN|NAN)` |
/// | str   | anything else |
///
/// YAML 1.1's forms (`yes`/`no`/`on`/`off`, `0777` octal, `1_000`, `0b1010`, sexagesimal
/// `1:30`, timestamps, `<<` merge keys) are strings here.
enum YAMLCoreSchema {
    /// The value of an untagged plain scalar with this text; `nil` only if the patterns disagree
    /// with themselves (never).
    private static func implicitValue(of text: String) -> YAMLScalarValue? {
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            return isNull(text) ? .null : .string(text)
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            return bool(text).map { .bool($0) } ?? .string(text)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            let bytes = Array(text.utf8)
            if let value = integer(bytes) { return value }
            if let value = float(bytes) { return .float(value) }
            return .string(text)
        default:
            return .string(text)
        }
    }

    /// The tag a plain scalar with this text resolves to.
    static func implicitTag(of text: String) -> String {
        guard let first = text.utf8.first else { return YAMLTag.null }
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            return isNull(text) ? YAMLTag.null : YAMLTag.string
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            return bool(text) != nil ? YAMLTag.bool : YAMLTag.string
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            let bytes = Array(text.utf8)
            if integer(bytes) != nil { return YAMLTag.int }
            if float(bytes) != nil { return YAMLTag.float }
            return YAMLTag.string
        default:
            return YAMLTag.string
        }
    }

    /// The value of a scalar with text `text` and (resolved) tag `tag`; `nil` when the text is
    /// not of the tag's type. Tags outside the core schema give the text as a string.
    static func value(of text: String, tag: String) -> YAMLScalarValue? {
        switch tag {
        case YAMLTag.null: return isNull(text) ? .null : nil
        case YAMLTag.bool: return bool(text).map { .bool($0) }
        case YAMLTag.int: return integer(Array(text.utf8))
        case YAMLTag.float:
            let bytes = Array(text.utf8)
            if let value = float(bytes) { return .float(value) }
            // An integer's text is a float too (the core schema's float pattern takes it).
            switch integer(bytes) {
            case .int(let value)?: return .float(Double(value))
            case .bigInteger(let value)?: return .float(value.approximation)
            default: return nil
            }
        case YAMLTag.sequence, YAMLTag.mapping: return nil
        default: return .string(text)
        }
    }

    /// The value of a scalar node under the core schema, its explicit tag checked.
    static func value(of node: YAMLNode) throws(YAMLError) -> YAMLScalarValue {
        guard case .scalar(let text, let style) = node.content else {
            throw YAMLError("internal error: \(node.kindName) is not a scalar", line: node.line, column: node.column)
        }
        if node.tag == nil {
            // The common case, without comparing tags.
            guard style == .plain else { return .string(text) }
            if let value = implicitValue(of: text) { return value }
        }
        let tag = node.resolvedTag
        guard let value = value(of: text, tag: tag) else {
            throw YAMLError(
                "the scalar '\(text.prefix(40))' is not \(typeName(tag)) (the tag \(shortName(tag)))", line: node.line,
                column: node.column)
        }
        return value
    }

    /// Whether a collection node's tag fits it; an error when the tag is one of the core schema's
    /// scalar tags, or the other collection's.
    static func checkCollectionTag(of node: YAMLNode) throws(YAMLError) {
        let tag = node.resolvedTag
        let wrong: Bool
        switch node.content {
        case .scalar: wrong = false
        case .sequence: wrong = tag == YAMLTag.mapping || scalarTags.contains(tag)
        case .mapping: wrong = tag == YAMLTag.sequence || scalarTags.contains(tag)
        }
        if wrong {
            throw YAMLError(
                "\(node.kindName) cannot have the tag \(shortName(tag))", line: node.line, column: node.column)
        }
    }

    private static let scalarTags: Set<String> = [
        YAMLTag.null, YAMLTag.bool, YAMLTag.int, YAMLTag.float, YAMLTag.string,
    ]

    /// `!!int` for `tag:yaml.org,2002:int`; other tags as they are.
    static func shortName(_ tag: String) -> String {
        tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
    }

    private static func typeName(_ tag: String) -> String {
        switch tag {
        case YAMLTag.null: "null"
        case YAMLTag.bool: "a bool (true or false)"
        case YAMLTag.int: "an int"
        case YAMLTag.float: "a float"
        case YAMLTag.sequence: "a sequence"
        case YAMLTag.mapping: "a mapping"
        default: "of its tag's type"
        }
    }

    // MARK: The patterns

    private static func isNull(_ text: String) -> Bool {
        text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    private static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
    static func integer(_ bytes: [UInt8]) -> YAMLScalarValue? {
        guard let first = bytes.first else { return nil }
        if bytes.count > 2 && first == UInt8(ascii: "0")
            && (bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x"))
        {
            let hex = bytes[1] == UInt8(ascii: "x")
            let bits = hex ? 4 : 3
            var digits: [UInt8] = []
            digits.reserveCapacity(bytes.count - 2)
            for byte in bytes[2...] {
                guard let value = YAMLCharacter.hexValue(UInt32(byte)), value < (hex ? 16 : 8) else { return nil }
                digits.append(UInt8(value))
            }
            return powerOfTwoBase(digits, bitsPerDigit: bits, letter: hex ? "x" : "o")
        }
        let negative = first == UInt8(ascii: "-")
        let digitsStart = (first == UInt8(ascii: "-") || first == UInt8(ascii: "+")) ? 1 : 0
        guard digitsStart < bytes.count, bytes[digitsStart...].allSatisfy(isDigit) else { return nil }
        var magnitude: UInt64 = 0
        var overflow = false
        for byte in bytes[digitsStart...] where !overflow {
            let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(byte - 0x30))
            overflow = o1 || o2
            magnitude = plus
        }
        if !overflow {
            if !negative && magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative && magnitude <= UInt64(Int64.max) + 1 {
                return .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
            }
        }
        let significant = bytes[digitsStart...].drop { $0 == UInt8(ascii: "0") }
        let text = String(decoding: significant, as: UTF8.self)
        let approximation = Double(text) ?? .infinity
        return .bigInteger(
            YAMLBigInteger(
                canonical: (negative ? "-" : "") + "d" + text, approximation: negative ? -approximation : approximation)
        )
    }

    /// An octal or hexadecimal integer from its digits' values.
    private static func powerOfTwoBase(_ digits: [UInt8], bitsPerDigit: Int, letter: String) -> YAMLScalarValue {
        let significant = digits.drop { $0 == 0 }
        var window: UInt64 = 0
        var dropped = 0
        var sticky = false
        for digit in significant {
            if dropped == 0 && window >> (64 - bitsPerDigit) == 0 {
                window = window << bitsPerDigit | UInt64(digit)
            } else {
                dropped += bitsPerDigit
                sticky = sticky || digit != 0
            }
        }
        if dropped == 0 && window <= UInt64(Int64.max) { return .int(Int64(window)) }
        // Beyond Int64: the nearest Double, the dropped bits folded into the window's last bit so
        // that the rounding sees them (the window keeps more than 60 significant bits).
        if sticky { window |= 1 }
        let approximation =
            dropped > 2000 ? Double.infinity : Double(sign: .plus, exponent: dropped, significand: Double(window))
        let text = significant.map { String($0, radix: 16) }.joined()
        return .bigInteger(YAMLBigInteger(canonical: letter + text, approximation: approximation))
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?\.(inf|Inf|INF)` or `\.(nan|NaN|NAN)`.
    static func float(_ bytes: [UInt8]) -> Double? {
        var index = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        if rest == ".inf" || rest == ".Inf" || rest == ".INF" { return negative ? -.infinity : .infinity }
        if index == 0 && (rest == ".nan" || rest == ".NaN" || rest == ".NAN") { return .nan }
        func digits() -> Int {
            let start = index
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        var normalized = negative ? "-" : ""
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
            normalized += "0"
        } else {
            guard digits() > 0 else { return nil }
            if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
                index += 1
                _ = digits()
            }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
                index += 1
            }
            guard digits() > 0 else { return nil }
        }
        guard index == bytes.count else { return nil }
        let start = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? 1 : 0
        normalized += String(decoding: bytes[start...], as: UTF8.self)
        return Double(normalized)
    }
}
