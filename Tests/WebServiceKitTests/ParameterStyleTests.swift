import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OpenAPI's `{"R": 100, "G": 200, "B": 150}`, as a structure (its members in this order).
private struct Color: Encodable, Sendable {
    let red: Int
    let green: Int
    let blue: Int

    enum CodingKeys: String, CodingKey {
        case red = "R"
        case green = "G"
        case blue = "B"
    }
}

/// RFC 6570 §3.2's `keys`: `[("semi", ";"), ("dot", "."), ("comma", ",")]`, in this order.
private struct Keys: Encodable, Sendable {
    let semi = ";"
    let dot = "."
    let comma = ","
}

private struct PetFilter: Encodable, Sendable {
    let species: String
    let age: Int?
}

extension TypedCall
where Arguments == ArgumentList<[Int], PetFilter?, [String]?, String?>, Body == NoBody, Response == Data {
    fileprivate static let findPets = TypedCall(
        .init(
            name: "findPets", method: .get, relativePath: "pets/%%0%%?%%1%%&%%2%%", headers: ["Cookie": "%%3%%"],
            parameterStyles: [
                0: .label(explode: true), 1: .deepObject("filter"), 2: .form("tags", explode: false),
                3: .form("session"),
            ]))
}

/// ``ParameterStyle``: OpenAPI 3.1's style table, RFC 6570 §3.2's examples, where each style may
/// go, `nil` and empty values, `allowReserved`, header and cookie values, and typed calls.
final class ParameterStyleTests: XCTestCase {
    private static let root = "https://api.example.com/v1/"
    private let client = makeStubClient().0

    /// The URL of `relativePath` with `styles`, or the error's description.
    private func url(
        _ relativePath: String, _ styles: [Int: ParameterStyle], _ arguments: [any Sendable],
        cacheIdentifier: String? = nil
    ) -> String {
        let call = WebServiceCall<Data>(
            relativePath: relativePath, parameterStyles: styles, cacheIdentifier: cacheIdentifier)
        do {
            return try client.request(for: call, arguments: arguments).url?.absoluteString ?? "no URL"
        } catch {
            return "\(error)"
        }
    }

    /// The header `name` of a call with `headers` and `styles`: its value, `nil` without the
    /// field, or the error's description.
    private func header(
        _ name: String, _ headers: [String: String], _ styles: [Int: ParameterStyle], _ argument: any Sendable
    )
        -> String?
    {
        let call = WebServiceCall<Data>(relativePath: "p", headers: headers, parameterStyles: styles)
        do {
            return try client.request(for: call, arguments: [argument]).value(forHTTPHeaderField: name)
        } catch {
            return "\(error)"
        }
    }

    // MARK: OpenAPI's table

    /// OpenAPI 3.1's "Style Examples" (3.1.1's percent-encoded `|`, `[` and `]`): `color` as
    /// `"blue"`, `["blue", "black", "brown"]`, a structure with `R`, `G`, `B` in that order, and a
    /// dictionary (whose names go in their order: `B`, `G`, `R`). Path styles fill
    /// `p/%%0%%/end`, query styles `p?%%0%%&n=1`.
    func testTheStyleExamplesTable() {
        let refused = "refused"
        let rows: [(ParameterStyle, string: String, array: String, object: String, dictionary: String)] = [
            (.simple(), "blue", "blue,black,brown", "R,100,G,200,B,150", "B,150,G,200,R,100"),
            (.simple(explode: true), "blue", "blue,black,brown", "R=100,G=200,B=150", "B=150,G=200,R=100"),
            (.label(), ".blue", ".blue,black,brown", ".R,100,G,200,B,150", ".B,150,G,200,R,100"),
            (.label(explode: true), ".blue", ".blue.black.brown", ".R=100.G=200.B=150", ".B=150.G=200.R=100"),
            (
                .matrix("color"), ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150",
                ";color=B,150,G,200,R,100"
            ),
            (
                .matrix("color", explode: true), ";color=blue", ";color=blue;color=black;color=brown",
                ";R=100;G=200;B=150", ";B=150;G=200;R=100"
            ),
            (
                .form("color", explode: false), "color=blue", "color=blue,black,brown", "color=R,100,G,200,B,150",
                "color=B,150,G,200,R,100"
            ),
            (
                .form("color"), "color=blue", "color=blue&color=black&color=brown", "R=100&G=200&B=150",
                "B=150&G=200&R=100"
            ),
            (
                .spaceDelimited("color"), "color=blue", "color=blue%20black%20brown",
                "color=R%20100%20G%20200%20B%20150", "color=B%20150%20G%20200%20R%20100"
            ),
            (
                .pipeDelimited("color"), "color=blue", "color=blue%7Cblack%7Cbrown",
                "color=R%7C100%7CG%7C200%7CB%7C150",
                "color=B%7C150%7CG%7C200%7CR%7C100"
            ),
            (
                .deepObject("color"), refused, refused, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150",
                "color%5BB%5D=150&color%5BG%5D=200&color%5BR%5D=100"
            ),
        ]
        let values: [any Sendable] = [
            "blue", ["blue", "black", "brown"], Color(red: 100, green: 200, blue: 150),
            ["R": 100, "G": 200, "B": 150],
        ]
        for row in rows {
            let inPath = [ParameterStyle.Kind.simple, .label, .matrix].contains(row.0.kind)
            for (value, expected) in zip(values, [row.string, row.array, row.object, row.dictionary]) {
                let written = inPath ? url("p/%%0%%/end", [0: row.0], [value]) : url("p?%%0%%&n=1", [0: row.0], [value])
                if expected == refused {
                    XCTAssertTrue(written.contains("writes the members of an object"), "\(row.0) \(value): \(written)")
                } else if inPath {
                    XCTAssertEqual(written, Self.root + "p/" + expected + "/end", "\(row.0) \(value)")
                } else {
                    XCTAssertEqual(written, Self.root + "p?" + expected + "&n=1", "\(row.0) \(value)")
                }
            }
        }
    }

    /// The table's `undefined` column: an empty list, an empty dictionary, and a structure whose
    /// members are all `nil`. In the path (inside a segment: `.` alone would be a dot segment)
    /// `simple` writes nothing, `label` `.`, `matrix` `;color`; in the query no item is sent, as
    /// RFC 6570 expands an undefined value to nothing (OpenAPI's `?color=` is what the empty
    /// string writes).
    func testTheUndefinedColumnAndTheEmptyString() {
        let empties: [any Sendable] = [[String](), [String: Int](), EmptyFilter()]
        for empty in empties {
            XCTAssertEqual(url("p/c%%0%%/end", [0: .simple()], [empty]), Self.root + "p/c/end", "\(empty)")
            XCTAssertEqual(url("p/c%%0%%/end", [0: .label(explode: true)], [empty]), Self.root + "p/c./end")
            XCTAssertEqual(url("p/c%%0%%/end", [0: .matrix("color")], [empty]), Self.root + "p/c;color/end")
            XCTAssertEqual(
                url("p/c%%0%%/end", [0: .matrix("color", explode: true)], [empty]), Self.root + "p/c;color/end")
            for style in [ParameterStyle.form("color"), .form("color", explode: false), .spaceDelimited("color")] {
                XCTAssertEqual(url("p?%%0%%&n=1", [0: style], [empty]), Self.root + "p?n=1", "\(style) \(empty)")
            }
            XCTAssertEqual(url("p?%%0%%", [0: .deepObject("color")], [empty]), Self.root + "p")
        }
        // The empty string is defined: RFC 6570's `{;x}` is `;x`, `{?x}` is `?x=`.
        XCTAssertEqual(url("p/%%0%%/end", [0: .simple()], [""]), Self.root + "p//end")
        XCTAssertEqual(url("p/%%0%%/end", [0: .matrix("color")], [""]), Self.root + "p/;color/end")
        XCTAssertEqual(url("p/c%%0%%/end", [0: .label()], [""]), Self.root + "p/c./end")
        XCTAssertEqual(url("p?%%0%%&n=1", [0: .form("color")], [""]), Self.root + "p?color=&n=1")
        XCTAssertEqual(url("p?%%0%%&n=1", [0: .pipeDelimited("color")], [[""]]), Self.root + "p?color=&n=1")
    }

    // MARK: RFC 6570

    /// RFC 6570 §3.2.2, §3.2.5, §3.2.7 and §3.2.8, with its variables (`keys` in its order), for
    /// the expressions that are styles; §3.2.3's reserved expansion is `allowReserved`.
    func testTheRFC6570Examples() {
        let list = ["red", "green", "blue"]
        let path: [(ParameterStyle, any Sendable, String)] = [
            (.simple(), "value", "value"),
            (.simple(), "Hello World!", "Hello%20World%21"),
            (.simple(), "50%", "50%25"),
            (.simple(), list, "red,green,blue"),
            (.simple(explode: true), list, "red,green,blue"),
            (.simple(), Keys(), "semi,%3B,dot,.,comma,%2C"),
            (.simple(explode: true), Keys(), "semi=%3B,dot=.,comma=%2C"),
            (.label(), "fred", ".fred"),
            (.label(), list, ".red,green,blue"),
            (.label(explode: true), list, ".red.green.blue"),
            (.label(), Keys(), ".semi,%3B,dot,.,comma,%2C"),
            (.label(explode: true), Keys(), ".semi=%3B.dot=..comma=%2C"),
            (.label(explode: true), ["example", "com"], ".example.com"),
            (.matrix("who"), "fred", ";who=fred"),
            (.matrix("half"), "50%", ";half=50%25"),
            (.matrix("empty"), "", ";empty"),
            (.matrix("list"), list, ";list=red,green,blue"),
            (.matrix("list", explode: true), list, ";list=red;list=green;list=blue"),
            (.matrix("keys"), Keys(), ";keys=semi,%3B,dot,.,comma,%2C"),
            (.matrix("keys", explode: true), Keys(), ";semi=%3B;dot=.;comma=%2C"),
            // Appendix A: exploded, an empty member is its name alone (ifemp is empty for ";").
            (.matrix("x", explode: true), ["a", ""], ";x=a;x"),
        ]
        for (style, value, expected) in path {
            XCTAssertEqual(url("X%%0%%", [0: style], [value]), Self.root + "X" + expected, "\(style) \(value)")
        }
        let query: [(ParameterStyle, any Sendable, String)] = [
            (.form("who", explode: false), "fred", "?who=fred"),
            (.form("half", explode: false), "50%", "?half=50%25"),
            (.form("list", explode: false), list, "?list=red,green,blue"),
            (.form("list"), list, "?list=red&list=green&list=blue"),
            (.form("keys", explode: false), Keys(), "?keys=semi,%3B,dot,.,comma,%2C"),
            (.form("keys"), Keys(), "?semi=%3B&dot=.&comma=%2C"),
            (.form("empty"), "", "?empty="),
            (.form("undef"), String?.none, ""),
            (.form("empty_keys"), [String: String](), ""),
            // §3.2.3, reserved expansion: {+hello}, {+half}, {+base}, {+path}, {+keys}.
            (.form("hello", allowReserved: true), "Hello World!", "?hello=Hello%20World!"),
            (.form("half", allowReserved: true), "50%", "?half=50%25"),
            (.form("base", allowReserved: true), "http://example.com/home/", "?base=http://example.com/home/"),
            (.form("path", allowReserved: true), "/foo/bar", "?path=/foo/bar"),
            (.form("keys", explode: false, allowReserved: true), Keys(), "?keys=semi,;,dot,.,comma,,"),
        ]
        for (style, value, expected) in query {
            XCTAssertEqual(url("X?%%0%%", [0: style], [value]), Self.root + "X" + expected, "\(style) \(value)")
        }
    }

    // MARK: allowReserved

    /// Reserved characters and `%XX` escapes stay, but for `&`, `=`, `+`, `#`, `[` and `]` (which
    /// would split an item, read as a space, or may not be in a query); without `allowReserved`
    /// every value is encoded as any query value is.
    func testAllowReservedKeepsWhatTheQueryCanHold() {
        let text = "a/b?c:d@e!$'()*,;&=+#[]%41%zz é"
        XCTAssertEqual(
            url("s?%%0%%", [0: .form("q", allowReserved: true)], [text]),
            Self.root + "s?q=a/b?c:d@e!$'()*,;%26%3D%2B%23%5B%5D%41%25zz%20%C3%A9")
        XCTAssertEqual(
            url("s?%%0%%", [0: .form("q")], [text]),
            Self.root + "s?q=a%2Fb%3Fc%3Ad%40e%21%24%27%28%29%2A%2C%3B%26%3D%2B%23%5B%5D%2541%25zz%20%C3%A9")
        XCTAssertEqual(
            url("s?%%0%%", [0: .deepObject("f", allowReserved: true)], [["a/b": "c:d&e"]]),
            Self.root + "s?f%5Ba/b%5D=c:d%26e")
        XCTAssertEqual(
            url("s?%%0%%", [0: .spaceDelimited("q", allowReserved: true)], [["a/b", "c d"]]),
            Self.root + "s?q=a/b%20c%20d")
        // The parameter's own name is always encoded.
        XCTAssertEqual(url("s?%%0%%", [0: .form("a/b", allowReserved: true)], ["x/y"]), Self.root + "s?a%2Fb=x/y")
    }

    // MARK: nil and empty values

    func testNilDropsQueryItemsAndHeadersAndIsAnErrorInThePath() {
        XCTAssertEqual(url("p?%%0%%&n=1", [0: .form("color")], [[String]?.none]), Self.root + "p?n=1")
        XCTAssertEqual(url("p?%%0%%&n=1", [0: .deepObject("color")], [Color?.none]), Self.root + "p?n=1")
        XCTAssertEqual(
            url("p/%%0%%", [0: .matrix("color")], [String?.none]),
            "invalid argument 0: nil cannot fill %%0%% in the path")
        XCTAssertNil(header("X-Tags", ["X-Tags": "%%0%%"], [0: .simple()], [String]?.none))
        XCTAssertNil(header("X-Tags", ["X-Tags": "%%0%%"], [0: .simple()], [String]()))
        XCTAssertNil(header("Cookie", ["Cookie": "theme=dark; %%0%%"], [0: .form("s")], String?.none))
        // nil elements and members are left out.
        XCTAssertEqual(url("p/%%0%%", [0: .simple()], [["a", nil, "b"] as [String?]]), Self.root + "p/a,b")
        XCTAssertEqual(
            url("p?%%0%%", [0: .form("f")], [PetFilter(species: "cat", age: nil)]), Self.root + "p?species=cat")
        XCTAssertEqual(
            url("p?%%0%%", [0: .form("f")], [["a": 1, "b": nil] as [String: Int?]]), Self.root + "p?a=1")
    }

    // MARK: Values with no styled form

    func testNestedValuesFailNamingTheMember() {
        struct Outer: Encodable, Sendable { let inner: Color }
        struct Lists: Encodable, Sendable { let grid: [[Int]] }
        let cases: [(ParameterStyle, any Sendable, String)] = [
            (
                .deepObject("o"), Outer(inner: Color(red: 1, green: 2, blue: 3)),
                "inner: a list or an object inside an object"
            ),
            (.form("o"), Lists(grid: [[1]]), "grid: a list or an object inside an object"),
            (.simple(), [[1, 2]], "0: a list or an object inside a list"),
            (.label(), [Color(red: 1, green: 2, blue: 3)], "0: a list or an object inside a list"),
            (.deepObject("o"), "text", ".deepObject(\"o\") writes the members of an object"),
            (.deepObject("o"), ["a", "b"], ".deepObject(\"o\") writes the members of an object"),
            (.simple(), PreEncodedPath("a/b"), "a PreEncodedPath is inserted as written"),
        ]
        for (style, value, expected) in cases {
            let relativePath = style.kind == .simple || style.kind == .label ? "p/%%0%%" : "p?%%0%%"
            let call = WebServiceCall<Data>(relativePath: relativePath, parameterStyles: [0: style])
            XCTAssertThrowsError(try client.request(for: call, arguments: [value])) { error in
                guard case .invalidArguments(0, let reason)? = (error as? WebServiceError)?.reason else {
                    return XCTFail("\(style) \(value): \(error)")
                }
                XCTAssertTrue(reason.contains(expected), "\(style) \(value): \(reason)")
            }
        }
    }

    /// A `.` or `..` segment would be removed as the URL is resolved (RFC 3986 §5.2.4): a styled
    /// value that makes one is refused; inside a longer segment it is harmless.
    func testAStyledValueMakesNoDotSegment() {
        for (relativePath, style, value) in [
            ("p/%%0%%/end", ParameterStyle.label(), "" as any Sendable),
            ("p/%%0%%", .label(), [String]()),
            ("p/%%0%%", .label(), "."),
            ("p/%%0%%/end", .simple(), ".."),
            ("p/%%0%%%%1%%", .label(), ""),
        ] {
            let written = url(relativePath, [0: style], [value, ""])
            XCTAssertTrue(written.contains("which a server removes"), "\(relativePath) \(style) \(value): \(written)")
        }
        XCTAssertEqual(url("p/x%%0%%", [0: .label()], ["."]), Self.root + "p/x..")
        XCTAssertEqual(url("p/%%0%%x", [0: .simple()], [".."]), Self.root + "p/..x")
    }

    // MARK: Headers and cookies

    /// A header value takes `simple` without percent-encoding; the request check still refuses
    /// control characters.
    func testHeaderValuesAreSimpleAndNotEncoded() {
        let headers = ["X-Tags": "t=%%0%%"]
        XCTAssertEqual(header("X-Tags", headers, [0: .simple()], ["a b", "c/d;e"]), "t=a b,c/d;e")
        XCTAssertEqual(header("X-Tags", headers, [0: .simple()], Color(red: 1, green: 2, blue: 3)), "t=R,1,G,2,B,3")
        XCTAssertEqual(
            header("X-Tags", headers, [0: .simple(explode: true)], Color(red: 1, green: 2, blue: 3)), "t=R=1,G=2,B=3")
        XCTAssertEqual(header("X-Tags", headers, [0: .simple()], "caf\u{e9} 100%"), "t=caf\u{e9} 100%")
        XCTAssertEqual(
            header("X-Tags", headers, [0: .simple()], ["a\r\nX-Admin: yes"]),
            "refused header \"X-Tags\": the value contains CR or LF (header injection)")
    }

    /// `form` in the `Cookie` field: `name=value`, lists comma-separated, exploded pairs separated
    /// by `; `; names and values percent-encoded as a query's, so no value adds a cookie.
    func testTheCookieFieldTakesForm() {
        let cookie = ["Cookie": "%%0%%"]
        XCTAssertEqual(header("Cookie", cookie, [0: .form("session")], "abc"), "session=abc")
        XCTAssertEqual(header("Cookie", cookie, [0: .form("tags", explode: false)], ["a", "b"]), "tags=a,b")
        XCTAssertEqual(header("Cookie", cookie, [0: .form("tags")], ["a", "b"]), "tags=a; tags=b")
        XCTAssertEqual(
            header("Cookie", cookie, [0: .form("color")], Color(red: 1, green: 2, blue: 3)), "R=1; G=2; B=3")
        XCTAssertEqual(
            header("Cookie", cookie, [0: .form("color", explode: false)], Color(red: 1, green: 2, blue: 3)),
            "color=R,1,G,2,B,3")
        XCTAssertEqual(
            header("Cookie", cookie, [0: .form("s", allowReserved: true)], "a; admin=1, \"x\""),
            "s=a%3B%20admin%3D1%2C%20%22x%22")
        XCTAssertEqual(
            header("cookie", ["cookie": "theme=dark; %%0%%"], [0: .form("session")], "abc"), "theme=dark; session=abc")
    }

    /// The cache identifier takes `simple`, as a header does.
    /// Cookie parameters declared as a list (`%%0%%; %%1%%`, what the OpenAPI import writes): a
    /// `nil` one leaves out its pair and a separator, not the field (RFC 6265 §4.2.1); none left
    /// drops it. Text other than separators between them keeps the rule of any field.
    func testACookieListLeavesOutItsNilPairs() throws {
        let call = WebServiceCall<Data>(
            relativePath: "p", headers: ["Cookie": "%%0%%; %%1%%; %%2%%"],
            parameterStyles: [0: .form("a"), 1: .form("b"), 2: .form("c", explode: false)])
        func cookie(_ arguments: [any Sendable]) throws -> String? {
            try client.request(for: call, arguments: arguments).value(forHTTPHeaderField: "Cookie")
        }
        XCTAssertEqual(try cookie(["1", "2", [3, 4]]), "a=1; b=2; c=3,4")
        XCTAssertEqual(try cookie([String?.none, "2", [Int]?.none]), "b=2")
        XCTAssertEqual(try cookie(["1", String?.none, [3]]), "a=1; c=3")
        XCTAssertNil(try cookie([String?.none, String?.none, [Int]?.none]))
        let mixed = WebServiceCall<Data>(
            relativePath: "p", headers: ["Cookie": "%%0%%; theme=dark; %%1%%"],
            parameterStyles: [0: .form("a"), 1: .form("b")])
        XCTAssertNil(
            try client.request(for: mixed, arguments: [String?.none, "2"]).value(forHTTPHeaderField: "Cookie"))
    }

    func testTheCacheIdentifierTakesSimple() {
        let call = WebServiceCall<Data>(
            relativePath: "p/%%0%%", parameterStyles: [0: .simple()], cacheIdentifier: "pets-%%0%%")
        XCTAssertNoThrow(try call.validate())
        XCTAssertEqual(
            url("p/%%0%%", [0: .simple()], [["a", "b"]], cacheIdentifier: "pets-%%0%%"), Self.root + "p/a,b")
    }

    // MARK: Where each style may go

    func testAStyleInAPlaceItCannotFillMakesTheDescriptorInvalid() {
        let cases: [(String, [String: String], [Int: ParameterStyle], String?, String)] = [
            (
                "p/%%0%%", [:], [0: .form("tags")], nil,
                "parameterStyles[0] .form(\"tags\") fills a query item, but %%0%% is in the path"
            ),
            (
                "p?%%0%%", [:], [0: .label()], nil,
                "parameterStyles[0] .label() fills a path wildcard, but %%0%% is a query item"
            ),
            ("p?tags=%%0%%", [:], [0: .form("tags")], nil, "%%0%% is part of a query item"),
            ("p?%%0%%=x", [:], [0: .form("tags")], nil, "%%0%% is part of a query item"),
            ("p?a=b&%%0%%", [:], [0: .simple()], nil, "fills a path wildcard, but %%0%% is a query item"),
            ("p", ["X-Tags": "%%0%%"], [0: .label()], nil, "cannot fill the header X-Tags"),
            ("p", ["X-Tags": "%%0%%"], [0: .form("t")], nil, "cannot fill the header X-Tags"),
            ("p", ["Cookie": "%%0%%"], [0: .deepObject("t")], nil, "cannot fill the header Cookie"),
            ("p/%%0%%", [:], [0: .matrix("m")], "c-%%0%%", "cannot fill the cacheIdentifier"),
            ("p", [:], [0: .simple()], nil, "parameterStyles[0] .simple(): no %%0%% wildcard uses argument 0"),
            ("p/%%0%%", [:], [0: .simple(), 3: .simple()], nil, "parameterStyles[3] .simple(): no %%3%% wildcard"),
            ("p/%%0%%", [:], [0: .matrix("")], nil, "has no parameter name"),
            ("p?%%0%%", [:], [0: .form("")], nil, "has no parameter name"),
        ]
        for (relativePath, headers, styles, cacheIdentifier, expected) in cases {
            let call = WebServiceCall<Data>(
                relativePath: relativePath, headers: headers, parameterStyles: styles, cacheIdentifier: cacheIdentifier)
            XCTAssertThrowsError(try call.validate(), relativePath) { error in
                guard case .invalidCall(let reason)? = (error as? WebServiceError)?.reason else {
                    return XCTFail("\(relativePath): \(error)")
                }
                XCTAssertTrue(reason.contains(expected), "\(relativePath) \(styles): \(reason)")
            }
        }
        XCTAssertEqual(
            url("p/%%0%%", [0: .form("tags")], ["x"]),
            "invalid call descriptor: parameterStyles[0] .form(\"tags\") fills a query item, but %%0%% is in the path: "
                + "use .simple, .label or .matrix there, or write the wildcard as a query item of its own (?%%0%%)")
        for (relativePath, headers, styles) in [
            ("p/%%0%%;x=%%1%%/%%2%%.json", [:], [0: ParameterStyle.simple(), 1: .matrix("m"), 2: .label()]),
            (
                "p?%%0%%&%%1%%&%%2%%&%%3%%", [:],
                [0: .form("a"), 1: .spaceDelimited("b"), 2: .pipeDelimited("c"), 3: .deepObject("d")]
            ),
            (
                "p", ["X-A": "%%0%%", "cookie": "a=1; %%1%%"],
                [0: .simple(explode: true), 1: .form("b", explode: false)]
            ),
        ] as [(String, [String: String], [Int: ParameterStyle])] {
            let call = WebServiceCall<Data>(relativePath: relativePath, headers: headers, parameterStyles: styles)
            XCTAssertNoThrow(try call.validate(), relativePath)
        }
    }

    // MARK: The field and the type

    func testTheFieldAndTheStylesValues() {
        var fields = CallFields(relativePath: "p/%%0%%")
        XCTAssertEqual(fields.parameterStyles, [:])
        fields.parameterStyles = [0: .matrix("m", explode: true)]
        let call = WebServiceCall<Data>(fields)
        XCTAssertEqual(call.parameterStyles, [0: .matrix("m", explode: true)])
        XCTAssertEqual(ParameterStyle.Kind.allCases.count, 7)
        XCTAssertEqual(ParameterStyle.form("a").explode, true, "form explodes by default, as OpenAPI's does")
        XCTAssertEqual(ParameterStyle.deepObject("a").explode, true)
        XCTAssertEqual(ParameterStyle.spaceDelimited("a").explode, false)
        XCTAssertEqual(ParameterStyle.simple().name, "")
        XCTAssertEqual(ParameterStyle.pipeDelimited("a", allowReserved: true).allowReserved, true)
        XCTAssertEqual(ParameterStyle.label().allowReserved, false)
        XCTAssertEqual(ParameterStyle.form("tags", explode: false).description, ".form(\"tags\", explode: false)")
        XCTAssertEqual(ParameterStyle.label(explode: true).description, ".label(explode: true)")
        XCTAssertEqual(
            ParameterStyle.deepObject("f", allowReserved: true).description, ".deepObject(\"f\", allowReserved: true)")
    }

    // MARK: Typed calls

    /// A typed call with a structure styled `deepObject`, a list styled `label` and `form`, and a
    /// cookie: its check passes, and it sends what the styles write.
    func testATypedCallTakesStyledStructuresAndLists() async throws {
        try TypedCall.findPets.validate()
        let (client, stubs) = makeStubClient()
        _ = try await client.perform(.findPets, [1, 2], PetFilter(species: "cat", age: 3), ["a b", "c"], "s1")
        _ = try await client.perform(.findPets, [7], nil, nil, nil)
        let sent = stubs.requests.map(\.request)
        XCTAssertEqual(
            sent.map { $0.url?.absoluteString },
            [
                Self.root + "pets/.1.2?filter%5Bspecies%5D=cat&filter%5Bage%5D=3&tags=a%20b,c",
                Self.root + "pets/.7",
            ])
        XCTAssertEqual(sent.map { $0.value(forHTTPHeaderField: "Cookie") }, ["session=s1", nil])
    }

    func testATypedCallChecksItsStyledTypes() {
        struct Opaque: Sendable {}
        let opaque = TypedCall<ArgumentList<Opaque>, NoBody, Data>(
            .init(relativePath: "p?%%0%%", parameterStyles: [0: .form("o")]))
        XCTAssertThrowsError(try opaque.validate()) { error in
            XCTAssertTrue("\(error)".contains("which cannot fill %%0%% with .form(\"o\")"), "\(error)")
        }
        let text = TypedCall<ArgumentList<String>, NoBody, Data>(
            .init(relativePath: "p?%%0%%", parameterStyles: [0: .deepObject("o")]))
        XCTAssertThrowsError(try text.validate()) { error in
            XCTAssertTrue("\(error)".contains(".deepObject(\"o\") writes the members of an object"), "\(error)")
        }
        let list = TypedCall<ArgumentList<[String]>, NoBody, Data>(
            .init(relativePath: "p/%%0%%", parameterStyles: [0: .simple()]))
        XCTAssertNoThrow(try list.validate())
        let dictionary = TypedCall<ArgumentList<[String: Int]>, NoBody, Data>(
            .init(relativePath: "p/%%0%%", parameterStyles: [0: .matrix("d")]))
        XCTAssertNoThrow(try dictionary.validate())
        let unstyled = TypedCall<ArgumentList<PetFilter>, NoBody, Data>(.init(relativePath: "p/%%0%%"))
        XCTAssertThrowsError(try unstyled.validate(), "without a style, a structure still cannot fill a path wildcard")
    }
}

/// A structure whose members are all `nil`: an empty object.
private struct EmptyFilter: Encodable, Sendable {
    var species: String? = nil
}
