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
///
/// An expression nests at most ``maximumDepth`` operators and functions deep. Combining
/// expressions beyond that yields an expression whose ``text(for:)`` throws
/// ``ODataQueryError/invalidValue(_:)``, so a runaway loop cannot build a tree that exhausts the
/// stack when it is released. Long `and`/`or` chains count one level per operator; for long lists
/// of values use ``in(_:)``, which is one level at any length.
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
    /// The nesting depth of `node`: 1 for a leaf, one more than the deepest operand otherwise.
    let depth: Int

    /// The deepest nesting of operators and functions an expression may have: 1,000.
    ///
    /// The tree is released recursively by the Swift runtime, so its depth has to stay within what
    /// a small stack holds in an unoptimized build (a Task on Apple platforms has 512 KiB). It is
    /// well beyond what services accept: Microsoft.OData.Core's parser stops at a recursion depth
    /// of 800 (`ODataUriParserSettings.FilterLimit`), and each parenthesised level costs it several.
    public static let maximumDepth = 1_000

    /// The error of an expression nested deeper than ``maximumDepth``.
    static let tooDeep = ODataQueryError.invalidValue(
        "the expression nests deeper than the maximum depth of \(maximumDepth) operators and functions")

    /// A leaf: a property, a literal, raw text, an error.
    init(_ node: Node) {
        self.node = node
        self.depth = 1
    }

    private init(node: Node, depth: Int) {
        self.node = node
        self.depth = depth
    }

    /// An expression over `operands`; ``tooDeep`` when it would nest deeper than ``maximumDepth``,
    /// or when an operand already is too deep (so the error sticks however the result is combined).
    static func combining(_ operands: [ODataExpression], _ make: () -> Node) -> ODataExpression {
        var deepest = 0
        for operand in operands {
            if case .invalid(let error) = operand.node, error == tooDeep { return operand }
            deepest = Swift.max(deepest, operand.depth)
        }
        guard deepest < maximumDepth else { return ODataExpression(.invalid(tooDeep)) }
        return ODataExpression(node: make(), depth: deepest + 1)
    }

    /// A property, or a path through complex and navigation properties: `"Address/City"`.
    public static func property(_ path: String) -> ODataExpression { ODataExpression(.property(path)) }

    /// A literal value.
    public static func literal(_ value: some ODataLiteralConvertible) -> ODataExpression {
        ODataExpression(.literal(value.odataLiteral))
    }

    /// A string literal: `'text'`.
    public init(stringLiteral value: String) { self.init(.literal(value.odataLiteral)) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self.init(.literal(value.odataLiteral)) }
    /// A floating-point literal (`Edm.Double`; use ``literal(_:)`` with a `Decimal` for decimals).
    public init(floatLiteral value: Double) { self.init(.literal(value.odataLiteral)) }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self.init(.literal(value.odataLiteral)) }

    /// `null`.
    public static let null = ODataExpression(.literal(.null))

    /// Text used as it is (parenthesised when it is an operand): for what the builder does not
    /// cover. It is percent-encoded with the rest of the option value.
    public static func raw(_ text: String) -> ODataExpression { ODataExpression(.raw(text)) }

    /// The expression as it appears in a query option value, before percent-encoding.
    public func text(for version: ODataVersion = .v401) throws(ODataQueryError) -> String {
        try ODataExpressionWriter(version: version).write(node)
    }
}

/// Writes expression trees as text, with the fewest parentheses precedence allows (and those
/// around comparisons in `and`/`or` chains that make the text read as it was built).
///
/// Iterative: an explicit stack of pending pieces replaces recursion, so no expression depth can
/// exhaust the call stack, and each node is written once into one string (linear time).
struct ODataExpressionWriter {
    let version: ODataVersion

    private static let primary = 8
    private static let unary = 6
    /// The minimum precedence of an operand that never needs parentheses.
    private static let anywhere = Int.min

    /// A piece still to write: a node (in parentheses when its precedence is below `minimum`), or text.
    private enum Step {
        case node(ODataExpression.Node, minimum: Int)
        case text(String)
    }

    func write(_ root: ODataExpression.Node) throws(ODataQueryError) -> String {
        var output = ""
        var steps: [Step] = [.node(root, minimum: Self.anywhere)]
        while let step = steps.popLast() {
            switch step {
            case .text(let text): output += text
            case .node(let node, let minimum):
                if precedence(of: node) < minimum {
                    steps.append(.text(")"))
                    steps.append(.node(node, minimum: Self.anywhere))
                    output += "("
                } else {
                    try expand(node, into: &steps, output: &output)
                }
            }
        }
        return output
    }

    /// The precedence of the text `node` is written as, without writing it.
    private func precedence(of node: ODataExpression.Node) -> Int {
        switch node {
        case .raw: -1
        case .not, .negate: Self.unary
        case .binary(.in, _, .list(let items)) where version < .v401: items.count == 1 ? 2 : Self.primary
        case .binary(let op, _, _): op.precedence
        case .property, .literal, .function, .lambda, .list, .cast, .invalid: Self.primary
        }
    }

    /// Writes what `node` starts with to `output` and pushes the rest, last piece first.
    private func expand(
        _ node: ODataExpression.Node, into steps: inout [Step], output: inout String
    ) throws(ODataQueryError) {
        /// Pushes `pieces` so that they are written in order.
        func then(_ pieces: [Step]) { steps.append(contentsOf: pieces.reversed()) }
        switch node {
        case .property(let path):
            try ODataName.checkPath(path)
            output += path
        case .literal(let literal): output += try literal.text(for: version)
        case .raw(let text): output += text
        case .binary(let op, let left, let right): try expandBinary(op, left, right, then: then)
        case .not(let operand):
            output += "not "
            then([.node(operand, minimum: Self.unary)])
        case .negate(let operand):
            output += "-"
            // `--x` would read as a double sign that the ABNF has no rule for.
            if precedence(of: operand) >= Self.unary && startsWithMinus(operand) {
                then([.text("("), .node(operand, minimum: Self.anywhere), .text(")")])
            } else {
                then([.node(operand, minimum: Self.unary)])
            }
        case .invalid(let error): throw error
        case .function(let name, let arguments):
            // OData 2.0/3.0 have `substringof(needle,haystack)` instead, arguments swapped.
            let isSubstringOf = name == "contains" && version < .v4 && arguments.count == 2
            output += (isSubstringOf ? "substringof" : name) + "("
            then(list(isSubstringOf ? arguments.reversed() : arguments) + [.text(")")])
        case .lambda(let collection, let kind, let variable, let predicate):
            guard version >= .v3 else { throw .unsupported("the \(kind.rawValue) lambda operator", version: version) }
            try ODataName.checkPath(collection)
            try ODataName.checkIdentifier(variable)
            guard let predicate else {
                output += "\(collection)/\(kind.rawValue)()"
                return
            }
            output += "\(collection)/\(kind.rawValue)(\(variable):"
            then([.node(predicate, minimum: Self.anywhere), .text(")")])
        case .list(let items):
            output += "("
            then(list(items) + [.text(")")])
        case .cast(let operand, let type, let isTest):
            let name = isTest ? "isof" : "cast"
            guard ODataName.isQualifiedName(type) else { throw .invalidName(type) }
            guard let operand else {
                output += "\(name)(\(type))"
                return
            }
            output += name + "("
            then([.node(operand, minimum: Self.anywhere), .text(",\(type))")])
        }
    }

    /// `items` separated by commas.
    private func list(_ items: [ODataExpression.Node]) -> [Step] {
        var steps: [Step] = []
        for (index, item) in items.enumerated() {
            if index > 0 { steps.append(.text(",")) }
            steps.append(.node(item, minimum: Self.anywhere))
        }
        return steps
    }

    private func expandBinary(
        _ op: ODataExpression.BinaryOperator, _ left: ODataExpression.Node, _ right: ODataExpression.Node,
        then: ([Step]) -> Void
    ) throws(ODataQueryError) {
        switch op {
        case .in where version < .v401:
            // Before 4.01 there is no `in`: the same test as `eq` tests joined by `or`, written
            // straight from the list so that a long list is no deeper than a short one.
            guard case .list(let items) = right, !items.isEmpty else {
                throw .unsupported("the in operator with a non-list operand", version: version)
            }
            let comparisons = items.map { item in
                [Step.node(left, minimum: 2), .text(" eq "), .node(item, minimum: 3)]
            }
            if comparisons.count == 1 { return then(comparisons[0]) }
            var steps: [Step] = [.text("(")]
            for (index, comparison) in comparisons.enumerated() {
                steps.append(.text(index == 0 ? "(" : " or ("))
                steps += comparison + [.text(")")]
            }
            return then(steps + [.text(")")])
        case .divby where version < .v401: throw .unsupported("the divby operator", version: version)
        case .has where version < .v4: throw .unsupported("the has operator", version: version)
        default: break
        }
        if op.isLogical {
            // A chain of the same operator is written without parentheses; anything else in it
            // is parenthesised unless it binds like a unary operator or tighter.
            func minimum(_ child: ODataExpression.Node) -> Int {
                if case .binary(let childOp, _, _) = child, childOp == op { return Self.anywhere }
                return Self.unary
            }
            return then([.node(left, minimum: minimum(left)), .text(" \(op.rawValue) "), .node(right, minimum: minimum(right))])
        }
        // Left-associative: an equal-precedence operand on the right needs parentheses.
        let isPrimaryOnly = op == .has || op == .in
        then([
            .node(left, minimum: isPrimaryOnly ? Self.primary : op.precedence), .text(" \(op.rawValue) "),
            .node(right, minimum: isPrimaryOnly ? Self.primary : op.precedence + 1),
        ])
    }

    /// Whether the text of `node`, written without parentheses around it, starts with `-`.
    ///
    /// Follows the leftmost operands down to the first one that decides; each node is on the path
    /// of at most one negation, so all the checks of one expression take linear time together.
    private func startsWithMinus(_ node: ODataExpression.Node) -> Bool {
        var node = node
        while true {
            switch node {
            case .negate: return true
            case .raw(let text): return text.hasPrefix("-")
            case .literal(let literal): return (try? literal.text(for: version))?.hasPrefix("-") ?? false
            case .binary(.in, let left, .list(let items)) where version < .v401:
                guard items.count == 1, precedence(of: left) >= 2 else { return false }
                node = left
            case .binary(let op, let left, _):
                let minimum: Int
                if op.isLogical {
                    if case .binary(let childOp, _, _) = left, childOp == op {
                        minimum = Self.anywhere
                    } else {
                        minimum = Self.unary
                    }
                } else {
                    minimum = op == .has || op == .in ? Self.primary : op.precedence
                }
                guard precedence(of: left) >= minimum else { return false }
                node = left
            default: return false
            }
        }
    }
}
