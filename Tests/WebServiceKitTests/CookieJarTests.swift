import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport's cookie jar: what it keeps of hostile `Set-Cookie` values, whether they come
/// as separate fields (the direct path) or joined by Foundation with `", "` (the session).
final class CookieJarTests: XCTestCase {
    func testJoinedValuesSplitAtCookiesNotAtDates() {
        XCTAssertEqual(
            CookieJar.cookieStrings("a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/, b=2, c=3; HttpOnly"),
            ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/", "b=2", "c=3; HttpOnly"])
        XCTAssertEqual(CookieJar.cookieStrings("\u{1F600}=, kept=1; Path=/"), ["\u{1F600}=", "kept=1; Path=/"])
        XCTAssertEqual(CookieJar.cookieStrings("one=1"), ["one=1"])
        XCTAssertEqual(CookieJar.cookieStrings(" "), [])
        XCTAssertEqual(CookieJar.cookieStrings("a=1,=2"), ["a=1,=2"], "an empty name starts nothing")
    }

    func testHostileCookiesAreDroppedAndTheOthersKept() throws {
        let storage = HTTPCookieStorage.shared  // any storage: cleaned below
        let url = try XCTUnwrap(URL(string: "http://jar.example/"))
        defer { storage.cookies(for: url)?.forEach(storage.deleteCookie) }
        let jar = CookieJar(storage: storage, policy: .always)
        // Foundation's parser traps on the first two on Linux; the third breaks a Cookie line.
        let joined = "\u{1F600}=, a\u{301}=, bad=x\ry, kept=1; Path=/, also=2"
        jar.store(from: ["Set-Cookie": joined], for: url)
        let names = Set(storage.cookies(for: url)?.map(\.name) ?? [])
        XCTAssertEqual(names, ["kept", "also"])
        let header = try XCTUnwrap(jar.header(for: url))
        XCTAssertFalse(ResponseCheck.breaksLines(header))
    }
}
