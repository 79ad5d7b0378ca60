import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class ArgumentBindingTests: XCTestCase {
    private struct Payload: Codable, Equatable, Sendable { let title: String; let count: Int }

    func testMissingArgumentIsNamed() async {
        let call = WebServiceCall<Data>(relativePath: "users/%%0%%/repos?page=%%2%%")
        let result = await sentRequest(call, ["a", "b"])
        guard case .invalidArguments(let index, let reason)? = result.failure?.reason else {
            return XCTFail("\(result)")
        }
        XCTAssertEqual(index, 2)
        XCTAssertTrue(reason.contains("missing"), reason)
    }

    func testUnusedArgumentIsAnErrorNotSilentlyDropped() async {
        let call = WebServiceCall<Data>(relativePath: "users/%%0%%")
        let result = await sentRequest(call, ["a", "extra"])
        guard case .invalidArguments(let index, _)? = result.failure?.reason else { return XCTFail("\(result)") }
        XCTAssertEqual(index, 1)
    }

    func testNilInQueryDropsTheItem() async throws {
        let call = WebServiceCall<Data>(relativePath: "s?q=%%0%%&page=%%1%%&tag=x%%1%%")
        let request = try await sentRequest(call, ["swift", Optional<Int>.none]).get()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/s?q=swift")
    }

    func testNilInPathIsAnError() async {
        let call = WebServiceCall<Data>(relativePath: "users/%%0%%")
        let result = await sentRequest(call, [Optional<String>.none])
        guard case .invalidArguments(0, let reason)? = result.failure?.reason else { return XCTFail("\(result)") }
        XCTAssertTrue(reason.contains("nil"), reason)
    }

    func testListInQueryValueRepeatsTheItem() async throws {
        let call = WebServiceCall<Data>(relativePath: "s?id=%%0%%&x=1")
        let request = try await sentRequest(call, [[1, 2, 3]]).get()
        XCTAssertEqual(request.url?.query, "id=1&id=2&id=3&x=1")
        let inPath = await sentRequest(WebServiceCall<Data>(relativePath: "a/%%0%%"), [[1, 2]])
        guard case .invalidArguments(0, _)? = inPath.failure?.reason else { return XCTFail("\(inPath)") }
    }

    func testArrayLiteralIsTheArgumentListInEveryForm() async throws {
        let (client, stubs) = makeStubClient()
        let call = WebServiceCall<Data>(relativePath: "u/%%0%%/r/%%1%%")
        _ = try await client.perform(call, ["a", "b"])
        _ = try await client.response(for: call, ["c", "d"])
        _ = try await client.perform(call, "e", "f")
        XCTAssertEqual(stubs.requests.map { $0.request.url?.path }, ["/v1/u/a/r/b", "/v1/u/c/r/d", "/v1/u/e/r/f"])
        let list = WebServiceCall<Data>(relativePath: "s?id=%%0%%")
        _ = try await client.perform(list, [[1, 2]])
        XCTAssertEqual(stubs.requests.last?.request.url?.query, "id=1&id=2", "a nested array is one list argument")
    }

    func testDotSegmentsCannotClimbOutOfThePath() async {
        let call = WebServiceCall<Data>(relativePath: "items/%%0%%/end")
        for value in [".", ".."] {
            let result = await sentRequest(call, [value])
            guard case .invalidArguments(0, _)? = result.failure?.reason else { return XCTFail("\(value): \(result)") }
        }
        let query = await sentRequest(WebServiceCall<Data>(relativePath: "q?v=%%0%%"), [".."])
        XCTAssertEqual(query.success?.url?.query, "v=..", "dots are harmless in a query")
    }

    func testUnsupportedArgumentTypeIsTyped() async {
        struct Opaque: Sendable {}
        let result = await sentRequest(WebServiceCall<Data>(relativePath: "a/%%0%%"), [Opaque()])
        guard case .invalidArguments(0, let reason)? = result.failure?.reason else { return XCTFail("\(result)") }
        XCTAssertTrue(reason.contains("WildcardConvertible"), reason)
    }

    func testWildcardConvertibleTypes() async throws {
        struct UserID: WildcardConvertible, Sendable { let raw: Int; var wildcardText: String { "u\(raw)" } }
        let request = try await sentRequest(WebServiceCall<Data>(relativePath: "users/%%0%%"), [UserID(raw: 7)]).get()
        XCTAssertEqual(request.url?.path, "/v1/users/u7")
    }

    func testAnchors() async throws {
        let fromOrigin = try await sentRequest(WebServiceCall<Data>(relativePath: "/status/%%0%%"), [200]).get()
        XCTAssertEqual(fromOrigin.url?.absoluteString, "https://api.example.com/status/200")
        let absolute = try await sentRequest(WebServiceCall<Data>(relativePath: "https://other.example/x/%%0%%"), ["y"])
            .get()
        XCTAssertEqual(absolute.url?.absoluteString, "https://other.example/x/y")
        let empty = try await sentRequest(WebServiceCall<Data>(relativePath: ""), []).get()
        XCTAssertEqual(empty.url?.absoluteString, "https://api.example.com/v1/")
    }

    func testServiceRootWithoutTrailingSlashStillAppends() async throws {
        let stubs = StubTransport(fallback: .status(200))
        let client = WebServiceClient(serviceRoot: URL(string: "http://127.0.0.1:8080/api")!, transport: stubs)
        _ = try await client.perform(WebServiceCall<Data>(relativePath: "items"))
        XCTAssertEqual(stubs.requests.first?.request.url?.absoluteString, "http://127.0.0.1:8080/api/items")
    }

    func testFirstUnusedArgumentIsThePostBody() async throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "items/%%0%%")
        let request = try await sentRequest(call, ["list", Payload(title: "T", count: 2)]).get()
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=utf-8")
        let sent = try JSONDecoder().decode(Payload.self, from: request.httpBody ?? Data())
        XCTAssertEqual(sent, Payload(title: "T", count: 2))
    }

    func testExplicitBodyParameter() async throws {
        let call = WebServiceCall<Data>(method: .put, relativePath: "items/%%1%%", bodyParameter: 0)
        let request = try await sentRequest(call, [Payload(title: "A", count: 1), "id9"]).get()
        XCTAssertEqual(request.url?.path, "/v1/items/id9")
        XCTAssertEqual(try JSONDecoder().decode(Payload.self, from: request.httpBody ?? Data()).title, "A")
    }

    func testGetHasNoImplicitBody() async {
        let result = await sentRequest(WebServiceCall<Data>(relativePath: "items"), [Payload(title: "A", count: 1)])
        guard case .invalidArguments(0, _)? = result.failure?.reason else { return XCTFail("\(result)") }
    }

    func testDataBodyIsSentAsIsAndNilBodyIsNoBody() async throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "raw")
        let raw = try await sentRequest(call, [Data([0, 1, 2, 255])]).get()
        XCTAssertEqual(raw.httpBody, Data([0, 1, 2, 255]))
        XCTAssertNil(raw.value(forHTTPHeaderField: "Content-Type"))
        let none = try await sentRequest(call, [Optional<Payload>.none]).get()
        XCTAssertNil(none.httpBody)
    }

    func testHeaderContentTypeWinsOverTheSerializers() async throws {
        let call = WebServiceCall<Data>(
            method: .post, relativePath: "raw", headers: ["content-type": "application/vnd.api+json"])
        let request = try await sentRequest(call, [Payload(title: "x", count: 0)]).get()
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/vnd.api+json")
    }

    func testHeaderWildcardsAndNilDropsTheField() async throws {
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["X-User": "%%0%%", "X-Trace": "t-%%1%%"])
        let request = try await sentRequest(call, ["ann", Optional<String>.none]).get()
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-User"), "ann")
        XCTAssertNil(request.value(forHTTPHeaderField: "X-Trace"))
    }

    func testHeaderInjectionThroughAnArgumentIsRefused() async {
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["X-User": "%%0%%"])
        for bad in ["a\r\nX-Evil: 1", "a\nb", "a\rb", "nul\u{0}", "bell\u{7}"] {
            let (client, stubs) = makeStubClient()
            let result = await sentRequest(call, [bad], client: client)
            guard case .invalidHeader("X-User", _)? = result.failure?.reason else {
                return XCTFail("\(bad.debugDescription): \(result)")
            }
            XCTAssertTrue(stubs.requests.isEmpty, "nothing may be sent")
        }
    }

    func testHeaderInjectionFromSharedHeadersIsRefused() async {
        let (client, stubs) = makeStubClient()
        client.sharedHeaders = ["X-Shared": "ok\r\nX-Evil: 1"]
        let shared = await sentRequest(WebServiceCall<Data>(relativePath: "h"), [], client: client)
        guard case .invalidHeader("X-Shared", _)? = shared.failure?.reason else { return XCTFail("\(shared)") }
        client.sharedHeaders = ["Bad Name": "x"]
        let badName = await sentRequest(WebServiceCall<Data>(relativePath: "h"), [], client: client)
        guard case .invalidHeader("Bad Name", _)? = badName.failure?.reason else { return XCTFail("\(badName)") }
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testNoInterceptorCanSendAFieldWithCRLF() async throws {
        let (client, stubs) = makeStubClient()
        client.interceptors = [RequestProcessor { request, _ in request.setValue("x\ny", forHTTPHeaderField: "X-I") }]
        // Foundation on Linux drops such a value when it is set; elsewhere the client refuses it.
        let result = await sentRequest(WebServiceCall<Data>(relativePath: "h"), [], client: client)
        if case .invalidHeader("X-I", _)? = result.failure?.reason { return XCTAssertTrue(stubs.requests.isEmpty) }
        // A request without fields has none at all (`nil`), as a new URLRequest.
        let request = try XCTUnwrap(stubs.requests.last?.request)
        let sent = request.allHTTPHeaderFields ?? [:]
        XCTAssertFalse(sent.values.contains { $0.contains("\n") || $0.contains("\r") }, "\(sent)")
    }

    func testCallHeadersReplaceSharedHeadersCaseInsensitively() async throws {
        let (client, _) = makeStubClient()
        client.sharedHeaders = ["accept": "text/plain", "User-Agent": "Kit/1"]
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["Accept": "application/json"])
        let request = try await sentRequest(call, [], client: client).get()
        XCTAssertEqual(request.allHTTPHeaderFields?.filter { $0.key.lowercased() == "accept" }.count, 1)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json")
        XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), "Kit/1")
    }

    func testCallHeadersOfOneNameInTwoCasesMakeOneField() async throws {
        let (client, _) = makeStubClient()
        // Sorted by name, "accept" comes after "Accept" and wins, as a later field replaces an earlier one.
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["Accept": "text/plain", "accept": "%%0%%"])
        let request = try await sentRequest(call, ["application/json"], client: client).get()
        XCTAssertEqual(request.allHTTPHeaderFields?.filter { $0.key.lowercased() == "accept" }.count, 1)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json")
    }

    func testManyCallHeadersBesideSharedOnesEachReplaceOnlyTheirOwnName() async throws {
        // Each call field is looked up among the names so far by its lowercase form (once a
        // search of every name before it: 10,000 fields beside one shared field took 2.2 s).
        let (client, _) = makeStubClient()
        client.sharedHeaders = ["x-field-17": "shared", "X-Shared": "kept", "X-FIELD-2999": "shared"]
        var headers: [String: String] = [:]
        for index in 0..<3_000 { headers["X-Field-\(index)"] = "call-\(index)" }
        let request = try await sentRequest(
            WebServiceCall<Data>(relativePath: "h", headers: headers), [], client: client
        )
        .get()
        let sent = try XCTUnwrap(request.allHTTPHeaderFields)
        XCTAssertEqual(sent.count, 3_001, "every call field once, and the shared field no call field names")
        XCTAssertEqual(sent["X-Shared"], "kept")
        XCTAssertEqual(sent.filter { $0.key.lowercased() == "x-field-17" }.map(\.value), ["call-17"])
        XCTAssertEqual(sent.filter { $0.key.lowercased() == "x-field-2999" }.map(\.value), ["call-2999"])
        XCTAssertEqual(sent.filter { $0.value.hasPrefix("call-") }.count, 3_000)
    }

    func testProgressParameterIsConsumedAndTypeChecked() async throws {
        let call = WebServiceCall<Data>(relativePath: "d/%%0%%", progressParameter: 1)
        let handler: ProgressHandler = { _, _ in }
        _ = try await sentRequest(call, ["x", handler]).get()
        let wrong = await sentRequest(call, ["x", "not a closure"])
        guard case .invalidArguments(1, _)? = wrong.failure?.reason else { return XCTFail("\(wrong)") }
    }

    func testTimeoutAndMethodReachTheRequest() async throws {
        let call = WebServiceCall<Data>(method: "PURGE", relativePath: "c", timeout: 2.5)
        let request = try await sentRequest(call, []).get()
        XCTAssertEqual(request.httpMethod, "PURGE")
        XCTAssertEqual(request.timeoutInterval, 2.5)
    }

    func testURLBuilderTakesTheArgumentsItAccepts() async throws {
        struct Page: Sendable { let number: Int }
        struct PageBuilder: URLBuilder {
            func accepts(_ argument: Any) -> Bool { argument is Page }
            func buildURL(from url: URL, arguments: [Any]) throws -> URL {
                let page = arguments.compactMap { $0 as? Page }.first?.number ?? 0
                return URL(string: url.absoluteString + "?page=\(page)")!
            }
        }
        let call = WebServiceCall<Data>(method: .post, relativePath: "list/%%0%%", urlBuilder: PageBuilder())
        let request = try await sentRequest(call, ["a", Page(number: 4), Payload(title: "b", count: 1)]).get()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/list/a?page=4")
        XCTAssertNotNil(request.httpBody, "the remaining argument is still the body")
    }
}
