#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A typed `$search` expression (OData 4.01 Part 2 §5.1.7, ABNF `searchExpr`): terms, phrases
/// and the operators `AND`, `OR` and `NOT`.
///
/// ```swift
/// let search = (.term("blue") || .term("green")) && !.phrase("out of stock")
/// ODataQuery("Products").search(search)
/// // $search=(blue OR green) AND NOT "out of stock"
/// ```
///
/// The ABNF nests every operator to the right (`a AND b OR c` parses as `a AND (b OR c)`, and
/// `NOT` takes everything after it), while the prose gives `NOT` precedence over `AND` and `AND`
/// over `OR`. The text written reads the same both ways: an operand joined by a different
/// operator is parenthesised, and so is a `NOT` that something follows. `AND` is always
/// written, never left implicit.
///
/// A term or phrase the grammar cannot carry fails when the query is written with
/// ``ODataQueryError/invalidValue(_:)``: an empty one, a term with a space, a double quote,
/// a parenthesis or `;` in it, a term that starts with `'`, a term spelled `AND`, `OR` or `NOT`
/// (quote it as a phrase), and a phrase with a double quote in it.
public struct ODataSearch: Sendable, Hashable {
    enum Kind: Hashable, Sendable {
        case term, phrase, raw, not
        case binary(String)
    }

    let kind: Kind
    /// The text, without the parentheses an enclosing operator may put around it.
    let written: String
    /// Whether the text ends with a `NOT` expression, which would take in what follows.
    let endsWithNot: Bool
    /// Why this search cannot be written, found while it was built.
    let error: ODataQueryError?

    private init(_ kind: Kind, _ text: String, endsWithNot: Bool = false, error: ODataQueryError? = nil) {
        self.kind = kind
        self.written = text
        self.endsWithNot = endsWithNot
        self.error = error
    }

    /// One search word: `blue`.
    public static func term(_ word: String) -> ODataSearch {
        ODataSearch(.term, word, error: ODataSearchSyntax.termError(word))
    }

    /// A phrase, matched as a whole: `"out of stock"`.
    public static func phrase(_ text: String) -> ODataSearch {
        let error: ODataQueryError? =
            text.isEmpty
            ? .invalidValue("a search phrase cannot be empty")
            : text.contains("\"")
                ? .invalidValue("a search phrase cannot contain a double quote (ABNF searchPhrase): \(text)") : nil
        return ODataSearch(.phrase, "\"" + text + "\"", error: error)
    }

    /// Search text as written (`blue OR "light green"`), checked when the query is written: its
    /// double quotes and parentheses must pair up, phrases and parentheses must not be empty,
    /// and `AND`/`OR` must stand between two operands and `NOT` before one.
    public static func raw(_ text: String) -> ODataSearch {
        ODataSearch(.raw, text, error: ODataSearchSyntax.rawError(text))
    }

    /// `self AND other`.
    public func and(_ other: ODataSearch) -> ODataSearch { Self.binary("AND", self, other) }
    /// `self OR other`.
    public func or(_ other: ODataSearch) -> ODataSearch { Self.binary("OR", self, other) }
    /// `NOT self`.
    public var not: ODataSearch {
        let wrap = kind == .raw || { if case .binary = kind { true } else { false } }()
        return ODataSearch(.not, "NOT " + (wrap ? "(\(written))" : written), endsWithNot: true, error: error)
    }

    /// `lhs AND rhs`.
    public static func && (lhs: ODataSearch, rhs: ODataSearch) -> ODataSearch { lhs.and(rhs) }
    /// `lhs OR rhs`.
    public static func || (lhs: ODataSearch, rhs: ODataSearch) -> ODataSearch { lhs.or(rhs) }
    /// `NOT operand`.
    public static prefix func ! (operand: ODataSearch) -> ODataSearch { operand.not }

    private static func binary(_ op: String, _ left: ODataSearch, _ right: ODataSearch) -> ODataSearch {
        func differs(_ operand: ODataSearch) -> Bool {
            if case .binary(let other) = operand.kind { return other != op }
            return operand.kind == .raw
        }
        // Something follows the left operand: a trailing NOT would take it in.
        let wrapLeft = differs(left) || left.endsWithNot
        let wrapRight = differs(right)
        let text =
            (wrapLeft ? "(\(left.written))" : left.written) + " \(op) "
            + (wrapRight ? "(\(right.written))" : right.written)
        return ODataSearch(
            .binary(op), text, endsWithNot: !wrapRight && right.endsWithNot, error: left.error ?? right.error)
    }

    /// The `$search` value, before percent-encoding.
    public func text() throws(ODataQueryError) -> String {
        if let error { throw error }
        return written
    }
}

/// The checks of search words and raw search text against ABNF `searchExpr`.
enum ODataSearchSyntax {
    private static let operators: Set<String> = ["AND", "OR", "NOT"]

    /// Characters that end a search word (ABNF `searchWord`: no whitespace, parentheses, double
    /// quotes or semicolons).
    private static func endsWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "(" || scalar == ")" || scalar == "\"" || scalar == ";"
    }

    static func termError(_ word: String) -> ODataQueryError? {
        guard !word.isEmpty else { return .invalidValue("a search term cannot be empty") }
        if word.unicodeScalars.contains(where: endsWord)
            || word.unicodeScalars.contains(where: { $0.properties.isWhitespace })
        {
            return .invalidValue("a search term is one word without quotes, parentheses or ';': \(word)")
        }
        if word.hasPrefix("'") { return .invalidValue("a search word cannot start with ' (ABNF searchWord): \(word)") }
        if operators.contains(word) { return .invalidValue("\(word) is a search operator; search for it as a phrase") }
        return nil
    }

    private enum Token {
        case open, close, operand, and, or, not
    }

    /// Why `text` is not a search expression, or `nil` when it is one. One pass, no recursion.
    static func rawError(_ text: String) -> ODataQueryError? {
        var tokens: [Token] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t":
                index += 1
            case "(":
                tokens.append(.open)
                index += 1
            case ")":
                tokens.append(.close)
                index += 1
            case "\"":
                guard let end = scalars[(index + 1)...].firstIndex(of: "\"") else {
                    return .invalidValue("the search text has an unbalanced double quote: \(text)")
                }
                guard end > index + 1 else { return .invalidValue("the search text has an empty phrase: \(text)") }
                tokens.append(.operand)
                index = end + 1
            case ";":
                return .invalidValue("a search word cannot contain ';' (ABNF searchWord): \(text)")
            default:
                var end = index
                while end < scalars.count && !endsWord(scalars[end]) { end += 1 }
                let word = String(String.UnicodeScalarView(scalars[index..<end]))
                if word.hasPrefix("'") {
                    return .invalidValue("a search word cannot start with ' (ABNF searchWord): \(text)")
                }
                switch word {
                case "AND": tokens.append(.and)
                case "OR": tokens.append(.or)
                case "NOT": tokens.append(.not)
                default: tokens.append(.operand)
                }
                index = end
            }
        }
        // Whether the next token must start an operand (after an operator, `(` or `NOT`).
        var expectOperand = true
        var depth = 0
        for token in tokens {
            switch token {
            case .open:
                // After an operand, an implicit AND (ABNF `searchAndExpr`).
                depth += 1
                expectOperand = true
            case .close:
                guard !expectOperand, depth > 0 else {
                    return .invalidValue("the search text has an empty or unbalanced parenthesis: \(text)")
                }
                depth -= 1
            case .operand: expectOperand = false
            case .not: expectOperand = true
            case .and, .or:
                guard !expectOperand else {
                    return .invalidValue("AND and OR stand between two search expressions: \(text)")
                }
                expectOperand = true
            }
        }
        if tokens.isEmpty { return .invalidValue("the search text is empty") }
        guard depth == 0 else { return .invalidValue("the search text has an unbalanced parenthesis: \(text)") }
        guard !expectOperand else { return .invalidValue("the search text ends with an operator: \(text)") }
        return nil
    }
}
