import Foundation
import WebServiceKit
import XCTest

/// Every substituted value is encoded for its place so the server decodes the text that was passed.
final class EncodingTableTests: XCTestCase {
    private static let path = WebServiceCall<Data>(relativePath: "items/%%0%%/end")
    private static let query = WebServiceCall<Data>(relativePath: "search?q=%%0%%&n=1")
    private static let queryName = WebServiceCall<Data>(relativePath: "search?%%0%%=x")

    /// (value, expected in a path segment, expected in a query value)
    private static let table: [(String, String, String)] = [
        ("plain", "plain", "plain"),
        ("", "", ""),
        ("a b", "a%20b", "a%20b"),
        ("a/b", "a%2Fb", "a%2Fb"),
        ("a?b", "a%3Fb", "a%3Fb"),
        ("a#b", "a%23b", "a%23b"),
        ("100%", "100%25", "100%25"),
        ("a&b", "a%26b", "a%26b"),
        ("a=b", "a%3Db", "a%3Db"),
        ("a+b", "a%2Bb", "a%2Bb"),
        ("a;b", "a%3Bb", "a%3Bb"),
        ("%41", "%2541", "%2541"),
        ("%2F", "%252F", "%252F"),
        ("%%", "%25%25", "%25%25"),
        ("%zz", "%25zz", "%25zz"),
        ("-._~", "-._~", "-._~"),
        ("AZaz09", "AZaz09", "AZaz09"),
        ("a:b", "a%3Ab", "a%3Ab"),
        ("a@b", "a%40b", "a%40b"),
        ("a,b", "a%2Cb", "a%2Cb"),
        ("$!*'()", "%24%21%2A%27%28%29", "%24%21%2A%27%28%29"),
        ("[ipv6]", "%5Bipv6%5D", "%5Bipv6%5D"),
        ("\"quoted\"", "%22quoted%22", "%22quoted%22"),
        ("<tag>", "%3Ctag%3E", "%3Ctag%3E"),
        ("back\\slash", "back%5Cslash", "back%5Cslash"),
        ("pipe|caret^", "pipe%7Ccaret%5E", "pipe%7Ccaret%5E"),
        ("`tick`", "%60tick%60", "%60tick%60"),
        ("{}", "%7B%7D", "%7B%7D"),
        ("tab\there", "tab%09here", "tab%09here"),
        ("line\nbreak", "line%0Abreak", "line%0Abreak"),
        ("café", "caf%C3%A9", "caf%C3%A9"),
        ("Привет", "%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82", "%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82"),
        ("日本", "%E6%97%A5%E6%9C%AC", "%E6%97%A5%E6%9C%AC"),
        ("😀", "%F0%9F%98%80", "%F0%9F%98%80"),
        ("e\u{301}", "e%CC%81", "e%CC%81"),
        ("..", "..", ".."),
        (".", ".", "."),
        ("~user", "~user", "~user"),
        ("a  b", "a%20%20b", "a%20%20b"),
        (" ", "%20", "%20"),
        ("+", "%2B", "%2B"),
        ("=&", "%3D%26", "%3D%26"),
        ("a%20b", "a%2520b", "a%2520b"),
        ("null\u{0}", "null%00", "null%00"),
    ]

    func testTableHasAtLeastFortyCases() {
        XCTAssertGreaterThanOrEqual(Self.table.count, 40)
    }

    func testPathSegmentEncoding() async throws {
        for (value, expectedPath, _) in Self.table where value != "." && value != ".." {
            let request = try await sentRequest(Self.path, [value]).get()
            XCTAssertEqual(
                request.url?.absoluteString, "https://api.example.com/v1/items/\(expectedPath)/end",
                "value \(value.debugDescription)")
        }
    }

    func testQueryValueEncoding() async throws {
        for (value, _, expectedQuery) in Self.table {
            let request = try await sentRequest(Self.query, [value]).get()
            XCTAssertEqual(
                request.url?.absoluteString, "https://api.example.com/v1/search?q=\(expectedQuery)&n=1",
                "value \(value.debugDescription)")
        }
    }

    func testQueryNameEncoding() async throws {
        for (value, _, expected) in Self.table where !value.isEmpty {
            let request = try await sentRequest(Self.queryName, [value]).get()
            XCTAssertEqual(
                request.url?.absoluteString, "https://api.example.com/v1/search?\(expected)=x",
                "value \(value.debugDescription)")
        }
    }

    func testDecodingTheEncodedQueryGivesTheOriginalText() async throws {
        for (value, _, _) in Self.table {
            let request = try await sentRequest(Self.query, [value]).get()
            let components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)
            XCTAssertEqual(components?.queryItems?.first?.value, value, "value \(value.debugDescription)")
        }
    }

    func testArgumentKinds() async throws {
        let call = WebServiceCall<Data>(relativePath: "v/%%0%%")
        enum Color: String { case deepRed = "deep red" }
        enum Level: Int { case high = 3 }
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let cases: [(any Sendable, String)] = [
            (42, "42"), (-7, "-7"), (UInt8(255), "255"), (Int64.max, "9223372036854775807"),
            (3.5, "3.5"), (2.0, "2"), (Float(0.25), "0.25"), (true, "true"), (false, "false"),
            (uuid, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
            (Date(timeIntervalSince1970: 0), "1970-01-01T00%3A00%3A00Z"),
            (Color.deepRed, "deep%20red"), (Level.high, "3"), (Optional("x"), "x"),
            (Decimal(string: "12.50")!, "12.5"), (URL(string: "https://a.b/c")!, "https%3A%2F%2Fa.b%2Fc"),
        ]
        for (argument, expected) in cases {
            let request = try await sentRequest(call, [argument]).get()
            XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/v/\(expected)", "\(argument)")
        }
    }

    func testPreEncodedPathIsInsertedAsWritten() async throws {
        let call = WebServiceCall<Data>(relativePath: "%%0%%")
        let request = try await sentRequest(call, [PreEncodedPath("basic-auth/user/passwd")]).get()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/basic-auth/user/passwd")
        let escaped = try await sentRequest(call, [PreEncodedPath("a%20b/c")]).get()
        XCTAssertEqual(escaped.url?.path, "/v1/a b/c")
    }

    func testPreEncodedPathRejectsWhatIsNotAPath() async {
        let call = WebServiceCall<Data>(relativePath: "%%0%%")
        for bad in ["a b", "a?b", "a#b", "50%", "caf\u{e9}", "a\r\nb"] {
            let result = await sentRequest(call, [PreEncodedPath(bad)])
            guard case .invalidArguments(let index, _)? = result.failure?.reason else {
                return XCTFail("\(bad.debugDescription) was accepted: \(result)")
            }
            XCTAssertEqual(index, 0)
        }
    }

    func testLiteralTemplateTextKeepsStructureAndEscapes() async throws {
        let call = WebServiceCall<Data>(relativePath: "a%2Fb/caf\u{e9} x/%%0%%?q=1+2&sort=-date&flag")
        let request = try await sentRequest(call, ["v"]).get()
        XCTAssertEqual(
            request.url?.absoluteString, "https://api.example.com/v1/a%2Fb/caf%C3%A9%20x/v?q=1+2&sort=-date&flag")
    }

    func testHeaderValuesAreNotPercentEncoded() async throws {
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["X-Text": "v=%%0%%"])
        let request = try await sentRequest(call, ["a b/c?d&e=%41 café"]).get()
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-Text"), "v=a b/c?d&e=%41 café")
    }
}
