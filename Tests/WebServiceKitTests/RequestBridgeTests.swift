import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the bridge adds to a request, and what it leaves alone (Docs/DescriptorReference.md,
/// "What every request gets").
final class RequestBridgeTests: XCTestCase {
    private func bridged(
        _ fields: [String: String] = [:], method: String = "GET", body: Data? = nil, streamed: Bool = false,
        additional: [String: String] = [:], cookies: CookieJar? = nil
    ) -> [String: String] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = additional
        let bridge = RequestBridge(configuration: configuration, cookies: cookies)
        var request = WebServiceRequest(url: URL(string: "http://example.com/a")!)
        request.httpMethod = method
        request.allHTTPHeaderFields = fields
        request.httpBody = body
        bridge.bridge(&request, streamed: streamed)
        return request.allHTTPHeaderFields ?? [:]
    }

    func testARequestWithoutFieldsGetsTheDefaults() {
        XCTAssertEqual(
            bridged(),
            ["Accept": "*/*", "User-Agent": RequestBridge.userAgent, "Accept-Encoding": "gzip, deflate"])
    }

    func testTheRequestsOwnFieldWinsInAnyCase() {
        let fields = bridged(
            ["accept": "application/json", "USER-AGENT": "mine/1", "accept-encoding": "identity", "x-a": "mine"],
            additional: ["X-A": "session", "X-B": "session"])
        XCTAssertEqual(
            fields,
            [
                "accept": "application/json", "USER-AGENT": "mine/1", "accept-encoding": "identity", "x-a": "mine",
                "X-B": "session",
            ])
    }

    func testTheConfigurationCanSetTheDefaultsFields() {
        XCTAssertEqual(bridged(additional: ["User-Agent": "app/2"])["User-Agent"], "app/2")
    }

    /// A range of a coded body would be a range of the coded bytes (RFC 9110 §14.2): no coding is
    /// asked for.
    func testARangeRequestAsksForNoCoding() {
        XCTAssertNil(bridged(["Range": "bytes=10-"])["Accept-Encoding"])
    }

    func testABodyInMemoryGetsItsLengthAndAType() {
        let fields = bridged(method: "PUT", body: Data("hello".utf8))
        XCTAssertEqual(fields["Content-Length"], "5")
        XCTAssertEqual(fields["Content-Type"], "application/octet-stream")
        XCTAssertEqual(
            bridged(["Content-Type": "application/json"], method: "POST", body: Data("{}".utf8))["Content-Type"],
            "application/json")
    }

    /// RFC 9110 §8.6: a user agent sends `Content-Length: 0` for a method that gives content a
    /// meaning; not for one that does not.
    func testAnEmptyPostSaysItsLengthAndAGetDoesNot() {
        for method in ["POST", "PUT", "PATCH"] {
            XCTAssertEqual(bridged(method: method)["Content-Length"], "0", method)
        }
        for method in ["GET", "HEAD", "DELETE", "OPTIONS"] { XCTAssertNil(bridged(method: method)["Content-Length"]) }
    }

    /// A streamed body's framing is the transport's (a length, or chunked): no length here.
    func testAStreamedBodyGetsATypeButNoLength() {
        let fields = bridged(method: "POST", streamed: true)
        XCTAssertNil(fields["Content-Length"])
        XCTAssertEqual(fields["Content-Type"], "application/octet-stream")
    }

    func testCookiesOfTheURLUnlessTheRequestHasSome() throws {
        let jar = try XCTUnwrap(CookieJar(configuration: .ephemeral))
        jar.store(from: ["Set-Cookie": "a=1; Path=/"], for: URL(string: "http://example.com/")!)
        XCTAssertEqual(bridged(cookies: jar)["Cookie"], "a=1")
        XCTAssertEqual(bridged(["cookie": "mine=2"], cookies: jar)["cookie"], "mine=2")
        XCTAssertNil(bridged(["cookie": "mine=2"], cookies: jar)["Cookie"])
    }
}

extension RequestBridgeTests {
    /// The length is the body's on every route: a stated length that is not is set right (the
    /// HTTP/1.1 transport frames by the body; URLSession would send the field as it stands).
    func testAWrongLengthIsSetToTheBodys() {
        let fields = bridged(["content-length": "99"], method: "POST", body: Data("hello".utf8))
        XCTAssertEqual(fields["content-length"], "5")
        XCTAssertNil(fields["Content-Length"], "one field, under the request's own name")
    }

    /// A request that has everything is left as it is, not copied: the bridge reports no change.
    func testACompleteRequestIsNotChanged() {
        let bridge = RequestBridge(configuration: .ephemeral, cookies: nil)
        var fields = [
            "accept": "*/*", "user-agent": "x", "accept-encoding": "identity", "content-type": "text/plain",
            "content-length": "2",
        ]
        let before = fields
        XCTAssertFalse(
            bridge.complete(
                &fields, method: "PUT", body: Data("hi".utf8), streamed: false, cookiesFor: URL(string: "http://a/")))
        XCTAssertEqual(fields, before)
        var none: [String: String] = [:]
        XCTAssertTrue(bridge.complete(&none, method: "GET", body: nil, streamed: false, cookiesFor: nil))
        XCTAssertEqual(none.count, 3)
    }
}

/// The cache keys `Vary` on the request the wire gets: a response that varies by `Cookie` is not
/// served to a request whose cookie the jar changed since, because the bridge added the cookie
/// above the cache. Its twin puts the cookie below the cache, as the transports did before the
/// bridge stage, and the cache serves the stale answer: the test can fail.
final class BridgeVaryTests: XCTestCase {
    /// Answers with the `Cookie` it got, cacheable, varying by `Cookie`; adds the jar's cookie
    /// itself when `addsCookieBelow` (the old arrangement) and then names no bridge.
    private struct EchoCookie: WebServiceTransport {
        let jar: CookieJar
        let addsCookieBelow: Bool

        var bridge: RequestBridge? {
            addsCookieBelow ? nil : RequestBridge(configuration: .ephemeral, cookies: jar)
        }

        func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
            var cookie = request.value(forHTTPHeaderField: "Cookie")
            if addsCookieBelow, let url = request.url { cookie = jar.header(for: url) }
            return TransportResponse(
                statusCode: 200, headers: ["Cache-Control": "max-age=600", "Vary": "Cookie"],
                body: Data((cookie ?? "none").utf8), url: request.url)
        }
    }

    private func answers(addsCookieBelow: Bool) async throws -> [String] {
        let jar = try XCTUnwrap(CookieJar(configuration: .ephemeral))
        let root = URL(string: "http://bridge-vary.example/")!
        let client = WebServiceClient(
            serviceRoot: root, transport: EchoCookie(jar: jar, addsCookieBelow: addsCookieBelow))
        client.cache = HTTPCache()
        let call = WebServiceCall<String>(relativePath: "me")
        let before = try await client.perform(call)
        jar.store(from: ["Set-Cookie": "session=1; Path=/"], for: root)
        let after = try await client.perform(call)
        return [before, after]
    }

    func testAResponseVaryingByCookieIsNotServedAfterTheCookieChanged() async throws {
        let answers = try await answers(addsCookieBelow: false)
        XCTAssertEqual(answers, ["none", "session=1"])
    }

    func testTwinWithTheCookieAddedBelowTheCacheServesTheStaleAnswer() async throws {
        let answers = try await answers(addsCookieBelow: true)
        XCTAssertEqual(answers, ["none", "none"], "the cache never saw the cookie")
    }
}
