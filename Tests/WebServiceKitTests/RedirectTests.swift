import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client follows redirects itself (RFC 9110 §15.4) so credentials stay with their origin.
final class RedirectTests: XCTestCase {
    private func redirect(_ status: Int, to location: String) -> StubTransport.Stub {
        .status(status, headers: ["Location": location])
    }

    func testCrossOriginRedirectDropsCredentialsButKeepsOtherFields() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.host == "api.example.com" }, with: redirect(302, to: "https://other.example/landing"))
        stubs.stub(where: { $0.url?.host == "other.example" }, with: .text("landed"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.sharedHeaders = ["Authorization": "Bearer secret", "Cookie": "s=1", "X-Other": "kept"]
        let response = try await client.response(for: WebServiceCall<String>(relativePath: "start"))
        XCTAssertEqual(response.value, "landed")
        XCTAssertEqual(response.request.url?.absoluteString, "https://other.example/landing")
        let final = try XCTUnwrap(stubs.requests.last?.request)
        XCTAssertNil(final.value(forHTTPHeaderField: "Authorization"))
        XCTAssertNil(final.value(forHTTPHeaderField: "Cookie"))
        XCTAssertEqual(final.value(forHTTPHeaderField: "X-Other"), "kept")
        XCTAssertEqual(stubs.requests.first?.request.value(forHTTPHeaderField: "Authorization"), "Bearer secret")
    }

    func testSameOriginRedirectKeepsCredentials() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/a" }, with: redirect(301, to: "/b"))
        stubs.stub(where: { $0.url?.path == "/b" }, with: .text("b"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.sharedHeaders = ["Authorization": "Bearer secret"]
        _ = try await client.perform(WebServiceCall<String>(relativePath: "a"))
        XCTAssertEqual(stubs.requests.last?.request.value(forHTTPHeaderField: "Authorization"), "Bearer secret")
        XCTAssertEqual(stubs.requests.last?.request.url?.absoluteString, "https://api.example.com/b")
    }

    func testPortOrSchemeChangeIsAnotherOrigin() async throws {
        for target in ["https://api.example.com:8443/x", "http://api.example.com/x"] {
            let stubs = StubTransport(fallback: .text("end"))
            stubs.stub(where: { $0.url?.path == "/a" }, with: redirect(307, to: target))
            let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
            client.sharedHeaders = ["Authorization": "Bearer secret"]
            _ = try await client.perform(WebServiceCall<String>(relativePath: "a"))
            XCTAssertNil(stubs.requests.last?.request.value(forHTTPHeaderField: "Authorization"), target)
        }
    }

    func testMethodRules() async throws {
        let cases: [(status: Int, method: HTTPMethod, expected: String, keepsBody: Bool)] = [
            (301, .post, "GET", false), (302, .post, "GET", false), (303, .post, "GET", false),
            (303, .put, "GET", false), (303, .head, "HEAD", false), (307, .post, "POST", true),
            (308, .put, "PUT", true), (302, .put, "PUT", true), (301, .delete, "DELETE", false),
        ]
        for (status, method, expected, keepsBody) in cases {
            let stubs = StubTransport(fallback: .status(204))
            stubs.stub(where: { $0.url?.path == "/a" }, with: redirect(status, to: "/b"))
            let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
            let call = WebServiceCall<EmptyResponse>(
                method: method, relativePath: "a", bodyParameter: method == .delete || method == .head ? nil : 0)
            _ = try await client.perform(call, arguments: call.bodyParameter == nil ? [] : [["k": "v"]])
            let final = try XCTUnwrap(stubs.requests.last?.request)
            XCTAssertEqual(final.httpMethod, expected, "\(status) \(method)")
            if call.bodyParameter != nil {
                XCTAssertEqual(final.httpBody != nil, keepsBody, "\(status) \(method)")
                XCTAssertEqual(final.value(forHTTPHeaderField: "Content-Type") != nil, keepsBody, "\(status) \(method)")
            }
        }
    }

    func testRedirectLoopIsCappedWithATypedError() async {
        let stubs = StubTransport(fallback: redirect(302, to: "/loop"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.maximumRedirects = 5
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "loop"))
            XCTFail("must stop")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .httpTooManyRedirects)
        }
        XCTAssertEqual(stubs.requests.count, 6)
    }

    func testRedirectsCanBeTurnedOff() async throws {
        let stubs = StubTransport(fallback: redirect(302, to: "/elsewhere"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.maximumRedirects = 0
        let call = WebServiceCall<Data>(relativePath: "a", successCodes: [302])
        let response = try await client.response(for: call)
        XCTAssertEqual(response.statusCode, 302)
        XCTAssertEqual(response.headers["Location"], "/elsewhere")
        XCTAssertEqual(stubs.requests.count, 1)
    }

    func testNonHTTPLocationIsNotFollowed() async throws {
        let stubs = StubTransport(fallback: redirect(302, to: "file:///etc/passwd"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let response = try await client.response(for: WebServiceCall<Data>(relativePath: "a", successCodes: [302]))
        XCTAssertEqual(response.statusCode, 302)
        XCTAssertEqual(stubs.requests.count, 1)
    }
}
