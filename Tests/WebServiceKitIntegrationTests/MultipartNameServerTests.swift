import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What real servers read from the field names and file names a multipart body writes, in both
/// ``MultipartNameEscaping`` modes: PHP's own form parser (its built-in web server), Django,
/// Werkzeug and python-multipart (`Tests/Servers/multipart_names.py`), and PyPI `multipart` in
/// strict mode (the echo server). Docs/Multipart.md's table is this test's expectations.
final class MultipartNameServerTests: XCTestCase {
    /// What each server answers: the names and values of the fields, the names and file names
    /// of the files, in the order it read them.
    private struct Decoded: Decodable, Sendable, Equatable {
        let fields: [[String?]]
        let files: [[String?]]
    }

    private enum Server: String, CaseIterable {
        case php, django, werkzeug, pythonMultipart = "python-multipart"
    }

    private func decoded(
        by server: Server, _ parts: [FormData], _ escaping: MultipartNameEscaping
    ) async throws -> Decoded {
        var fields = CallFields(method: .post, relativePath: server == .php ? "names" : server.rawValue)
        fields.multipartNameEscaping = escaping
        let root =
            server == .php
            ? try HTTPBin.serverURL("WEBSERVICEKIT_PHP_MULTIPART_URL", file: #filePath, line: #line)
            : try HTTPBin.serverURL("WEBSERVICEKIT_MULTIPART_NAMES_URL", file: #filePath, line: #line)
        let client = WebServiceClient(serviceRoot: root)
        return try await client.perform(WebServiceCall<Decoded>(fields), [parts])
    }

    /// Names PHP keeps as they are in `$_POST` (no space, dot or `[`, which PHP turns into `_` or arrays).
    private static let names = ["plain", #"q"uote"#, #"back\slash"#, #"Ünï"cöde\"#]
    /// A file name without a backslash: PHP and Django keep only what follows the last one.
    private static let fileName = #"say "hi" 100%.txt"#

    private static var parts: [FormData] {
        names.map { FormData(name: $0, value: "v") }
            + [FormData(name: "up", data: Data("file".utf8), fileName: fileName, contentType: "text/plain")]
    }

    func testEveryServerReadsBackslashEscapedNamesExactly() async throws {
        for server in Server.allCases {
            let result = try await decoded(by: server, Self.parts, .backslashEscaping)
            XCTAssertEqual(result.fields, Self.names.map { [$0, "v"] }, "\(server)")
            XCTAssertEqual(result.files, [["up", Self.fileName]], "\(server)")
        }
    }

    /// PyPI `multipart` guesses per name: backslash escapes when the value holds `\"`, else
    /// `%22`, `%0D`, `%0A`. So it reads every percent-encoded name back, and a backslash-escaped
    /// one only when it has a `"` too: `back\slash` comes back with its backslash doubled.
    func testTheStrictMultipartParserGuessesTheEscapingPerName() async throws {
        let client = WebServiceClient(serviceRoot: try HTTPBin.multipartEchoURL())
        let names = Self.names + ["line\r\nbreak"]
        let expected: [MultipartNameEscaping: [String]] = [
            .percentEncoding: names,
            .backslashEscaping: ["plain", #"q"uote"#, #"back\\slash"#, #"Ünï"cöde\"#, "line\r\nbreak"],
        ]
        for escaping in [MultipartNameEscaping.percentEncoding, .backslashEscaping] {
            var fields = CallFields(method: .post, relativePath: "parts")
            fields.multipartNameEscaping = escaping
            let parts = names.map { FormData(name: $0, value: "v") }
            let parsed = try await client.perform(WebServiceCall<[EchoedPart]>(fields), [parts])
            XCTAssertEqual(parsed.map(\.name), expected[escaping], "\(escaping)")
        }
    }

    /// The default, browsers' `%22`: only Werkzeug reads it back (and keeps `%0D%0A`); PHP,
    /// Django and python-multipart keep `%22` as three characters. A backslash, sent as it is, is
    /// read as an escape by all four: `a\\b` comes back as `a\b`, Werkzeug drops the one in
    /// `back\slash`, and a name ending in `\` becomes `end"` in PHP and is lost in Werkzeug.
    func testWhatEachServerMakesOfPercentEncodedNames() async throws {
        let parts = [
            FormData(name: #"q"uote"#, value: "v"),
            FormData(name: #"a\\b"#, value: "v"),
            FormData(name: #"back\slash"#, value: "v"),
            FormData(name: "line\r\nbreak", value: "v"),
            FormData(name: #"end\"#, value: "v"),
            FormData(name: "up", data: Data("file".utf8), fileName: #"say "hi".txt"#, contentType: "text/plain"),
        ]
        func fields(_ names: [String?]) -> [[String?]] { names.map { [$0, "v"] } }
        let kept = Decoded(
            fields: fields(["q%22uote", #"a\b"#, #"back\slash"#, "line%0D%0Abreak", #"end\"#]),
            files: [["up", "say %22hi%22.txt"]])
        let expected: [Server: Decoded] = [
            .werkzeug: Decoded(
                fields: fields([#"q"uote"#, #"a\b"#, "backslash", "line%0D%0Abreak", nil]),
                files: [["up", #"say "hi".txt"#]]),
            .django: kept,
            .pythonMultipart: kept,
            .php: Decoded(
                fields: fields(["q%22uote", #"a\b"#, #"back\slash"#, "line%0D%0Abreak", #"end""#]),
                files: [["up", "say %22hi%22.txt"]]),
        ]
        for server in Server.allCases {
            let result = try await decoded(by: server, parts, .percentEncoding)
            XCTAssertEqual(result, expected[server], "\(server)")
        }
    }

    private struct EchoedPart: Decodable, Sendable {
        let name: String
        let filename: String?
    }
}
