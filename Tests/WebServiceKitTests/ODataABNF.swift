/// A matcher for rules of the OData ABNF (OData ABNF Construction Rules Version 4.01), the
/// grammar the issue's acceptance names as the oracle for the URL builder.
///
/// Only the rules the builder's tests check are here, each named as in the ABNF and built
/// from its definition there; rules the tests do not need in full (`commonExpr`) are narrowed
/// to the forms the tests write, and say so. The matcher follows ABNF semantics, not PEG: a
/// rule yields every position where a match can end, so alternatives and repetitions backtrack
/// as RFC 5234 reads them. Quoted strings match without case (RFC 5234 §2.3) and `%s"…"` with
/// case (RFC 7405). The text is matched as the builder sends it: percent-encoded, which the
/// ABNF's rules allow for wherever they allow it (`SIGN = "%2B" / "-"`, `RWS` with `%20`).
indirect enum ABNFRule: Sendable {
    case string(String, caseSensitive: Bool)
    case range(UInt8, UInt8)
    case sequence([ABNFRule])
    case choice([ABNFRule])
    case repeated(ABNFRule, min: Int, max: Int?)
    /// A rule defined later or recursively.
    case named(String)

}

/// One match of a rule against one text: every end position of each rule tried at each
/// position is kept, so a rule reached again at the same position (through another
/// alternative, or recursively) costs nothing more.
final class ABNFMatch {
    let input: [UInt8]
    let grammar: ODataABNF
    private var memo: [String: [Int: Set<Int>]] = [:]

    init(_ text: String, grammar: ODataABNF) {
        input = Array(text.utf8)
        self.grammar = grammar
    }

    /// Every end position of a match of `rule` from `start`.
    func ends(_ rule: ABNFRule, from start: Int) -> Set<Int> {
        switch rule {
        case .string(let text, let caseSensitive):
            let bytes = Array(text.utf8)
            guard start + bytes.count <= input.count else { return [] }
            for (offset, byte) in bytes.enumerated() {
                let other = input[start + offset]
                let same = caseSensitive ? other == byte : Self.lower(other) == Self.lower(byte)
                if !same { return [] }
            }
            return [start + bytes.count]
        case .range(let low, let high):
            guard start < input.count, (low...high).contains(input[start]) else { return [] }
            return [start + 1]
        case .sequence(let rules):
            var positions: Set<Int> = [start]
            for rule in rules {
                var next: Set<Int> = []
                for position in positions { next.formUnion(ends(rule, from: position)) }
                positions = next
                if positions.isEmpty { return [] }
            }
            return positions
        case .choice(let rules):
            var positions: Set<Int> = []
            for rule in rules { positions.formUnion(ends(rule, from: start)) }
            return positions
        case .repeated(let rule, let min, let max):
            var result: Set<Int> = min == 0 ? [start] : []
            var frontier: Set<Int> = [start]
            var count = 0
            while !frontier.isEmpty, max.map({ count < $0 }) ?? true {
                var next: Set<Int> = []
                for position in frontier { next.formUnion(ends(rule, from: position)) }
                count += 1
                if count >= min {
                    // A position reached before, with at least as many repetitions left, adds
                    // nothing; dropping it also ends a loop of empty matches.
                    next.subtract(result)
                    result.formUnion(next)
                }
                frontier = next
            }
            return result
        case .named(let name):
            if let known = memo[name]?[start] { return known }
            guard let rule = grammar.rules[name] else { preconditionFailure("no ABNF rule \(name)") }
            // No rule here is left-recursive, so a rule is never reached again at the same
            // position before its own match there is known.
            let result = ends(rule, from: start)
            memo[name, default: [:]][start] = result
            return result
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
}

/// The rules, by ABNF name.
struct ODataABNF: Sendable {
    var rules: [String: ABNFRule] = [:]

    /// Whether all of `text` matches the rule `name`.
    func matches(_ name: String, _ text: String) -> Bool {
        let match = ABNFMatch(text, grammar: self)
        return match.ends(.named(name), from: 0).contains(match.input.count)
    }

    static let shared = ODataABNF.make()

    // swift-format-ignore
    private static func make() -> ODataABNF {
        func s(_ text: String) -> ABNFRule { .string(text, caseSensitive: false) }
        func cs(_ text: String) -> ABNFRule { .string(text, caseSensitive: true) }
        func r(_ name: String) -> ABNFRule { .named(name) }
        func seq(_ rules: ABNFRule...) -> ABNFRule { .sequence(rules) }
        func alt(_ rules: ABNFRule...) -> ABNFRule { .choice(rules) }
        func opt(_ rule: ABNFRule) -> ABNFRule { .repeated(rule, min: 0, max: 1) }
        func many(_ rule: ABNFRule, _ min: Int = 0, _ max: Int? = nil) -> ABNFRule {
            .repeated(rule, min: min, max: max)
        }
        func chars(_ text: String) -> ABNFRule { .choice(text.utf8.map { .range($0, $0) }) }
        var g = ODataABNF()
        // C. Core rules (RFC 5234 appendix B), as the OData ABNF restates them.
        g.rules["ALPHA"] = alt(.range(0x41, 0x5A), .range(0x61, 0x7A))
        g.rules["DIGIT"] = .range(0x30, 0x39)
        g.rules["A-to-F"] = alt(s("A"), s("B"), s("C"), s("D"), s("E"), s("F"))
        g.rules["HEXDIG"] = alt(r("DIGIT"), r("A-to-F"))
        g.rules["DQUOTE"] = .range(0x22, 0x22)
        g.rules["SP"] = .range(0x20, 0x20)
        g.rules["HTAB"] = .range(0x09, 0x09)
        // 9. Punctuation.
        g.rules["RWS"] = many(alt(r("SP"), r("HTAB"), s("%20"), s("%09")), 1)
        g.rules["BWS"] = many(alt(r("SP"), r("HTAB"), s("%20"), s("%09")))
        g.rules["AT"] = alt(s("@"), s("%40"))
        g.rules["COLON"] = alt(s(":"), s("%3A"))
        g.rules["COMMA"] = alt(s(","), s("%2C"))
        g.rules["EQ"] = s("=")
        g.rules["SIGN"] = alt(s("%2B"), s("-"))
        g.rules["SEMI"] = alt(s(";"), s("%3B"))
        g.rules["STAR"] = alt(s("*"), s("%2A"))
        g.rules["SQUOTE"] = alt(s("'"), s("%27"))
        g.rules["OPEN"] = alt(s("("), s("%28"))
        g.rules["CLOSE"] = alt(s(")"), s("%29"))
        // A. URI syntax (RFC 3986) and the OData character classes.
        g.rules["unreserved"] = alt(r("ALPHA"), r("DIGIT"), chars("-._~"))
        g.rules["pct-encoded"] = seq(s("%"), r("HEXDIG"), r("HEXDIG"))
        g.rules["other-delims"] = chars("!()*+,;")
        g.rules["pct-encoded-no-SQUOTE"] = alt(
            seq(s("%"), alt(chars("01345689"), r("A-to-F")), r("HEXDIG")),
            seq(s("%"), s("2"), alt(chars("012345689"), r("A-to-F"))))
        g.rules["pct-encoded-no-DQUOTE"] = alt(
            seq(s("%"), alt(chars("013456789"), r("A-to-F")), r("HEXDIG")),
            seq(s("%"), s("2"), alt(chars("013456789"), r("A-to-F"))))
        g.rules["pchar-no-SQUOTE"] = alt(
            r("unreserved"), r("pct-encoded-no-SQUOTE"), r("other-delims"), chars("$&=:@"))
        g.rules["qchar-no-AMP-EQ"] = alt(r("unreserved"), r("pct-encoded"), r("other-delims"), chars(":@/?$'"))
        g.rules["qchar-no-AMP-EQ-AT-DOLLAR"] = alt(r("unreserved"), r("pct-encoded"), r("other-delims"), chars(":/?'"))
        g.rules["qchar-no-AMP-DQUOTE"] = alt(
            r("unreserved"), r("pct-encoded-no-DQUOTE"), r("other-delims"), chars(":@/?$'="))
        // 6. Names (odataIdentifier narrowed to ASCII, as the ABNF itself writes it).
        g.rules["odataIdentifier"] = seq(alt(r("ALPHA"), s("_")), many(alt(r("ALPHA"), s("_"), r("DIGIT")), 0, 127))
        g.rules["namespace"] = seq(r("odataIdentifier"), many(seq(s("."), r("odataIdentifier"))))
        g.rules["qualifiedName"] = seq(r("namespace"), s("."), r("odataIdentifier"))
        // 7. Literals.
        g.rules["stringLiteral"] = seq(r("SQUOTE"), many(alt(seq(r("SQUOTE"), r("SQUOTE")), r("pchar-no-SQUOTE"))), r("SQUOTE"))
        g.rules["oneToNine"] = .range(0x31, 0x39)
        g.rules["zeroToFiftyNine"] = seq(chars("012345"), r("DIGIT"))
        g.rules["year"] = seq(opt(s("-")), alt(seq(s("0"), many(r("DIGIT"), 3, 3)), seq(r("oneToNine"), many(r("DIGIT"), 3))))
        g.rules["month"] = alt(seq(s("0"), r("oneToNine")), seq(s("1"), chars("012")))
        g.rules["day"] = alt(seq(s("0"), r("oneToNine")), seq(chars("12"), r("DIGIT")), seq(s("3"), chars("01")))
        g.rules["hour"] = alt(seq(chars("01"), r("DIGIT")), seq(s("2"), chars("0123")))
        g.rules["minute"] = r("zeroToFiftyNine")
        g.rules["second"] = alt(r("zeroToFiftyNine"), s("60"))
        g.rules["fractionalSeconds"] = many(r("DIGIT"), 1, 12)
        g.rules["date"] = seq(r("year"), s("-"), r("month"), s("-"), r("day"))
        g.rules["timeOfDayLiteral"] = seq(
            r("hour"), r("COLON"), r("minute"), opt(seq(r("COLON"), r("second"), opt(seq(s("."), r("fractionalSeconds"))))))
        g.rules["dateTimeOffsetLiteral"] = seq(
            r("date"), s("T"), r("timeOfDayLiteral"), alt(s("Z"), seq(r("SIGN"), r("hour"), r("COLON"), r("minute"))))
        g.rules["int64Literal"] = seq(opt(r("SIGN")), many(r("DIGIT"), 1, 19))
        // 2. Query options: custom options.
        g.rules["customName"] = seq(r("qchar-no-AMP-EQ-AT-DOLLAR"), many(r("qchar-no-AMP-EQ")))
        // 2. Query options: $search.
        g.rules["quotation-mark"] = alt(r("DQUOTE"), s("%22"))
        g.rules["searchExpr"] = seq(
            alt(r("searchParenExpr"), r("searchNegateExpr"), r("searchPhrase"), r("searchWord")),
            opt(alt(r("searchOrExpr"), r("searchAndExpr"))))
        g.rules["searchParenExpr"] = seq(r("OPEN"), r("BWS"), r("searchExpr"), r("BWS"), r("CLOSE"))
        g.rules["searchNegateExpr"] = seq(cs("NOT"), r("RWS"), r("searchExpr"))
        g.rules["searchOrExpr"] = seq(r("RWS"), cs("OR"), r("RWS"), r("searchExpr"))
        g.rules["searchAndExpr"] = seq(r("RWS"), opt(seq(cs("AND"), r("RWS"))), r("searchExpr"))
        g.rules["searchPhrase"] = seq(
            r("quotation-mark"), many(alt(r("qchar-no-AMP-DQUOTE"), r("SP")), 1), r("quotation-mark"))
        g.rules["searchChar"] = alt(r("unreserved"), r("pct-encoded-no-DQUOTE"), chars("!*+,:@/?$="))
        g.rules["searchWord"] = seq(r("searchChar"), many(alt(r("searchChar"), r("SQUOTE"))))
        // Section A: the characters of a path segment and of a query.
        g.rules["sub-delims"] = alt(chars("$&'="), r("other-delims"))
        g.rules["pchar"] = alt(r("unreserved"), r("pct-encoded"), r("sub-delims"), chars(":@"))
        g.rules["qchar-no-AMP"] = alt(r("unreserved"), r("pct-encoded"), r("other-delims"), chars(":@/?$'="))
        // 7. Literals, without the geography and geometry ones.
        g.rules["null"] = cs("null")
        g.rules["boolean"] = alt(s("true"), s("false"))
        g.rules["guid"] = seq(
            many(r("HEXDIG"), 8, 8), s("-"), many(r("HEXDIG"), 4, 4), s("-"), many(r("HEXDIG"), 4, 4), s("-"),
            many(r("HEXDIG"), 4, 4), s("-"), many(r("HEXDIG"), 12, 12))
        g.rules["nanInfinity"] = alt(cs("NaN"), cs("-INF"), cs("INF"))
        g.rules["decimalLiteral"] = alt(
            seq(opt(r("SIGN")), many(r("DIGIT"), 1), opt(seq(s("."), many(r("DIGIT"), 1))),
                opt(seq(s("e"), opt(r("SIGN")), many(r("DIGIT"), 1)))),
            r("nanInfinity"))
        g.rules["durationValue"] = seq(
            opt(s("-")), s("P"), opt(seq(many(r("DIGIT"), 1), s("D"))),
            opt(seq(s("T"), opt(seq(many(r("DIGIT"), 1), s("H"))), opt(seq(many(r("DIGIT"), 1), s("M"))),
                opt(seq(many(r("DIGIT"), 1), opt(seq(s("."), many(r("DIGIT"), 1))), s("S"))))))
        g.rules["durationLiteral"] = seq(opt(s("duration")), r("SQUOTE"), r("durationValue"), r("SQUOTE"))
        g.rules["singleEnumLiteral"] = alt(r("odataIdentifier"), r("int64Literal"))
        g.rules["enumLiteral"] = seq(
            opt(r("qualifiedName")), r("SQUOTE"), r("singleEnumLiteral"), many(seq(r("COMMA"), r("singleEnumLiteral"))),
            r("SQUOTE"))
        g.rules["base64char"] = alt(r("ALPHA"), r("DIGIT"), chars("-_"))
        g.rules["binaryLiteral"] = seq(s("binary"), r("SQUOTE"), many(r("base64char")), opt(many(s("="), 1, 2)), r("SQUOTE"))
        g.rules["primitiveLiteral"] = alt(
            r("null"), r("boolean"), r("guid"), r("dateTimeOffsetLiteral"), r("date"), r("timeOfDayLiteral"),
            r("decimalLiteral"), r("stringLiteral"), r("durationLiteral"), r("enumLiteral"), r("binaryLiteral"))
        // 4. Expressions. Narrowed: no `$root`, no JSON arrays or objects, no annotations, and the
        // canonical functions share one rule without their arities.
        g.rules["commonExpr"] = seq(
            alt(r("primitiveLiteral"), r("functionExpr"), r("negateExpr"), r("methodCallExpr"), r("parenExpr"),
                r("castExpr"), r("isofExpr"), r("notExpr"), r("firstMemberExpr")),
            opt(alt(r("addExpr"), r("subExpr"), r("mulExpr"), r("divExpr"), r("divbyExpr"), r("modExpr"))),
            opt(alt(r("eqExpr"), r("neExpr"), r("ltExpr"), r("leExpr"), r("gtExpr"), r("geExpr"), r("hasExpr"),
                r("inExpr"))),
            opt(alt(r("andExpr"), r("orExpr"))))
        g.rules["boolCommonExpr"] = r("commonExpr")
        for op in ["add", "sub", "mul", "div", "divby", "mod", "eq", "ne", "lt", "le", "gt", "ge"] {
            g.rules[op + "Expr"] = seq(r("RWS"), s(op), r("RWS"), r("commonExpr"))
        }
        g.rules["andExpr"] = seq(r("RWS"), s("and"), r("RWS"), r("boolCommonExpr"))
        g.rules["orExpr"] = seq(r("RWS"), s("or"), r("RWS"), r("boolCommonExpr"))
        g.rules["hasExpr"] = seq(r("RWS"), s("has"), r("RWS"), r("enumLiteral"))
        g.rules["inExpr"] = seq(r("RWS"), s("in"), r("RWS"), alt(r("listExpr"), r("commonExpr")))
        g.rules["listExpr"] = seq(
            r("OPEN"), r("BWS"),
            opt(seq(r("primitiveLiteral"), r("BWS"), many(seq(r("COMMA"), r("BWS"), r("primitiveLiteral"), r("BWS"))))),
            r("CLOSE"))
        g.rules["parenExpr"] = seq(r("OPEN"), r("BWS"), r("commonExpr"), r("BWS"), r("CLOSE"))
        g.rules["negateExpr"] = seq(s("-"), r("BWS"), r("commonExpr"))
        g.rules["notExpr"] = seq(s("not"), r("RWS"), r("boolCommonExpr"))
        g.rules["optionallyQualifiedTypeName"] = alt(r("qualifiedName"), r("odataIdentifier"))
        for name in ["cast", "isof"] {
            g.rules[name + "Expr"] = seq(
                s(name), r("OPEN"), r("BWS"), opt(seq(r("commonExpr"), r("BWS"), r("COMMA"), r("BWS"))),
                r("optionallyQualifiedTypeName"), r("BWS"), r("CLOSE"))
        }
        let methods = [
            "concat", "contains", "endswith", "indexof", "length", "matchesPattern", "startswith", "substring",
            "tolower", "toupper", "trim", "year", "month", "day", "hour", "minute", "second", "fractionalseconds",
            "totalseconds", "date", "time", "totaloffsetminutes", "mindatetime", "maxdatetime", "now", "round",
            "floor", "ceiling", "geo.distance", "geo.length", "geo.intersects", "hassubset", "hassubsequence",
        ]
        g.rules["methodCallExpr"] = seq(
            .choice(methods.map(s)), r("OPEN"), r("BWS"),
            opt(seq(r("commonExpr"), r("BWS"), many(seq(r("COMMA"), r("BWS"), r("commonExpr"), r("BWS"))))),
            r("CLOSE"))
        g.rules["memberSegment"] = alt(r("odataIdentifier"), r("qualifiedName"))
        g.rules["firstMemberExpr"] = seq(
            alt(r("memberSegment"), cs("$it"), cs("$this")), many(seq(s("/"), r("memberSegment"))),
            opt(alt(seq(s("/"), r("anyExpr")), seq(s("/"), r("allExpr")), cs("/$count"))))
        g.rules["anyExpr"] = seq(
            s("any"), r("OPEN"), r("BWS"),
            opt(seq(r("odataIdentifier"), r("BWS"), r("COLON"), r("BWS"), r("boolCommonExpr"))), r("BWS"), r("CLOSE"))
        g.rules["allExpr"] = seq(
            s("all"), r("OPEN"), r("BWS"), r("odataIdentifier"), r("BWS"), r("COLON"), r("BWS"), r("boolCommonExpr"),
            r("BWS"), r("CLOSE"))
        g.rules["parameterValue"] = r("commonExpr")
        g.rules["functionExprParameter"] = seq(r("odataIdentifier"), r("EQ"), r("parameterValue"))
        g.rules["functionExprParameters"] = seq(
            r("OPEN"),
            opt(seq(r("BWS"), r("functionExprParameter"), many(seq(r("BWS"), r("COMMA"), r("BWS"), r("functionExprParameter"))))),
            r("BWS"), r("CLOSE"))
        g.rules["functionExpr"] = seq(opt(seq(r("namespace"), s("."))), r("odataIdentifier"), r("functionExprParameters"))
        // 2. Query options. Narrowed: no `$apply`, `$skiptoken`, `$deltatoken`, `$index`,
        // `$schemaversion`, aliases or `$select` options.
        func option(_ name: String, _ value: ABNFRule) -> ABNFRule { seq(alt(s("$" + name), s(name)), r("EQ"), value) }
        g.rules["filter"] = option("filter", r("boolCommonExpr"))
        g.rules["orderbyItem"] = seq(r("commonExpr"), opt(seq(r("RWS"), alt(s("asc"), s("desc")))))
        g.rules["orderby"] = option("orderby", seq(r("orderbyItem"), many(seq(r("COMMA"), r("orderbyItem")))))
        g.rules["top"] = option("top", many(r("DIGIT"), 1))
        g.rules["skip"] = option("skip", many(r("DIGIT"), 1))
        g.rules["inlinecount"] = option("count", r("boolean"))
        g.rules["search"] = option("search", seq(r("BWS"), r("searchExpr")))
        g.rules["format"] = option(
            "format", alt(s("atom"), s("json"), s("xml"), seq(many(r("pchar"), 1), s("/"), many(r("pchar"), 1))))
        g.rules["selectItem"] = alt(
            r("STAR"), seq(r("namespace"), s("."), r("STAR")),
            seq(r("memberSegment"), many(seq(s("/"), r("memberSegment")))))
        g.rules["select"] = option("select", seq(r("selectItem"), many(seq(r("COMMA"), r("selectItem")))))
        g.rules["computeItem"] = seq(r("commonExpr"), r("RWS"), s("as"), r("RWS"), r("odataIdentifier"))
        g.rules["compute"] = option("compute", seq(r("computeItem"), many(seq(r("COMMA"), r("computeItem")))))
        g.rules["levels"] = option("levels", alt(seq(r("oneToNine"), many(r("DIGIT"))), s("max")))
        g.rules["expand"] = option("expand", seq(r("expandItem"), many(seq(r("COMMA"), r("expandItem")))))
        g.rules["expandItem"] = alt(cs("$value"), r("expandPath"), seq(r("qualifiedName"), s("/"), r("expandPath")))
        g.rules["expandOptions"] = seq(r("OPEN"), r("expandOption"), many(seq(r("SEMI"), r("expandOption"))), r("CLOSE"))
        g.rules["expandPath"] = alt(
            seq(r("STAR"), opt(alt(cs("/$ref"), seq(r("OPEN"), r("levels"), r("CLOSE"))))),
            seq(
                r("odataIdentifier"), opt(seq(s("/"), r("qualifiedName"))),
                opt(alt(seq(cs("/$ref"), opt(r("expandOptions"))), seq(cs("/$count"), opt(r("expandOptions"))), r("expandOptions")))),
            // A complex property or a type cast leading to the navigation property: the grammar
            // cannot tell a complex property from a navigation property, so `A/B` passes here.
            seq(r("memberSegment"), s("/"), r("expandPath")))
        g.rules["expandOption"] = alt(
            r("filter"), r("search"), r("orderby"), r("skip"), r("top"), r("inlinecount"), r("select"), r("expand"),
            r("compute"), r("levels"))
        g.rules["systemQueryOption"] = alt(
            r("compute"), r("expand"), r("filter"), r("format"), r("inlinecount"), r("orderby"), r("search"),
            r("select"), r("skip"), r("top"))
        g.rules["customQueryOption"] = seq(r("customName"), opt(seq(r("EQ"), many(r("qchar-no-AMP")))))
        g.rules["queryOption"] = alt(r("systemQueryOption"), r("customQueryOption"))
        g.rules["queryOptions"] = seq(r("queryOption"), many(seq(s("&"), r("queryOption"))))
        // 1. Resource path. Narrowed: entity sets, keys, navigation and type-cast segments,
        // `$count`, `$ref` and `$value`; no operations, `$filter` or `$each` segments.
        g.rules["keyPropertyValue"] = alt(
            r("boolean"), r("guid"), r("dateTimeOffsetLiteral"), r("date"), r("timeOfDayLiteral"), r("decimalLiteral"),
            r("stringLiteral"), r("durationLiteral"), r("enumLiteral"))
        g.rules["keyValuePair"] = seq(r("odataIdentifier"), r("EQ"), r("keyPropertyValue"))
        g.rules["keyPredicate"] = alt(
            seq(r("OPEN"), r("keyPropertyValue"), r("CLOSE")),
            seq(r("OPEN"), r("keyValuePair"), many(seq(r("COMMA"), r("keyValuePair"))), r("CLOSE")),
            many(seq(s("/"), many(r("pchar"))), 1))
        g.rules["resourcePath"] = seq(
            r("odataIdentifier"), opt(r("keyPredicate")), many(seq(s("/"), r("memberSegment"), opt(r("keyPredicate")))),
            opt(alt(cs("/$count"), cs("/$ref"), cs("/$value"))))
        g.rules["odataRelativeUri"] = seq(r("resourcePath"), opt(seq(s("?"), opt(r("queryOptions")))))
        return g
    }
}
