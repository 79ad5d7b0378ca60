import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encoded answers from the fault server's `/encoded` route, compressed by Python's zlib (an
/// implementation the library's inflate shares nothing with), on both routes of
/// `RoutingTransport`: the HTTP/1.1 peer decodes `gzip` and `deflate` itself, once, as
/// the body arrives; the session's libcurl decodes them too.
final class EncodedResponseTests: XCTestCase {
    private struct Sample: Decodable, Equatable {
        let greeting: String
        let items: [Int]
    }

    private static let sample = WebServiceCall<Sample>(relativePath: "encoded?coding=%%0%%&tag=%%1%%")
    private static let raw = WebServiceCall<Data>(relativePath: "encoded?coding=%%0%%&tag=%%1%%")
    private static let corrupt = WebServiceCall<Data>(relativePath: "encoded?coding=%%0%%&corrupt=1&tag=%%1%%")
    private static let zeros = WebServiceCall<Data>(relativePath: "encoded?coding=gzip&zeros=%%0%%&tag=%%1%%")
    private static let download = WebServiceCall<DownloadedFile>(relativePath: "encoded?coding=%%0%%&tag=%%1%%")

    private func client(_ route: HostileServerTests.Route, cache: HTTPCache? = nil) throws -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: route.transport())
        client.cache = cache
        return client
    }

    private func requests(_ tag: String) async throws -> Int {
        try await FaultServer.record(tag, at: try FaultServer.url()).count
    }

    func testGzipAndDeflateAreDecodedOnceOnEveryRoute() async throws {
        let expected = Sample(greeting: "hello", items: Array(0..<200))
        for route in HostileServerTests.Route.allCases {
            for coding in ["gzip", "x-gzip", "deflate", "deflate-raw", "gzip-deflate"] {
                let tag = UUID().uuidString
                let response = try await client(route).response(for: Self.raw, arguments: [coding, tag])
                let sample = try JSONDecoder().decode(Sample.self, from: response.body)
                XCTAssertEqual(sample, expected, "\(route) \(coding)")
                let count = try await requests(tag)
                XCTAssertEqual(count, 1, "\(route) \(coding): fetched once")
                // The fields described the bytes on the wire, not the decoded body: gone on
                // both routes.
                XCTAssertNil(response.headers["Content-Encoding"], "\(route) \(coding)")
                XCTAssertNil(response.headers["Content-Length"], "\(route) \(coding)")
            }
        }
    }

    func testAHeadResponseKeepsItsCodingFields() async throws {
        // No body, nothing decoded: the fields still say what a GET would get (RFC 9110 §9.3.2).
        let head = WebServiceCall<Data>(method: .head, relativePath: "encoded?coding=gzip&tag=%%0%%")
        for route in HostileServerTests.Route.allCases {
            let response = try await client(route).response(for: head, arguments: [UUID().uuidString])
            XCTAssertEqual(response.headers["Content-Encoding"], "gzip", "\(route)")
            XCTAssertNotNil(response.headers["Content-Length"], "\(route)")
            XCTAssertTrue(response.body.isEmpty, "\(route)")
        }
    }

    func testAnUnknownCodingPassesThroughUnchangedOnTheDirectPath() async throws {
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
        let tag = UUID().uuidString
        let response = try await client(.direct).response(for: Self.raw, arguments: ["x-unknown", tag])
        XCTAssertEqual(response.headers["Content-Encoding"], "x-unknown")
        XCTAssertEqual(try JSONDecoder().decode(Sample.self, from: response.body).items.count, 200)
        let count = try await requests(tag)
        XCTAssertEqual(count, 1, "never fetched twice")
    }

    func testACorruptBodyIsATypedErrorAndIsNotCached() async throws {
        for (route, coding) in HostileServerTests.Route.allCases.flatMap({ route in
            ["gzip", "deflate"].map { (route, $0) }
        }) {
            let client = try client(route, cache: HTTPCache())
            let tag = UUID().uuidString
            for _ in 0..<2 {
                do {
                    _ = try await client.perform(Self.corrupt, coding, tag)
                    XCTFail("\(route) \(coding): a corrupt body was accepted")
                } catch {
                    guard case .transport(let failure) = error.reason, failure.code == .cannotDecodeContentData else {
                        return XCTFail("\(route) \(coding): \(error)")
                    }
                }
            }
            let count = try await requests(tag)
            XCTAssertEqual(count, 2, "\(route) \(coding): nothing was cached")
        }
    }

    func testADecompressionBombStopsAtTheBodySizeLimit() async throws {
        for route in HostileServerTests.Route.allCases {
            let client = try client(route)
            client.maximumResponseBodySize = 1 << 20
            // 64 MiB of zeros, about 64 KiB on the wire.
            do {
                _ = try await client.perform(Self.zeros, 64 << 20, UUID().uuidString)
                XCTFail("\(route): the bomb was decoded whole")
            } catch {
                guard case .responseTooLarge(let limit, _) = error.reason else { return XCTFail("\(route): \(error)") }
                XCTAssertEqual(limit, 1 << 20)
            }
        }
    }

    func testADownloadToAFileIsDecodedOnTheWay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsk-coding-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for route in HostileServerTests.Route.allCases {
            let destination = directory.appendingPathComponent("\(route).json")
            let file = try await client(route).perform(
                Self.download, ["gzip", UUID().uuidString, DownloadDestination(destination)])
            let sample = try JSONDecoder().decode(Sample.self, from: Data(contentsOf: file.url))
            XCTAssertEqual(sample.items.count, 200, "\(route)")
        }
    }
}
