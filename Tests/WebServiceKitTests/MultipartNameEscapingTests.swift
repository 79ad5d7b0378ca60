import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``MultipartNameEscaping``: the bytes each choice writes for `"`, a backslash, CR and LF in
/// field names and file names, and that the default is the browsers' percent-encoding.
final class MultipartNameEscapingTests: XCTestCase {
    private static func call(_ escaping: MultipartNameEscaping?) -> WebServiceCall<Data> {
        var fields = CallFields(method: .post, relativePath: "up")
        fields.multipartBoundary = "XyZ"
        if let escaping { fields.multipartNameEscaping = escaping }
        return WebServiceCall<Data>(fields)
    }

    private func body(_ parts: [FormData], _ escaping: MultipartNameEscaping?) async throws -> String {
        let (client, stubs) = makeStubClient()
        _ = try await client.perform(Self.call(escaping), [parts])
        let request = try XCTUnwrap(stubs.requests.last?.request)
        return String(decoding: try XCTUnwrap(request.httpBody), as: UTF8.self)
    }

    private let parts = [
        FormData(name: #"q"uote\back"#, value: "1"),
        FormData(name: "line\r\nX-Evil: 1", data: Data("2".utf8), fileName: #"say "hi"\there.txt"#),
    ]

    func testTheDefaultIsPercentEncodingAndLeavesABackslashAsItIs() async throws {
        XCTAssertEqual(CallFields(relativePath: "x").multipartNameEscaping, .percentEncoding)
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"q%22uote\\back\"\r\n\r\n1\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"line%0D%0AX-Evil: 1\"; "
            + "filename=\"say %22hi%22\\there.txt\"\r\nContent-Type: application/octet-stream\r\n\r\n2\r\n--XyZ--\r\n"
        let byDefault = try await body(parts, nil)
        XCTAssertEqual(byDefault, expected)
        let explicit = try await body(parts, .percentEncoding)
        XCTAssertEqual(explicit, expected)
    }

    func testBackslashEscapingWritesQuotedPairsAndStillPercentEncodesLineBreaks() async throws {
        let text = try await body(parts, .backslashEscaping)
        XCTAssertEqual(
            text,
            "--XyZ\r\nContent-Disposition: form-data; name=\"q\\\"uote\\\\back\"\r\n\r\n1\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"line%0D%0AX-Evil: 1\"; "
                + "filename=\"say \\\"hi\\\"\\\\there.txt\"\r\nContent-Type: application/octet-stream\r\n\r\n2\r\n--XyZ--\r\n"
        )
        // The CR/LF in the name did not end the Content-Disposition line: no `X-Evil` header.
        XCTAssertFalse(text.contains("\r\nX-Evil"))
    }

    /// Docs/Multipart.md, "Names and file names: what servers read".
    func testTheGuideExample() async throws {
        let (client, stubs) = makeStubClient()
        var fields = CallFields(method: .post, relativePath: "upload.php")
        fields.multipartNameEscaping = .backslashEscaping
        let upload = WebServiceCall<Data>(fields)
        _ = try await client.perform(upload, [FormData(name: #"a"b\c"#, value: "1")])
        let body = try XCTUnwrap(stubs.requests.last?.request.httpBody)
        XCTAssertTrue(
            String(decoding: body, as: UTF8.self).contains(#"Content-Disposition: form-data; name="a\"b\\c""#))
    }

    func testUnicodeAndPercentSignsAreWrittenAsTheyAreInBothModes() async throws {
        let part = [FormData(name: "имя 100% ✓", value: "v")]
        for escaping in [MultipartNameEscaping.percentEncoding, .backslashEscaping] {
            let text = try await body(part, escaping)
            XCTAssertEqual(
                text, "--XyZ\r\nContent-Disposition: form-data; name=\"имя 100% ✓\"\r\n\r\nv\r\n--XyZ--\r\n",
                "\(escaping)")
        }
    }

    /// The escaped form is a quoted-string that RFC 9110 §5.6.4 reads back to the name: a reader
    /// written here from the grammar (`qdtext` and `quoted-pair`) undoes the escaping exactly for
    /// every name without CR or LF.
    func testBackslashEscapedNamesReadBackByTheQuotedStringGrammar() async throws {
        let names = [#"""#, #"\"#, #"\\"#, #"\""#, #"a"b\c"#, #""""#, "end\\", "é\"\\ü", "tab\there"]
        for name in names {
            let text = try await body([FormData(name: name, value: "")], .backslashEscaping)
            let prefix = "--XyZ\r\nContent-Disposition: form-data; name="
            XCTAssertTrue(text.hasPrefix(prefix), name)
            let header = text.dropFirst(prefix.count).prefix { !$0.isNewline }
            XCTAssertEqual(Self.unquote(Substring(header)), name, "name \(name) written as \(header)")
        }
    }

    /// `quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE`; `nil` when `text` is not exactly one.
    private static func unquote(_ text: Substring) -> String? {
        var scalars = text.unicodeScalars[...]
        guard scalars.popFirst() == "\"" else { return nil }
        var result = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\\":
                guard let next = scalars.popFirst() else { return nil }
                result.append(next)
            case "\"":
                return scalars.isEmpty ? String(result) : nil
            default:
                result.append(scalar)
            }
        }
        return nil
    }
}
