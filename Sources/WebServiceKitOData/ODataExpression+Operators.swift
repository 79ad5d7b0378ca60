#if canImport(WebServiceKit)
    import WebServiceKit
#endif

// Operators and functions of OData common expressions (OData 4.01 Part 2 §5.1.1).

extension ODataExpression {
    private func binary(_ op: BinaryOperator, _ other: ODataExpression) -> ODataExpression {
        ODataExpression(.binary(op, operand, other.operand))
    }

    private func function(_ name: String, _ arguments: ODataExpression...) -> ODataExpression {
        ODataExpression(.function(name, [operand] + arguments.map(\.operand)))
    }

    // MARK: Comparison (§5.1.1.1)

    /// `self eq other`.
    public func eq(_ other: ODataExpression) -> ODataExpression { binary(.eq, other) }
    /// `self ne other`.
    public func ne(_ other: ODataExpression) -> ODataExpression { binary(.ne, other) }
    /// `self gt other`.
    public func gt(_ other: ODataExpression) -> ODataExpression { binary(.gt, other) }
    /// `self ge other`.
    public func ge(_ other: ODataExpression) -> ODataExpression { binary(.ge, other) }
    /// `self lt other`.
    public func lt(_ other: ODataExpression) -> ODataExpression { binary(.lt, other) }
    /// `self le other`.
    public func le(_ other: ODataExpression) -> ODataExpression { binary(.le, other) }
    /// `self has Namespace.Flags'Member'`: whether a flags enumeration value has the members.
    public func has(_ member: ODataEnumMember) -> ODataExpression { binary(.has, .literal(member)) }
    /// `self in (a,b,c)`; written as `eq … or eq …` before OData 4.01.
    public func `in`(_ values: [any ODataLiteralConvertible]) -> ODataExpression {
        let items = values.map { ODataExpression.Operand(.literal($0.odataLiteral)) }
        return ODataExpression(.binary(.in, operand, Operand(.list(items))))
    }

    // MARK: Logical (§5.1.1.1.9–11)

    /// `self and other`.
    public func and(_ other: ODataExpression) -> ODataExpression { binary(.and, other) }
    /// `self or other`.
    public func or(_ other: ODataExpression) -> ODataExpression { binary(.or, other) }
    /// `not self`.
    public var not: ODataExpression { ODataExpression(.not(operand)) }

    // MARK: Arithmetic (§5.1.1.2)

    /// `self add other`.
    public func add(_ other: ODataExpression) -> ODataExpression { binary(.add, other) }
    /// `self sub other`.
    public func sub(_ other: ODataExpression) -> ODataExpression { binary(.sub, other) }
    /// `self mul other`.
    public func mul(_ other: ODataExpression) -> ODataExpression { binary(.mul, other) }
    /// `self div other` (integer division for integer operands).
    public func div(_ other: ODataExpression) -> ODataExpression { binary(.div, other) }
    /// `self divby other`: division with a decimal result (OData 4.01).
    public func divby(_ other: ODataExpression) -> ODataExpression { binary(.divby, other) }
    /// `self mod other`.
    public func mod(_ other: ODataExpression) -> ODataExpression { binary(.mod, other) }
    /// `-self`.
    public var negated: ODataExpression { ODataExpression(.negate(operand)) }

    // MARK: String and collection functions (§5.1.1.5, §5.1.1.7)

    /// `contains(self,text)`; `substringof(text,self)` before OData 4.
    public func contains(_ text: ODataExpression) -> ODataExpression { function("contains", text) }
    /// `startswith(self,prefix)`.
    public func startsWith(_ prefix: ODataExpression) -> ODataExpression { function("startswith", prefix) }
    /// `endswith(self,suffix)`.
    public func endsWith(_ suffix: ODataExpression) -> ODataExpression { function("endswith", suffix) }
    /// `length(self)`.
    public var length: ODataExpression { function("length") }
    /// `indexof(self,text)`: zero-based, -1 when absent.
    public func indexOf(_ text: ODataExpression) -> ODataExpression { function("indexof", text) }
    /// `substring(self,start)` or `substring(self,start,length)`.
    public func substring(_ start: Int, _ length: Int? = nil) -> ODataExpression {
        guard let length else { return function("substring", .literal(start)) }
        return function("substring", .literal(start), .literal(length))
    }
    /// `tolower(self)`.
    public var toLower: ODataExpression { function("tolower") }
    /// `toupper(self)`.
    public var toUpper: ODataExpression { function("toupper") }
    /// `trim(self)`.
    public var trim: ODataExpression { function("trim") }
    /// `concat(self,other)`.
    public func concat(_ other: ODataExpression) -> ODataExpression { function("concat", other) }

    // MARK: Date and time functions (§5.1.1.4)

    /// `year(self)`.
    public var year: ODataExpression { function("year") }
    /// `month(self)`.
    public var month: ODataExpression { function("month") }
    /// `day(self)`.
    public var day: ODataExpression { function("day") }
    /// `hour(self)`.
    public var hour: ODataExpression { function("hour") }
    /// `minute(self)`.
    public var minute: ODataExpression { function("minute") }
    /// `second(self)`.
    public var second: ODataExpression { function("second") }
    /// `fractionalseconds(self)`.
    public var fractionalSeconds: ODataExpression { function("fractionalseconds") }
    /// `date(self)`: the date part of a DateTimeOffset.
    public var date: ODataExpression { function("date") }
    /// `time(self)`: the time-of-day part of a DateTimeOffset.
    public var time: ODataExpression { function("time") }
    /// `totaloffsetminutes(self)`.
    public var totalOffsetMinutes: ODataExpression { function("totaloffsetminutes") }
    /// `now()`.
    public static var now: ODataExpression { ODataExpression(.function("now", [])) }
    /// `maxdatetime()`.
    public static var maxDateTime: ODataExpression { ODataExpression(.function("maxdatetime", [])) }
    /// `mindatetime()`.
    public static var minDateTime: ODataExpression { ODataExpression(.function("mindatetime", [])) }

    // MARK: Arithmetic functions (§5.1.1.6)

    /// `round(self)`.
    public var rounded: ODataExpression { function("round") }
    /// `floor(self)`.
    public var floor: ODataExpression { function("floor") }
    /// `ceiling(self)`.
    public var ceiling: ODataExpression { function("ceiling") }

    // MARK: Types (§5.1.1.8)

    /// `cast(self,Type)`.
    public func cast(to type: String) -> ODataExpression {
        ODataExpression(.cast(operand, type: type, isTest: false))
    }
    /// `isof(self,Type)`.
    public func isOf(_ type: String) -> ODataExpression {
        ODataExpression(.cast(operand, type: type, isTest: true))
    }

    /// Any other canonical function, with positional arguments: `matchesPattern(Name,'^A')`,
    /// `geo.distance(Location,…)`. The name must be an identifier or a qualified name.
    ///
    /// A custom function (`Namespace.Function`) takes named parameters: call
    /// ``function(_:parameters:)``; with positional arguments it fails when the query is written.
    public static func function(_ name: String, _ arguments: ODataExpression...) -> ODataExpression {
        guard ODataName.isIdentifier(name) || ODataName.isQualifiedName(name) else {
            return ODataExpression(.invalid(.invalidName(name)))
        }
        return ODataExpression(.function(name, arguments.map(\.operand)))
    }

    /// A call of a custom function with named parameters (OData 4.01 Part 2 §5.1.1.11, ABNF
    /// `functionExpr`, `functionExprParameter = parameterName EQ parameterValue`):
    ///
    /// ```swift
    /// .function("Demo.IsCheap", parameters: ["p": .property("Price")])  // Demo.IsCheap(p=Price)
    /// ```
    ///
    /// The name is usually namespace-qualified; parameter names are identifiers. OData 2.0 and 3.0
    /// have no custom functions in expressions: writing one for them fails with `unsupported`.
    public static func function(_ name: String, parameters: KeyValuePairs<String, ODataExpression>)
        -> ODataExpression
    {
        guard ODataName.isIdentifier(name) || ODataName.isQualifiedName(name) else {
            return ODataExpression(.invalid(.invalidName(name)))
        }
        let operands = parameters.map { Operand(.parameter($0.key, $0.value.operand)) }
        return ODataExpression(.function(name, operands))
    }

    // MARK: Lambdas (§5.1.1.13)

    /// `Collection/any(v:predicate)`: whether any member satisfies the predicate.
    ///
    /// ```swift
    /// .property("Orders").any("o") { $0.property("Quantity") > 5 }  // Orders/any(o:o/Quantity gt 5)
    /// ```
    public func any(_ variable: String = "x", _ predicate: (ODataLambdaVariable) -> ODataExpression)
        -> ODataExpression
    {
        lambda(.any, variable, predicate(ODataLambdaVariable(name: variable)))
    }

    /// `Collection/any()`: whether the collection is not empty.
    public func any() -> ODataExpression { lambda(.any, "x", nil) }

    /// `Collection/all(v:predicate)`: whether every member satisfies the predicate.
    public func all(_ variable: String = "x", _ predicate: (ODataLambdaVariable) -> ODataExpression)
        -> ODataExpression
    {
        lambda(.all, variable, predicate(ODataLambdaVariable(name: variable)))
    }

    private func lambda(_ kind: LambdaKind, _ variable: String, _ predicate: ODataExpression?) -> ODataExpression {
        guard case .property(let path) = node else {
            return ODataExpression(.invalid(.invalidValue("\(kind.rawValue) needs a collection property")))
        }
        return ODataExpression(
            .lambda(collection: path, kind: kind, variable: variable, predicate: predicate?.operand))
    }
}

/// The range variable of an `any`/`all` lambda.
public struct ODataLambdaVariable: Sendable {
    /// The variable's name.
    public let name: String

    /// The member itself (for collections of primitive values): `t` in `Tags/any(t:t eq 'x')`.
    public var value: ODataExpression { .property(name) }

    /// A property of the member: `o/Quantity`.
    public func property(_ path: String) -> ODataExpression { .property("\(name)/\(path)") }
}

// MARK: Swift operators

extension ODataExpression {
    /// `lhs eq rhs`.
    public static func == (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.eq(rhs) }
    /// `lhs eq rhs` with a literal.
    public static func == (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.eq(.literal(rhs))
    }
    /// `lhs ne rhs`.
    public static func != (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.ne(rhs) }
    /// `lhs ne rhs` with a literal.
    public static func != (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.ne(.literal(rhs))
    }
    /// `lhs gt rhs`.
    public static func > (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.gt(rhs) }
    /// `lhs gt rhs` with a literal.
    public static func > (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.gt(.literal(rhs))
    }
    /// `lhs ge rhs`.
    public static func >= (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.ge(rhs) }
    /// `lhs ge rhs` with a literal.
    public static func >= (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.ge(.literal(rhs))
    }
    /// `lhs lt rhs`.
    public static func < (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.lt(rhs) }
    /// `lhs lt rhs` with a literal.
    public static func < (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.lt(.literal(rhs))
    }
    /// `lhs le rhs`.
    public static func <= (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.le(rhs) }
    /// `lhs le rhs` with a literal.
    public static func <= (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.le(.literal(rhs))
    }
    /// `lhs and rhs`.
    public static func && (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.and(rhs) }
    /// `lhs or rhs`.
    public static func || (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.or(rhs) }
    /// `not operand`.
    public static prefix func ! (operand: ODataExpression) -> ODataExpression { operand.not }
    /// `lhs add rhs`.
    public static func + (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.add(rhs) }
    /// `lhs add rhs` with a literal.
    public static func + (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.add(.literal(rhs))
    }
    /// `lhs sub rhs`.
    public static func - (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.sub(rhs) }
    /// `lhs sub rhs` with a literal.
    public static func - (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.sub(.literal(rhs))
    }
    /// `lhs mul rhs`.
    public static func * (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.mul(rhs) }
    /// `lhs mul rhs` with a literal.
    public static func * (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.mul(.literal(rhs))
    }
    /// `lhs div rhs`.
    public static func / (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.div(rhs) }
    /// `lhs div rhs` with a literal.
    public static func / (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.div(.literal(rhs))
    }
    /// `lhs mod rhs`.
    public static func % (lhs: ODataExpression, rhs: ODataExpression) -> ODataExpression { lhs.mod(rhs) }
    /// `lhs mod rhs` with a literal.
    public static func % (lhs: ODataExpression, rhs: some ODataLiteralConvertible) -> ODataExpression {
        lhs.mod(.literal(rhs))
    }
    /// `-operand`.
    public static prefix func - (operand: ODataExpression) -> ODataExpression { operand.negated }
}
