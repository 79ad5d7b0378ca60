import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects against two real servers on 127.0.0.1 (two ports: two origins).
final class HTTPBinRedirectTests: XCTestCase {
    private struct Posted: Codable, Sendable, Equatable { let value: String }

    func testCredentialsDoNotFollowARedirectToAnotherOrigin() async throws {
        let client = try HTTPBin.client()
        let other = try HTTPBin.otherURL()
        client.sharedHeaders = ["Authorization": "Basic c2VjcmV0", "X-Kept": "yes"]
        let call = WebServiceCall<Echo>(relativePath: "redirect-to?url=%%0%%")
        let response = try await client.response(for: call, other.appendingPathComponent("anything").absoluteString)
        XCTAssertEqual(response.url?.port, other.port)
        XCTAssertNil(response.value.headers["Authorization"], "credentials leaked to \(other)")
        XCTAssertEqual(response.value.headers["X-Kept"], "yes")
    }

    func testSameOriginRedirectsKeepCredentials() async throws {
        let client = try HTTPBin.client()
        client.sharedHeaders = ["Authorization": "Basic c2VjcmV0"]
        let redirect = WebServiceCall<Echo>(relativePath: "redirect-to?url=%%0%%")
        let echo = try await client.perform(redirect, "/anything/same")
        XCTAssertEqual(echo.headers["Authorization"], "Basic c2VjcmV0")
        XCTAssertEqual(echo.path, "/anything/same")
        let chain = try await client.response(for: WebServiceCall<Data>(relativePath: "redirect/%%0%%"), 3)
        XCTAssertEqual(chain.url?.path, "/get")
    }

    func testTemporaryRedirectKeepsMethodAndBody() async throws {
        let client = try HTTPBin.client()
        let call = WebServiceCall<Echo>(
            method: .post, relativePath: "redirect-to?url=%%0%%&status_code=%%1%%", bodyParameter: 2)
        let kept = try await client.perform(call, "/anything/307", 307, Posted(value: "body"))
        XCTAssertEqual(kept.method, "POST")
        XCTAssertEqual(try JSONDecoder().decode(Posted.self, from: Data(kept.data.utf8)), Posted(value: "body"))
        let changed = try await client.perform(call, "/anything/303", 303, Posted(value: "body"))
        XCTAssertEqual(changed.method, "GET")
        XCTAssertEqual(changed.data, "")
    }

    func testTooManyRedirects() async throws {
        let client = try HTTPBin.client()
        client.maximumRedirects = 3
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "redirect/%%0%%"), 6)
            XCTFail("must stop after 3")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .httpTooManyRedirects)
        }
    }
}
