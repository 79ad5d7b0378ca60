import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 22, item 6, against the fault server on 127.0.0.1: `/script` answers the n-th request of
/// a tag with the n-th scripted step (header fields exactly as written) and `/script-log` shows
/// what each request carried.
final class CacheVaryTests: XCTestCase {
    private typealias Step = ScriptStep

    private func caches() throws -> [(name: String, cache: HTTPCache)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CacheVaryTests-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return [("memory", HTTPCache()), ("disk", try HTTPCache(directory: directory))]
    }

    /// Two `Vary: Accept-Language` variants, each requested once, are both served from the cache
    /// afterwards: the second did not replace the first.
    func testTwoLanguageVariantsAreBothServedFromTheCache() async throws {
        for (name, cache) in try caches() {
            let client = WebServiceClient(serviceRoot: try FaultServer.url())
            client.cache = cache
            let tag = FaultScript.newTag("vary")
            let fields = [["Cache-Control", "max-age=3600"], ["Vary", "Accept-Language"]]
            let script = try FaultScript.path(
                [
                    Step(headers: fields + [["Content-Language", "en"]], body: "hello"),
                    Step(headers: fields + [["Content-Language", "de"]], body: "hallo"),
                    Step(headers: fields, body: "a third request"),
                ], tag: tag)
            func get(_ language: String) async throws -> WebServiceResponse<String> {
                try await client.response(
                    for: WebServiceCall<String>(
                        relativePath: script, headers: ["Accept-Language": language], cacheIdentifier: tag))
            }
            let first = [try await get("en"), try await get("de")]
            XCTAssertEqual(first.map(\.value), ["hello", "hallo"], name)
            XCTAssertEqual(first.map(\.source), [.network, .network], name)

            // Again, in either order, and with the tags in another case (RFC 4647 §2).
            let again = [try await get("de"), try await get("en"), try await get("EN"), try await get("De")]
            XCTAssertEqual(again.map(\.value), ["hallo", "hello", "hello", "hallo"], name)
            XCTAssertEqual(again.map(\.source), [.cache, .cache, .cache, .cache], name)
            XCTAssertEqual(again.map { $0.headers["Content-Language"] }, ["de", "en", "en", "de"], name)

            let sent = try await FaultScript.requests(tag)
            XCTAssertEqual(sent.map { $0["accept-language"] }, ["en", "de"], "\(name): one request per variant")
            XCTAssertEqual(
                cache.entries(identifiedBy: tag).map(\.varyingRequestFields),
                [["accept-language": "en"], ["accept-language": "de"]], name)
            XCTAssertEqual(cache.entryCount(identifiedBy: tag), 2, name)

            // A language the server has not answered goes to it.
            let french = try await get("fr")
            XCTAssertEqual(french.source, .network, name)
            let sentNow = try await FaultScript.requests(tag)
            XCTAssertEqual(sentNow.count, 3, name)
            XCTAssertEqual(cache.entryCount(identifiedBy: tag), 3, name)
        }
    }

    /// A POST to the URL invalidates every variant (RFC 9111 §4.4).
    func testAPostInvalidatesEveryVariant() async throws {
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        client.cache = HTTPCache()
        let tag = FaultScript.newTag("vary")
        let fields = [["Cache-Control", "max-age=3600"], ["Vary", "Accept-Language"]]
        let script = try FaultScript.path(
            [
                Step(headers: fields, body: "hello"), Step(headers: fields, body: "hallo"), Step(status: 204),
                Step(headers: fields, body: "hello, anew"), Step(headers: fields, body: "hallo, neu"),
            ], tag: tag)
        func get(_ language: String) async throws -> WebServiceResponse<String> {
            try await client.response(
                for: WebServiceCall<String>(relativePath: script, headers: ["Accept-Language": language]))
        }
        _ = try await get("en")
        _ = try await get("de")
        _ = try await client.response(for: WebServiceCall<EmptyResponse>(method: .post, relativePath: script))
        let english = try await get("en")
        let german = try await get("de")
        XCTAssertEqual([english.value, german.value], ["hello, anew", "hallo, neu"])
        XCTAssertEqual([english.source, german.source], [.network, .network])
        let sent = try await FaultScript.requests(tag)
        XCTAssertEqual(sent.count, 5)
    }
}
