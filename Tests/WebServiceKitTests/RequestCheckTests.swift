import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one request check (RFC 9110 §9.1, §4.2, §5.1, §5.5) runs after `prepare`, every
/// interceptor and the authentication provider, and before any transport: what fails it is
/// never handed to a transport.
final class RequestCheckTests: XCTestCase {
    /// Methods that would be read as more than one request, or as no request at all.
    static let smugglingMethods = [
        "GET /x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET", "GET\r\n", "GET\n", "G ET", "GET\0", "", "GÉT", "GET\t",
        "(GET)", "GET:",
    ]

    private func failure(
        _ client: WebServiceClient, prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil
    ) async -> WebServiceError? {
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "items"), arguments: [], prepare: prepare)
            return nil
        } catch {
            return error
        }
    }

    private func assertInvalidCall(
        _ error: WebServiceError?, mentioning text: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case .invalidCall(let reason) = error?.reason else {
            return XCTFail("\(String(describing: error))", file: file, line: line)
        }
        XCTAssertTrue(reason.contains(text), reason, file: file, line: line)
        XCTAssertFalse(reason.contains("\r") || reason.contains("\n"), "a message never carries a line break")
    }

    func testAMethodSetInPrepareMustBeAToken() async {
        for method in Self.smugglingMethods {
            let (client, stubs) = makeStubClient()
            let error = await failure(client) { $0.httpMethod = method }
            assertInvalidCall(error, mentioning: "RFC 9110 §9.1")
            XCTAssertTrue(stubs.requests.isEmpty, "\(method.debugDescription) reached the transport")
        }
    }

    func testAMethodSetByAnInterceptorMustBeAToken() async {
        for method in Self.smugglingMethods {
            let (client, stubs) = makeStubClient()
            client.interceptors = [RequestProcessor { request, _ in request.httpMethod = method }]
            assertInvalidCall(await failure(client), mentioning: "RFC 9110 §9.1")
            XCTAssertTrue(stubs.requests.isEmpty, "\(method.debugDescription) reached the transport")
        }
    }

    func testAnyTokenMethodIsSent() async throws {
        for method in ["PROPFIND", "M-SEARCH", "a!#$%&'*+-.^_`|~1"] {
            let (client, stubs) = makeStubClient()
            let error = await failure(client) { $0.httpMethod = method }
            XCTAssertNil(error)
            XCTAssertEqual(stubs.requests.map(\.request.httpMethod), [method])
        }
    }

    func testTheURLMustBeHTTPWithAHost() async {
        let urls = ["ftp://api.example.com/items", "file:///etc/passwd", "http:///items", "mailto:someone@example.com"]
        for text in urls {
            let (client, stubs) = makeStubClient()
            let url = URL(string: text)
            let error = await failure(client) { $0.url = url }
            assertInvalidCall(error, mentioning: "RFC 9110 §4.2")
            XCTAssertTrue(stubs.requests.isEmpty, "\(text) reached the transport")
        }
    }

    func testHeaderFieldsSetAfterTheFactoryAreChecked() async {
        for (name, value) in [("X-A", "a\r\nX-Evil: 1"), ("X-A", "a\u{0}b"), ("X-A", "a\u{7F}"), ("X Evil", "1")] {
            let (client, stubs) = makeStubClient()
            let error = await failure(client) { request in
                var fields = request.allHTTPHeaderFields ?? [:]
                fields[name] = value
                request.allHTTPHeaderFields = fields
            }
            guard case .invalidHeader(let refused, _) = error?.reason else {
                return XCTFail("\(String(describing: error))")
            }
            XCTAssertEqual(refused, name)
            XCTAssertTrue(stubs.requests.isEmpty)
        }
    }

    /// Values that would add a field or end the header section (RFC 9110 §5.5).
    static let injectedValues = ["a\r\nX-Evil: 1", "a\nX-Evil: 1", "a\rb", "b\u{0}c"]

    /// The error a value gets from an argument: what every other place must answer.
    private func argumentError(_ value: String) async throws -> WebServiceError {
        let (client, stubs) = makeStubClient()
        let call = WebServiceCall<Data>(relativePath: "items", headers: ["X-A": "%%0%%"])
        do {
            _ = try await client.perform(call, arguments: [value])
        } catch {
            XCTAssertTrue(stubs.requests.isEmpty)
            return error
        }
        throw XCTSkip("the argument \(value.debugDescription) was sent")
    }

    /// A value with CR, LF or NUL set with `setValue` or `addValue` in `prepare` fails the call
    /// with the error such a value from an argument gets, and nothing is sent. Foundation's
    /// `URLRequest.setValue(_:forHTTPHeaderField:)` on Linux drops it as it is set (the call
    /// then succeeded without the field); the stages pass the library's own request, which
    /// keeps it for the check.
    func testAValueWithCRLFSetWithSetValueOrAddValueInPrepareIsRefused() async throws {
        for value in Self.injectedValues {
            let expected = try await argumentError(value)
            guard case .invalidHeader(let name, _) = expected.reason else { return XCTFail("\(expected)") }
            XCTAssertEqual(name, "X-A")
            for adds in [false, true] {
                let (client, stubs) = makeStubClient()
                let error = await failure(client) { request in
                    if adds {
                        request.setValue("first", forHTTPHeaderField: "x-a")
                        request.addValue(value, forHTTPHeaderField: "X-A")
                        // Appended to the field of any case, as URLRequest does.
                        XCTAssertEqual(request.value(forHTTPHeaderField: "X-A"), "first," + value)
                    } else {
                        request.setValue(value, forHTTPHeaderField: "X-A")
                    }
                }
                guard case .invalidHeader(let refused, let reason) = error?.reason else {
                    return XCTFail("\(value.debugDescription), addValue \(adds): \(String(describing: error))")
                }
                XCTAssertEqual(refused.lowercased(), "x-a")
                if !adds, case .invalidHeader(_, let expectedReason) = expected.reason {
                    XCTAssertEqual(reason, expectedReason, "the same error as from an argument")
                }
                XCTAssertTrue(stubs.requests.isEmpty, "\(value.debugDescription) reached the transport")
            }
        }
    }

    /// The same from every other place that changes a request: a client interceptor, a network
    /// interceptor (below the cache), an authentication provider and a token authenticator.
    func testAValueWithCRLFSetByAnInterceptorOrProviderIsRefused() async throws {
        for value in Self.injectedValues {
            let setters: [(String, (WebServiceClient) -> Void)] = [
                (
                    "interceptor",
                    {
                        $0.interceptors = [
                            RequestProcessor { request, _ in request.setValue(value, forHTTPHeaderField: "X-A") }
                        ]
                    }
                ),
                (
                    "network interceptor",
                    {
                        $0.networkInterceptors = [
                            RequestProcessor { request, _ in request.setValue(value, forHTTPHeaderField: "X-A") }
                        ]
                    }
                ),
                ("provider", { $0.authenticationProvider = FieldSettingProvider(name: "X-A", value: value) }),
                (
                    "authenticator",
                    { $0.authenticationProvider = SingleFlightAuthenticationProvider(FixedToken(token: value)) }
                ),
            ]
            for (place, set) in setters {
                let (client, stubs) = makeStubClient()
                set(client)
                let error = await failure(client)
                guard case .invalidHeader = error?.reason else {
                    return XCTFail("\(place), \(value.debugDescription): \(String(describing: error))")
                }
                XCTAssertTrue(stubs.requests.isEmpty, "\(place): \(value.debugDescription) reached the transport")
            }
        }
    }

    /// The twin of the two tests above: the same calls with a harmless value are sent with the
    /// field, so the refusals are the check's and not a setter that fails anyway.
    func testTheSameSettersWithAHarmlessValueSendTheField() async throws {
        let (client, stubs) = makeStubClient()
        client.interceptors = [RequestProcessor { request, _ in request.setValue("1", forHTTPHeaderField: "X-B") }]
        client.networkInterceptors = [
            RequestProcessor { request, _ in request.addValue("2", forHTTPHeaderField: "X-B") }
        ]
        client.authenticationProvider = SingleFlightAuthenticationProvider(FixedToken(token: "t"))
        let error = await failure(client) { $0.setValue("p", forHTTPHeaderField: "X-P") }
        XCTAssertNil(error)
        let sent = try XCTUnwrap(stubs.requests.first?.request)
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-B"), "1,2")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-P"), "p")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    /// The provider runs after the interceptors: what it adds is checked too, and the check runs
    /// on the request each retry sends.
    func testTheCheckRunsAfterTheProvider() async {
        let (client, stubs) = makeStubClient()
        client.authenticationProvider = MethodChangingProvider()
        assertInvalidCall(await failure(client), mentioning: "RFC 9110 §9.1")
        XCTAssertTrue(stubs.requests.isEmpty)
    }
}

/// A provider that breaks the method of the request it authenticates.
private struct MethodChangingProvider: AuthenticationProvider {
    func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        var request = request
        request.httpMethod = "GET / HTTP/1.1\r\n\r\nGET"
        return request
    }
}

/// A provider that sets one field on every request.
private struct FieldSettingProvider: AuthenticationProvider {
    let name: String
    let value: String

    func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        return request
    }
}

/// A token authenticator whose token is fixed.
private struct FixedToken: CredentialAuthenticator {
    let token: String

    func authenticate(replacing current: String?) async throws -> String { token }

    func apply(_ token: String, to request: inout WebServiceRequest) {
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
}
