import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The values that would end a field or the header section if they reached the wire.
let injectedValues = ["a\r\nX-Evil: 1", "a\nX-Evil: 1", "a\rX-Evil: 1", "a\u{0}b", "a\r\n\r\nGET / HTTP/1.1"]

/// Header names that look like a real field but are not RFC 9110 §5.1 tokens.
let lookAlikeNames = [
    "\u{0410}uthorization",  // Cyrillic capital A
    "\u{FF21}uthorization",  // full-width A
    "Authorizatio\u{301}n",  // a combining acute accent
    "X-Caf\u{E9}",  // NFC é
    "X-Cafe\u{301}",  // NFD é
    "Authorization ", "Author ization", "Authorization:", "Auth\u{0}orization", "X-Evil\r\nX-Other",
    "", "\u{212A}ey",  // Kelvin sign, which Unicode lowercases to "k"
]

/// True when no recorded request carries a CR, LF or NUL in a field or a field that the tests inject.
func noInjectionReached(_ stubs: StubTransport) -> Bool {
    stubs.requests.allSatisfy { recorded in
        (recorded.request.allHTTPHeaderFields ?? [:]).allSatisfy { name, value in
            !name.lowercased().contains("x-evil")
                && !(name + value).unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\u{0}" }
        }
    }
}

/// A request serializer whose `Content-Type` is whatever the test says.
private struct HostileContentTypeSerializer: RequestSerializer {
    let contentType: String
    func serialize(_ value: Any, charset: Charset) throws -> SerializedBody {
        SerializedBody(data: Data("{}".utf8), contentType: contentType)
    }
}

/// An authentication provider that writes a field the Foundation setter would drop.
private struct HostileProvider: AuthenticationProvider {
    let name: String
    let value: String
    func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        var request = request
        var fields = request.allHTTPHeaderFields ?? [:]
        fields[name] = value
        request.allHTTPHeaderFields = fields
        return request
    }

    func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor) async throws
        -> AuthenticationDecision
    { .proceed }
}

private struct Token: CredentialAuthenticator {
    let token: String
    func authenticate(replacing current: String?) async throws -> String { token }
    func apply(_ token: String, to request: inout WebServiceRequest) {
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
}

/// Every source of a request header field, fed CR, LF, CRLF and NUL: each is refused with a typed
/// error before anything is sent, or encoded so that it cannot inject a field.
final class HostileHeaderTests: XCTestCase {
    private func expectRefused(
        _ call: WebServiceCall<Data>, _ arguments: [any Sendable] = [], client: WebServiceClient,
        stubs: StubTransport, field: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await client.response(for: call, arguments: arguments)
            XCTFail("the call was performed", file: file, line: line)
        } catch {
            guard case .invalidHeader(let name, let reason) = error.reason else {
                return XCTFail("\(error)", file: file, line: line)
            }
            if let field { XCTAssertEqual(name, field, file: file, line: line) }
            XCTAssertFalse(reason.isEmpty, file: file, line: line)
        }
        XCTAssertTrue(stubs.requests.isEmpty, "nothing may be sent", file: file, line: line)
    }

    func testDescriptorLiteralValuesAreRefusedWhenTheDescriptorIsMade() async {
        for value in injectedValues {
            let call = WebServiceCall<Data>(relativePath: "h", headers: ["X-Static": value])
            XCTAssertThrowsError(try call.descriptor.validate()) { error in
                guard case .invalidHeader("X-Static", _) = (error as? WebServiceError)?.reason else {
                    return XCTFail("\(error)")
                }
            }
            let (client, stubs) = makeStubClient()
            await expectRefused(call, client: client, stubs: stubs, field: "X-Static")
        }
    }

    func testWildcardValuesFromArgumentsAreRefusedBeforeSending() async {
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["X-Trace": "t-%%0%%-%%1%%"])
        for value in injectedValues {
            let (client, stubs) = makeStubClient()
            await expectRefused(call, ["ok", value], client: client, stubs: stubs, field: "X-Trace")
        }
        // The same call with clean arguments is sent: the refusal is about the value.
        let (client, stubs) = makeStubClient()
        _ = try? await client.response(for: call, arguments: ["a", "b"])
        XCTAssertEqual(stubs.requests.first?.request.value(forHTTPHeaderField: "X-Trace"), "t-a-b")
    }

    func testSharedHeaderValuesAndNamesAreRefusedBeforeSending() async {
        for value in injectedValues {
            let (client, stubs) = makeStubClient()
            client.sharedHeaders = ["X-Shared": value]
            await expectRefused(
                WebServiceCall<Data>(relativePath: "h"), client: client, stubs: stubs, field: "X-Shared")
        }
        for name in lookAlikeNames {
            let (client, stubs) = makeStubClient()
            client.sharedHeaders = [name: "v"]
            await expectRefused(WebServiceCall<Data>(relativePath: "h"), client: client, stubs: stubs, field: name)
        }
    }

    func testNonTokenAndLookAlikeNamesInADescriptorAreRefused() async {
        for name in lookAlikeNames {
            let call = WebServiceCall<Data>(relativePath: "h", headers: [name: "v"])
            XCTAssertThrowsError(try call.descriptor.validate(), name.debugDescription) { error in
                guard case .invalidHeader(name, _) = (error as? WebServiceError)?.reason else {
                    return XCTFail("\(error)")
                }
            }
            let (client, stubs) = makeStubClient()
            await expectRefused(call, client: client, stubs: stubs, field: name)
        }
    }

    func testALookAlikeNeverReplacesTheRealFieldAndCaseDoes() async throws {
        // An ASCII case difference is the same field (RFC 9110 §5.1): the call's replaces the shared one.
        let (client, stubs) = makeStubClient()
        client.sharedHeaders = ["authorization": "Bearer shared"]
        let upper = WebServiceCall<Data>(relativePath: "h", headers: ["AUTHORIZATION": "Bearer call"])
        _ = try await client.response(for: upper)
        let fields = try XCTUnwrap(stubs.requests.first?.request.allHTTPHeaderFields)
        XCTAssertEqual(fields.filter { $0.key.lowercased() == "authorization" }.map(\.value), ["Bearer call"])
        // A look-alike is refused rather than sent beside (or instead of) the real one.
        for name in lookAlikeNames.prefix(5) {
            let (client, stubs) = makeStubClient()
            client.sharedHeaders = ["Authorization": "Bearer shared"]
            await expectRefused(
                WebServiceCall<Data>(relativePath: "h", headers: [name: "Bearer evil"]), client: client, stubs: stubs)
        }
    }

    func testInterceptorFieldsAreCheckedAfterTheInterceptorsRan() async {
        for value in injectedValues {
            let (client, stubs) = makeStubClient()
            // Assigning the dictionary bypasses Foundation's setter, which silently drops such values.
            client.interceptors = [
                RequestProcessor { request, _ in
                    var fields = request.allHTTPHeaderFields ?? [:]
                    fields["X-Intercepted"] = value
                    request.allHTTPHeaderFields = fields
                }
            ]
            await expectRefused(
                WebServiceCall<Data>(relativePath: "h"), client: client, stubs: stubs, field: "X-Intercepted")
        }
        for name in lookAlikeNames where !name.isEmpty {
            let (client, stubs) = makeStubClient()
            client.interceptors = [
                RequestProcessor { request, _ in
                    var fields = request.allHTTPHeaderFields ?? [:]
                    fields[name] = "v"
                    request.allHTTPHeaderFields = fields
                }
            ]
            await expectRefused(WebServiceCall<Data>(relativePath: "h"), client: client, stubs: stubs, field: name)
        }
    }

    func testInterceptorSetterValuesNeverReachTheWire() async {
        for value in injectedValues {
            let (client, stubs) = makeStubClient()
            client.interceptors = [
                RequestProcessor { request, _ in request.setValue(value, forHTTPHeaderField: "X-I") }
            ]
            // Foundation on Linux drops the value in the setter; elsewhere the client refuses it.
            _ = try? await client.response(for: WebServiceCall<Data>(relativePath: "h"))
            XCTAssertTrue(noInjectionReached(stubs), "\(stubs.requests.map(\.request.allHTTPHeaderFields))")
        }
    }

    func testCustomProviderFieldsAreRefusedBeforeSending() async {
        for value in injectedValues {
            let (client, stubs) = makeStubClient()
            client.authenticationProvider = HostileProvider(name: "Authorization", value: "Bearer " + value)
            await expectRefused(
                WebServiceCall<Data>(relativePath: "h"), client: client, stubs: stubs, field: "Authorization")
        }
        let (client, stubs) = makeStubClient()
        client.authenticationProvider = HostileProvider(name: "\u{0410}uthorization", value: "Bearer x")
        await expectRefused(WebServiceCall<Data>(relativePath: "h"), client: client, stubs: stubs)
    }

    func testBasicCredentialsWithControlCharactersAreRefusedBeforeSending() async {
        for (user, password) in [("u\r\nX-Evil: 1", "p"), ("u", "p\r\nX-Evil: 1"), ("u\u{0}", "p"), ("u", "p\n")] {
            let (client, stubs) = makeStubClient()
            client.authenticationProvider = BasicAuthenticationProvider(
                user: user, password: password, sendsPreemptively: true)
            do {
                _ = try await client.response(for: WebServiceCall<Data>(relativePath: "h"))
                XCTFail("sent")
            } catch {
                guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
                XCTAssertFalse(reason.contains(password), "the reason never quotes the password")
            }
            XCTAssertTrue(stubs.requests.isEmpty)
        }
    }

    func testDigestEchoesChallengeFieldsAsQuotedStringsAndRefusesControlCharacters() async throws {
        // realm and opaque with a quote and a backslash: escaped (RFC 9110 §5.6.4), never closing the string.
        let challenge = #"Digest realm="a\"b\\c", nonce="n\"1", qop="auth", algorithm=SHA-256, opaque="o\", x=\"y""#
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
            with: .status(401, headers: ["WWW-Authenticate": challenge]))
        stubs.stub(where: { $0.value(forHTTPHeaderField: "Authorization") != nil }, with: .status(200))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.authenticationProvider = DigestAuthenticationProvider(user: "u\"ser", password: "p")
        _ = try await client.response(for: WebServiceCall<Data>(relativePath: "d"))
        let answer = try XCTUnwrap(stubs.requests.last?.request.value(forHTTPHeaderField: "Authorization"))
        XCTAssertTrue(answer.contains(#"realm="a\"b\\c""#), answer)
        XCTAssertTrue(answer.contains(#"nonce="n\"1""#), answer)
        XCTAssertTrue(answer.contains(#"opaque="o\", x=\"y""#), answer)
        XCTAssertTrue(answer.contains(#"username="u\"ser""#), answer)
        XCTAssertTrue(noInjectionReached(stubs))

        // A challenge with CR, LF or NUL in a field is not answered.
        for realm in ["a\r\nX-Evil: 1", "a\u{0}b"] {
            let stubs = StubTransport(
                fallback: .status(401, headers: ["WWW-Authenticate": "Digest realm=\"\(realm)\", nonce=\"n\""]))
            let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
            client.authenticationProvider = DigestAuthenticationProvider(user: "u", password: "p")
            _ = try? await client.response(for: WebServiceCall<Data>(relativePath: "d"))
            XCTAssertEqual(stubs.requests.count, 1, "no answer to a hostile challenge")
            XCTAssertTrue(noInjectionReached(stubs))
        }

        // A user name with CR/LF is encoded (RFC 8187) or refused; it never splits the field.
        for user in ["u\r\nX-Evil: 1", "u\u{0}"] {
            let stubs = StubTransport()
            stubs.stub(
                where: { $0.value(forHTTPHeaderField: "Authorization") == nil },
                with: .status(401, headers: ["WWW-Authenticate": #"Digest realm="r", nonce="n", qop="auth""#]))
            stubs.stub(where: { $0.value(forHTTPHeaderField: "Authorization") != nil }, with: .status(200))
            let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
            client.authenticationProvider = DigestAuthenticationProvider(user: user, password: "p")
            do {
                _ = try await client.response(for: WebServiceCall<Data>(relativePath: "d"))
                XCTFail("a user name with control characters was sent")
            } catch {
                guard case .invalidHeader("Authorization", _) = error.reason else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(stubs.requests.count, 1, "only the unauthenticated request went out")
            XCTAssertTrue(noInjectionReached(stubs))
        }
    }

    func testATokenWithCRLFNeverReachesTheWire() async {
        for value in injectedValues {
            let (client, stubs) = makeStubClient(fallback: .status(401))
            client.authenticationProvider = SingleFlightAuthenticationProvider(Token(token: value))
            do {
                _ = try await client.response(for: WebServiceCall<Data>(relativePath: "h"))
                XCTFail("the call succeeded")
            } catch {
                XCTAssertFalse("\(error)".contains("X-Evil"), "\(error)")
            }
            XCTAssertTrue(noInjectionReached(stubs))
        }
    }

    func testMultipartPartHeadersAreEncodedOrRefused() async throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "up", multipartBoundary: "XyZ")
        let (client, stubs) = makeStubClient()
        let part = FormData(
            name: "n\r\nX-Evil: 1\u{0}", data: Data("v".utf8), fileName: "f\"\r\n\r\n--XyZ.txt",
            contentType: "text/plain")
        _ = try await client.response(for: call, arguments: [part])
        let body = String(decoding: try XCTUnwrap(stubs.requests.first?.request.httpBody), as: UTF8.self)
        // The name and the file name are quoted with CR, LF, NUL and quotes percent-encoded (WHATWG
        // multipart/form-data encoding): one Content-Disposition line, no extra field, no extra boundary.
        XCTAssertFalse(body.contains("X-Evil: 1\r\n"), body)
        // RFC 2046 §5.1.1: a delimiter is "--boundary" at the start of a line; the file name's copy is not.
        let lines = body.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("--XyZ") }, ["--XyZ", "--XyZ--"], body)
        XCTAssertEqual(lines.filter { $0.lowercased().hasPrefix("content-") }.count, 2, body)
        XCTAssertTrue(body.contains(#"name="n%0D%0AX-Evil: 1%00""#) || body.contains(#"name="n%0D%0AX-Evil: 1"#), body)
        XCTAssertTrue(body.contains(#"filename="f%22%0D%0A%0D%0A--XyZ.txt""#), body)

        for contentType in injectedValues {
            let (client, stubs) = makeStubClient()
            await expectRefused(
                call, [FormData(name: "f", data: Data(), fileName: "a", contentType: contentType)], client: client,
                stubs: stubs)
        }
    }

    func testSerializerContentTypeIsRefusedBeforeSending() async {
        for value in injectedValues {
            let call = WebServiceCall<Data>(
                method: .post, relativePath: "h", requestSerializer: HostileContentTypeSerializer(contentType: value))
            let (client, stubs) = makeStubClient()
            await expectRefused(call, [["k": "v"]], client: client, stubs: stubs, field: "Content-Type")
        }
    }

    func testJSONRPCEndpointHeadersAreRefusedBeforeSending() async {
        for value in injectedValues {
            let endpoint = JSONRPCEndpoint(relativePath: "rpc", headers: ["X-Rpc": value])
            let (client, stubs) = makeStubClient(fallback: jsonStub(#"{"jsonrpc":"2.0","id":1,"result":1}"#))
            do {
                _ = try await client.perform(endpoint, .subtract, [42, 23])
                XCTFail("sent")
            } catch {
                guard case .invalidHeader("X-Rpc", _) = error.reason else { return XCTFail("\(error)") }
            }
            XCTAssertTrue(stubs.requests.isEmpty)
        }
    }

    func testStoredValidatorsWithControlCharactersAreNotEchoed() async throws {
        let call = WebServiceCall<Data>(relativePath: "cached")
        for etag in ["\"v1\"\r\nX-Evil: 1", "\"v1\u{0}\"", "\"v1\"\n"] {
            let stubs = StubTransport(
                fallback: .init(headers: ["Cache-Control": "no-cache", "ETag": etag], body: Data("body".utf8)))
            let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
            client.cache = HTTPCache(memoryLimit: 1 << 20)
            // The response itself is refused (RFC 9110 §5.5), so nothing is stored to echo.
            for _ in 0..<2 {
                do {
                    _ = try await client.response(for: call)
                    XCTFail("a validator with CR, LF or NUL was accepted")
                } catch {
                    guard case .transport(let failure) = error.reason, failure.code == .badServerResponse else {
                        return XCTFail("\(error)")
                    }
                }
            }
            XCTAssertEqual(stubs.requests.count, 2)
            XCTAssertNil(stubs.requests.last?.request.value(forHTTPHeaderField: "If-None-Match"))
            XCTAssertTrue(noInjectionReached(stubs))
        }
        // A clean validator is echoed: the check above is not vacuous.
        let stubs = StubTransport(
            fallback: .init(headers: ["Cache-Control": "no-cache", "ETag": "\"v1\""], body: Data("body".utf8)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache(memoryLimit: 1 << 20)
        _ = try await client.response(for: call)
        _ = try await client.response(for: call)
        XCTAssertEqual(stubs.requests.last?.request.value(forHTTPHeaderField: "If-None-Match"), "\"v1\"")
    }
}
