import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The local httpbin that `Scripts/test` starts on 127.0.0.1.
enum HTTPBin {
    /// The server's URL; skips the test when it is not running, or fails it when the test script
    /// said the servers are required.
    static func url(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try serverURL("WEBSERVICEKIT_HTTPBIN_URL", file: file, line: line)
    }

    /// A second httpbin on another port: another origin.
    static func otherURL(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try serverURL("WEBSERVICEKIT_HTTPBIN_OTHER_URL", file: file, line: line)
    }

    /// The strict multipart parser's echo server (PyPI `multipart`, strict mode).
    static func multipartEchoURL(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try serverURL("WEBSERVICEKIT_MULTIPART_URL", file: file, line: line)
    }

    /// The OData v4 fixture service (PyPI `odatapy`), its service root.
    static func odataURL(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try serverURL("WEBSERVICEKIT_ODATA_URL", file: file, line: line)
    }

    /// The JSON-RPC 2.0 server (PyPI `json-rpc`), its root: the endpoints are `rpc` and
    /// `secure/rpc` below it.
    static func jsonRPCURL(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try serverURL("WEBSERVICEKIT_JSONRPC_URL", file: file, line: line)
    }

    /// The root URL of a test server from its environment variable (127.0.0.1 only); a skip, or a
    /// failure under `WEBSERVICEKIT_REQUIRE_SERVERS=1`, when it is not set.
    static func serverURL(_ variable: String, file: StaticString, line: UInt) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment[variable], let url = URL(string: text) {
            precondition(url.host == "127.0.0.1", "integration tests talk to 127.0.0.1 only")
            return url
        }
        if environment["WEBSERVICEKIT_REQUIRE_SERVERS"] == "1" {
            XCTFail("\(variable) is not set: run Scripts/test", file: file, line: line)
        }
        throw XCTSkip("\(variable) is not set; run Scripts/test")
    }

    static func client(file: StaticString = #filePath, line: UInt = #line) throws -> WebServiceClient {
        WebServiceClient(serviceRoot: try url(file: file, line: line))
    }
}

/// What httpbin's `/anything`, `/post` and friends echo back.
struct Echo: Decodable, Sendable {
    /// `/anything` reports the method; `/post`, `/put`… do not.
    let method: String?
    let args: [String: OneOrMany]
    let headers: [String: String]
    let data: String
    let form: [String: OneOrMany]?
    let url: String

    /// httpbin gives a string for one value and an array for repeated ones.
    enum OneOrMany: Decodable, Sendable, Equatable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }
    }

    /// The request path as the server decoded it.
    var path: String { URLComponents(string: url)?.path ?? "" }
}

/// A TCP port on 127.0.0.1 that nothing listens on.
func closedLocalPort() -> Int {
    #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
