/// Directives, anchors, aliases and tags.
extension YAMLScanner {
    /// `%YAML 1.2`, `%TAG !e! tag:example.com,2000:` or a reserved directive (§6.8).
    mutating func scanDirective() throws(YAMLError) -> YAMLToken {
        let start = mark
        forward()  // %
        var length = 0
        while YAMLCharacter.isWordCharacter(peek(length)) || peek(length) == 0x5F || peek(length) == YAMLCharacter.colon
            || peek(length) == YAMLCharacter.dot
        {
            length += 1
        }
        guard length > 0 else {
            throw YAMLError("expected a directive name after '%', found \(YAMLCharacter.describe(peek()))", at: mark)
        }
        let name = prefix(length)
        forward(length)
        guard isSeparatorOrBreak(peek()) else {
            throw YAMLError(
                "expected a space after the directive name, found \(YAMLCharacter.describe(peek()))", at: mark)
        }
        let kind: YAMLToken.Kind
        switch name {
        case "YAML":
            skipSpaces()
            let major = try scanVersionNumber()
            guard peek() == YAMLCharacter.dot else {
                throw YAMLError("expected '.' in the YAML version, found \(YAMLCharacter.describe(peek()))", at: mark)
            }
            forward()
            let minor = try scanVersionNumber()
            guard isSeparatorOrBreak(peek()) else {
                throw YAMLError(
                    "expected a digit or the end of the YAML version, found \(YAMLCharacter.describe(peek()))", at: mark
                )
            }
            kind = .versionDirective(major: major, minor: minor)
        case "TAG":
            skipSpaces()
            let handle = try scanTagHandle()
            guard peek() == YAMLCharacter.space || peek() == YAMLCharacter.tab else {
                throw YAMLError(
                    "expected a space after the tag handle, found \(YAMLCharacter.describe(peek()))", at: mark)
            }
            skipSpaces()
            let prefix = try scanTagURI()
            guard isSeparatorOrBreak(peek()) else {
                throw YAMLError(
                    "expected a space or a line break after the tag prefix, found \(YAMLCharacter.describe(peek()))",
                    at: mark)
            }
            kind = .tagDirective(handle: handle, prefix: prefix)
        default:
            while !YAMLCharacter.isBreakOrEnd(peek()) && peek() != YAMLCharacter.hash { forward() }
            kind = .reservedDirective(name: name)
        }
        let end = mark
        skipSpaces()
        if peek() == YAMLCharacter.hash {
            while !YAMLCharacter.isBreakOrEnd(peek()) { forward() }
        }
        guard YAMLCharacter.isBreakOrEnd(peek()) else {
            throw YAMLError(
                "expected a comment or a line break after the directive, found \(YAMLCharacter.describe(peek()))",
                at: mark)
        }
        scanLineBreak()
        return YAMLToken(kind: kind, start: start, end: end)
    }

    private func isSeparatorOrBreak(_ c: UInt32) -> Bool {
        c == YAMLCharacter.space || c == YAMLCharacter.tab || YAMLCharacter.isBreakOrEnd(c)
    }

    private mutating func skipSpaces() {
        while peek() == YAMLCharacter.space || peek() == YAMLCharacter.tab { forward() }
    }

    /// A number of the `%YAML` directive (at most 9 digits).
    private mutating func scanVersionNumber() throws(YAMLError) -> Int {
        guard YAMLCharacter.isDigit(peek()) else {
            throw YAMLError("expected a digit in the YAML version, found \(YAMLCharacter.describe(peek()))", at: mark)
        }
        var value = 0
        var digits = 0
        while YAMLCharacter.isDigit(peek()) {
            digits += 1
            guard digits <= 9 else { throw YAMLError("the YAML version number is too long", at: mark) }
            value = value * 10 + Int(peek() - 0x30)
            forward()
        }
        return value
    }

    /// `&name` or `*name` (§6.9.2, §7.1).
    mutating func scanAnchor(alias: Bool) throws(YAMLError) -> YAMLToken {
        let start = mark
        forward()  // & or *
        var length = 0
        while YAMLCharacter.isAnchorCharacter(peek(length)) { length += 1 }
        let what = alias ? "an alias" : "an anchor"
        guard length > 0 else {
            throw YAMLError("expected the name of \(what), found \(YAMLCharacter.describe(peek()))", at: mark)
        }
        let name = prefix(length)
        forward(length)
        let next = peek()
        guard YAMLCharacter.isBlankOrEnd(next) || YAMLCharacter.isFlowIndicator(next) else {
            throw YAMLError(
                "expected a space after the name of \(what), found \(YAMLCharacter.describe(next))", at: mark)
        }
        return YAMLToken(kind: alias ? .alias(name) : .anchor(name), start: start, end: mark)
    }

    /// A tag (§6.9.1): `!<verbatim>`, `!` (non-specific), `!!suffix`, `!handle!suffix` or `!suffix`,
    /// read as libyaml's ports read them (`!!` alone is the tag "!!"; a tag with a second `!`
    /// must have a `!word!` handle).
    mutating func scanTag() throws(YAMLError) -> YAMLToken {
        typealias C = YAMLCharacter
        let start = mark
        let handle: String?
        let suffix: String
        var shortHandle = "!"
        var next = peek(1)
        if next == C.exclamation {
            shortHandle = "!!"
            forward()
            next = peek(1)
        }
        if next == C.lessThan {
            forward(2)
            handle = nil
            suffix = try scanTagURI()
            guard peek() == C.greaterThan else {
                throw YAMLError("expected '>' to end the verbatim tag, found \(C.describe(peek()))", at: mark)
            }
            forward()
        } else if C.isBlankOrEnd(next) {
            forward()
            handle = nil
            suffix = shortHandle
        } else {
            var length = 1
            while !C.isBlankOrEnd(peek(length)) && peek(length) != C.exclamation { length += 1 }
            if peek(length) == C.exclamation {
                handle = try scanTagHandle()
            } else {
                handle = shortHandle
                forward()
            }
            suffix = try scanTagURI()
        }
        let after = peek()
        guard C.isBlankOrEnd(after) else {
            throw YAMLError("expected a space after the tag, found \(C.describe(after))", at: mark)
        }
        return YAMLToken(kind: .tag(handle: handle, suffix: suffix), start: start, end: mark)
    }

    /// A tag handle: `!`, `!!` or `!word!` (in a tag or a `%TAG` directive).
    private mutating func scanTagHandle() throws(YAMLError) -> String {
        guard peek() == YAMLCharacter.exclamation else {
            throw YAMLError("expected '!' to start the tag handle, found \(YAMLCharacter.describe(peek()))", at: mark)
        }
        var length = 1
        if peek(1) != YAMLCharacter.space {
            while YAMLCharacter.isWordCharacter(peek(length)) { length += 1 }
            guard peek(length) == YAMLCharacter.exclamation else {
                forward(length)
                throw YAMLError(
                    "expected '!' to end the tag handle, found \(YAMLCharacter.describe(peek())) (a handle is '!', "
                        + "'!!' or '!word!', the word made of letters, digits and '-')", at: mark)
            }
            length += 1
        }
        let handle = prefix(length)
        forward(length)
        return handle
    }

    /// A tag's URI characters with `%XX` escapes decoded. §6.9.1 keeps `!` and the flow
    /// indicators out of a shorthand tag's suffix; libyaml and its ports take them (and so need a
    /// space after a tag in a flow collection, `[!!str a]`), and so do we.
    private mutating func scanTagURI() throws(YAMLError) -> String {
        typealias C = YAMLCharacter
        var result = String.UnicodeScalarView()
        var escaped: [UInt8] = []
        while true {
            let c = peek()
            if c == C.percent {
                let escapeMark = mark
                guard let high = C.hexValue(peek(1)), let low = C.hexValue(peek(2)) else {
                    throw YAMLError("expected two hexadecimal digits after '%' in the tag", at: escapeMark)
                }
                escaped.append(UInt8(high << 4 | low))
                forward(3)
                if peek() != C.percent {
                    let decoded = String(decoding: escaped, as: UTF8.self)
                    guard Array(decoded.utf8) == escaped else {
                        throw YAMLError("the '%' escapes of the tag are not UTF-8", at: escapeMark)
                    }
                    result.append(contentsOf: decoded.unicodeScalars)
                    escaped = []
                }
            } else if C.isURICharacter(c), let scalar = Unicode.Scalar(c) {
                result.append(scalar)
                forward()
            } else {
                break
            }
        }
        guard !result.isEmpty else {
            throw YAMLError("expected the tag's name (URI characters), found \(C.describe(peek()))", at: mark)
        }
        return String(result)
    }
}
