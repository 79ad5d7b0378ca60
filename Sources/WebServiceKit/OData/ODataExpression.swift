/// A typed OData common expression: the value of `$filter`, `$orderby` items, `$compute`
/// items, and lambda predicates.
///
/// Build expressions from properties, literals, operators and functions:
///
/// ```swift
/// let name = ODataExpression.property("Name")
/// let cost = ODataExpression.property("TotalCost")
/// let filter = name == "Paul" || cost <= 32
/// // (Name eq 'Paul') or (TotalCost le 32)
/// ```
///
/// Rendering follows the operator precedence of OData 4.01 Part 2 §5.1.1.15: parentheses go
/// where the precedence needs them, and around every comparison joined by `and`/`or` so that the
/// text reads as it was built. ``raw(_:)`` is the escape hatch for what the builder does not
/// cover; raw text is always parenthesised when it is an operand.
public struct ODataExpression: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    indirect enum Node: Sendable {
        case property(String)
        case literal(ODataLiteral)
        case raw(String)
        case binary(BinaryOperator, Node, Node)
        case not(Node)
        case negate(Node)
        case function(String, [Node])
        case lambda(collection: String, kind: LambdaKind, variable: String, predicate: Node?)
        case list([Node])
        case cast(Node?, type: String, isTest: Bool)
        case invalid(ODataQueryError)
    }

    enum LambdaKind: String, Sendable {
        case any, all
    }

    enum BinaryOperator: String, Sendable {
        case eq, ne, gt, ge, lt, le, has, `in`
        case and, or
        case add, sub, mul, div, divby, mod

        /// Higher binds tighter (OData 4.01 Part 2 §5.1.1.15).
        var precedence: Int {
            switch self {
            case .has, .in: 7
            case .mul, .div, .divby, .mod: 5
            case .add, .sub: 4
            case .gt, .ge, .lt, .le: 3
            case .eq, .ne: 2
            case .and: 1
            case .or: 0
            }
        }

        var isLogical: Bool { self == .and || self == .or }
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    /// A property, or a path through complex and navigation properties: `"Address/City"`.
    public static func property(_ path: String) -> ODataExpression { ODataExpression(.property(path)) }

    /// A literal value.
    public static func literal(_ value: some ODataLiteralConvertible) -> ODataExpression {
        ODataExpression(.literal(value.odataLiteral))
    }

    /// A string literal: `'text'`.
    public init(stringLiteral value: String) { node = .literal(value.odataLiteral) }
    /// An integer literal.
    public init(integerLiteral value: Int) { node = .literal(value.odataLiteral) }
    /// A floating-point literal (`Edm.Double`; use ``literal(_:)`` with a `Decimal` for decimals).
    public init(floatLiteral value: Double) { node = .literal(value.odataLiteral) }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { node = .literal(value.odataLiteral) }

    /// `null`.
    public static let null = ODataExpression(.literal(.null))

    /// Text used as it is (parenthesised when it is an operand): for what the builder does not
    /// cover. It is percent-encoded with the rest of the option value.
    public static func raw(_ text: String) -> ODataExpression { ODataExpression(.raw(text)) }

    /// The expression as it appears in a query option value, before percent-encoding.
    public func text(for version: ODataVersion = .v401) throws(ODataQueryError) -> String {
        try ODataExpressionWriter(version: version).write(node).text
    }
}

/// Writes expression trees as text, with the fewest parentheses precedence allows (and those
/// around comparisons in `and`/`or` chains that make the text read as it was built).
struct ODataExpressionWriter {
    let version: ODataVersion

    private static let primary = 8
    private static let unary = 6

    func write(_ node: ODataExpression.Node) throws(ODataQueryError) -> (text: String, precedence: Int) {
        switch node {
        case .property(let path):
            try ODataName.checkPath(path)
            return (path, Self.primary)
        case .literal(let literal): return (try literal.text(for: version), Self.primary)
        case .raw(let text): return (text, -1)
        case .binary(let op, let left, let right): return try writeBinary(op, left, right)
        case .not(let operand):
            return ("not " + (try operandText(operand, minimum: Self.unary)), Self.unary)
        case .negate(let operand):
            let text = try operandText(operand, minimum: Self.unary)
            // `--x` would read as a comment-free double sign that the ABNF has no rule for.
            return ("-" + (text.hasPrefix("-") ? "(\(text))" : text), Self.unary)
        case .invalid(let error): throw error
        case .function("contains", let arguments) where version < .v4 && arguments.count == 2:
            // OData 2.0/3.0 have `substringof(needle,haystack)` instead, arguments swapped.
            return try write(.function("substringof", arguments.reversed()))
        case .function(let name, let arguments):
            let texts = try arguments.map { argument throws(ODataQueryError) in try write(argument).text }
            return ("\(name)(\(texts.joined(separator: ",")))", Self.primary)
        case .lambda(let collection, let kind, let variable, let predicate):
            guard version >= .v3 else { throw .unsupported("the \(kind.rawValue) lambda operator", version: version) }
            try ODataName.checkPath(collection)
            try ODataName.checkIdentifier(variable)
            guard let predicate else { return ("\(collection)/\(kind.rawValue)()", Self.primary) }
            return ("\(collection)/\(kind.rawValue)(\(variable):\(try write(predicate).text))", Self.primary)
        case .list(let items):
            let texts = try items.map { item throws(ODataQueryError) in try write(item).text }
            return ("(\(texts.joined(separator: ",")))", Self.primary)
        case .cast(let operand, let type, let isTest):
            let name = isTest ? "isof" : "cast"
            guard ODataName.isQualifiedName(type) else { throw .invalidName(type) }
            guard let operand else { return ("\(name)(\(type))", Self.primary) }
            return ("\(name)(\(try write(operand).text),\(type))", Self.primary)
        }
    }

    private func writeBinary(
        _ op: ODataExpression.BinaryOperator, _ left: ODataExpression.Node,
        _ right: ODataExpression.Node
    ) throws(ODataQueryError) -> (text: String, precedence: Int) {
        switch op {
        case .in where version < .v401:
            // Before 4.01 there is no `in`: the same test as a chain of `eq` joined by `or`.
            guard case .list(let items) = right, !items.isEmpty else {
                throw .unsupported("the in operator with a non-list operand", version: version)
            }
            let chain = items.dropFirst().reduce(ODataExpression.Node.binary(.eq, left, items[0])) {
                .binary(.or, $0, .binary(.eq, left, $1))
            }
            let text = try write(chain).text
            return (items.count == 1 ? text : "(\(text))", items.count == 1 ? 2 : Self.primary)
        case .divby where version < .v401: throw .unsupported("the divby operator", version: version)
        case .has where version < .v4: throw .unsupported("the has operator", version: version)
        default: break
        }
        if op.isLogical {
            let texts = try [left, right].map { child throws(ODataQueryError) in
                if case .binary(let childOp, _, _) = child, childOp == op { return try write(child).text }
                return try operandText(child, minimum: Self.unary)
            }
            return ("\(texts[0]) \(op.rawValue) \(texts[1])", op.precedence)
        }
        // Left-associative: an equal-precedence operand on the right needs parentheses.
        let minimumLeft = op == .has || op == .in ? Self.primary : op.precedence
        let leftText = try operandText(left, minimum: minimumLeft)
        let rightText = try operandText(right, minimum: op == .has || op == .in ? Self.primary : op.precedence + 1)
        return ("\(leftText) \(op.rawValue) \(rightText)", op.precedence)
    }

    private func operandText(_ node: ODataExpression.Node, minimum: Int) throws(ODataQueryError) -> String {
        let (text, precedence) = try write(node)
        return precedence >= minimum ? text : "(\(text))"
    }
}
