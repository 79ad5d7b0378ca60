import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct NotAnEcho: Decodable, Sendable {
    let missing: Int
}

/// Hostile arguments against the local httpbin: what the server decodes is exactly what was
/// passed, injection is refused before anything crosses the wire, and an echoed credential never
/// reaches an error's description.
final class HTTPBinHostileInputTests: XCTestCase {
    private static let anything = WebServiceCall<Echo>(relativePath: "anything/%%0%%?q=%%1%%")

    func testStructureCharactersInWildcardsArriveAsTheTextPassed() async throws {
        let client = try HTTPBin.client()
        for value in ["%2F", "%", "%zz", "a/b", "?", "#", "a&q=2", "%%0%%", "caf\u{E9}", "50% off", "a+b", "x?y#z"] {
            let echo: Echo
            do {
                echo = try await client.perform(Self.anything, value, value)
            } catch {
                XCTFail("\(value): \(error)")
                continue
            }
            // WSGI hands httpbin a decoded path, and it re-encodes it loosely for its echo: "/" and
            // "%" in a path value are checked byte for byte on the request in the unit tests
            // (HostileTemplateTests); here the values that would start a query or a fragment.
            if !value.contains("%"), !value.contains("/") {
                XCTAssertEqual(echo.path, "/anything/\(value)", value)
            }
            XCTAssertEqual(echo.args["q"], .one(value), value)
            XCTAssertEqual(echo.args.count, 1, value)
        }
    }

    func testInjectionIsRefusedBeforeTheWire() async throws {
        let counting = CountingTransport()
        let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: counting)
        let call = WebServiceCall<Echo>(
            method: .post, relativePath: "anything", headers: ["X-Value": "%%0%%"], bodyParameter: 1)
        for value in ["a\r\nX-Evil: 1", "a\nb", "a\u{0}b"] {
            do {
                _ = try await client.perform(call, value, Data("x".utf8))
                XCTFail("sent \(value.debugDescription)")
            } catch {
                guard case .invalidHeader("X-Value", _) = error.reason else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(counting.requests, 0)
        // The same call with a clean value goes through and the server sees one field.
        let echo = try await client.perform(call, "clean", Data("x".utf8))
        XCTAssertEqual(counting.requests, 1)
        XCTAssertEqual(echo.headers["X-Value"], "clean")
        XCTAssertNil(echo.headers["X-Evil"])
    }

    /// The same values set in `prepare` or by an interceptor with `setValue`: refused with the
    /// argument's error before the wire (on Linux, a `URLRequest` would have dropped them and the
    /// call succeeded without the field); a clean value set the same ways reaches httpbin.
    func testInjectionSetInPrepareOrAnInterceptorIsRefusedBeforeTheWire() async throws {
        let counting = CountingTransport()
        let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: counting)
        let call = WebServiceCall<Echo>(method: .post, relativePath: "anything", bodyParameter: 0)
        for value in ["a\r\nX-Evil: 1", "a\nb", "a\u{0}b"] {
            do {
                _ = try await client.perform(
                    call, arguments: [Data("x".utf8)], prepare: { $0.setValue(value, forHTTPHeaderField: "X-Value") })
                XCTFail("sent \(value.debugDescription) from prepare")
            } catch {
                guard case .invalidHeader("X-Value", _) = error.reason else { return XCTFail("\(error)") }
            }
            client.interceptors = [
                RequestProcessor { request, _ in request.addValue(value, forHTTPHeaderField: "X-Value") }
            ]
            do {
                _ = try await client.perform(call, Data("x".utf8))
                XCTFail("sent \(value.debugDescription) from an interceptor")
            } catch {
                guard case .invalidHeader("X-Value", _) = error.reason else { return XCTFail("\(error)") }
            }
            client.interceptors = []
        }
        XCTAssertEqual(counting.requests, 0)
        client.interceptors = [RequestProcessor { request, _ in request.addValue("b", forHTTPHeaderField: "X-Value") }]
        let echo = try await client.perform(
            call, arguments: [Data("x".utf8)], prepare: { $0.setValue("a", forHTTPHeaderField: "X-Other") })
        XCTAssertEqual(counting.requests, 1)
        XCTAssertEqual(echo.headers["X-Value"], "b")
        XCTAssertEqual(echo.headers["X-Other"], "a")
        XCTAssertNil(echo.headers["X-Evil"])
    }

    func testAnEchoedCredentialNeverReachesTheErrorDescription() async throws {
        let client = try HTTPBin.client()
        let token = "hostile-test-token-0123456789"
        client.sharedHeaders = ["Authorization": "Bearer \(token)", "Cookie": "sid=hostile-cookie-abcdef"]
        do {
            // httpbin's /headers echoes the request's fields; the body is no NotAnEcho.
            _ = try await client.perform(WebServiceCall<NotAnEcho>(relativePath: "headers"))
            XCTFail("decoded")
        } catch {
            guard case .decoding(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.bodyExcerpt.contains("Authorization"), failure.bodyExcerpt)
            for text in [
                "\(error)", String(reflecting: error), error.localizedDescription, failure.bodyExcerpt,
            ] {
                XCTAssertFalse(text.contains(token), text)
                XCTAssertFalse(text.contains("hostile-cookie-abcdef"), text)
            }
        }
    }
}
