import Foundation
import WebServiceKit
import WebServiceKitXML
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client against a real server: what httpbin received is exactly what the descriptor said.
final class HTTPBinCallTests: XCTestCase {
    private struct Note: Codable, Equatable, Sendable { let title: String; let tags: [String] }

    func testEveryMethodSendsExactlyWhatTheDescriptorSays() async throws {
        let client = try HTTPBin.client()
        client.sharedHeaders = ["X-Client": "kit"]
        for method in [HTTPMethod.get, .post, .put, .patch, .delete] {
            let call = WebServiceCall<Echo>(
                method: method, relativePath: "anything/%%0%%/items?q=%%1%%&fixed=1",
                headers: ["X-Trace": "%%2%%", "Accept": "application/json"],
                bodyParameter: method == .get || method == .delete ? nil : 3)
            var arguments: [any Sendable] = ["a b/c", "x&y=z+1 %41 é", "trace-\(method)"]
            if call.bodyParameter != nil { arguments.append(Note(title: "Привет", tags: ["a", "b"])) }
            let echo = try await client.perform(call, arguments: arguments)
            XCTAssertEqual(echo.method, method.rawValue)
            XCTAssertEqual(echo.path, "/anything/a b/c/items", "\(method)")
            XCTAssertEqual(echo.args["q"], .one("x&y=z+1 %41 é"), "\(method)")
            XCTAssertEqual(echo.args["fixed"], .one("1"))
            XCTAssertEqual(echo.headers["X-Trace"], "trace-\(method)")
            XCTAssertEqual(echo.headers["X-Client"], "kit")
            if call.bodyParameter != nil {
                XCTAssertEqual(echo.headers["Content-Type"], "application/json; charset=utf-8")
                XCTAssertEqual(
                    try JSONDecoder().decode(Note.self, from: Data(echo.data.utf8)),
                    Note(title: "Привет", tags: ["a", "b"]))
            } else {
                XCTAssertEqual(echo.data, "")
            }
        }
    }

    /// Query items from an `Encodable` value, read back by httpbin's query parser (Werkzeug's): each
    /// name and value arrives as the text it was, lists repeated or comma-separated.
    func testQueryParametersArriveAsTheyWere() async throws {
        struct Filter: Encodable, Sendable {
            let text: String
            let plus: String
            let missing: Int?
            let tags: [String]
            let when: Date
        }
        let client = try HTTPBin.client()
        let search = WebServiceCall<Echo>(relativePath: "anything/search?q=%%0%%&%%1%%")
        let tricky = "a b&c=d+e %41 é/?#"
        let filter = Filter(
            text: tricky, plus: "1+1=2", missing: nil, tags: ["x y", "z&w"], when: Date(timeIntervalSince1970: 86_400))
        let echo = try await client.perform(search, "swift", filter)
        XCTAssertEqual(echo.args["q"], .one("swift"))
        XCTAssertEqual(echo.args["text"], .one(tricky))
        XCTAssertEqual(echo.args["plus"], .one("1+1=2"))
        XCTAssertNil(echo.args["missing"])
        XCTAssertEqual(echo.args["tags"], .many(["x y", "z&w"]))
        XCTAssertEqual(echo.args["when"], .one("1970-01-02T00:00:00Z"))
        let comma = try await client.perform(search, "s", QueryParameters(encoding: filter, lists: .commaSeparated))
        XCTAssertEqual(comma.args["tags"], .one("x y,z&w"))
        let names: [String: any Sendable] = ["a&b": "1", "c d": ["2", "3"]]
        let dictionary = try await client.perform(search, "s", names)
        XCTAssertEqual(dictionary.args["a&b"], .one("1"))
        XCTAssertEqual(dictionary.args["c d"], .many(["2", "3"]))
    }

    func testHeadOptionsAndTrace() async throws {
        let client = try HTTPBin.client()
        let head = try await client.response(
            for: WebServiceCall<EmptyResponse>(method: .head, relativePath: "anything/%%0%%"), "h")
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(head.headers["content-type"], "application/json")
        let options = try await client.response(for: WebServiceCall<Data>(method: .options, relativePath: "anything"))
        XCTAssertEqual(options.statusCode, 200)
        XCTAssertEqual(options.headers["Allow"].map { Set($0.components(separatedBy: ", ")).contains("TRACE") }, true)
        let trace = try await client.perform(WebServiceCall<Echo>(method: .trace, relativePath: "anything/%%0%%"), "t")
        XCTAssertEqual(trace.method, "TRACE")
        XCTAssertEqual(trace.path, "/anything/t")
    }

    func testOriginAnchorAndIPv6Root() async throws {
        let root = try HTTPBin.url()
        let client = WebServiceClient(serviceRoot: root.appendingPathComponent("anything/base/"))
        let relative = try await client.perform(WebServiceCall<Echo>(relativePath: "x"))
        XCTAssertEqual(relative.path, "/anything/base/x")
        let fromOrigin = try await client.perform(WebServiceCall<Echo>(relativePath: "/anything/y"))
        XCTAssertEqual(fromOrigin.path, "/anything/y")
        let ipv6 = WebServiceClient(serviceRoot: URL(string: "http://[::1]:1/api/")!, transport: nil)
        let request = try ipv6.request(for: WebServiceCall<Data>(relativePath: "/v"), arguments: [])
        XCTAssertEqual(request.url?.absoluteString, "http://[::1]:1/v")
    }

    func testEncodingTableRoundTripsThroughTheServer() async throws {
        let client = try HTTPBin.client()
        let call = WebServiceCall<Echo>(relativePath: "anything/v/%%0%%?v=%%0%%")
        let values = [
            "plain", "a b", "a/b", "a?b", "a#b", "100%", "a&b", "a=b", "a+b", "a;b", "%41", "%2F", "-._~", "a:b@c",
            "$!*'(),", "[x]", "\"q\"", "<t>", "café", "Привет", "日本", "😀", "e\u{301}", "a  b", "~user", "a%20b",
        ]
        for value in values {
            let echo = try await client.perform(call, value)
            XCTAssertEqual(echo.args["v"], .one(value), "query \(value.debugDescription)")
            // httpbin's `url` re-quotes the decoded path but keeps '%' as it is, so a decoded '%41'
            // cannot be told from 'A' there; the unit encoding table pins those bytes instead.
            if !value.contains("%") {
                XCTAssertEqual(echo.path, "/anything/v/" + value, "path \(value.debugDescription)")
            }
        }
    }

    func testListArgumentRepeatsTheQueryItem() async throws {
        let echo = try await HTTPBin.client().perform(
            WebServiceCall<Echo>(relativePath: "anything?id=%%0%%"), [[1, 2, 3]])
        XCTAssertEqual(echo.args["id"], .many(["1", "2", "3"]))
    }

    func testPreEncodedPath() async throws {
        let client = try HTTPBin.client()
        let echo = try await client.perform(
            WebServiceCall<Echo>(relativePath: "%%0%%"), PreEncodedPath("anything/x/y%20z"))
        XCTAssertEqual(echo.path, "/anything/x/y z")
    }

    func testFormBodyAndWindows1251TextBody() async throws {
        let client = try HTTPBin.client()
        let form = WebServiceCall<Echo>(method: .post, relativePath: "post", requestSerializer: .formURLEncoded)
        let echo = try await client.perform(form, ["name": "Иван Петров", "q": "a&b=c+d"])
        XCTAssertEqual(echo.form?["name"], .one("Иван Петров"))
        XCTAssertEqual(echo.form?["q"], .one("a&b=c+d"))

        let text = WebServiceCall<Echo>(
            method: .put, relativePath: "put", requestSerializer: .text, bodyCharset: .windows1251)
        let sent = try await client.perform(text, "Привет, мир")
        XCTAssertEqual(sent.headers["Content-Type"], "text/plain; charset=windows-1251")
        // httpbin reports a body that is not UTF-8 as base64.
        let base64 = try XCTUnwrap(sent.data.components(separatedBy: "base64,").last)
        let bytes = try XCTUnwrap(Data(base64Encoded: base64))
        XCTAssertEqual(bytes.count, 11)
        XCTAssertEqual(String(data: bytes, encoding: .windowsCP1251), "Привет, мир")
    }

    func testStatusCodesAgainstSuccessCodeSets() async throws {
        let client = try HTTPBin.client()
        let plain = WebServiceCall<Data>(relativePath: "status/%%0%%")
        let withRange = WebServiceCall<Data>(relativePath: "status/%%0%%", successCodes: [400..<410, 418])
        let overriding = WebServiceCall<Data>(
            relativePath: "status/%%0%%", successCodes: [404], overridesClientSuccessCodes: true)
        let cases: [(WebServiceCall<Data>, Int, Bool)] = [
            (plain, 200, true), (plain, 201, true), (plain, 299, true), (plain, 404, false), (plain, 500, false),
            (withRange, 200, true), (withRange, 404, true), (withRange, 409, true), (withRange, 410, false),
            (withRange, 418, true), (overriding, 404, true), (overriding, 200, false), (overriding, 201, false),
        ]
        for (call, status, accepted) in cases {
            do {
                _ = try await client.perform(call, status)
                XCTAssertTrue(accepted, "\(status) must be refused by \(call.successCodes?.description ?? "default")")
            } catch {
                XCTAssertFalse(accepted, "\(status) must be accepted: \(error)")
                guard case .unacceptableStatus(let code, _, _) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(code, status)
            }
        }
        client.successCodes = [200..<300, 404]
        _ = try await client.perform(plain, 404)
    }

    func testSerializationRootOnJSON() async throws {
        let client = try HTTPBin.client()
        let author = try await client.perform(
            WebServiceCall<String>(
                relativePath: "json", serializer: JSONResponseSerializer<String>(),
                serializationRoot: "slideshow.author"))
        XCTAssertEqual(author, "Yours Truly")
        let title = try await client.perform(
            WebServiceCall<String>(
                relativePath: "json", serializer: JSONResponseSerializer<String>(),
                serializationRoot: "slideshow.slides.1.title"))
        XCTAssertEqual(title, "Overview")
    }

    func testXMLResponse() async throws {
        struct Slideshow: Decodable, Sendable, XMLNodeKindProviding {
            let title: String
            let author: String
            let slide: [Slide]
            static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
                key.stringValue == "slide" ? .element : .attribute
            }
        }
        struct Slide: Decodable, Sendable, XMLNodeKindProviding {
            let type: String
            let title: String
            static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
                key.stringValue == "type" ? .attribute : .element
            }
        }
        let client = try HTTPBin.client()
        let show = try await client.perform(
            WebServiceCall(relativePath: "xml", serializer: XMLResponseSerializer<Slideshow>()))
        XCTAssertEqual(show.title, "Sample Slide Show")
        XCTAssertEqual(show.author, "Yours Truly")
        XCTAssertEqual(show.slide.map(\.title), ["Wake up to WonderWidgets!", "Overview"])
        XCTAssertEqual(show.slide.first?.type, "all")
    }

    func testBytesAndEmptyBodies() async throws {
        let client = try HTTPBin.client()
        let bytes = try await client.perform(WebServiceCall<Data>(relativePath: "bytes/%%0%%"), 4096)
        XCTAssertEqual(bytes.count, 4096)
        _ = try await client.perform(WebServiceCall<EmptyResponse>(relativePath: "status/204"))
        let optional = try await client.perform(WebServiceCall<Note?>(relativePath: "status/204"))
        XCTAssertNil(optional)
        do {
            _ = try await client.perform(WebServiceCall<Note>(relativePath: "status/204"))
            XCTFail("204 cannot be a Note")
        } catch {
            guard case .emptyBody(204) = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testResponseHeadersReachTheCaller() async throws {
        let client = try HTTPBin.client()
        let response = try await client.response(
            for: WebServiceCall<Data>(relativePath: "response-headers?X-Custom=%%0%%"), "hello world")
        XCTAssertEqual(response.headers["x-custom"], "hello world")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.request.httpMethod, "GET")
    }

    func testNonJSONBodyWithAJSONSerializer() async throws {
        let client = try HTTPBin.client()
        do {
            _ = try await client.perform(WebServiceCall<Note>(relativePath: "html"))
            XCTFail("HTML is not a Note")
        } catch {
            guard case .decoding(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(failure.bodyExcerpt.hasPrefix("<!DOCTYPE html>"), failure.bodyExcerpt)
        }
    }

    func testTimeout() async throws {
        let client = try HTTPBin.client()
        let started = Date()
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "delay/%%0%%", timeout: 0.5), 5)
            XCTFail("must time out")
        } catch {
            XCTAssertTrue(error.isTimeout, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 4)
    }

    func testCancelWithCallbacks() throws {
        let client = try HTTPBin.client()
        let done = expectation(description: "cancelled")
        let started = Date()
        let task = client.perform(
            WebServiceCall<Data>(relativePath: "delay/%%0%%"), [5], success: { _ in XCTFail("must not succeed") },
            failure: { error in
                guard case .cancelled(let reason) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(reason, "test")
                done.fulfill()
            })
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { task.cancel(reason: "test") }
        wait(for: [done], timeout: 4)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4)
    }

    func testAsyncCancellation() async throws {
        let client = try HTTPBin.client()
        let task = Task { try await client.perform(WebServiceCall<Data>(relativePath: "delay/5")) }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("must be cancelled")
        } catch {
            XCTAssertTrue((error as? WebServiceError)?.isCancelled == true, "\(error)")
        }
    }

    func testClosedPortIsATransportError() async {
        let client = WebServiceClient(serviceRoot: URL(string: "http://127.0.0.1:\(closedLocalPort())/")!)
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "get"))
            XCTFail("nothing listens there")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .cannotConnectToHost)
        }
    }

    func testPerformSynchronouslyKeepsTheBody() throws {
        let client = try HTTPBin.client()
        let response = try client.performSynchronously(
            WebServiceCall<Echo>(method: .post, relativePath: "post"), [Note(title: "sync", tags: [])])
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertFalse(response.body.isEmpty)
        XCTAssertTrue(response.value.data.contains("\"sync\""))
    }

    func testCallbackStyle() throws {
        let client = try HTTPBin.client()
        let done = expectation(description: "done")
        client.perform(
            WebServiceCall<Echo>(relativePath: "anything/%%0%%"), ["cb"],
            success: { echo in
                XCTAssertEqual(echo.path, "/anything/cb")
                done.fulfill()
            }, failure: { XCTFail("\($0)") })
        wait(for: [done], timeout: 10)
    }
}
