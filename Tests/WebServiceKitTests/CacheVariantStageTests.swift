import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 22, item 6 through the client: `Vary` variants served, invalidated and freshened one by
/// one, with canned answers chosen by the request's `Accept-Language`.
final class CacheVariantStageTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CacheVariantStageTests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    /// A memory cache and a disk cache.
    private func caches() throws -> [(name: String, cache: HTTPCache)] {
        [("memory", HTTPCache()), ("disk", try HTTPCache(directory: root.appendingPathComponent(UUID().uuidString)))]
    }

    private func client(_ stubs: StubTransport, cache: HTTPCache) -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = cache
        return client
    }

    /// The GET requests for `/doc` with `Accept-Language: language`.
    private func doc(_ language: String) -> @Sendable (WebServiceRequest) -> Bool {
        { request in
            request.url?.path == "/doc" && request.httpMethod == "GET"
                && request.value(forHTTPHeaderField: "Accept-Language") == language
        }
    }

    private func get(_ language: String, cacheIdentifier: String? = nil) -> WebServiceCall<String> {
        WebServiceCall<String>(
            relativePath: "doc", headers: ["Accept-Language": language], cacheIdentifier: cacheIdentifier)
    }

    private func page(_ text: String, _ headers: HTTPHeaders = ["Cache-Control": "max-age=60"]) -> StubTransport.Stub {
        var headers = headers
        if !headers.contains("Vary") { headers["Vary"] = "Accept-Language" }
        headers["Content-Type"] = "text/plain; charset=utf-8"
        return StubTransport.Stub(headers: headers, body: Data(text.utf8))
    }

    private func requestCount(_ stubs: StubTransport, _ language: String) -> Int {
        stubs.requests.filter { $0.request.value(forHTTPHeaderField: "Accept-Language") == language }.count
    }

    func testTwoVariantsAreBothServedFromTheCache() async throws {
        for (name, cache) in try caches() {
            let stubs = StubTransport()
            stubs.stub(where: doc("en"), with: page("hello"))
            stubs.stub(where: doc("de"), with: page("hallo"))
            let client = client(stubs, cache: cache)
            let answers = [
                try await client.response(for: get("en")), try await client.response(for: get("de")),
                try await client.response(for: get("en")), try await client.response(for: get("de")),
            ]
            XCTAssertEqual(answers.map(\.value), ["hello", "hallo", "hello", "hallo"], name)
            XCTAssertEqual(answers.map(\.source), [.network, .network, .cache, .cache], name)
            XCTAssertEqual(stubs.requests.count, 2, name)
            XCTAssertEqual(cache.entryCount(), 2, name)
        }
    }

    /// §4.4: a successful unsafe request invalidates the URL: every variant.
    func testAnUnsafeRequestInvalidatesEveryVariant() async throws {
        for (name, cache) in try caches() {
            let stubs = StubTransport()
            stubs.stub(where: doc("en"), with: page("hello"), page("hello, anew"))
            stubs.stub(where: doc("de"), with: page("hallo"), page("hallo, neu"))
            stubs.stub(where: { $0.httpMethod == "POST" }, with: .status(204))
            let client = client(stubs, cache: cache)
            _ = try await client.response(for: get("en"))
            _ = try await client.response(for: get("de"))
            _ = try await client.response(for: WebServiceCall<EmptyResponse>(method: .post, relativePath: "doc"))
            XCTAssertEqual(cache.entryCount(), 0, name)
            let english = try await client.response(for: get("en"))
            let german = try await client.response(for: get("de"))
            XCTAssertEqual([english.value, german.value], ["hello, anew", "hallo, neu"], name)
            XCTAssertEqual([english.source, german.source], [.network, .network], name)
        }
    }

    func testRemoveResponseForTheURLRemovesEveryVariant() async throws {
        for (name, cache) in try caches() {
            let stubs = StubTransport()
            stubs.stub(where: doc("en"), with: page("hello"), page("hello"))
            stubs.stub(where: doc("de"), with: page("hallo"), page("hallo"))
            let client = client(stubs, cache: cache)
            _ = try await client.response(for: get("en", cacheIdentifier: "doc/en"))
            _ = try await client.response(for: get("de", cacheIdentifier: "doc/de"))
            XCTAssertEqual(
                cache.entries(identifiedBy: "doc/").map(\.varyingRequestFields),
                [["accept-language": "en"], ["accept-language": "de"]], name)
            cache.removeResponse(for: URL(string: "https://api.example.com/doc")!)
            XCTAssertEqual(cache.entryCount(), 0, name)
            _ = try await client.response(for: get("en"))
            XCTAssertEqual(stubs.requests.count, 3, name)
        }
    }

    /// A 304 freshens the variant the cache validated (§4.3.4), and leaves the other as it was.
    func testA304FreshensTheVariantItValidates() async throws {
        for (name, cache) in try caches() {
            let stubs = StubTransport()
            stubs.stub(
                where: doc("en"), with: page("hello", ["Cache-Control": "max-age=0", "ETag": "\"en1\""]),
                .status(304, headers: ["Cache-Control": "max-age=600", "ETag": "\"en1\""]))
            stubs.stub(where: doc("de"), with: page("hallo", ["Cache-Control": "max-age=600", "ETag": "\"de1\""]))
            let client = client(stubs, cache: cache)
            _ = try await client.response(for: get("en"))
            _ = try await client.response(for: get("de"))
            let revalidated = try await client.response(for: get("en"))
            XCTAssertEqual(revalidated.source, .revalidatedCache, name)
            XCTAssertEqual(revalidated.value, "hello", name)
            let validation = stubs.requests.last?.request
            XCTAssertEqual(validation?.value(forHTTPHeaderField: "If-None-Match"), "\"en1\"", name)
            let english = try await client.response(for: get("en"))
            let german = try await client.response(for: get("de"))
            XCTAssertEqual([english.source, german.source], [.cache, .cache], name)
            XCTAssertEqual([english.value, german.value], ["hello", "hallo"], name)
            XCTAssertEqual(cache.entryCount(), 2, name)
            XCTAssertEqual(stubs.requests.count, 3, name)
        }
    }

    /// A 304 that names another representation drops the variant validated, not the others.
    func testAMismatched304DropsOnlyItsVariant() async throws {
        for (name, cache) in try caches() {
            let stubs = StubTransport()
            stubs.stub(
                where: doc("en"), with: page("hello", ["Cache-Control": "max-age=0", "ETag": "\"en1\""]),
                .status(304, headers: ["ETag": "\"en2\""]),
                page("hello 2", ["Cache-Control": "max-age=600", "ETag": "\"en2\""]))
            stubs.stub(where: doc("de"), with: page("hallo"))
            let client = client(stubs, cache: cache)
            _ = try await client.response(for: get("en"))
            _ = try await client.response(for: get("de"))
            let repeated = try await client.response(for: get("en"))
            XCTAssertEqual(repeated.value, "hello 2", name)
            let german = try await client.response(for: get("de"))
            XCTAssertEqual(german.source, .cache, name)
            let english = try await client.response(for: get("en"))
            XCTAssertEqual(english.source, .cache, name)
            XCTAssertEqual(requestCount(stubs, "en"), 3, name)
            XCTAssertEqual(requestCount(stubs, "de"), 1, name)
        }
    }

    /// A server that starts varying: the full answer to the validation of the response stored
    /// without `Vary` replaces it (RFC 9111 §4.3.3), though it is another variant.
    func testAFullAnswerToAValidationReplacesTheVariantValidated() async throws {
        for (name, cache) in try caches() {
            let stubs = StubTransport()
            stubs.stub(
                where: { $0.url?.path == "/doc" },
                with: .init(headers: ["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: Data("any".utf8)),
                page("hello", ["Cache-Control": "max-age=60", "ETag": "\"en2\""]),
                page("hallo", ["Cache-Control": "max-age=60", "ETag": "\"de2\""]))
            let client = client(stubs, cache: cache)
            _ = try await client.response(for: get("en"))
            let english = try await client.response(for: get("en"))
            XCTAssertEqual(english.value, "hello", name)
            XCTAssertEqual(stubs.requests.last?.request.value(forHTTPHeaderField: "If-None-Match"), "\"v1\"", name)
            XCTAssertEqual(cache.entries().map(\.varyingRequestFields), [["accept-language": "en"]], name)
            let german = try await client.response(for: get("de"))
            XCTAssertEqual(
                [german.value, german.source == .network ? "network" : "cache"], ["hallo", "network"], name)
            XCTAssertNil(
                stubs.requests.last?.request.value(forHTTPHeaderField: "If-None-Match"),
                "\(name): nothing stored for de to validate")
        }
    }

    /// Request fields compared as their definitions allow: `Accept-Encoding` members in any
    /// order, but `Accept-Language` tags of equal weight in theirs (RFC 9110 §12.5.4).
    func testNormalisedFieldsSelectTheStoredVariant() async throws {
        let stubs = StubTransport()
        stubs.stub(
            where: { $0.url?.path == "/doc" },
            with: page("one", ["Cache-Control": "max-age=60", "Vary": "Accept-Encoding, Accept-Language"]),
            page("two", ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]),
            page("three", ["Cache-Control": "max-age=60", "Vary": "Accept-Language"]))
        let client = client(stubs, cache: HTTPCache())
        func call(_ headers: [String: String]) -> WebServiceCall<String> {
            WebServiceCall<String>(relativePath: "doc", headers: headers)
        }
        _ = try await client.response(for: call(["Accept-Encoding": "gzip, br", "Accept-Language": "en, de"]))
        let reordered = try await client.response(
            for: call(["Accept-Encoding": "BR,gzip;q=1", "Accept-Language": "EN, de;q=1"]))
        XCTAssertEqual(reordered.source, .cache)
        let swapped = try await client.response(
            for: call(["Accept-Encoding": "gzip, br", "Accept-Language": "de, en"]))
        XCTAssertEqual(swapped.source, .network)
        XCTAssertEqual(swapped.value, "two")
        let languageOnly = try await client.response(for: call(["Accept-Language": "de, en"]))
        XCTAssertEqual(languageOnly.source, .cache)
        XCTAssertEqual(languageOnly.value, "two")
    }

    /// Docs/Caching.md's examples of variants and of listing entries, as written there (the
    /// listing's `print` collected instead).
    func testTheGuideExamplesRunAsWritten() async throws {
        let stubs = StubTransport()
        stubs.stub(where: doc("en"), with: page("hello"))
        stubs.stub(where: doc("de"), with: page("hallo"))
        let cache = HTTPCache()
        let client = client(stubs, cache: cache)

        let english = WebServiceCall<String>(relativePath: "doc", headers: ["Accept-Language": "en"])
        let german = WebServiceCall<String>(relativePath: "doc", headers: ["Accept-Language": "de"])
        let sources = [
            try await client.response(for: english).source, try await client.response(for: german).source,
            try await client.response(for: english).source, try await client.response(for: german).source,
        ]
        XCTAssertEqual(sources, [.network, .network, .cache, .cache])

        let profile = WebServiceCall<String>(
            relativePath: "doc", headers: ["Accept-Language": "en"], cacheIdentifier: "user-%%0%%/doc")
        stubs.stub(where: doc("en"), with: page("hello, user 1"))
        cache.removeAll()
        _ = try await client.response(for: profile, 1)
        var printed: [String] = []
        for entry in cache.entries(identifiedBy: "user-1/") {
            printed.append("\(entry.url) \(entry.statusCode) \(entry.cacheIdentifier ?? "-") \(entry.bodyByteCount)")
        }
        let stored = cache.entryCount(identifiedBy: "user-1/")
        let all = cache.entryCount()
        XCTAssertEqual(printed, ["https://api.example.com/doc 200 user-1/doc 13"])
        XCTAssertEqual([stored, all], [1, 1])
    }

    /// Docs/MigratingFromROAD.md, "Listing or counting entries by cache identifier", as written.
    func testTheMigrationGuideListingExample() async throws {
        let stubs = StubTransport()
        stubs.stub(where: doc("en"), with: page("hello"))
        let client = client(stubs, cache: HTTPCache())
        _ = try await client.response(for: get("en", cacheIdentifier: "user-1/doc"))
        _ = try await client.response(for: get("en", cacheIdentifier: "user-2/doc"))  // served, not stored again

        var printed: [String] = []
        let mine = client.cache?.entries(identifiedBy: "user-1/") ?? []
        for entry in mine {
            printed.append("\(entry.url) \(entry.statusCode) \(entry.bodyByteCount)")
            XCTAssertLessThanOrEqual(entry.storedDate, Date())
        }
        let count = client.cache?.entryCount(identifiedBy: "user-1/") ?? 0
        XCTAssertEqual(printed, ["https://api.example.com/doc 200 5"])
        XCTAssertEqual(count, 1)
        XCTAssertEqual(client.cache?.entryCount(identifiedBy: "user-2/"), 0)
        XCTAssertEqual(mine.first?.varyingRequestFields, ["accept-language": "en"])
    }
}
