import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Over-long and malformed templates, and `%` sequences in arguments: typed errors, no crash, no
/// re-expansion, and values that cannot change the structure of the URL or the form body.
final class HostileTemplateTests: XCTestCase {
    private func invalidCallReason(_ call: WebServiceCall<Data>, file: StaticString = #filePath, line: UInt = #line)
        -> String?
    {
        do {
            try call.descriptor.validate()
            XCTFail("the descriptor was accepted", file: file, line: line)
            return nil
        } catch {
            guard case .invalidCall(let reason) = error.reason else {
                XCTFail("\(error)", file: file, line: line)
                return nil
            }
            return reason
        }
    }

    func testMalformedWildcardsAreTypedErrorsWhenTheDescriptorIsMade() async {
        for path in [
            "a/%%99999999999999999999%%", "a/%%1000%%", "a/%%0", "a/%%", "a/%%%%", "a/%%-1%%", "a/%%0x1%%",
            "a/%%\u{FF11}%%", "a/%% 1%%", "a/%%1 %%", "a?q=%%0", "a?%%x%%=1",
            "a/" + String(repeating: "9", count: 100_000) + "%%",
            "a/%%" + String(repeating: "9", count: 100_000) + "%%",
        ] {
            let call = WebServiceCall<Data>(relativePath: path)
            guard let reason = invalidCallReason(call) else { continue }
            // A huge template is quoted in part only.
            XCTAssertLessThan(reason.count, 400, String(path.prefix(40)))
            // Performing it reports the same error and sends nothing.
            let (client, stubs) = makeStubClient()
            let result = await sentRequest(call, [], client: client)
            guard case .invalidCall? = result.failure?.reason else { return XCTFail("\(result)") }
            XCTAssertTrue(stubs.requests.isEmpty)
        }
    }

    func testAHugeTemplateIsBuiltWhole() async throws {
        // 1 MB of literal path text and a wildcard at the end.
        let literal = String(repeating: "abcdefghij/", count: 100_000)
        let call = WebServiceCall<Data>(relativePath: literal + "%%0%%")
        try call.descriptor.validate()
        let request = try await sentRequest(call, ["end"]).get()
        let path = try XCTUnwrap(request.url?.path)
        XCTAssertEqual(path.utf8.count, "/v1/".utf8.count + literal.utf8.count + 3)
        XCTAssertTrue(path.hasSuffix("/abcdefghij/end"))
    }

    func testManyWildcardsParseInOnePass() async throws {
        // 10,000 wildcards over 1,000 arguments in a query; 70,000 in a 1 MB header. A parser that
        // searched the rest of the text for each "%%" took seconds here and minutes in debug builds.
        let arguments: [any Sendable] = (0..<1000).map { "v\($0)" }
        let query = (0..<10_000).map { "k\($0)=%%\($0 % 1000)%%" }.joined(separator: "&")
        let call = WebServiceCall<Data>(relativePath: "many?" + query)
        let request = try await sentRequest(call, arguments).get()
        let items = try XCTUnwrap(
            URLComponents(url: try XCTUnwrap(request.url), resolvingAgainstBaseURL: false)?.queryItems)
        XCTAssertEqual(items.count, 10_000)
        XCTAssertEqual(items[1234].name, "k1234")
        XCTAssertEqual(items[1234].value, "v234")

        let header = String(repeating: "abcdefghij%%0%%", count: 70_000)
        let big = WebServiceCall<Data>(relativePath: "h", headers: ["X-Big": header])
        try big.descriptor.validate()
        let sent = try await sentRequest(big, ["1"]).get()
        let value = try XCTUnwrap(sent.value(forHTTPHeaderField: "X-Big"))
        XCTAssertEqual(value.utf8.count, 70_000 * 11)
        XCTAssertTrue(value.hasPrefix("abcdefghij1abcdefghij1"))
    }

    func testAMalformedHeaderTemplateNeverQuotesItsValue() {
        let secret = "sk_live_4f9a8b7c6d5e"
        for value in ["Bearer \(secret)%%", "Bearer %%\(secret)%%", "Bearer \(secret)%%0"] {
            let call = WebServiceCall<Data>(relativePath: "h", headers: ["Authorization": value])
            XCTAssertThrowsError(try call.descriptor.validate()) { error in
                guard case .invalidHeader("Authorization", _) = (error as? WebServiceError)?.reason else {
                    return XCTFail("\(error)")
                }
                for text in [
                    "\(error)", String(reflecting: error), error.localizedDescription,
                    (error as? WebServiceError)?.description ?? "",
                ] {
                    XCTAssertFalse(text.contains(secret), text)
                    XCTAssertFalse(text.contains("sk_live"), text)
                }
            }
        }
    }

    func testArgumentsAreNeverReExpanded() async throws {
        let call = WebServiceCall<Data>(
            relativePath: "p/%%0%%?q=%%1%%", headers: ["X-H": "%%2%%"], cacheIdentifier: "c-%%0%%")
        let request = try await sentRequest(call, ["%%1%%", "%%2%%", "%%0%%"]).get()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/p/%25%251%25%25?q=%25%252%25%25")
        XCTAssertEqual(request.url?.path, "/v1/p/%%1%%")
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-H"), "%%0%%")
    }

    func testPercentAndStructureCharactersInAPathWildcardStayInOneSegment() async throws {
        // RFC 3986 §3.3: a segment's "/" would add a segment, "?" start the query, "#" the fragment;
        // "%" must be "%25" so that "%2F" and "%zz" arrive as the text passed.
        let cases: [(String, String)] = [
            ("%2F", "%252F"), ("%", "%25"), ("%zz", "%25zz"), ("/", "%2F"), ("?", "%3F"), ("#", "%23"),
            ("a/../b", "a%2F..%2Fb"), ("%%0%%", "%25%250%25%25"), ("50% off", "50%25%20off"),
            ("caf\u{E9}", "caf%C3%A9"), ("a;b=c", "a%3Bb%3Dc"), ("\u{0}", "%00"),
        ]
        let call = WebServiceCall<Data>(relativePath: "items/%%0%%/detail")
        for (value, encoded) in cases {
            let request = try await sentRequest(call, [value]).get()
            let url = try XCTUnwrap(request.url)
            let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
            XCTAssertEqual(components.percentEncodedPath, "/v1/items/\(encoded)/detail", value)
            XCTAssertNil(components.percentEncodedQuery, value)
            XCTAssertNil(components.fragment, value)
            XCTAssertEqual(url.pathComponents, ["/", "v1", "items", value, "detail"], value)
        }
        for dots in [".", ".."] {
            let result = await sentRequest(call, [dots])
            guard case .invalidArguments(0, _)? = result.failure?.reason else { return XCTFail("\(result)") }
        }
    }

    func testPercentAndStructureCharactersInAQueryWildcardStayInOneValue() async throws {
        // RFC 3986 §3.4: "&", "=", "#" and "+" in a value would split or end the query.
        let call = WebServiceCall<Data>(relativePath: "search?q=%%0%%&page=%%1%%")
        for value in ["%2F", "%", "%zz", "/", "?", "#", "a&page=9", "x=y", "a+b", "%%1%%", "\u{0}", "\r\n"] {
            let request = try await sentRequest(call, [value, 2]).get()
            let url = try XCTUnwrap(request.url)
            let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
            XCTAssertNil(components.fragment, value)
            XCTAssertEqual(components.queryItems?.map(\.name), ["q", "page"], value)
            XCTAssertEqual(components.queryItems?.first?.value, value, value)
            XCTAssertEqual(components.queryItems?.last?.value, "2", value)
        }
    }

    func testPercentAndStructureCharactersInAFormBodyStayInOneValue() async throws {
        struct Form: Encodable, Sendable {
            let q: String
            let page: Int
        }
        let call = WebServiceCall<Data>(method: .post, relativePath: "form", requestSerializer: .formURLEncoded)
        for value in ["%2F", "%", "%zz", "/", "?", "#", "a&page=9", "x=y", "a+b", "%%0%%", "\r\n", "caf\u{E9}"] {
            let request = try await sentRequest(call, [Form(q: value, page: 2)]).get()
            let body = String(decoding: try XCTUnwrap(request.httpBody), as: UTF8.self)
            let pairs = body.split(separator: "&").map { $0.split(separator: "=", omittingEmptySubsequences: false) }
            XCTAssertEqual(pairs.count, 2, body)
            let decoded = pairs.map { pair in
                pair.map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "?" }
            }
            XCTAssertTrue(decoded.contains(["q", value]), "\(value.debugDescription): \(body)")
            XCTAssertTrue(decoded.contains(["page", "2"]), body)
        }
    }
}
