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
    static func parse(_ text: String, normalizeLiteral: (Substring) -> String = { String($0) }) throws(TemplateError)
        -> Template
    {
        var parts: [Part] = []
        var rest = text[...]
        while let open = rest.range(of: "%%") {
            if open.lowerBound > rest.startIndex {
                parts.append(.literal(normalizeLiteral(rest[rest.startIndex..<open.lowerBound])))
            }
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: "%%") else {
                throw TemplateError(text: text, reason: "unterminated wildcard '%%' (write %%N%%)")
            }
            let digits = afterOpen[afterOpen.startIndex..<close.lowerBound]
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let index = Int(digits), index <= maximumIndex
            else {
                throw TemplateError(
                    text: text,
                    reason: "wildcard '%%\(digits)%%' must be a decimal argument index from 0 to \(maximumIndex)")
            }
            parts.append(.argument(index))
            rest = afterOpen[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(normalizeLiteral(rest))) }
        return Template(parts: parts)
    }
}

/// Why a template could not be parsed.
struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    let text: String
    let reason: String
    var description: String { "malformed template \"\(text)\": \(reason)" }
}
