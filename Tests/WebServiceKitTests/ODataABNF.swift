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

    /// Every end position of a match of `self` in `input` from `start`.
    func ends(in input: [UInt8], from start: Int, grammar: ODataABNF) -> Set<Int> {
        switch self {
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
                for position in positions { next.formUnion(rule.ends(in: input, from: position, grammar: grammar)) }
                positions = next
                if positions.isEmpty { return [] }
            }
            return positions
        case .choice(let rules):
            var positions: Set<Int> = []
            for rule in rules { positions.formUnion(rule.ends(in: input, from: start, grammar: grammar)) }
            return positions
        case .repeated(let rule, let min, let max):
            var result: Set<Int> = min == 0 ? [start] : []
            var frontier: Set<Int> = [start]
            var count = 0
            while !frontier.isEmpty, max.map({ count < $0 }) ?? true {
                var next: Set<Int> = []
                for position in frontier { next.formUnion(rule.ends(in: input, from: position, grammar: grammar)) }
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
            guard let rule = grammar.rules[name] else { preconditionFailure("no ABNF rule \(name)") }
            return rule.ends(in: input, from: start, grammar: grammar)
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
}

/// The rules, by ABNF name.
struct ODataABNF: Sendable {
    var rules: [String: ABNFRule] = [:]

    /// Whether all of `text` matches the rule `name`.
    func matches(_ name: String, _ text: String) -> Bool {
        let input = Array(text.utf8)
        return ABNFRule.named(name).ends(in: input, from: 0, grammar: self).contains(input.count)
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
        // 4. Expressions, narrowed to a property path, a string or integer literal, and the
        // custom function call with named parameters (`functionExpr`, `functionExprParameters`).
        g.rules["memberPath"] = seq(r("odataIdentifier"), many(seq(s("/"), r("odataIdentifier"))))
        g.rules["parameterValue"] = alt(r("stringLiteral"), r("int64Literal"), r("memberPath"))
        g.rules["functionExprParameter"] = seq(r("odataIdentifier"), r("EQ"), r("parameterValue"))
        g.rules["functionExprParameters"] = seq(
            r("OPEN"),
            opt(seq(r("BWS"), r("functionExprParameter"), many(seq(r("BWS"), r("COMMA"), r("BWS"), r("functionExprParameter"))))),
            r("BWS"), r("CLOSE"))
        g.rules["functionExpr"] = seq(opt(seq(r("namespace"), s("."))), r("odataIdentifier"), r("functionExprParameters"))
        // 2. Query options: $expand, narrowed to navigation properties with `$expand`, `$select`
        // and `$top` inside (`expandItem`, `expandPath`, `expandOption`).
        g.rules["expand"] = seq(alt(s("$expand"), s("expand")), r("EQ"), r("expandItem"), many(seq(r("COMMA"), r("expandItem"))))
        g.rules["expandItem"] = alt(r("expandPath"), seq(r("qualifiedName"), s("/"), r("expandPath")))
        g.rules["expandPath"] = alt(
            seq(r("STAR"), opt(cs("/$ref"))),
            seq(
                r("odataIdentifier"), opt(seq(s("/"), r("qualifiedName"))),
                opt(alt(cs("/$ref"), cs("/$count"), seq(r("OPEN"), r("expandOption"), many(seq(r("SEMI"), r("expandOption"))), r("CLOSE"))))))
        g.rules["expandOption"] = alt(
            r("expand"), seq(alt(s("$select"), s("select")), r("EQ"), r("odataIdentifier"), many(seq(r("COMMA"), r("odataIdentifier")))),
            seq(alt(s("$top"), s("top")), r("EQ"), many(r("DIGIT"), 1)))
        return g
    }
}
