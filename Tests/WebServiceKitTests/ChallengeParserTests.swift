import WebServiceKit
import XCTest

final class ChallengeParserTests: XCTestCase {
    // MARK: - Helpers

    private func parse(
        _ values: [String], file: StaticString = #filePath, line: UInt = #line
    ) -> [AuthenticationChallenge] {
        do {
            return try AuthenticationChallenge.parse(values)
        } catch {
            XCTFail("\(values): \(error)", file: file, line: line)
            return []
        }
    }

    private func parse(_ value: String, file: StaticString = #filePath, line: UInt = #line) -> [AuthenticationChallenge]
    {
        parse([value], file: file, line: line)
    }

    /// Parses `values`, expecting a ``ChallengeParseError``, and returns it.
    private func parseError(
        _ values: [String], file: StaticString = #filePath, line: UInt = #line
    ) -> ChallengeParseError? {
        do {
            let challenges = try AuthenticationChallenge.parse(values)
            XCTFail("\(values) parsed as \(challenges)", file: file, line: line)
            return nil
        } catch {
            // `error` is a ChallengeParseError: the function has a typed throw.
            XCTAssertFalse(error.description.isEmpty, file: file, line: line)
            return error
        }
    }

    private func parseError(_ value: String, file: StaticString = #filePath, line: UInt = #line)
        -> ChallengeParseError?
    {
        parseError([value], file: file, line: line)
    }

    private static let rfc7616Nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
    private static let rfc7616Opaque = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"

    private static func rfc7616Challenge(algorithm: String) -> String {
        #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm="#
            + algorithm + #", nonce="\#(rfc7616Nonce)", opaque="\#(rfc7616Opaque)""#
    }

    private static func rfc7616Expected(algorithm: String) -> AuthenticationChallenge {
        AuthenticationChallenge(
            scheme: "Digest",
            parameters: [
                "realm": "http-auth@example.org", "qop": "auth, auth-int", "algorithm": algorithm,
                "nonce": rfc7616Nonce, "opaque": rfc7616Opaque,
            ])
    }

    // MARK: - RFC examples

    func testRFC7616DigestChallengesJoinedInOneValue() {
        // Foundation on Linux joins the two WWW-Authenticate fields with ", ".
        let value = Self.rfc7616Challenge(algorithm: "SHA-256") + ", " + Self.rfc7616Challenge(algorithm: "MD5")
        let challenges = parse(value)
        XCTAssertEqual(
            challenges, [Self.rfc7616Expected(algorithm: "SHA-256"), Self.rfc7616Expected(algorithm: "MD5")])
        XCTAssertEqual(challenges.first?.scheme, "Digest")
        XCTAssertEqual(challenges.first?[parameter: "qop"], "auth, auth-int")
        XCTAssertNil(challenges.first?.token68)
    }

    func testRFC7616DigestChallengesInTwoFields() {
        let challenges = parse([Self.rfc7616Challenge(algorithm: "SHA-256"), Self.rfc7616Challenge(algorithm: "MD5")])
        XCTAssertEqual(
            challenges, [Self.rfc7616Expected(algorithm: "SHA-256"), Self.rfc7616Expected(algorithm: "MD5")])
        XCTAssertEqual(challenges.map { $0[parameter: "algorithm"] }, ["SHA-256", "MD5"])
    }

    func testRFC7616Section3_9_1AsMultiLineFields() {
        // The example as printed in the RFC, with its line folding turned into spaces.
        let value = """
            Digest realm="http-auth@example.org",    qop="auth, auth-int",    algorithm=SHA-256,    \
            nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",    \
            opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
            """
        XCTAssertEqual(parse(value), [Self.rfc7616Expected(algorithm: "SHA-256")])
    }

    func testRFC7616SHA512256ChallengeWithUnquotedCharsetAndUserhash() {
        let value =
            #"Digest realm="api@example.org", qop="auth", algorithm=SHA-512-256, "#
            + #"nonce="5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK", "#
            + #"opaque="HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS", charset=UTF-8, userhash=true"#
        let challenge = parse(value).first
        XCTAssertEqual(challenge?[parameter: "algorithm"], "SHA-512-256")
        XCTAssertEqual(challenge?[parameter: "nonce"], "5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK")
        XCTAssertEqual(challenge?[parameter: "charset"], "UTF-8")
        XCTAssertEqual(challenge?[parameter: "userhash"], "true")
        XCTAssertEqual(challenge?.parameters.count, 7)
    }

    func testRFC7617BasicChallenge() {
        XCTAssertEqual(
            parse(#"Basic realm="WallyWorld""#),
            [AuthenticationChallenge(scheme: "Basic", parameters: ["realm": "WallyWorld"])])
    }

    func testRFC7617BasicChallengeWithCharset() {
        let challenges = parse(#"Basic realm="foo", charset="UTF-8""#)
        XCTAssertEqual(challenges.count, 1)
        XCTAssertEqual(challenges.first?[parameter: "realm"], "foo")
        XCTAssertEqual(challenges.first?[parameter: "charset"], "UTF-8")
        XCTAssertEqual(parse(#"Basic realm="WallyWorld", charset="UTF-8""#).first?.parameters.count, 2)
    }

    // MARK: - Server-style challenges

    func testHttpbinDigestChallenge() {
        let value =
            #"Digest realm="me@kennethreitz.com", nonce="8f1c2a7b1f0e4a6d9c3b5e7f1a2b3c4d", qop="auth", "#
            + #"opaque="d41d8cd98f00b204e9800998ecf8427e", algorithm=MD5, stale=FALSE"#
        XCTAssertEqual(
            parse(value),
            [
                AuthenticationChallenge(
                    scheme: "Digest",
                    parameters: [
                        "realm": "me@kennethreitz.com", "nonce": "8f1c2a7b1f0e4a6d9c3b5e7f1a2b3c4d", "qop": "auth",
                        "opaque": "d41d8cd98f00b204e9800998ecf8427e", "algorithm": "MD5", "stale": "FALSE",
                    ])
            ])
    }

    func testHttpbinDigestChallengeWithAuthIntAndSHA256() {
        let value =
            #"Digest realm="me@kennethreitz.com", nonce="0a4f113b", qop="auth-int", "#
            + #"opaque="5ccc069c403ebaf9f0171e9517f40e41", algorithm=SHA-256, stale=TRUE"#
        let challenge = parse(value).first
        XCTAssertEqual(challenge?[parameter: "qop"], "auth-int")
        XCTAssertEqual(challenge?[parameter: "algorithm"], "SHA-256")
        XCTAssertEqual(challenge?[parameter: "stale"], "TRUE")
    }

    func testUnquotedTokenValuesKeepTheirCase() {
        XCTAssertEqual(
            parseError("Digest realm=test, domain=/a")?.reason, .missingValue(parameter: "domain"),
            "`/a` is not a token: it must be quoted")
        let valid = parse("Digest realm=test, algorithm=MD5-sess, stale=TRUE").first
        XCTAssertEqual(valid?.parameters, ["realm": "test", "algorithm": "MD5-sess", "stale": "TRUE"])
    }

    func testBasicAndDigestOfferedTogether() {
        let challenges = parse(#"Basic realm="users", Digest realm="users", nonce="abc", qop="auth""#)
        XCTAssertEqual(challenges.map(\.scheme), ["Basic", "Digest"])
        XCTAssertEqual(challenges[0].parameters, ["realm": "users"])
        XCTAssertEqual(challenges[1].parameters, ["realm": "users", "nonce": "abc", "qop": "auth"])
    }

    // MARK: - Quoted strings

    func testQuotedValueWithCommasAndEquals() {
        let challenges = parse(#"Basic realm="a, b=c, Digest realm=d", charset="UTF-8""#)
        XCTAssertEqual(challenges.count, 1)
        XCTAssertEqual(challenges.first?[parameter: "realm"], "a, b=c, Digest realm=d")
        XCTAssertEqual(challenges.first?[parameter: "charset"], "UTF-8")
    }

    func testEscapedQuotesInQuotedValue() {
        let challenge = parse(#"Basic realm="a \"quoted\", realm""#).first
        XCTAssertEqual(challenge?[parameter: "realm"], #"a "quoted", realm"#)
    }

    func testQuotedPairsUnescapeAnyCharacter() {
        XCTAssertEqual(
            parse(#"X a="\\", b="\a\b\ c", c="x\"""#).first?.parameters, ["a": #"\"#, "b": "ab c", "c": #"x""#])
        XCTAssertEqual(parse("X a=\"\\\t\"").first?[parameter: "a"], "\t")
    }

    func testEmptyQuotedValueAndNonASCIIText() {
        XCTAssertEqual(parse(#"Basic realm="""#).first?[parameter: "realm"], "")
        XCTAssertEqual(parse(#"Basic realm="Wällyworld ☃""#).first?[parameter: "realm"], "Wällyworld ☃")
        XCTAssertEqual(parse(#"Basic realm="caf\é""#).first?[parameter: "realm"], "café")
    }

    // MARK: - Lists of challenges

    func testSeveralChallengesInOneValue() {
        let challenges = parse(#"Negotiate, NTLM, Basic realm="corp", Bearer realm="api", error="invalid_token""#)
        XCTAssertEqual(challenges.map(\.scheme), ["Negotiate", "NTLM", "Basic", "Bearer"])
        XCTAssertEqual(challenges[0], AuthenticationChallenge(scheme: "Negotiate"))
        XCTAssertEqual(challenges[3].parameters, ["realm": "api", "error": "invalid_token"])
    }

    func testSeveralFieldValues() {
        let values = [#"Basic realm="one""#, "Negotiate", #"Digest realm="two", nonce="n""#]
        let challenges = parse(values)
        XCTAssertEqual(challenges.map(\.scheme), ["Basic", "Negotiate", "Digest"])
        XCTAssertEqual(challenges[2][parameter: "nonce"], "n")
        // Foundation's joined form reads the same.
        XCTAssertEqual(parse(values.joined(separator: ", ")), challenges)
    }

    func testEmptyFieldValuesAmongOthersAreSkipped() {
        XCTAssertEqual(parse(["", #"Basic realm="a""#, " , "]).map(\.scheme), ["Basic"])
    }

    func testEmptyListElements() {
        let challenges = parse(#"Basic realm="a", , Digest realm="b""#)
        XCTAssertEqual(
            challenges,
            [
                AuthenticationChallenge(scheme: "Basic", parameters: ["realm": "a"]),
                AuthenticationChallenge(scheme: "Digest", parameters: ["realm": "b"]),
            ])
        XCTAssertEqual(parse(#", ,Basic realm="a",,, charset=UTF-8 ,,"#).first?.parameters.count, 2)
        XCTAssertEqual(parse("Negotiate,,NTLM,").map(\.scheme), ["Negotiate", "NTLM"])
    }

    func testSchemeAlone() {
        XCTAssertEqual(parse("Negotiate"), [AuthenticationChallenge(scheme: "Negotiate")])
        XCTAssertEqual(parse("  Negotiate \t"), [AuthenticationChallenge(scheme: "Negotiate")])
        XCTAssertEqual(parse("Negotiate").first?.parameters, [:])
        XCTAssertNil(parse("Negotiate").first?.token68)
    }

    func testParameterAfterBareSchemeBelongsToIt() {
        XCTAssertEqual(
            parse(#"Basic, realm="x""#), [AuthenticationChallenge(scheme: "Basic", parameters: ["realm": "x"])])
    }

    // MARK: - token68

    func testToken68WithPadding() {
        let challenges = parse("Bearer abc.def-ghi_jkl~+/==")
        XCTAssertEqual(challenges, [AuthenticationChallenge(scheme: "Bearer", token68: "abc.def-ghi_jkl~+/==")])
        XCTAssertEqual(challenges.first?.parameters, [:])
    }

    func testToken68FollowedByOtherChallenges() {
        let challenges = parse(#"Negotiate YIIBxw== , Basic realm="x", Custom dGVzdA, NTLM"#)
        XCTAssertEqual(challenges.map(\.token68), ["YIIBxw==", nil, "dGVzdA", nil])
        XCTAssertEqual(challenges.map(\.scheme), ["Negotiate", "Basic", "Custom", "NTLM"])
    }

    func testToken68VersusParameterWithEquals() {
        // `name=value` is a parameter; a run ending in `=` is a token68 when padded to a multiple of 4.
        XCTAssertEqual(parse("Custom abc=def").first?.parameters, ["abc": "def"])
        XCTAssertEqual(parse("Custom abc=").first?.token68, "abc=")
        XCTAssertEqual(parse("Custom dGVzdDE=").first?.token68, "dGVzdDE=")
        XCTAssertEqual(parse("Custom a = b").first?.parameters, ["a": "b"])
    }

    // MARK: - Case and whitespace

    func testSchemesAndParameterNamesAreCaseInsensitive() {
        let challenge = parse(#"dIgEsT REALM="R", Nonce="N", qop=auth"#).first
        XCTAssertEqual(challenge?.scheme, "dIgEsT")
        XCTAssertTrue(challenge?.hasScheme("Digest") == true)
        XCTAssertFalse(challenge?.hasScheme("Basic") == true)
        XCTAssertEqual(challenge?.parameters, ["realm": "R", "nonce": "N", "qop": "auth"])
        XCTAssertEqual(challenge?[parameter: "Realm"], "R")
        XCTAssertEqual(challenge?[parameter: "NONCE"], "N")
        XCTAssertEqual(parse("BASIC realm=x"), parse("basic REALM=x"))
        XCTAssertEqual(Set(parse("BASIC realm=x") + parse("Basic realm=x")).count, 1)
        XCTAssertNotEqual(parse("Basic realm=x"), parse("Basic realm=X"), "values are case-sensitive")
    }

    func testInitializerLowercasesParameterNames() {
        let challenge = AuthenticationChallenge(scheme: "Basic", parameters: ["Realm": "x", "CHARSET": "UTF-8"])
        XCTAssertEqual(challenge.parameters, ["realm": "x", "charset": "UTF-8"])
        XCTAssertEqual(challenge[parameter: "realm"], "x")
    }

    func testWhitespaceVariations() {
        let expected = [
            AuthenticationChallenge(scheme: "Digest", parameters: ["realm": "r", "nonce": "n", "qop": "auth"]),
            AuthenticationChallenge(scheme: "Basic", parameters: ["realm": "b"]),
        ]
        XCTAssertEqual(parse(#"Digest realm="r",nonce="n",qop=auth,Basic realm="b""#), expected)
        XCTAssertEqual(parse("Digest\trealm=\"r\"\t,\tnonce=\"n\" ,qop=auth\t,\t\tBasic\trealm=\"b\"\t"), expected)
        XCTAssertEqual(parse(#"  Digest   realm = "r" ,  nonce=  "n",qop  =auth ,   Basic  realm ="b"  "#), expected)
    }

    // MARK: - Errors

    func testEmptyInputIsAnError() {
        for values in [[], [""], ["   "], [" , ,, "], ["", "\t"]] {
            XCTAssertEqual(parseError(values)?.reason, .noChallenge, "\(values)")
        }
        XCTAssertTrue(parseError("")?.description.contains("empty header") == true)
    }

    func testLoneEqualsSign() {
        let error = parseError("=")
        XCTAssertEqual(error, ChallengeParseError(reason: .expectedToken(found: "="), fieldIndex: 0, byteOffset: 0))
        XCTAssertEqual(
            error?.description,
            "Invalid authentication challenge (field value 0, byte 0): expected an auth-scheme or a parameter name, "
                + "found '='")
    }

    func testUnterminatedQuotedString() {
        XCTAssertEqual(parseError(#""unterminated"#)?.reason, .expectedToken(found: "\""))
        let error = parseError(#"Basic realm="unterminated, charset=UTF-8"#)
        XCTAssertEqual(error?.reason, .unterminatedQuotedString)
        XCTAssertEqual(error?.byteOffset, 12, "the opening quote")
        XCTAssertTrue(error?.description.contains("unterminated quoted string") == true)
        XCTAssertEqual(parseError(#"Basic realm="abc\"#)?.reason, .unterminatedQuotedString)
        XCTAssertEqual(parseError(#"Basic realm="abc\""#)?.reason, .unterminatedQuotedString)
    }

    func testMissingValue() {
        let error = parseError("Basic realm=")
        XCTAssertEqual(
            error, ChallengeParseError(reason: .missingValue(parameter: "realm"), fieldIndex: 0, byteOffset: 12))
        XCTAssertTrue(error?.description.contains("missing value") == true)
        XCTAssertEqual(parseError(#"Basic realm=, charset="UTF-8""#)?.reason, .missingValue(parameter: "realm"))
        XCTAssertEqual(parseError(#"Basic charset="UTF-8", realm="#)?.reason, .missingValue(parameter: "realm"))
        XCTAssertEqual(parseError("Basic realm==")?.reason, .missingValue(parameter: "realm"))
        XCTAssertEqual(parseError("Basic realm=@x")?.reason, .missingValue(parameter: "realm"))
    }

    func testMissingEquals() {
        let error = parseError(#"Basic realm "x""#)
        XCTAssertEqual(
            error, ChallengeParseError(reason: .missingEquals(parameter: "realm"), fieldIndex: 0, byteOffset: 12))
        XCTAssertTrue(error?.description.contains("missing '='") == true)
    }

    func testJunkAfterValue() {
        let error = parseError(#"Basic realm="a" b"#)
        XCTAssertEqual(error, ChallengeParseError(reason: .expectedComma(found: "b"), fieldIndex: 0, byteOffset: 16))
        XCTAssertEqual(parseError(#"Basic realm=abc"def""#)?.reason, .expectedComma(found: "\""))
        XCTAssertEqual(parseError(#"Basic"realm""#)?.reason, .expectedComma(found: "\""))
        XCTAssertEqual(parseError("Bearer abc/def ghi")?.reason, .missingEquals(parameter: "abc"))
        XCTAssertEqual(parseError("Bäsic realm=x")?.reason, .expectedComma(found: "ä"))
        XCTAssertTrue(parseError("Bäsic realm=x")?.description.contains("'ä' (U+00E4)") == true)
    }

    func testControlCharacters() {
        let inQuotes = parseError("Basic realm=\"a\u{1}b\"")
        XCTAssertEqual(inQuotes, ChallengeParseError(reason: .invalidCharacter("\u{1}"), fieldIndex: 0, byteOffset: 14))
        XCTAssertTrue(inQuotes?.description.contains("invalid character U+0001") == true)
        XCTAssertEqual(parseError("Basic realm=\"a\r\nX-Injected: 1\"")?.reason, .invalidCharacter("\r"))
        XCTAssertEqual(parseError("Basic realm=a\r\nX-Injected: 1")?.reason, .invalidCharacter("\r"))
        XCTAssertEqual(parseError("Basic\nrealm=a")?.reason, .invalidCharacter("\n"))
        XCTAssertEqual(parseError("\u{0}Basic")?.reason, .invalidCharacter("\u{0}"))
        XCTAssertEqual(parseError("Basic realm=\"a\\\u{7F}\"")?.reason, .invalidCharacter("\u{7F}"))
        XCTAssertEqual(parseError("Basic realm=\u{7F}")?.reason, .invalidCharacter("\u{7F}"))
    }

    func testDuplicateParameter() {
        let error = parseError(#"Digest realm="a", nonce="n", realm="b""#)
        XCTAssertEqual(error, ChallengeParseError(reason: .duplicateParameter("realm"), fieldIndex: 0, byteOffset: 29))
        XCTAssertTrue(error?.description.contains("duplicate parameter 'realm'") == true)
        XCTAssertEqual(parseError(#"Basic realm="a", REALM="a""#)?.reason, .duplicateParameter("realm"))
        // The same name in two challenges is fine.
        XCTAssertEqual(parse(#"Basic realm="a", Digest realm="a""#).count, 2)
    }

    func testParameterWithoutSchemeOrAfterToken68() {
        XCTAssertEqual(
            parseError(#"realm="x""#),
            ChallengeParseError(reason: .missingScheme(parameter: "realm"), fieldIndex: 0, byteOffset: 0))
        XCTAssertEqual(parseError("Basic=x")?.reason, .missingScheme(parameter: "basic"))
        let error = parseError(#"Negotiate YIIBxw==, realm="x""#)
        XCTAssertEqual(error?.reason, .parameterAfterToken68(parameter: "realm"))
        XCTAssertEqual(error?.byteOffset, 20)
    }

    func testErrorPositionNamesTheFieldValue() {
        // `nonce` alone after a comma is a new challenge with no data (its scheme is `nonce`).
        XCTAssertEqual(
            parse([#"Basic realm="a""#, #"Digest realm="b", nonce"#, "Negotiate"]).map(\.scheme),
            ["Basic", "Digest", "nonce", "Negotiate"])
        let bad = parseError([#"Basic realm="a""#, #"Digest realm="b" nonce="n""#])
        XCTAssertEqual(bad, ChallengeParseError(reason: .expectedComma(found: "n"), fieldIndex: 1, byteOffset: 17))
        XCTAssertTrue(bad?.description.contains("field value 1, byte 17") == true)
    }

    func testInputLongerThan16KiB() {
        let value = #"Basic realm=""# + String(repeating: "a", count: 20 * 1024) + "\""
        let error = parseError(value)
        XCTAssertEqual(error?.reason, .inputTooLong(limit: 16 * 1024))
        XCTAssertEqual(error?.byteOffset, 16 * 1024)
        XCTAssertTrue(error?.description.contains("longer than 16384 bytes") == true)
        // The limit counts the field values together, as Foundation would join them.
        let half = #"Basic realm=""# + String(repeating: "b", count: 9 * 1024) + "\""
        XCTAssertEqual(
            parseError([half, half])?.reason, .inputTooLong(limit: AuthenticationChallenge.maximumInputLength))
        XCTAssertEqual(parse(half).count, 1)
        // Just under the limit parses.
        let fits = #"Basic realm=""# + String(repeating: "c", count: 16 * 1024 - 14) + "\""
        XCTAssertEqual(fits.utf8.count, 16 * 1024)
        XCTAssertEqual(parse(fits).first?[parameter: "realm"]?.count, 16 * 1024 - 14)
    }

    func testLargeValidInputsAreLinear() {
        // Many elements near the limit, parsed quickly and without deep recursion.
        let schemes = String(repeating: "Negotiate, ", count: 1_400)
        XCTAssertEqual(parse(schemes).count, 1_400)
        let parameters = "Digest " + (0..<1_500).map { "p\($0)=v" }.joined(separator: ",")
        XCTAssertEqual(parse(parameters).first?.parameters.count, 1_500)
        XCTAssertEqual(parse(String(repeating: ",", count: 16_000) + "Basic").count, 1)
        XCTAssertEqual(parseError(String(repeating: "\\", count: 16_000))?.reason, .expectedToken(found: "\\"))
    }

    func testRandomJunkNeverCrashes() {
        // A deterministic generator over characters the grammar cares about.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let alphabet = Array(#"aB=,"\ /\t+.~_-Z9é😀"#.unicodeScalars) + ["\r", "\u{0}", "\u{7F}"]
        var parsed = 0
        var failed = 0
        for _ in 0..<3_000 {
            let length = Int(next() % 24)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
            do {
                let challenges = try AuthenticationChallenge.parse([String(text)])
                XCTAssertFalse(challenges.isEmpty)
                parsed += 1
            } catch {
                XCTAssertGreaterThanOrEqual(error.byteOffset, 0)
                XCTAssertLessThanOrEqual(error.byteOffset, String(text).utf8.count)
                failed += 1
            }
        }
        XCTAssertGreaterThan(parsed, 0)
        XCTAssertGreaterThan(failed, 0)
    }
}
