/// A place in a YAML text: the offset in Unicode scalars, the line and the column, all from 0.
struct YAMLMark: Sendable, Equatable {
    var index: Int
    var line: Int
    var column: Int

    static let start = YAMLMark(index: 0, line: 0, column: 0)
}

/// Turns the input into the Unicode scalars the scanner reads: UTF-8 checked, a leading byte
/// order mark dropped, and every character checked against YAML's printable set (§5.1: tab, line
/// feed, carriage return, U+0020–U+007E, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD and above
/// U+FFFF; surrogates, U+FFFE and U+FFFF are neither). Anything else is a ``YAMLError`` at the
/// character.
enum YAMLText {
    /// The scalars of `text`.
    static func scalars(of text: String) throws(YAMLError) -> [UInt32] {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { scalars.append(scalar.value) }
        return try checked(scalars)
    }

    /// The encodings a YAML stream may have (YAML 1.2.2 §5.2).
    enum Encoding: Equatable {
        case utf8, utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian
    }

    /// The encoding of `bytes` by YAML 1.2.2 §5.2's table: a byte order mark, else the zero bytes
    /// around the first character, which is ASCII ("x" below: `00 00 00 x` is UTF-32 big-endian,
    /// `x 00 00 00` little-endian, `00 x` UTF-16 big-endian, `x 00` little-endian), else UTF-8.
    static func encoding(of bytes: [UInt8]) -> Encoding {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): return .utf32BigEndian
        case (0x00, 0x00, 0x00, _) where bytes.count >= 4: return .utf32BigEndian
        case (0xFF, 0xFE, 0x00, 0x00) where bytes.count >= 4: return .utf32LittleEndian
        case (_, 0x00, 0x00, 0x00) where bytes.count >= 4: return .utf32LittleEndian
        case (0xFE, 0xFF, _, _): return .utf16BigEndian
        case (0x00, _, _, _) where bytes.count >= 2: return .utf16BigEndian
        case (0xFF, 0xFE, _, _): return .utf16LittleEndian
        case (_, 0x00, _, _) where bytes.count >= 2: return .utf16LittleEndian
        default: return .utf8
        }
    }

    /// The scalars of `bytes` in the encoding ``encoding(of:)`` tells (YAML 1.2.2 §5.2: UTF-8,
    /// UTF-16 or UTF-32, either byte order); malformed input is an error at the line and column
    /// where it starts.
    static func scalars(ofEncoded bytes: [UInt8]) throws(YAMLError) -> [UInt32] {
        let encoding = encoding(of: bytes)
        switch encoding {
        case .utf8: return try scalars(ofUTF8: bytes)
        case .utf16BigEndian, .utf16LittleEndian:
            let big = encoding == .utf16BigEndian
            var scalars: [UInt32] = []
            scalars.reserveCapacity(bytes.count / 2)
            var index = 0
            func unit(at offset: Int) -> UInt32 {
                big
                    ? UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1])
                    : UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset])
            }
            while index + 1 < bytes.count {
                let first = unit(at: index)
                index += 2
                switch first {
                case 0xD800...0xDBFF:
                    guard index + 1 < bytes.count, case let second = unit(at: index), (0xDC00...0xDFFF).contains(second)
                    else { throw malformed("UTF-16", scalars) }
                    scalars.append(0x10000 + ((first - 0xD800) << 10 | (second - 0xDC00)))
                    index += 2
                case 0xDC00...0xDFFF: throw malformed("UTF-16", scalars)
                default: scalars.append(first)
                }
            }
            guard index == bytes.count else { throw malformed("UTF-16", scalars) }
            return try checked(scalars)
        case .utf32BigEndian, .utf32LittleEndian:
            let big = encoding == .utf32BigEndian
            var scalars: [UInt32] = []
            scalars.reserveCapacity(bytes.count / 4)
            var index = 0
            while index + 3 < bytes.count {
                let units = (0..<4).map { UInt32(bytes[index + (big ? $0 : 3 - $0)]) }
                let value = units[0] << 24 | units[1] << 16 | units[2] << 8 | units[3]
                guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { throw malformed("UTF-32", scalars) }
                scalars.append(value)
                index += 4
            }
            guard index == bytes.count else { throw malformed("UTF-32", scalars) }
            return try checked(scalars)
        }
    }

    /// The scalars of UTF-8 `bytes`. UTF-16 and UTF-32 input (told by their byte order marks)
    /// is refused, and so is malformed UTF-8, at the line and column where it starts.
    static func scalars(ofUTF8 bytes: [UInt8]) throws(YAMLError) -> [UInt32] {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw YAMLError(
                "the text is UTF-16 or UTF-32 (it starts with their byte order mark): only UTF-8 is read", at: .start)
        }
        if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 0xFE, bytes[3] == 0xFF {
            throw YAMLError("the text is UTF-32 (it starts with its byte order mark): only UTF-8 is read", at: .start)
        }
        var scalars: [UInt32] = []
        scalars.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            if first < 0x80 {
                scalars.append(UInt32(first))
                index += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            var value: UInt32
            switch first {
            case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(first & 0x1F))
            case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(first & 0x0F))
            case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(first & 0x07))
            default: throw malformedUTF8(scalars)
            }
            guard bytes.count - index >= length else { throw malformedUTF8(scalars) }
            for offset in 1..<length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { throw malformedUTF8(scalars) }
                value = value << 6 | UInt32(next & 0x3F)
            }
            guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
                throw malformedUTF8(scalars)
            }
            scalars.append(value)
            index += length
        }
        return try checked(scalars)
    }

    /// The error for malformed UTF-8 after the scalars decoded so far.
    private static func malformedUTF8(_ decoded: [UInt32]) -> YAMLError {
        YAMLError(
            "malformed UTF-8: the text must be UTF-8", at: mark(after: decoded, dropping: decoded.first == 0xFEFF))
    }

    /// Malformed text in `encoding` after `decoded`.
    private static func malformed(_ encoding: String, _ decoded: [UInt32]) -> YAMLError {
        YAMLError(
            "malformed \(encoding): a code unit that does not make a character",
            at: mark(after: decoded, dropping: decoded.first == 0xFEFF))
    }

    /// `scalars` without a leading byte order mark, once every character is known printable.
    private static func checked(_ scalars: [UInt32]) throws(YAMLError) -> [UInt32] {
        var scalars = scalars
        if scalars.first == 0xFEFF { scalars.removeFirst() }
        for (index, scalar) in scalars.enumerated() where !isPrintable(scalar) {
            let hex = String(scalar, radix: 16, uppercase: true)
            let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            throw YAMLError(
                "the character \(name) is not allowed in YAML (only printable characters are, and tab, "
                    + "line feed and carriage return)", at: mark(after: scalars[..<index], dropping: false))
        }
        return scalars
    }

    /// Whether YAML allows `scalar` in a text (§5.1 c-printable).
    static func isPrintable(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Where the scalar after `scalars` is (a leading byte order mark not counted when `dropping`).
    private static func mark(after scalars: some Collection<UInt32>, dropping: Bool) -> YAMLMark {
        var mark = YAMLMark.start
        var afterCarriageReturn = false
        for scalar in scalars.dropFirst(dropping ? 1 : 0) {
            if afterCarriageReturn && scalar != YAMLCharacter.lineFeed {
                mark.line += 1
                mark.column = 0
            }
            afterCarriageReturn = scalar == YAMLCharacter.carriageReturn
            if scalar == YAMLCharacter.lineFeed {
                mark.line += 1
                mark.column = 0
            } else if !afterCarriageReturn {
                mark.column += 1
            }
            mark.index += 1
        }
        if afterCarriageReturn {
            mark.line += 1
            mark.column = 0
        }
        return mark
    }
}

/// The characters the scanner compares with, as scalar values.
enum YAMLCharacter {
    static let end: UInt32 = 0  // past the end (NUL itself is not printable, so never in the text)
    static let tab: UInt32 = 0x09
    static let lineFeed: UInt32 = 0x0A
    static let carriageReturn: UInt32 = 0x0D
    static let space: UInt32 = 0x20
    static let exclamation: UInt32 = 0x21  // !
    static let doubleQuote: UInt32 = 0x22  // "
    static let hash: UInt32 = 0x23  // #
    static let percent: UInt32 = 0x25  // %
    static let ampersand: UInt32 = 0x26  // &
    static let singleQuote: UInt32 = 0x27  // '
    static let asterisk: UInt32 = 0x2A  // *
    static let plus: UInt32 = 0x2B  // +
    static let comma: UInt32 = 0x2C  // ,
    static let minus: UInt32 = 0x2D  // -
    static let dot: UInt32 = 0x2E  // .
    static let colon: UInt32 = 0x3A  // :
    static let lessThan: UInt32 = 0x3C  // <
    static let greaterThan: UInt32 = 0x3E  // >
    static let question: UInt32 = 0x3F  // ?
    static let at: UInt32 = 0x40  // @
    static let openBracket: UInt32 = 0x5B  // [
    static let backslash: UInt32 = 0x5C  // \
    static let closeBracket: UInt32 = 0x5D  // ]
    static let backtick: UInt32 = 0x60  // `
    static let openBrace: UInt32 = 0x7B  // {
    static let pipe: UInt32 = 0x7C  // |
    static let closeBrace: UInt32 = 0x7D  // }
    static let byteOrderMark: UInt32 = 0xFEFF

    /// A line break (§5.4: line feed or carriage return; YAML 1.2 no longer breaks lines at
    /// U+0085, U+2028 or U+2029).
    static func isBreak(_ c: UInt32) -> Bool { c == lineFeed || c == carriageReturn }

    /// A line break or the end of the text.
    static func isBreakOrEnd(_ c: UInt32) -> Bool { c == lineFeed || c == carriageReturn || c == end }

    /// Space, tab, a line break or the end of the text.
    static func isBlankOrEnd(_ c: UInt32) -> Bool {
        c == space || c == tab || c == lineFeed || c == carriageReturn || c == end
    }

    /// `,` `[` `]` `{` `}`.
    static func isFlowIndicator(_ c: UInt32) -> Bool {
        c == comma || c == openBracket || c == closeBracket || c == openBrace || c == closeBrace
    }

    /// An ASCII decimal digit.
    static func isDigit(_ c: UInt32) -> Bool { (0x30...0x39).contains(c) }

    /// An ASCII hexadecimal digit's value, or `nil`.
    static func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// An ASCII letter, digit or `-` (§6.8.2 ns-word-char).
    static func isWordCharacter(_ c: UInt32) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == minus
    }

    /// A character of an anchor or alias name (§6.9.2 ns-anchor-char: printable, not white space,
    /// not a byte order mark, not a flow indicator).
    static func isAnchorCharacter(_ c: UInt32) -> Bool {
        switch c {
        case comma, openBracket, closeBracket, openBrace, closeBrace, byteOrderMark: false
        case 0x21...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// A character of a tag's URI (§6.8.1 ns-uri-char, `%` escapes aside).
    static func isURICharacter(_ c: UInt32) -> Bool {
        if (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) { return true }
        // - ; / ? : @ & = + $ , _ . ! ~ * ' ( ) [ ] #
        switch c {
        case 0x2D, 0x3B, 0x2F, 0x3F, 0x3A, 0x40, 0x26, 0x3D, 0x2B, 0x24, 0x2C, 0x5F, 0x2E, 0x21, 0x7E, 0x2A, 0x27,
            0x28, 0x29, 0x5B, 0x5D, 0x23:
            return true
        default: return false
        }
    }

    /// How a character is named in messages: `'x'`, or `U+0009 (tab)` for the invisible ones.
    static func describe(_ c: UInt32) -> String {
        switch c {
        case end: "the end of the text"
        case tab: "a tab"
        case lineFeed, carriageReturn: "a line break"
        case space: "a space"
        default:
            if let scalar = Unicode.Scalar(c), c > 0x20, c != 0x7F {
                "'\(Character(scalar))'"
            } else {
                "U+\(String(c, radix: 16, uppercase: true))"
            }
        }
    }
}

/// A scalar's text being built, as UTF-8: quicker to append to than a `String`'s scalars.
struct YAMLTextBuffer {
    private(set) var bytes: [UInt8] = []

    var isEmpty: Bool { bytes.isEmpty }

    /// Appends one Unicode scalar (a valid one: the text's, or an escape's checked value).
    mutating func append(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | scalar >> 6))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | scalar >> 12))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | scalar >> 18 & 0x07))
            bytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    mutating func append(_ scalars: ArraySlice<UInt32>) {
        for scalar in scalars { append(scalar) }
    }

    mutating func append(_ other: YAMLTextBuffer) { bytes += other.bytes }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
