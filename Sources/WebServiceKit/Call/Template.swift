/// A piece of text with `%%N%%` wildcards, parsed once when a descriptor is made.
struct Template: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        /// Text taken as written (already normalised for its place by the parser's caller).
        case literal(String)
        /// The `N` of a `%%N%%` wildcard.
        case argument(Int)
    }

    var parts: [Part]

    /// The argument indices the template refers to, in order of appearance.
    var argumentIndices: [Int] {
        parts.compactMap { if case .argument(let index) = $0 { index } else { nil } }
    }

    /// Whether the template has any wildcard.
    var hasArguments: Bool {
        parts.contains { if case .argument = $0 { true } else { false } }
    }

    /// The argument index when the whole template is a single wildcard (`%%3%%`).
    var soleArgument: Int? {
        if parts.count == 1, case .argument(let index) = parts[0] { index } else { nil }
    }

    var isEmpty: Bool { parts.isEmpty }

    /// The largest wildcard index a template may use.
    static let maximumIndex = 999

    /// Parses `text`, turning every literal run through `normalizeLiteral`.
    ///
    /// Grammar: `%%` opens a wildcard, which is one or more decimal digits closed by `%%`.
    /// Anything else after `%%` is an error, so a malformed descriptor is found when it is made.
    ///
    /// One pass over the UTF-8 bytes: the time is linear in the length of `text` whatever the
    /// number of wildcards (searching the rest of the text for each `%%` was quadratic).
    static func parse(_ text: String, normalizeLiteral: (Substring) -> String = { String($0) }) throws(TemplateError)
        -> Template
    {
        let percent = UInt8(ascii: "%")
        let utf8 = text.utf8
        var parts: [Part] = []
        var literalStart = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let next = utf8.index(after: index)
            guard utf8[index] == percent, next != utf8.endIndex, utf8[next] == percent else {
                index = next
                continue
            }
            if literalStart < index { parts.append(.literal(normalizeLiteral(text[literalStart..<index]))) }
            // The wildcard's digits run to the next "%%"; "%" is ASCII, so these are character boundaries.
            let digitsStart = utf8.index(after: next)
            var cursor = digitsStart
            var value = 0
            var isNumber = true
            var close: String.Index?
            while cursor != utf8.endIndex {
                let byte = utf8[cursor]
                let after = utf8.index(after: cursor)
                if byte == percent, after != utf8.endIndex, utf8[after] == percent {
                    close = cursor
                    break
                }
                if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), isNumber {
                    // Saturates above the largest index instead of overflowing.
                    value = min(value * 10 + Int(byte - UInt8(ascii: "0")), maximumIndex + 1)
                } else {
                    isNumber = false
                }
                cursor = after
            }
            guard let close else {
                throw TemplateError(text: text, reason: "unterminated wildcard '%%' (write %%N%%)")
            }
            guard isNumber, digitsStart < close, value <= maximumIndex else {
                throw TemplateError(
                    text: text,
                    reason:
                        "wildcard '%%\(TemplateError.excerpt(text[digitsStart..<close]))%%' must be a decimal argument index from 0 to \(maximumIndex)"
                )
            }
            parts.append(.argument(value))
            index = utf8.index(close, offsetBy: 2)
            literalStart = index
        }
        if literalStart < utf8.endIndex { parts.append(.literal(normalizeLiteral(text[literalStart...]))) }
        return Template(parts: parts)
    }
}

/// Why a template could not be parsed.
///
/// The description quotes at most the first ``excerptLength`` characters of the template, so that
/// a huge template does not make a huge message.
struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    let text: String
    let reason: String
    var description: String { "malformed template \"\(Self.excerpt(text[...]))\": \(reason)" }

    static let excerptLength = 80

    /// `text`, cut after ``excerptLength`` characters.
    static func excerpt(_ text: Substring) -> String {
        let head = text.prefix(excerptLength)
        return head.endIndex == text.endIndex ? String(head) : head + "… (\(text.utf8.count) bytes)"
    }
}
