import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The order of a call's stages (Stages.swift), seen from outside: what each stage sees of the
/// follow-ups below it.
final class StageOrderTests: XCTestCase {
    /// Records every request and response an interceptor sees.
    private final class Recorder: WebServiceInterceptor, @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var seen: [String] = []

        var events: [String] { lock.withLock { seen } }

        func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
            lock.withLock { seen.append("request \(request.url?.path ?? "")") }
            return .proceed(request)
        }

        func intercept(_ response: TransportResponse, for request: WebServiceRequest, call: CallDescriptor) async throws
            -> TransportResponse
        {
            lock.withLock { seen.append("response \(response.statusCode) for \(request.url?.path ?? "")") }
            return response
        }
    }

    /// Interceptors sit above the follow-ups, as OkHttp's application interceptors: a redirect
    /// is followed below them, and they see the call's request once and its final response once.
    func testInterceptorsSeeOneRequestAndTheFinalResponseOfARedirectedCall() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/a" }, with: .status(302, headers: ["Location": "/b"]))
        stubs.stub(where: { $0.url?.path == "/b" }, with: .text("landed"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let recorder = Recorder()
        client.interceptors = [recorder]
        let value = try await client.perform(WebServiceCall<String>(relativePath: "a"))
        XCTAssertEqual(value, "landed")
        XCTAssertEqual(stubs.requests.map { $0.request.url?.path }, ["/a", "/b"])
        XCTAssertEqual(recorder.events, ["request /a", "response 200 for /b"])
    }

    /// An authentication challenge is answered below the interceptors too: they never see the 401.
    func testInterceptorsDoNotSeeAChallengeTheProviderAnswers() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: .status(401, headers: ["WWW-Authenticate": "Basic realm=\"r\""]))
        stubs.stub(where: { $0.value(forHTTPHeaderField: "Authorization") != nil }, with: .text("in"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.authenticationProvider = BasicAuthenticationProvider(user: "u", password: "p")
        let recorder = Recorder()
        client.interceptors = [recorder]
        let value = try await client.perform(WebServiceCall<String>(relativePath: "a"))
        XCTAssertEqual(value, "in")
        XCTAssertEqual(stubs.requests.count, 2)
        XCTAssertEqual(recorder.events, ["request /a", "response 200 for /a"])
    }

    /// Network interceptors sit below the follow-ups and the cache: they see every request that
    /// goes on the wire (the redirect's hop too) and each response as it came, while the client's
    /// interceptors see the call once.
    func testNetworkInterceptorsSeeEveryHopAndTheClientsInterceptorsOne() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/a" }, with: .status(302, headers: ["Location": "/b"]))
        stubs.stub(where: { $0.url?.path == "/b" }, with: .text("landed"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let (outer, wire) = (Recorder(), Recorder())
        client.interceptors = [outer]
        client.networkInterceptors = [wire]
        let value = try await client.perform(WebServiceCall<String>(relativePath: "a"))
        XCTAssertEqual(value, "landed")
        XCTAssertEqual(outer.events, ["request /a", "response 200 for /b"])
        XCTAssertEqual(wire.events, ["request /a", "response 302 for /a", "request /b", "response 200 for /b"])
    }

    /// A network interceptor sees a response before the cache does: a `Cache-Control` it writes
    /// decides what is stored, and an answer from the cache never reaches it.
    func testANetworkInterceptorDecidesWhatTheCacheStores() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { _ in true }, with: .text("fresh"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        let wire = Recorder()
        client.networkInterceptors = [
            wire,
            ResponseProcessor { response, _, _ in
                var response = response
                response.headers["Cache-Control"] = "max-age=60"
                return response
            },
        ]
        let call = WebServiceCall<String>(relativePath: "a")
        let first = try await client.response(for: call)
        let second = try await client.response(for: call)
        XCTAssertEqual(first.source, .network)
        XCTAssertEqual(second.source, .cache)
        XCTAssertEqual(second.value, "fresh")
        XCTAssertEqual(stubs.requests.count, 1)
        XCTAssertEqual(wire.events, ["request /a", "response 200 for /a"])
    }

    /// What a network interceptor does to a request is checked again before anything is sent.
    func testARequestANetworkInterceptorBreaksIsRefusedBeforeTheWire() async throws {
        let stubs = StubTransport(fallback: .text("sent"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.networkInterceptors = [RequestProcessor { request, _ in request.httpMethod = "GET /smuggled" }]
        do {
            _ = try await client.perform(WebServiceCall<String>(relativePath: "a"))
            XCTFail("a request with a method that is not a token was sent")
        } catch {
            guard case .invalidCall = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(stubs.requests.count, 0)
    }
}
