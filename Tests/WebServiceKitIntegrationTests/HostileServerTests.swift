import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Responses no server should send, from the fault server's `/raw` route (the bytes exactly as
/// written), on both routes of `RoutingTransport`: its HTTP/1.1 peer (a GET to an `http` URL on
/// Linux) and the session. Each ends in a typed error or a documented repair,
/// never in a value read from a broken head, and nothing broken is cached or kept.
final class HostileServerTests: XCTestCase {
    /// The two routes a GET to the fault server can take.
    enum Route: CaseIterable {
        case direct, session

        func transport() -> RoutingTransport {
            RoutingTransport(configuration: .ephemeral, usesDirectHTTP1: self == .direct)
        }
    }

    private static let raw = WebServiceCall<Data>(relativePath: "raw?b64=%%0%%&tag=%%1%%")
    private static let headers = WebServiceCall<[String: String]>(relativePath: "headers")

    /// `text` as the `/raw` route's argument (base64url, no padding).
    static func encoded(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A response head with `fields`, a short JSON body and `Connection: close`.
    static func response(_ fields: String, body: String = "{\"ok\":true}") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(fields)Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)"
    }

    private func client(_ route: Route, cache: HTTPCache? = nil) throws -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: route.transport())
        client.cache = cache
        return client
    }

    func testAFieldValueWithCROrNULFailsTheCallAndIsNotCached() async throws {
        let values = ["a\rb", "a\u{0}b"]
        for route in Route.allCases {
            for value in values {
                let cache = HTTPCache()
                let client = try client(route, cache: cache)
                let text = Self.response("Cache-Control: max-age=3600\r\nX-Hostile: \(value)\r\n")
                let tag = UUID().uuidString
                do {
                    let response = try await client.response(for: Self.raw, arguments: [Self.encoded(text), tag])
                    // A transport may have dropped the field before the check saw it: then no CR
                    // or NUL may be left in any value.
                    for field in response.headers {
                        XCTAssertFalse(
                            field.value.contains("\r") || field.value.contains("\u{0}"),
                            "\(route) \(value.debugDescription): \(field)")
                    }
                } catch {
                    guard case .transport(let failure) = error.reason else { return XCTFail("\(route): \(error)") }
                    XCTAssertEqual(failure.code, .badServerResponse, "\(route) \(value.debugDescription)")
                    // libcurl refuses a NUL itself, in its own words; the check cites the RFC.
                    if route == .direct { XCTAssertTrue("\(error)".contains("RFC 9110 §5.5"), "\(error)") }
                    XCTAssertEqual(cache.byteCount, 0, "\(route): a refused response was cached")
                }
            }
        }
    }

    /// A `Set-Cookie` with CR or NUL is dropped (RFC 6265 §5.2); the origin stays usable and the
    /// cookie is never sent. On the session route libcurl refuses a head with a NUL outright
    /// (`.badServerResponse`), and Foundation on Linux drops every cookie of a response with a CR
    /// in one: only the direct path keeps the response's good cookie.
    func testAHostileCookieIsDroppedAndTheOriginStaysUsable() async throws {
        for route in Route.allCases {
            for hostile in ["bad=a\rX-Evil: 1", "bad=a\u{0}b"] {
                let client = try client(route)
                let text = Self.response("Set-Cookie: \(hostile)\r\nSet-Cookie: good=1; Path=/\r\n")
                let label = "\(route) \(hostile.debugDescription)"
                do {
                    let response = try await client.response(
                        for: Self.raw, arguments: [Self.encoded(text), UUID().uuidString])
                    XCTAssertFalse(
                        response.headers.values(for: "Set-Cookie").contains { $0.contains("bad") },
                        "\(label): \(response.headers)")
                } catch {
                    guard route == .session, hostile.contains("\u{0}"), case .transport(let failure) = error.reason
                    else {
                        return XCTFail("\(label): \(error)")
                    }
                    XCTAssertEqual(failure.code, .badServerResponse, label)
                }
                // The next call to the origin goes out, without the bad cookie.
                let seen = try await client.perform(Self.headers)
                let cookie = seen["cookie"] ?? ""
                if route == .direct { XCTAssertEqual(cookie, "good=1", "\(label): \(seen)") }
                XCTAssertFalse(cookie.contains("bad") || cookie.contains("Evil"), "\(label): \(seen)")
                XCTAssertNil(seen["x-evil"], "\(label): \(seen)")
            }
        }
    }

    /// The request that issue #19 reproduced as smuggling on the session route: a method set in
    /// `prepare` that carries a second request. It never reaches the server.
    func testASmuggledMethodNeverReachesTheServer() async throws {
        for route in Route.allCases {
            let client = try client(route)
            let tag = UUID().uuidString
            let call = WebServiceCall<Data>(method: .post, relativePath: "ok?tag=%%0%%")
            do {
                _ = try await client.perform(
                    call, arguments: [tag, Data("{}".utf8)],
                    prepare: { $0.httpMethod = "GET /ok?tag=\(tag) HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET" })
                XCTFail("\(route): the request was sent")
            } catch {
                guard case .invalidCall(let reason) = error.reason else { return XCTFail("\(route): \(error)") }
                XCTAssertTrue(reason.contains("RFC 9110 §9.1"), reason)
            }
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertEqual(record.count, 0, "\(route): a request reached the server")
        }
    }
    /// What `/expect-417` saw of the request it answered.
    private struct ExpectEcho: Decodable {
        let length: Int
        let expect: String
    }

    func testA417ToExpectContinueSendsTheRequestAgainWithoutIt() async throws {
        // RFC 9110 §10.1.1: a client that receives a 417 to a request with `100-continue` SHOULD
        // repeat it without the expectation. A body of 2 MiB asks it (1 MiB and more do), the
        // fault server refuses the expectation before reading the body, and the call gets the
        // answer to the second request, sent from the same unopened stream.
        let call = WebServiceCall<ExpectEcho>(method: .post, relativePath: "expect-417")
        let length = 2 << 20
        for route in Route.allCases {
            let client = try client(route)
            let opens = Counter()
            let body = RequestBody.stream(length: Int64(length)) {
                opens.increment()
                return PatternStream(length: Int64(length), delay: 0)
            }
            let echo = try await client.perform(call, body)
            XCTAssertEqual(echo.length, length, "\(route)")
            XCTAssertEqual(echo.expect, "", "\(route): the second request asks no expectation")
            XCTAssertLessThanOrEqual(opens.value, 2, "\(route)")
        }
        // A small body asks no expectation: the server answers at once.
        let echo = try await client(.direct).perform(call, RequestBody.data(Data("small".utf8)))
        XCTAssertEqual(echo.length, 5)
    }
}
