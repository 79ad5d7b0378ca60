import Foundation
import XCTest

@testable import WebServiceKit

final class HTTP1ResponseParserTests: XCTestCase {
    /// Feeds `text` in pieces of `size` bytes, then the end of the connection.
    private func parse(_ text: String, method: String = "POST", pieces size: Int = .max, close: Bool = true) throws
        -> (parser: HTTP1ResponseParser, events: [HTTP1ResponseParser.Event])
    {
        var parser = HTTP1ResponseParser(requestMethod: method)
        var events: [HTTP1ResponseParser.Event] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            events += try parser.feed(bytes[start..<end])
            start = end
        }
        if close { try parser.finish() }
        return (parser, events)
    }

    private func body(_ parser: HTTP1ResponseParser) -> String { String(decoding: parser.body, as: UTF8.self) }

    func testContentLengthBodyInEveryPieceSize() throws {
        let text = "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world"
        for size in [1, 2, 3, 7, 64, .max] {
            let (parser, events) = try parse(text, pieces: size, close: false)
            XCTAssertTrue(parser.isComplete, "pieces of \(size)")
            XCTAssertEqual(body(parser), "hello world")
            XCTAssertEqual(parser.head?.statusCode, 201)
            XCTAssertEqual(parser.head?.headers.values(for: "content-type"), ["text/plain"])
            XCTAssertEqual(events.count, 1)
        }
    }

    func testChunkedBodyWithExtensionsAndTrailers() throws {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n"
        for size in [1, 4, .max] {
            let (parser, _) = try parse(text, pieces: size, close: false)
            XCTAssertTrue(parser.isComplete)
            XCTAssertEqual(body(parser), "hello world")
        }
    }

    func testInterimResponsesAreReportedThenSkipped() throws {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let (parser, events) = try parse(text, close: false)
        XCTAssertEqual(events.first, .interim(100))
        XCTAssertEqual(events.dropFirst().first, .interim(103))
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(body(parser), "ok")
    }

    func testBodyUntilCloseAndNoBodyCases() throws {
        let untilClose = try parse("HTTP/1.1 200 OK\r\n\r\nall of it").parser
        XCTAssertEqual(body(untilClose), "all of it")
        // RFC 9112 §6.3: HEAD, 204 and 304 have no body whatever the fields say.
        let head = try parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", method: "HEAD", close: false).parser
        XCTAssertTrue(head.isComplete)
        for status in [204, 304] {
            let parser = try parse("HTTP/1.1 \(status) X\r\nContent-Length: 3\r\n\r\n", close: false).parser
            XCTAssertTrue(parser.isComplete)
            XCTAssertEqual(parser.body, [])
        }
    }

    func testBareLineFeedsAndFoldedFieldsAreRead() throws {
        let parser = try parse("HTTP/1.0 200 OK\nX-A: one\n  two\nContent-Length: 1\n\nz", close: false).parser
        XCTAssertEqual(parser.head?.headers.values(for: "X-A"), ["one two"])
        XCTAssertEqual(body(parser), "z")
    }

    func testRepeatedFieldsKeepTheirOrder() throws {
        let parser = try parse("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n")
            .parser
        XCTAssertEqual(parser.head?.headers.values(for: "set-cookie"), ["a=1", "b=2"])
    }

    func testCutShortResponsesFail() {
        let cases = [
            "": "without a response",
            "HTTP/1.1 200 OK\r\nContent-": "head was cut short",
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort": "before the end",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel": "before the end",
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }

    func testMalformedResponsesFail() {
        let cases = [
            "HTTP/2 200 OK\r\n\r\n",
            "HTTP/1.1 20 OK\r\n\r\n",
            "HTTP/1.1 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
            "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            "HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
            "HTTP/1.1 101 Switching Protocols\r\n\r\n",
        ]
        for text in cases {
            XCTAssertThrowsError(try parse(text, close: false), text)
        }
    }

    func testAnOversizedHeadFails() {
        let text = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: HTTP1ResponseParser.maximumHeadSize + 1)
        XCTAssertThrowsError(try parse(text, close: false)) { error in
            XCTAssertTrue("\(error)".contains("larger than"))
        }
    }

    func testAConnectionIsReusableOnlyAfterAFramedHTTP11ResponseThatKeepsItOpen() throws {
        let framed = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        XCTAssertTrue(try parse(framed, method: "GET", close: false).parser.leavesConnectionReusable)
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"
        XCTAssertTrue(try parse(chunked, method: "GET", pieces: 3, close: false).parser.leavesConnectionReusable)
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"
        XCTAssertTrue(try parse(head, method: "HEAD", close: false).parser.leavesConnectionReusable)
        let notReusable = [
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive, Close\r\n\r\nok",
            "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
            // Something after the response: the connection's bytes are out of step.
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1",
            // Not complete yet.
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok",
        ]
        for text in notReusable {
            XCTAssertFalse(try parse(text, method: "GET", close: false).parser.leavesConnectionReusable, text)
        }
        // A body that ends when the connection closes.
        let untilClose = "HTTP/1.1 200 OK\r\n\r\nok"
        XCTAssertFalse(try parse(untilClose, method: "GET", close: true).parser.leavesConnectionReusable)
    }

    func testTheStatusLineVersionIsKept() throws {
        XCTAssertEqual(try parse("HTTP/1.0 204 No Content\r\n\r\n", close: false).parser.head?.version, "HTTP/1.0")
        XCTAssertFalse(HTTP1ResponseParser(requestMethod: "GET").hasReceivedBytes)
        XCTAssertTrue(try parse("HTTP/1.", close: false).parser.hasReceivedBytes)
    }

    func testEqualRepeatedContentLengthsAreOneLength() throws {
        let parser = try parse("HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok", close: false)
            .parser
        XCTAssertEqual(body(parser), "ok")
    }

    func testADrainedBodyIsHandedOverInOrderAndForgotten() throws {
        var parser = HTTP1ResponseParser(requestMethod: "GET")
        var drained: [UInt8] = []
        let bytes = Array(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n".utf8)
        for byte in bytes {
            _ = try parser.feed([byte])
            parser.drainBody { drained += $0 }
            XCTAssertTrue(parser.body.isEmpty)
        }
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(String(decoding: drained, as: UTF8.self), "abcdefg")
    }

    func testALargeBodyInManyPiecesIsKeptWhole() throws {
        let payload = String(repeating: "0123456789abcdef", count: 20_000)
        let (parser, _) = try parse(
            "HTTP/1.1 200 OK\r\nContent-Length: \(payload.utf8.count)\r\n\r\n" + payload, pieces: 4096, close: false)
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(body(parser), payload)
    }
}

final class HTTP1RequestHeadTests: XCTestCase {
    private func head(
        _ url: String, fields: [String: String] = [:], extra: [String: String] = [:],
        framing: HTTP1RequestHead.Framing = .length(5), expects: Bool = false
    ) throws -> String {
        let head = try HTTP1RequestHead(
            method: "POST", url: URL(string: url)!, fields: fields, extraFields: extra, framing: framing,
            expectsContinue: expects)
        return String(decoding: head.bytes, as: UTF8.self)
    }

    func testRequestLineHostAndFraming() throws {
        XCTAssertEqual(
            try head("http://example.com/a%20b/c?q=1%2B2&x"),
            "POST /a%20b/c?q=1%2B2&x HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(
            try head("http://127.0.0.1:8080", framing: .chunked, expects: true),
            "POST / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n"
                + "Connection: close\r\n\r\n")
        XCTAssertTrue(try head("http://[::1]:81/x").contains("Host: [::1]:81\r\n"))
        XCTAssertEqual(
            try head("http://example.com/file?x=1", framing: .none),
            "POST /file?x=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
    }

    func testManagedFieldsAreReplacedAndSessionFieldsDoNotOverride() throws {
        let text = try head(
            "http://example.com/",
            fields: ["content-length": "99", "Transfer-Encoding": "gzip", "Host": "evil", "X-A": "mine"],
            extra: ["x-a": "session", "User-Agent": "kit"])
        XCTAssertFalse(text.contains("99"))
        XCTAssertFalse(text.contains("evil"))
        XCTAssertFalse(text.contains("gzip"))
        XCTAssertTrue(text.contains("X-A: mine\r\n"))
        XCTAssertFalse(text.contains("session"))
        XCTAssertTrue(text.contains("User-Agent: kit\r\n"))
    }

    func testInjectedFieldsAreRefused() {
        XCTAssertThrowsError(try head("http://example.com/", fields: ["X": "a\r\nInjected: 1"])) { error in
            guard case WebServiceError.invalidHeader(let name, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "X")
        }
        XCTAssertThrowsError(try head("http://example.com/", extra: ["X Y": "1"]))
    }
}

final class ProxyEnvironmentTests: XCTestCase {
    func testNoProxyListsHostsAndDomains() {
        let none = ProxyEnvironment(proxy: nil, noProxy: nil)
        XCTAssertFalse(none.appliesTo(host: "example.com"))
        let proxied = ProxyEnvironment(proxy: "http://proxy:3128", noProxy: "localhost, .internal,10.0.0.1")
        XCTAssertTrue(proxied.appliesTo(host: "example.com"))
        XCTAssertFalse(proxied.appliesTo(host: "LOCALHOST"))
        XCTAssertFalse(proxied.appliesTo(host: "api.internal"))
        XCTAssertFalse(proxied.appliesTo(host: "internal"))
        XCTAssertTrue(proxied.appliesTo(host: "notinternal"))
        XCTAssertFalse(proxied.appliesTo(host: "10.0.0.1"))
        XCTAssertFalse(ProxyEnvironment(proxy: "http://p", noProxy: "*").appliesTo(host: "anything"))
    }
}
