#if canImport(WebServiceKit)
    import WebServiceKit
#endif

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
/// Expressions of any depth are safe: a chain of 100,000 `and` terms is built, written and
/// released without recursion, in time linear in its size.
public struct ODataExpression: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// One node of the tree; its operands are ``Operand`` references.
    enum Node: Sendable {
        case property(String)
        case literal(ODataLiteral)
        case raw(String)
        case binary(BinaryOperator, Operand, Operand)
        case not(Operand)
        case negate(Operand)
        case function(String, [Operand])
        /// A named argument of a function call: `p=Price` in `Demo.IsCheap(p=Price)`.
        case parameter(String, Operand)
        case lambda(collection: String, kind: LambdaKind, variable: String, predicate: Operand?)
        case list([Operand])
        case cast(Operand?, type: String, isTest: Bool)
        case invalid(ODataQueryError)
    }

    /// A node, shared by every expression built on it.
    ///
    /// A class rather than an `indirect` case so that a deep tree is torn down by a loop: the
    /// runtime releases an `indirect` enum recursively, one stack frame per level, which a chain of
    /// tens of thousands of `and` terms overflows. When the last reference to an operand goes, its
    /// `deinit` takes the operands of every node below it that nothing else holds and empties them,
    /// so each one released afterwards has nothing left to release.
    ///
    /// `@unchecked Sendable`: ``node`` is only written by `deinit`, to its own node or to the node
    /// of an operand it holds the only reference to, which no other thread can be reading.
    final class Operand: @unchecked Sendable {
        fileprivate(set) var node: Node

        init(_ node: Node) { self.node = node }

        deinit {
            var operands = detachOperands()
            IterativeRelease.release(&operands) { $0.detachOperands() }
        }

        /// Leaves a leaf in place of this node and returns the operands it held.
        private func detachOperands() -> [Operand] {
            let operands: [Operand]
            switch node {
            case .property, .literal, .raw, .invalid: return []
            case .binary(_, let left, let right): operands = [left, right]
            case .not(let operand), .negate(let operand), .parameter(_, let operand): operands = [operand]
            case .function(_, let list), .list(let list): operands = list
            case .lambda(_, _, _, let operand), .cast(let operand, _, _): operands = operand.map { [$0] } ?? []
            }
            node = .raw("")
            return operands
        }
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

    /// The root of the tree.
    let operand: Operand
    /// The root node.
    var node: Node { operand.node }

    init(_ node: Node) { operand = Operand(node) }

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
        try ODataExpressionWriter(version: version).write(operand)
    }
}

/// Writes expression trees as text, with the fewest parentheses precedence allows (and those
/// around comparisons in `and`/`or` chains that make the text read as it was built).
///
/// Iterative: an explicit stack of pieces still to write replaces recursion, so no depth of
/// expression can exhaust the call stack, and each node is written once, straight into one
/// string, so the time is linear in the size of the tree.
struct ODataExpressionWriter {
    typealias Operand = ODataExpression.Operand
    typealias Node = ODataExpression.Node

    let version: ODataVersion

    private static let primary = 8
    private static let unary = 6
    /// The precedence of a comparison joined by `eq`, the form `in` takes before OData 4.01.
    private static let equality = ODataExpression.BinaryOperator.eq.precedence
    /// The minimum precedence of an operand that never needs parentheses.
    private static let anywhere = Int.min

    /// A piece still to write: an operand (in parentheses when its precedence is below `minimum`),
    /// or text.
    private enum Step {
        case operand(Operand, minimum: Int)
        case text(String)
    }

    func write(_ root: Operand) throws(ODataQueryError) -> String {
        var output = ""
        var steps: [Step] = [.operand(root, minimum: Self.anywhere)]
        while let step = steps.popLast() {
            switch step {
            case .text(let text): output += text
            case .operand(let operand, let minimum):
                let node = operand.node
                if precedence(of: node) < minimum {
                    output += "("
                    steps.append(.text(")"))
                    steps.append(.operand(operand, minimum: Self.anywhere))
                } else {
                    try expand(node, into: &steps, output: &output)
                }
            }
        }
        return output
    }

    /// The precedence of the text `node` is written as, without writing it.
    private func precedence(of node: Node) -> Int {
        switch node {
        case .raw: -1
        case .not, .negate: Self.unary
        case .binary(.in, _, let right) where version < .v401:
            // One value: `a eq x`; more: `((a eq x) or (a eq y))`.
            if case .list(let items) = right.node, items.count == 1 { Self.equality } else { Self.primary }
        case .binary(let op, _, _): op.precedence
        case .property, .literal, .function, .parameter, .lambda, .list, .cast, .invalid: Self.primary
        }
    }

    /// The minimum precedence of the left operand of `op` to go without parentheses.
    private func minimumLeft(of op: ODataExpression.BinaryOperator, _ left: Node) -> Int {
        if op.isLogical { return minimumInChain(of: op, left) }
        return op == .has || op == .in ? Self.primary : op.precedence
    }

    /// In an `and`/`or` chain, an operand with the same operator goes without parentheses;
    /// anything else is parenthesised unless it binds like a unary operator or tighter.
    private func minimumInChain(of op: ODataExpression.BinaryOperator, _ child: Node) -> Int {
        if case .binary(let childOp, _, _) = child, childOp == op { return Self.anywhere }
        return Self.unary
    }

    /// Writes what `node` starts with to `output` and pushes the rest onto `steps`.
    private func expand(_ node: Node, into steps: inout [Step], output: inout String) throws(ODataQueryError) {
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
            then([.operand(operand, minimum: Self.unary)])
        case .negate(let operand):
            output += "-"
            // `--x` would read as a double sign, which the ABNF has no rule for.
            if precedence(of: operand.node) >= Self.unary && startsWithMinus(operand) {
                then([.text("("), .operand(operand, minimum: Self.anywhere), .text(")")])
            } else {
                then([.operand(operand, minimum: Self.unary)])
            }
        case .invalid(let error): throw error
        case .function(let name, let arguments):
            try checkFunction(name, arguments)
            // OData 2.0/3.0 have `substringof(needle,haystack)` instead, arguments swapped.
            let isSubstringOf = name == "contains" && version < .v4 && arguments.count == 2
            output += (isSubstringOf ? "substringof" : name) + "("
            then(commaSeparated(isSubstringOf ? arguments.reversed() : arguments) + [.text(")")])
        case .parameter(let name, let value):
            try ODataName.checkIdentifier(name)
            output += name + "="
            then([.operand(value, minimum: Self.anywhere)])
        case .lambda(let collection, let kind, let variable, let predicate):
            guard version >= .v3 else { throw .unsupported("the \(kind.rawValue) lambda operator", version: version) }
            try ODataName.checkPath(collection)
            try ODataName.checkIdentifier(variable)
            guard let predicate else {
                output += "\(collection)/\(kind.rawValue)()"
                return
            }
            output += "\(collection)/\(kind.rawValue)(\(variable):"
            then([.operand(predicate, minimum: Self.anywhere), .text(")")])
        case .list(let items):
            output += "("
            then(commaSeparated(items) + [.text(")")])
        case .cast(let operand, let type, let isTest):
            let name = isTest ? "isof" : "cast"
            guard ODataName.isQualifiedName(type) else { throw .invalidName(type) }
            // OData 2.0 URI Conventions §4.5 and OData 3.0 URL Conventions §5.1.2.4 (type functions):
            // the type name is a string literal there, `isof(Name,'Edm.String')`; OData 4 writes it
            // bare (ABNF `isofExpr`, `castExpr`).
            let typeText = version < .v4 ? ODataLiteral.quoted(type) : type
            guard let operand else {
                output += "\(name)(\(typeText))"
                return
            }
            output += name + "("
            then([.operand(operand, minimum: Self.anywhere), .text(",\(typeText))")])
        }
    }

    /// Canonical functions that OData 2.0 and 3.0 lack: the date and time functions of OData 4
    /// (OData 4.01 Part 2 §5.1.1.7). The canonical functions of OData 2.0 URI Conventions §4.5
    /// and OData 3.0 URL Conventions §5.1.2.4 are the string functions, `year` to `second`,
    /// `round`, `floor`, `ceiling`, `isof` and `cast`.
    private static let functionsSinceV4: Set<String> = [
        "date", "time", "totaloffsetminutes", "fractionalseconds", "totalseconds", "now", "maxdatetime",
        "mindatetime",
    ]
    /// Canonical functions new in OData 4.01 (Part 2 §5.1.1.5.1, §5.1.1.10, §5.1.1.11).
    private static let functionsSinceV401: Set<String> = ["matchesPattern", "hassubset", "hassubsequence", "case"]

    /// Fails for a function the version lacks, and for a custom (namespace-qualified) function
    /// called with positional arguments: its parameters are named (ABNF `functionExprParameter =
    /// parameterName EQ parameterValue`). The qualified canonical functions `geo.…` take
    /// positional arguments.
    private func checkFunction(_ name: String, _ arguments: [Operand]) throws(ODataQueryError) {
        if version < .v4 && Self.functionsSinceV4.contains(name) {
            throw .unsupported("the \(name) function", version: version)
        }
        if version < .v401 && Self.functionsSinceV401.contains(name) {
            throw .unsupported("the \(name) function", version: version)
        }
        let isCustom =
            arguments.contains { if case .parameter = $0.node { true } else { false } }
            || (ODataName.isQualifiedName(name) && !name.hasPrefix("geo."))
        guard isCustom else { return }
        // OData 2.0 and 3.0 call no custom functions inside an expression: their $filter grammar
        // has the canonical functions only (OData 3.0 URL Conventions §5.1.2.4).
        guard version >= .v4 else { throw .unsupported("a custom function in an expression", version: version) }
        for argument in arguments {
            guard case .parameter = argument.node else {
                throw .invalidValue("\(name) is a custom function: name its parameters, function(_:parameters:)")
            }
        }
    }

    /// `items` separated by commas.
    private func commaSeparated(_ items: [Operand]) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(2 * items.count)
        for (index, item) in items.enumerated() {
            if index > 0 { steps.append(.text(",")) }
            steps.append(.operand(item, minimum: Self.anywhere))
        }
        return steps
    }

    private func expandBinary(
        _ op: ODataExpression.BinaryOperator, _ left: Operand, _ right: Operand, then: ([Step]) -> Void
    ) throws(ODataQueryError) {
        switch op {
        case .in where version < .v401:
            // Before 4.01 there is no `in`: the same test as `eq` comparisons joined by `or`,
            // written straight from the list, so the text of a long list nests no deeper than
            // that of a short one.
            guard case .list(let items) = right.node, !items.isEmpty else {
                throw .unsupported("the in operator with a non-list operand", version: version)
            }
            let leftStep = Step.operand(left, minimum: Self.equality)
            if items.count == 1 {
                return then([leftStep, .text(" eq "), .operand(items[0], minimum: Self.equality + 1)])
            }
            var steps: [Step] = [.text("(")]
            steps.reserveCapacity(5 * items.count + 2)
            for (index, item) in items.enumerated() {
                steps += [
                    .text(index == 0 ? "(" : " or ("), leftStep, .text(" eq "),
                    .operand(item, minimum: Self.equality + 1), .text(")"),
                ]
            }
            return then(steps + [.text(")")])
        case .divby where version < .v401: throw .unsupported("the divby operator", version: version)
        case .has where version < .v4: throw .unsupported("the has operator", version: version)
        default: break
        }
        if op.isLogical {
            return then([
                .operand(left, minimum: minimumInChain(of: op, left.node)), .text(" \(op.rawValue) "),
                .operand(right, minimum: minimumInChain(of: op, right.node)),
            ])
        }
        // Left-associative: an equal-precedence operand on the right needs parentheses.
        then([
            .operand(left, minimum: minimumLeft(of: op, left.node)), .text(" \(op.rawValue) "),
            .operand(right, minimum: op == .has || op == .in ? Self.primary : op.precedence + 1),
        ])
    }

    /// Whether the text of `operand`, written without parentheses around it, starts with `-`.
    ///
    /// Follows the leftmost operands down to the first one that decides. The path from one
    /// negation stops at the next, so the checks of all the negations in an expression visit each
    /// node at most once together: linear time.
    private func startsWithMinus(_ operand: Operand) -> Bool {
        var node = operand.node
        while true {
            switch node {
            case .negate: return true
            case .raw(let text): return text.hasPrefix("-")
            case .literal(let literal): return (try? literal.text(for: version))?.hasPrefix("-") ?? false
            case .binary(.in, let left, let right) where version < .v401:
                // Only the one-value form `a eq x` starts with its left operand.
                guard case .list(let items) = right.node, items.count == 1,
                    precedence(of: left.node) >= Self.equality
                else { return false }
                node = left.node
            case .binary(let op, let left, _):
                guard precedence(of: left.node) >= minimumLeft(of: op, left.node) else { return false }
                node = left.node
            default: return false
            }
        }
    }
}
