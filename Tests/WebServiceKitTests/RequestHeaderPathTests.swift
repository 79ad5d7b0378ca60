import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request's fields on their way from the descriptor to the wire, each stage reading them
/// once (issue 25): what a field replaces, drops or is found as stays what it was.
final class RequestHeaderPathTests: XCTestCase {
    // MARK: Building the fields

    func testACallFieldReplacesSharedFieldsOfAnyLengthInAnyCase() async throws {
        let (client, _) = makeStubClient()
        // Shared names of three lengths: a call name is lowercased and looked up only when its
        // length is within theirs, and each of these is.
        client.sharedHeaders = ["A": "shared", "X-Much-Longer-Name": "shared", "X-Mid": "kept"]
        let call = WebServiceCall<Data>(
            relativePath: "h", headers: ["a": "call", "x-much-longer-name": "call", "X-Other": "call"])
        let request = try await sentRequest(call, [], client: client).get()
        let sent = try XCTUnwrap(request.allHTTPHeaderFields)
        XCTAssertEqual(sent, ["a": "call", "x-much-longer-name": "call", "X-Mid": "kept", "X-Other": "call"])
    }

    func testACallFieldDroppedByNilStillRemovesTheSharedFieldOfItsName() async throws {
        let (client, _) = makeStubClient()
        client.sharedHeaders = ["x-trace": "shared", "X-Kept": "kept"]
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["X-Trace": "%%0%%"])
        let request = try await sentRequest(call, [Optional<String>.none], client: client).get()
        XCTAssertEqual(request.allHTTPHeaderFields, ["X-Kept": "kept"])
    }

    func testCallNamesInTwoCasesBesideASharedOneLeaveOnlyTheLastSetField() async throws {
        let (client, _) = makeStubClient()
        client.sharedHeaders = ["ACCEPT": "shared"]
        // Sorted by name: "Accept" replaces the shared field, then "accept" (nil) removes it.
        let call = WebServiceCall<Data>(relativePath: "h", headers: ["Accept": "text/plain", "accept": "%%0%%"])
        let dropped = try await sentRequest(call, [Optional<String>.none], client: client).get()
        XCTAssertEqual(dropped.allHTTPHeaderFields ?? [:], [:])
        let set = try await sentRequest(call, ["application/json"], client: client).get()
        XCTAssertEqual(set.allHTTPHeaderFields, ["accept": "application/json"])
    }

    // MARK: The log

    func testTheLoggedBodyFindsItsContentTypeInAnyCase() async throws {
        let stubs = StubTransport(fallback: .status(204))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!, transport: stubs)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .body
        let upload = WebServiceCall<Data>(
            name: "upload", method: .put, relativePath: "picture",
            headers: ["content-type": "image/png", "X-B": "2", "x-a": "1"])
        _ = try await client.perform(upload, Data([0x89, 0x50, 0x4E, 0x47]))
        XCTAssertEqual(
            logger.texts.first,
            """
            --> PUT https://api.example.com/v1/picture (4-byte body)
            content-type: image/png
            x-a: 1
            X-B: 2

            [binary 4 bytes, image/png]
            --> END PUT
            """)
    }

    // MARK: The HTTP/1.1 head

    private func head(fields: [String: String]) -> String {
        let head = HTTP1RequestHead(
            method: "GET", url: URL(string: "http://example.com/")!, fields: fields, framing: .none,
            expectsContinue: false)
        return String(decoding: head.bytes, as: UTF8.self)
    }

    func testManagedFieldsInAnyCaseAreNeverWrittenFromTheRequest() {
        let text = head(
            fields: [
                "HOST": "evil", "CONNECTION": "keep-alive", "eXpEcT": "nothing", "Content-LENGTH": "9",
                "TRANSFER-encoding": "gzip", "Hosx": "kept",
            ])
        XCTAssertEqual(
            text.components(separatedBy: "\r\n").sorted(),
            ["", "", "Connection: close", "GET / HTTP/1.1", "Host: example.com", "Hosx: kept"])
    }
}
