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

    /// One node of the expression, shared by every search built on it. Its text is written only
    /// when the query is (``text()``), by a loop: building `a && b && …` with N operands costs
    /// time linear in N, and a chain of any length is written and released without recursion.
    ///
    /// `@unchecked Sendable`: ``content`` is only written by `deinit`, to its own node or to the
    /// node of an operand it holds the only reference to, which no other thread can be reading.
    final class Node: @unchecked Sendable {
        enum Content {
            /// A term, a phrase (quotes included) or raw text, as written.
            case leaf(String)
            /// `NOT operand`, the operand in parentheses when `wrap`.
            case not(Node, wrap: Bool)
            /// `left OP right`, each operand in parentheses when its flag says so.
            case binary(String, Node, Node, wrapLeft: Bool, wrapRight: Bool)
        }

        let kind: Kind
        fileprivate(set) var content: Content
        /// Whether the text ends with a `NOT` expression, which would take in what follows.
        let endsWithNot: Bool
        /// Why this search cannot be written, found while it was built.
        let error: ODataQueryError?

        init(_ kind: Kind, _ content: Content, endsWithNot: Bool = false, error: ODataQueryError? = nil) {
            self.kind = kind
            self.content = content
            self.endsWithNot = endsWithNot
            self.error = error
        }

        // A deep tree is torn down by a loop, not by the runtime's recursive release.
        deinit {
            var operands = detachOperands()
            IterativeRelease.release(&operands) { $0.detachOperands() }
        }

        /// Leaves a leaf in place of this node and returns the operands it held.
        private func detachOperands() -> [Node] {
            let operands: [Node]
            switch content {
            case .leaf: return []
            case .not(let operand, _): operands = [operand]
            case .binary(_, let left, let right, _, _): operands = [left, right]
            }
            content = .leaf("")
            return operands
        }

        /// The text, without the parentheses an enclosing operator may put around it; written by
        /// a loop over an explicit stack.
        var written: String {
            enum Piece {
                case node(Node)
                case text(String)
            }
            var output = ""
            var stack: [Piece] = [.node(self)]
            while let piece = stack.popLast() {
                switch piece {
                case .text(let text): output += text
                case .node(let node):
                    switch node.content {
                    case .leaf(let text): output += text
                    case .not(let operand, let wrap):
                        output += wrap ? "NOT (" : "NOT "
                        if wrap { stack.append(.text(")")) }
                        stack.append(.node(operand))
                    case .binary(let op, let left, let right, let wrapLeft, let wrapRight):
                        if wrapRight { stack.append(.text(")")) }
                        stack.append(.node(right))
                        stack.append(.text((wrapLeft ? ") " : " ") + op + (wrapRight ? " (" : " ")))
                        stack.append(.node(left))
                        if wrapLeft { output += "(" }
                    }
                }
            }
            return output
        }
    }

    let node: Node

    var kind: Kind { node.kind }
    /// The text, without the parentheses an enclosing operator may put around it.
    var written: String { node.written }

    private init(_ kind: Kind, _ content: Node.Content, endsWithNot: Bool = false, error: ODataQueryError? = nil) {
        node = Node(kind, content, endsWithNot: endsWithNot, error: error)
    }

    /// One search word: `blue`.
    public static func term(_ word: String) -> ODataSearch {
        ODataSearch(.term, .leaf(word), error: ODataSearchSyntax.termError(word))
    }

    /// A phrase, matched as a whole: `"out of stock"`.
    public static func phrase(_ text: String) -> ODataSearch {
        let error: ODataQueryError? =
            text.isEmpty
            ? .invalidValue("a search phrase cannot be empty")
            : text.contains("\"")
                ? .invalidValue("a search phrase cannot contain a double quote (ABNF searchPhrase): \(text)") : nil
        return ODataSearch(.phrase, .leaf("\"" + text + "\""), error: error)
    }

    /// Search text as written (`blue OR "light green"`), checked when the query is written: its
    /// double quotes and parentheses must pair up, phrases and parentheses must not be empty,
    /// and `AND`/`OR` must stand between two operands and `NOT` before one.
    public static func raw(_ text: String) -> ODataSearch {
        ODataSearch(.raw, .leaf(text), error: ODataSearchSyntax.rawError(text))
    }

    /// `self AND other`.
    public func and(_ other: ODataSearch) -> ODataSearch { Self.binary("AND", self, other) }
    /// `self OR other`.
    public func or(_ other: ODataSearch) -> ODataSearch { Self.binary("OR", self, other) }
    /// `NOT self`.
    public var not: ODataSearch {
        let wrap = kind == .raw || { if case .binary = kind { true } else { false } }()
        return ODataSearch(.not, .not(node, wrap: wrap), endsWithNot: true, error: node.error)
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
        let wrapLeft = differs(left) || left.node.endsWithNot
        let wrapRight = differs(right)
        return ODataSearch(
            .binary(op), .binary(op, left.node, right.node, wrapLeft: wrapLeft, wrapRight: wrapRight),
            endsWithNot: !wrapRight && right.node.endsWithNot, error: left.node.error ?? right.node.error)
    }

    /// The `$search` value, before percent-encoding.
    public func text() throws(ODataQueryError) -> String {
        if let error = node.error { throw error }
        return written
    }

    /// Two searches are equal when they are of the same kind and write the same text (or fail
    /// with the same error).
    public static func == (lhs: ODataSearch, rhs: ODataSearch) -> Bool {
        lhs.node === rhs.node
            || (lhs.kind == rhs.kind && lhs.node.error == rhs.node.error && lhs.written == rhs.written)
    }

    /// Hashes the kind and the text, as ``==`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(written)
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
