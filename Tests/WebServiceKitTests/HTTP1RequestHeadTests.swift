import Foundation
import XCTest

@testable import WebServiceKit

/// The request head the direct path writes (RFC 9112 §3).
final class HTTP1RequestHeadTests: XCTestCase {
    private func head(
        _ url: String, fields: [String: String] = [:], framing: HTTP1RequestHead.Framing = .length(5),
        expects: Bool = false
    ) -> String {
        let head = HTTP1RequestHead(
            method: "POST", url: URL(string: url)!, fields: fields, framing: framing, expectsContinue: expects)
        return String(decoding: head.bytes, as: UTF8.self)
    }

    func testRequestLineHostAndFraming() throws {
        XCTAssertEqual(
            head("http://example.com/a%20b/c?q=1%2B2&x"),
            "POST /a%20b/c?q=1%2B2&x HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(
            head("http://127.0.0.1:8080", framing: .chunked, expects: true),
            "POST / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n"
                + "Connection: close\r\n\r\n")
        XCTAssertTrue(head("http://[::1]:81/x").contains("Host: [::1]:81\r\n"))
        XCTAssertEqual(
            head("http://example.com/file?x=1", framing: .none),
            "POST /file?x=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
    }

    /// The connection's own fields come from the framing, never from the request; the transport
    /// adds nothing else (the bridge stage did, above the cache).
    func testManagedFieldsAreReplacedAndNothingIsAdded() throws {
        let text = head(
            "http://example.com/",
            fields: ["content-length": "99", "Transfer-Encoding": "gzip", "Host": "evil", "X-A": "mine"])
        XCTAssertEqual(
            text.components(separatedBy: "\r\n"),
            ["POST / HTTP/1.1", "Host: example.com", "X-A: mine", "Content-Length: 5", "Connection: close", "", ""])
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

/// The host a connection resolves: an IPv6 literal without its brackets, as `getaddrinfo(3)`
/// takes it; a URL without a host is a typed error.
final class SocketHostTests: XCTestCase {
    func testBracketsComeOffAnIPv6LiteralOnly() throws {
        XCTAssertEqual(try SocketOperations.host(of: URL(string: "http://[::1]:8080/x")!), "::1")
        XCTAssertEqual(try SocketOperations.host(of: URL(string: "http://127.0.0.1/")!), "127.0.0.1")
        XCTAssertEqual(try SocketOperations.host(of: URL(string: "http://Example.com/a")!), "Example.com")
        XCTAssertThrowsError(try SocketOperations.host(of: URL(string: "file:///tmp/x")!)) { error in
            XCTAssertEqual((error as? URLError)?.code, .badURL)
        }
    }
}
