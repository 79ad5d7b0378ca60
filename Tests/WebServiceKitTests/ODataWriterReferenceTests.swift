import Foundation
import WebServiceKit
import WebServiceKitOData
import XCTest

/// The iterative expression writer against a recursive reference: the algorithm the library used
/// before it wrote expressions with an explicit stack, rewritten here over a small tree of its
/// own. Random trees of every operator, in three protocol versions, must give the same text, or
/// the same error.
final class ODataWriterReferenceTests: XCTestCase {
    private indirect enum Shape {
        case property(String)
        case literal(Int)
        case raw(String)
        case binary(Operator, Shape, Shape)
        case has(Shape)
        case `in`(Shape, [Int])
        case not(Shape)
        case negate(Shape)
        case function(String, [Shape])
        case cast(Shape)
        case any(Shape)
    }

    private enum Operator: String, CaseIterable {
        case eq, ne, gt, ge, lt, le, and, or, add, sub, mul, div, mod

        var precedence: Int {
            switch self {
            case .mul, .div, .mod: 5
            case .add, .sub: 4
            case .gt, .ge, .lt, .le: 3
            case .eq, .ne: 2
            case .and: 1
            case .or: 0
            }
        }

        func apply(_ left: ODataExpression, _ right: ODataExpression) -> ODataExpression {
            switch self {
            case .eq: left == right
            case .ne: left != right
            case .gt: left > right
            case .ge: left >= right
            case .lt: left < right
            case .le: left <= right
            case .and: left && right
            case .or: left || right
            case .add: left + right
            case .sub: left - right
            case .mul: left * right
            case .div: left / right
            case .mod: left % right
            }
        }
    }

    private static let member = ODataEnumMember("Demo.Color", "Blue")

    /// The expression the library builds for `shape`.
    private static func expression(_ shape: Shape) -> ODataExpression {
        switch shape {
        case .property(let name): .property(name)
        case .literal(let value): .literal(value)
        case .raw(let text): .raw(text)
        case .binary(let op, let left, let right): op.apply(expression(left), expression(right))
        case .has(let operand): expression(operand).has(member)
        case .in(let operand, let values): expression(operand).in(values)
        case .not(let operand): !expression(operand)
        case .negate(let operand): -expression(operand)
        case .function("contains", let arguments): expression(arguments[0]).contains(expression(arguments[1]))
        case .function(_, let arguments): expression(arguments[0]).toLower
        case .cast(let operand): expression(operand).cast(to: "Edm.Int32")
        case .any(let predicate): ODataExpression.property("Items").any("x") { _ in expression(predicate) }
        }
    }

    // MARK: The reference: one recursive call per node, each returning its text and precedence

    private static let primary = 8
    private static let unary = 6

    private static func write(_ shape: Shape, _ version: ODataVersion) throws(ODataQueryError) -> (String, Int) {
        switch shape {
        case .property(let name): return (name, primary)
        case .literal(let value): return (String(value), primary)
        case .raw(let text): return (text, -1)
        case .binary(let op, let left, let right):
            if op == .and || op == .or {
                var texts: [String] = []
                for child in [left, right] {
                    if case .binary(let childOp, _, _) = child, childOp == op {
                        texts.append(try write(child, version).0)
                    } else {
                        texts.append(try operand(child, unary, version))
                    }
                }
                return ("\(texts[0]) \(op.rawValue) \(texts[1])", op.precedence)
            }
            let leftText = try operand(left, op.precedence, version)
            let rightText = try operand(right, op.precedence + 1, version)
            return ("\(leftText) \(op.rawValue) \(rightText)", op.precedence)
        case .has(let left):
            guard version >= .v4 else { throw .unsupported("the has operator", version: version) }
            return ("\(try operand(left, primary, version)) has Demo.Color'Blue'", 7)
        case .in(let left, let values) where version < .v401:
            let comparisons = values.map { Shape.binary(.eq, left, .literal($0)) }
            let chain = comparisons.dropFirst().reduce(comparisons[0]) { .binary(.or, $0, $1) }
            let text = try write(chain, version).0
            return values.count == 1 ? (text, 2) : ("(\(text))", primary)
        case .in(let left, let values):
            return ("\(try operand(left, primary, version)) in (\(values.map(String.init).joined(separator: ",")))", 7)
        case .not(let child): return ("not " + (try operand(child, unary, version)), unary)
        case .negate(let child):
            let text = try operand(child, unary, version)
            return ("-" + (text.hasPrefix("-") ? "(\(text))" : text), unary)
        case .function("contains", let arguments) where version < .v4:
            return try write(.function("substringof", arguments.reversed()), version)
        case .function(let name, let arguments):
            var texts: [String] = []
            for argument in arguments { texts.append(try write(argument, version).0) }
            return ("\(name == "lower" ? "tolower" : name)(\(texts.joined(separator: ",")))", primary)
        case .cast(let child):
            // Before OData 4 the type name is a string literal (OData 3.0 URL Conventions §5.1.2.4).
            let type = version < .v4 ? "'Edm.Int32'" : "Edm.Int32"
            return ("cast(\(try write(child, version).0),\(type))", primary)
        case .any(let predicate):
            guard version >= .v3 else { throw .unsupported("the any lambda operator", version: version) }
            return ("Items/any(x:\(try write(predicate, version).0))", primary)
        }
    }

    private static func operand(_ shape: Shape, _ minimum: Int, _ version: ODataVersion) throws(ODataQueryError)
        -> String
    {
        let (text, precedence) = try write(shape, version)
        return precedence >= minimum ? text : "(\(text))"
    }

    // MARK: Random trees

    private static func randomShape(depth: Int, _ random: inout SplitMix64) -> Shape {
        if depth == 0 || Int.random(in: 0..<5, using: &random) == 0 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return .property(["A", "B", "x/C"][Int.random(in: 0..<3, using: &random)])
            case 1: return .literal(Int.random(in: -3...3, using: &random))
            case 2: return .raw(["-1", "A eq 1"][Int.random(in: 0..<2, using: &random)])
            default: return .property("P")
            }
        }
        let child = { (random: inout SplitMix64) in randomShape(depth: depth - 1, &random) }
        switch Int.random(in: 0..<9, using: &random) {
        case 0, 1, 2:
            let op = Operator.allCases[Int.random(in: 0..<Operator.allCases.count, using: &random)]
            return .binary(op, child(&random), child(&random))
        case 3: return .has(child(&random))
        case 4: return .in(child(&random), (0..<Int.random(in: 1...3, using: &random)).map { $0 - 1 })
        case 5: return Bool.random(using: &random) ? .not(child(&random)) : .negate(child(&random))
        case 6:
            return Bool.random(using: &random)
                ? .function("contains", [child(&random), child(&random)]) : .function("lower", [child(&random)])
        case 7: return .cast(child(&random))
        default: return .any(child(&random))
        }
    }

    func testRandomExpressionsMatchTheRecursiveReference() {
        var random = SplitMix64(seed: 19)
        var written = 0
        for _ in 0..<3_000 {
            let shape = Self.randomShape(depth: 6, &random)
            let expression = Self.expression(shape)
            for version in [ODataVersion.v401, .v4, .v2] {
                let expected = Result { () throws(ODataQueryError) in try Self.write(shape, version).0 }
                let actual = Result { () throws(ODataQueryError) in try expression.text(for: version) }
                XCTAssertEqual(actual, expected, "\(shape) in \(version)")
                if case .success = expected { written += 1 }
            }
        }
        XCTAssertGreaterThan(written, 4_000, "most trees are written, not refused")
    }
}
