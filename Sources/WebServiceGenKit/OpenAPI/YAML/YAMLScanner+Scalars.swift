/// The five scalar styles (§7.3, §8.1).
extension YAMLScanner {
    /// Appends `count` characters from `start` of the text to `result`.
    private func appendText(from start: Int, count: Int, to result: inout YAMLTextBuffer) {
        let end = min(text.count, start + count)
        guard start >= 0, start < end else { return }
        result.append(text[start..<end])
    }

    // MARK: Block scalars

    /// A literal (`|`) or folded (`>`) block scalar, with its chomping (`-` strip, `+` keep, clip
    /// by default) and indentation (1–9) indicators (§8.1).
    mutating func scanBlockScalar(folded: Bool) throws(YAMLError) -> YAMLToken {
        typealias C = YAMLCharacter
        let start = mark
        forward()  // | or >
        // The header: the indicators in either order, then a comment or nothing.
        var chomping: Bool?  // true keep, false strip, nil clip
        var increment: Int?
        for _ in 0..<2 {
            let c = peek()
            if (c == C.plus || c == C.minus) && chomping == nil {
                chomping = c == C.plus
                forward()
            } else if C.isDigit(c) && increment == nil {
                guard c != 0x30 else {
                    throw YAMLError("expected an indentation indicator from 1 to 9, found '0'", at: mark)
                }
                increment = Int(c - 0x30)
                forward()
            }
        }
        guard C.isBlankOrEnd(peek()) else {
            throw YAMLError(
                "expected a chomping ('-', '+') or indentation (1-9) indicator, a comment or a line break after "
                    + "'\(folded ? ">" : "|")', found \(C.describe(peek()))", at: mark)
        }
        while peek() == C.space || peek() == C.tab { forward() }
        if peek() == C.hash {
            while !C.isBreakOrEnd(peek()) { forward() }
        }
        guard C.isBreakOrEnd(peek()) else {
            throw YAMLError(
                "expected a comment or a line break after the block scalar's header, found \(C.describe(peek()))",
                at: mark)
        }
        scanLineBreak()

        var minIndent = currentIndent + 1
        var breaks = 0
        var end = mark
        let contentIndent: Int
        if let increment {
            if minIndent < 1 { minIndent = 1 }
            contentIndent = minIndent + increment - 1
            (breaks, end) = scanBlockScalarBreaks(contentIndent)
        } else {
            // Auto-detected: the indentation of the first line with content.
            var maxIndent = 0
            var firstBreakIndent = -1
            while peek() == C.space || C.isBreak(peek()) {
                if peek() == C.space {
                    forward()
                    maxIndent = max(maxIndent, column)
                } else {
                    if firstBreakIndent < 0 { firstBreakIndent = column }
                    scanLineBreak()
                    breaks += 1
                    end = mark
                }
            }
            if firstBreakIndent > 0 && maxIndent > firstBreakIndent {
                throw YAMLError(
                    "a leading empty line of the block scalar has more spaces than its first line with text", at: mark)
            }
            contentIndent = max(minIndent, maxIndent)
        }

        var result = YAMLTextBuffer()
        var lineBreak = false
        // Whether the line before the breaks (if any) had content starting with a non-space.
        while column == contentIndent && peek() != C.end {
            for _ in 0..<breaks { result.append(YAMLCharacter.lineFeed) }
            let leadingNonSpace = peek() != C.space && peek() != C.tab
            var length = 0
            while !C.isBreakOrEnd(peek(length)) { length += 1 }
            appendText(from: index, count: length, to: &result)
            forward(length)
            lineBreak = scanLineBreak()
            (breaks, end) = scanBlockScalarBreaks(contentIndent)
            if minIndent == 0 && atDocumentMarker() { break }
            guard column == contentIndent && peek() != C.end else { break }
            if folded && lineBreak && leadingNonSpace && peek() != C.space && peek() != C.tab {
                if breaks == 0 { result.append(YAMLCharacter.space) }
            } else if lineBreak {
                result.append(YAMLCharacter.lineFeed)
            }
        }
        // Chomping: clip keeps the last line break, keep keeps the trailing empty lines too.
        if chomping != false && lineBreak { result.append(YAMLCharacter.lineFeed) }
        if chomping == true {
            for _ in 0..<breaks { result.append(YAMLCharacter.lineFeed) }
        }
        return YAMLToken(kind: .scalar(result.string, style: folded ? .folded : .literal), start: start, end: end)
    }

    /// Skips the indentation up to `indent` and the empty lines; returns how many line breaks.
    private mutating func scanBlockScalarBreaks(_ indent: Int) -> (Int, YAMLMark) {
        var breaks = 0
        var end = mark
        while column < indent && peek() == YAMLCharacter.space { forward() }
        while YAMLCharacter.isBreak(peek()) {
            scanLineBreak()
            breaks += 1
            end = mark
            while column < indent && peek() == YAMLCharacter.space { forward() }
        }
        return (breaks, end)
    }

    // MARK: Quoted scalars

    /// A single- or double-quoted scalar (§7.3.1, §7.3.2), with line folding and, in double
    /// quotes, every escape of §5.7.
    mutating func scanFlowScalar(double: Bool) throws(YAMLError) -> YAMLToken {
        let start = mark
        let quote = peek()
        forward()
        var result = YAMLTextBuffer()
        try scanFlowScalarNonSpaces(double: double, start: start, into: &result)
        while peek() != quote {
            try scanFlowScalarSpaces(start: start, into: &result)
            try scanFlowScalarNonSpaces(double: double, start: start, into: &result)
        }
        forward()
        return YAMLToken(
            kind: .scalar(result.string, style: double ? .doubleQuoted : .singleQuoted), start: start, end: mark)
    }

    private mutating func scanFlowScalarNonSpaces(
        double: Bool, start: YAMLMark, into result: inout YAMLTextBuffer
    ) throws(YAMLError) {
        typealias C = YAMLCharacter
        while true {
            var length = 0
            while true {
                let c = peek(length)
                if c == C.space || c == C.tab || C.isBreakOrEnd(c) || c == C.singleQuote || c == C.doubleQuote
                    || c == C.backslash
                {
                    break
                }
                length += 1
            }
            appendText(from: index, count: length, to: &result)
            forward(length)
            let c = peek()
            if !double && c == C.singleQuote && peek(1) == C.singleQuote {
                result.append(YAMLCharacter.singleQuote)
                forward(2)
            } else if (double && c == C.singleQuote) || (!double && (c == C.doubleQuote || c == C.backslash)) {
                result.append(c)
                forward()
            } else if double && c == C.backslash {
                try scanEscape(start: start, into: &result)
            } else {
                return
            }
        }
    }

    /// One escape sequence of a double-quoted scalar, the backslash included (§5.7).
    private mutating func scanEscape(start: YAMLMark, into result: inout YAMLTextBuffer) throws(YAMLError) {
        typealias C = YAMLCharacter
        let escapeMark = mark
        forward()  // \
        let c = peek()
        let simple: Unicode.Scalar? =
            switch c {
            case 0x30: "\u{0}"  // 0
            case 0x61: "\u{7}"  // a
            case 0x62: "\u{8}"  // b
            case 0x74, C.tab: "\t"  // t
            case 0x6E: "\n"  // n
            case 0x76: "\u{B}"  // v
            case 0x66: "\u{C}"  // f
            case 0x72: "\r"  // r
            case 0x65: "\u{1B}"  // e
            case C.space: " "
            case C.doubleQuote: "\""
            case 0x2F: "/"
            case C.backslash: "\\"
            case 0x4E: "\u{85}"  // N
            case 0x5F: "\u{A0}"  // _
            case 0x4C: "\u{2028}"  // L
            case 0x50: "\u{2029}"  // P
            default: nil
            }
        if let simple {
            result.append(simple.value)
            forward()
            return
        }
        let digits: Int
        switch c {
        case 0x78: digits = 2  // x
        case 0x75: digits = 4  // u
        case 0x55: digits = 8  // U
        default:
            if C.isBreak(c) {
                // An escaped line break: no folding space; the next line's leading white space goes.
                scanLineBreak()
                _ = try scanFlowScalarBreaks(start: start, into: &result)
                return
            }
            throw YAMLError(
                "unknown escape '\\\(c == C.end ? "" : C.describe(c).trimmingQuotes)' in a double-quoted scalar "
                    + "(YAML's are \\0 \\a \\b \\t \\n \\v \\f \\r \\e \\\" \\/ \\\\ \\N \\_ \\L \\P \\x \\u \\U "
                    + "and \\ before a space, a tab or a line break)", at: escapeMark)
        }
        forward()
        var code: UInt32 = 0
        for offset in 0..<digits {
            guard let value = C.hexValue(peek(offset)) else {
                throw YAMLError(
                    "expected \(digits) hexadecimal digits in the escape '\\\(Character(Unicode.Scalar(UInt8(c))))', "
                        + "found \(C.describe(peek(offset)))", at: escapeMark)
            }
            code = code << 4 | value
        }
        guard Unicode.Scalar(code) != nil else {
            throw YAMLError(
                "the escape '\\\(Character(Unicode.Scalar(UInt8(c))))\(prefix(digits))' is not a Unicode scalar "
                    + "(a surrogate or above U+10FFFF)", at: escapeMark)
        }
        result.append(code)
        forward(digits)
    }

    private mutating func scanFlowScalarSpaces(
        start: YAMLMark, into result: inout YAMLTextBuffer
    ) throws(YAMLError) {
        typealias C = YAMLCharacter
        let whitespaceStart = index
        var length = 0
        while peek(length) == C.space || peek(length) == C.tab { length += 1 }
        forward(length)
        let c = peek()
        if c == C.end {
            throw YAMLError(
                "the quoted scalar that starts at line \(start.line + 1), column \(start.column + 1) has no closing "
                    + "quote (found the end of the text)", at: mark)
        } else if C.isBreak(c) {
            // Line folding: one break is a space, more keep all but the first.
            scanLineBreak()
            if try scanFlowScalarBreaks(start: start, into: &result) == 0 { result.append(YAMLCharacter.space) }
        } else {
            appendText(from: whitespaceStart, count: length, to: &result)
        }
    }

    /// The empty lines and the leading white space of the next line in a quoted scalar, each
    /// empty line a line feed; returns how many. A document marker there is an error.
    private mutating func scanFlowScalarBreaks(
        start: YAMLMark, into result: inout YAMLTextBuffer
    ) throws(YAMLError) -> Int {
        typealias C = YAMLCharacter
        var breaks = 0
        while true {
            if atDocumentMarker() {
                throw YAMLError(
                    "a document marker inside the quoted scalar that starts at line \(start.line + 1), column "
                        + "\(start.column + 1) (is its closing quote missing?)", at: mark)
            }
            while peek() == C.space || peek() == C.tab { forward() }
            guard C.isBreak(peek()) else { return breaks }
            scanLineBreak()
            result.append(YAMLCharacter.lineFeed)
            breaks += 1
        }
    }

    // MARK: Plain scalars

    /// A plain scalar, over several lines when the next lines are indented more than the
    /// enclosing block collection (§7.3.3). It ends before `: ` and ` #`, at a document marker,
    /// at a less indented line, and in flow context at `,` `[` `]` `{` `}`.
    mutating func scanPlainScalar() throws(YAMLError) -> YAMLToken {
        typealias C = YAMLCharacter
        let start = mark
        var end = start
        let indent = currentIndent + 1
        var result = YAMLTextBuffer()
        var spaces: YAMLTextBuffer? = YAMLTextBuffer()
        while true {
            if peek() == C.hash { break }
            var length = 0
            while true {
                let c = peek(length)
                if c == C.colon && !C.isBlankOrEnd(peek(length + 1)) {
                    // ':' followed by a character is part of the scalar (as in ruamel.yaml).
                } else if C.isBlankOrEnd(c) || c == C.colon || (inFlowContext && C.isFlowIndicator(c)) {
                    break
                }
                length += 1
            }
            if length == 0 { break }
            setAllowSimpleKey(false)
            if let spaces { result.append(spaces) }
            appendText(from: index, count: length, to: &result)
            forward(length)
            end = mark
            spaces = scanPlainSpaces(indent: indent)
            guard let spaces, !spaces.isEmpty, peek() != C.hash, inFlowContext || column >= indent else { break }
        }
        return YAMLToken(kind: .scalar(result.string, style: .plain), start: start, end: end)
    }

    /// The white space after a piece of a plain scalar: folded line breaks (`nil` at a document
    /// marker), or the spaces and tabs within the line.
    private mutating func scanPlainSpaces(indent: Int) -> YAMLTextBuffer? {
        typealias C = YAMLCharacter
        let whitespaceStart = index
        var length = 0
        while peek(length) == C.space || peek(length) == C.tab { length += 1 }
        forward(length)
        var chunk = YAMLTextBuffer()
        guard C.isBreak(peek()) else {
            appendText(from: whitespaceStart, count: length, to: &chunk)
            return chunk
        }
        scanLineBreak()
        setAllowSimpleKey(true)
        if atDocumentMarker() { return nil }
        var breaks = 0
        while true {
            let c = peek()
            if c == C.space || (c == C.tab && (inFlowContext || column >= indent)) {
                forward()
            } else if C.isBreak(c) {
                scanLineBreak()
                breaks += 1
                if atDocumentMarker() { return nil }
            } else {
                break
            }
        }
        if breaks == 0 {
            chunk.append(YAMLCharacter.space)
        } else {
            for _ in 0..<breaks { chunk.append(YAMLCharacter.lineFeed) }
        }
        return chunk
    }
}

extension String {
    /// The text without the quotes ``YAMLCharacter/describe(_:)`` puts around a character.
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
