import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Transfer codings other than `chunked` (RFC 9112 §7), on the direct HTTP/1.1 path, from the
/// fault server's `/raw` route: `gzip`, `x-gzip` and `deflate` before a final `chunked` are
/// decoded; without `chunked` the body runs to the close (§6.3 item 4) and is decoded too; a
/// coding the client does not decode is refused, never handed over coded. The coded bytes were made
/// by Python's zlib (`gzip.compress(text, mtime=0)`, `zlib.compress(text)`), not by the library.
final class TransferCodingTests: XCTestCase {
    private static let text = "hello, transfer coding"
    /// `text` in gzip, in deflate (zlib), and in gzip twice.
    private static let gzip = Data(base64Encoded: "H4sIAAAAAAACA8tIzcnJ11EoKUrMK05LLVJIzk/JzEsHAF8jPCAWAAAA")!
    private static let deflate = Data(base64Encoded: "eJzLSM3JyddRKClKzCtOSy1SSM5PycxLBwBfDwha")!
    private static let gzipTwice = Data(
        base64Encoded: "H4sIAAAAAAACA5Pv5mAAASbm0x5nT568Hqih6XVG289bN8jjnP/JM97sDPHKNgpiQBUAK0a8MyoAAAA=")!

    private static let raw = WebServiceCall<Data>(relativePath: "raw?b64=%%0%%&keep=%%1%%")

    /// `body` in two chunks, with the last chunk.
    private static func chunked(_ body: Data) -> Data {
        let middle = body.count / 2
        var out = Data()
        for piece in [body.prefix(middle), body.suffix(from: middle)] {
            out += Data(String(piece.count, radix: 16).utf8) + Data("\r\n".utf8) + piece + Data("\r\n".utf8)
        }
        return out + Data("0\r\n\r\n".utf8)
    }

    /// A response with `fields` and the bytes `body`, base64url for `/raw`.
    private static func response(status: String = "200 OK", _ fields: String, _ body: Data) -> String {
        let data = Data("HTTP/1.1 \(status)\r\nContent-Type: text/plain\r\n\(fields)\r\n".utf8) + body
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private func client() throws -> WebServiceClient {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault, "the direct HTTP/1.1 path is for Linux")
        return WebServiceClient(serviceRoot: try FaultServer.url())
    }

    func testCodingsBeforeAFinalChunkedAreDecoded() async throws {
        let client = try client()
        let cases: [(String, String, Data)] = [
            ("gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n", Self.chunked(Self.gzip)),
            ("x-gzip, chunked", "Transfer-Encoding: X-Gzip, Chunked\r\n", Self.chunked(Self.gzip)),
            (
                "deflate, chunked", "Transfer-Encoding: deflate\r\nTransfer-Encoding: chunked\r\n",
                Self.chunked(Self.deflate)
            ),
            ("gzip, gzip, chunked", "Transfer-Encoding: gzip, gzip, chunked\r\n", Self.chunked(Self.gzipTwice)),
        ]
        for (name, fields, body) in cases {
            let response = try await client.response(
                for: Self.raw, arguments: [Self.response(fields + "Connection: close\r\n", body), "0"])
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), Self.text, name)
        }
    }

    /// RFC 9112 §6.3 item 4: without a final chunked the body runs to the close, decoded.
    func testACodingWithoutChunkedRunsToTheCloseAndIsDecoded() async throws {
        let client = try client()
        let response = try await client.response(
            for: Self.raw, arguments: [Self.response("Transfer-Encoding: gzip\r\n", Self.gzip), "0"])
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), Self.text)
        // A Content-Length beside it is a smuggling sign (§6.3 item 3): Transfer-Encoding wins.
        let both = try await client.response(
            for: Self.raw,
            arguments: [Self.response("Transfer-Encoding: deflate\r\nContent-Length: 3\r\n", Self.deflate), "0"])
        XCTAssertEqual(String(decoding: both.body, as: UTF8.self), Self.text)
        XCTAssertNil(both.headers["Content-Length"])
    }

    /// Content codings are the origin's, transfer codings the message's: both are decoded, the
    /// transfer codings first (a 206's transfer coding too, which its range does not count).
    func testATransferCodingOverAContentCodingAndOnA206() async throws {
        let client = try client()
        let stacked = try await client.response(
            for: Self.raw,
            arguments: [
                Self.response(
                    "Content-Encoding: gzip\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n",
                    Self.chunked(Self.gzipTwice)),
                "0",
            ])
        XCTAssertEqual(String(decoding: stacked.body, as: UTF8.self), Self.text)
        XCTAssertNil(stacked.headers["Content-Encoding"])

        let partial = WebServiceCall<Data>(
            relativePath: "raw?b64=%%0%%&keep=0", successCodes: [206..<207], overridesClientSuccessCodes: true)
        let range = try await client.response(
            for: partial,
            arguments: [
                Self.response(
                    status: "206 Partial Content",
                    "Content-Range: bytes 0-21/100\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n",
                    Self.chunked(Self.gzip))
            ])
        XCTAssertEqual(range.statusCode, 206)
        XCTAssertEqual(String(decoding: range.body, as: UTF8.self), Self.text)
    }

    /// A coding the client does not decode, or a coded body that does not decode, is a typed
    /// error; nothing coded is handed over.
    func testACodingItDoesNotDecodeOrABodyThatDoesNotDecodeIsRefused() async throws {
        let client = try client()
        for coding in ["foo", "compress, chunked", "br", "identity", "chunked, gzip"] {
            do {
                let body = try await client.perform(
                    Self.raw, Self.response("Transfer-Encoding: \(coding)\r\nConnection: close\r\n", Self.gzip), "0")
                XCTFail("\(coding): read as \(body.count) bytes")
            } catch {
                guard case .transport(let failure) = error.reason else { return XCTFail("\(coding): \(error)") }
                XCTAssertEqual(failure.code, .badServerResponse, "\(coding): \(error)")
                XCTAssertTrue("\(error)".contains("RFC 9112 §6.1"), "\(coding): \(error)")
            }
        }
        do {
            let body = try await client.perform(
                Self.raw,
                Self.response("Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n", Self.chunked(Self.deflate)),
                "0")
            XCTFail("deflate bytes read as gzip: \(body.count) bytes")
        } catch {
            guard case .transport(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, .cannotDecodeContentData, "\(error)")
        }
    }
}
