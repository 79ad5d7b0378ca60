import Foundation
import XCTest

@testable import WebServiceKit

/// Issue 22, item 6: several `Vary` variants per URL in both stores (RFC 9111 §4.1), and item 23:
/// listing and counting what is stored. Every test runs on a memory and a disk store.
final class CacheVariantStoreTests: XCTestCase {
    private var root: URL!
    private let url = URL(string: "https://api.example.com/doc")!
    private var key: String { CacheRules.cacheKey(for: url) }
    private let now = Date(timeIntervalSinceReferenceDate: 780_000_000)

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CacheVariantStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    // MARK: Helpers

    private var directory: URL { root.appendingPathComponent("cache") }

    /// A memory store and a disk store, each with `limit` bytes.
    private func stores(limit: Int = 1 << 20) throws -> [(name: String, store: any CacheStorage)] {
        try? FileManager.default.removeItem(at: directory)
        return [
            ("memory", MemoryCacheStore(byteLimit: limit)),
            ("disk", try DiskCacheStore(directory: directory, byteLimit: limit)),
        ]
    }

    /// A response stored for a request with `Accept-Language: language` (none when `nil`),
    /// varying on `vary`, with a `Date` `dateOffset` seconds after ``now`` and received
    /// `receivedOffset` seconds after it.
    private func response(
        _ body: String, language: String?, url: URL? = nil, vary: String? = "Accept-Language", dateOffset: Double = 0,
        receivedOffset: Double = 0, identifier: String? = nil, status: Int = 200
    ) -> StoredResponse {
        var responseHeaders: HTTPHeaders = ["Cache-Control": "max-age=60", "Date": HTTPDate.format(now + dateOffset)]
        if let vary { responseHeaders["Vary"] = vary }
        let entry = CacheEntry(
            method: .get, url: url ?? self.url, requestHeaders: request(language), status: status,
            responseHeaders: responseHeaders, requestTime: now + receivedOffset, responseTime: now + receivedOffset)
        return StoredResponse(entry: entry, body: Data(body.utf8), identifier: identifier)
    }

    private func request(_ language: String?) -> HTTPHeaders {
        language.map { ["Accept-Language": $0] } ?? [:]
    }

    /// The body of the response `store` selects for a GET with `Accept-Language: language`.
    private func selected(_ store: any CacheStorage, _ language: String?, url: URL? = nil) -> String? {
        let request = CacheRequest(url: url ?? self.url, headers: request(language))
        return store.response(for: CacheRules.cacheKey(for: request.url)) { CacheRules.selects($0, for: request) }
            .map { String(decoding: $0.body, as: UTF8.self) }
    }

    // MARK: Variants

    func testEachVariantIsKeptAndSelectedByItsRequestFields() throws {
        for (name, store) in try stores() {
            store.save(response("hello", language: "en"), for: key)
            store.save(response("hallo", language: "de"), for: key)
            store.save(response("any", language: nil), for: key)
            XCTAssertEqual(selected(store, "en"), "hello", name)
            XCTAssertEqual(selected(store, "DE"), "hallo", "\(name): language tags are case-insensitive")
            XCTAssertEqual(selected(store, nil), "any", "\(name): the field absent from both requests")
            XCTAssertNil(selected(store, "fr"), name)
            XCTAssertEqual(store.entryCount(identifiedBy: nil), 3, name)
            XCTAssertGreaterThan(store.byteCount, 0, name)
        }
    }

    func testStoringReplacesOnlyTheVariantWithTheSameSecondaryKey() throws {
        for (name, store) in try stores() {
            store.save(response("hello", language: "en"), for: key)
            store.save(response("hallo", language: "de"), for: key)
            let before = store.byteCount
            store.save(response("hello again", language: "EN"), for: key)
            XCTAssertEqual(selected(store, "en"), "hello again", name)
            XCTAssertEqual(selected(store, "de"), "hallo", name)
            XCTAssertEqual(store.entryCount(identifiedBy: nil), 2, name)
            XCTAssertEqual(store.byteCount - before, "hello again".utf8.count - "hello".utf8.count, name)
        }
    }

    /// §4.1: of several selected responses, "the most recent response (as determined by the Date
    /// header field)"; the later reception when the dates are equal.
    func testTheMostRecentOfSeveralSelectedVariantsIsUsed() throws {
        for (name, store) in try stores() {
            // Both serve `en`: one varies on the language, the other on nothing.
            store.save(response("by language", language: "en", dateOffset: 10, receivedOffset: 0), for: key)
            store.save(response("plain", language: "en", vary: nil, dateOffset: 0, receivedOffset: 20), for: key)
            XCTAssertEqual(selected(store, "en"), "by language", "\(name): the later Date wins")
            XCTAssertEqual(selected(store, "de"), "plain", "\(name): the only one selected")

            store.save(
                response("plain, later", language: "en", vary: nil, dateOffset: 10, receivedOffset: 30), for: key)
            XCTAssertEqual(selected(store, "en"), "plain, later", "\(name): equal Dates, the later reception")
            XCTAssertEqual(store.entryCount(identifiedBy: nil), 2, name)
        }
    }

    /// A hostile server varying on a field with ever new values grows a URL to 8 variants, no
    /// more; the least recently used goes first.
    func testAURLKeepsAtMostEightVariantsLeastRecentlyUsedOut() throws {
        for (name, store) in try stores() {
            for index in 0..<CacheRules.variantLimit {
                store.save(response("v\(index)", language: "l\(index)", receivedOffset: Double(index)), for: key)
            }
            XCTAssertEqual(selected(store, "l0"), "v0", "\(name): a read makes l0 the most recently used")
            store.save(response("v8", language: "l8", receivedOffset: 8), for: key)
            XCTAssertEqual(store.entryCount(identifiedBy: nil), CacheRules.variantLimit, name)
            XCTAssertNil(selected(store, "l1"), "\(name): the least recently used went")
            for index in [0, 2, 3, 4, 5, 6, 7, 8] { XCTAssertEqual(selected(store, "l\(index)"), "v\(index)", name) }
            for index in 9..<100 { store.save(response("v\(index)", language: "l\(index)"), for: key) }
            XCTAssertEqual(store.entryCount(identifiedBy: nil), CacheRules.variantLimit, name)
            let other = URL(string: "https://api.example.com/other")!
            store.save(response("other", language: "en", url: other), for: CacheRules.cacheKey(for: other))
            XCTAssertEqual(store.entryCount(identifiedBy: nil), CacheRules.variantLimit + 1, "\(name): per URL")
        }
    }

    func testTheByteLimitCountsEveryVariant() throws {
        let one = response(String(repeating: "x", count: 400), language: "l0").byteCount
        // Room for two variants of the memory store's size, not three.
        for (name, store) in try stores(limit: 2 * one + 400) {
            for index in 0..<3 {
                store.save(response(String(repeating: "x", count: 400), language: "l\(index)"), for: key)
            }
            XCTAssertNil(selected(store, "l0"), name)
            XCTAssertNotNil(selected(store, "l2"), name)
            XCTAssertLessThanOrEqual(store.byteCount, 2 * one + 400, name)
        }
    }

    func testRemovingAKeyRemovesEveryVariantAndOneVariantOnlyItself() throws {
        let other = URL(string: "https://api.example.com/other")!
        for (name, store) in try stores() {
            for language in ["en", "de", "fr"] { store.save(response(language, language: language), for: key) }
            store.save(response("other", language: "en", url: other), for: CacheRules.cacheKey(for: other))
            let french = response("fr", language: "fr").entry.variantKey
            store.remove(key, variant: french)
            XCTAssertNil(selected(store, "fr"), name)
            XCTAssertEqual(selected(store, "de"), "de", name)
            store.remove(key)
            for language in ["en", "de"] { XCTAssertNil(selected(store, language), name) }
            XCTAssertEqual(selected(store, "en", url: other), "other", name)
            XCTAssertEqual(store.entryCount(identifiedBy: nil), 1, name)
        }
        let remaining = (try FileManager.default.contentsOfDirectory(atPath: directory.path)).filter {
            !$0.hasPrefix(".")
        }
        XCTAssertEqual(
            remaining,
            [
                DiskCacheStore.fileName(
                    for: CacheRules.cacheKey(for: other), variant: response("", language: "en").entry.variantKey)
            ])
    }

    /// A 304 whose `Vary` names other fields gives the freshened response another secondary key;
    /// it replaces the variant it freshened.
    func testAFreshenedVariantReplacesTheOneItCameFrom() throws {
        for (name, store) in try stores() {
            let stored = response("hello", language: "en")
            store.save(stored, for: key)
            store.save(response("hallo", language: "de"), for: key)
            let entry = stored.entry.freshened(
                with304Headers: ["Vary": "Accept-Language, Accept-Encoding"],
                requestHeaders: ["Accept-Language": "en", "Accept-Encoding": "gzip"], requestTime: now + 5,
                responseTime: now + 5)
            XCTAssertNotEqual(entry.variantKey, stored.entry.variantKey)
            store.save(StoredResponse(entry: entry, body: stored.body), for: key, replacing: stored.entry)
            XCTAssertEqual(store.entryCount(identifiedBy: nil), 2, name)
            XCTAssertNil(selected(store, "en"), "\(name): the freshened one also wants Accept-Encoding")
            XCTAssertEqual(selected(store, "de"), "hallo", name)
        }
    }

    /// A random walk of saves, lookups and removals over responses with and without `Vary`,
    /// against a model: per key, the variants from the least to the most recently used, at most
    /// 8; a lookup takes the most recently stored of those that match (a response without `Vary`
    /// matches every request).
    func testVariantsFollowTheModelOverARandomWalk() throws {
        let keys = ["https://api.example.com/a", "https://api.example.com/b"]
        for (name, store) in try stores() {
            // Per key: (language or nil for no Vary, body, when stored), least recently used first.
            var model: [String: [(language: String?, body: String, stored: Int)]] = [:]
            var generator = SplitMix64(seed: 22)
            for step in 0..<1_500 {
                let key = keys[Int(generator.next() % 2)]
                let url = URL(string: key)!
                let pick = Int(generator.next() % 11)
                let language: String? = pick == 10 ? nil : "l\(pick)"
                let asked = "l\(generator.next() % 10)"
                switch generator.next() % 10 {
                case 0..<5:
                    let body = "\(key) \(language ?? "-") \(step)"
                    store.save(
                        response(
                            body, language: language, url: url, vary: language == nil ? nil : "Accept-Language",
                            receivedOffset: Double(step)), for: key)
                    var variants = model[key] ?? []
                    variants.removeAll { $0.language == language }
                    if variants.count >= CacheRules.variantLimit { variants.removeFirst() }
                    variants.append((language, body, step))
                    model[key] = variants
                case 5..<9:
                    let variants = model[key] ?? []
                    let candidates = variants.indices.filter {
                        variants[$0].language == nil || variants[$0].language == asked
                    }
                    let expected = candidates.max { variants[$0].stored < variants[$1].stored }
                    XCTAssertEqual(
                        selected(store, asked, url: url), expected.map { variants[$0].body }, "\(name) step \(step)")
                    if let expected {
                        var touched = variants
                        touched.append(touched.remove(at: expected))
                        model[key] = touched
                    }
                default:
                    store.remove(key)
                    model[key] = nil
                }
                XCTAssertEqual(
                    store.entryCount(identifiedBy: nil), model.values.reduce(0) { $0 + $1.count },
                    "\(name) step \(step)")
            }
        }
    }

    /// Eight threads saving, selecting and removing variants of three URLs at once: whatever the
    /// interleaving, no URL holds more than 8 variants, every listed variant is the one its
    /// request selects, and the disk store's byte count is the size of its files.
    func testConcurrentUseKeepsTheBoundAndTheIndexConsistent() throws {
        let urls = (0..<3).map { URL(string: "https://api.example.com/doc\($0)")! }
        let now = now
        // What the threads use: no `self`, which is not Sendable.
        @Sendable func variant(_ url: URL, _ language: String, thread: Int) -> StoredResponse {
            let entry = CacheEntry(
                method: .get, url: url, requestHeaders: ["Accept-Language": language], status: 200,
                responseHeaders: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], requestTime: now,
                responseTime: now)
            return StoredResponse(entry: entry, body: Data("\(url.path) \(language)".utf8), identifier: "t\(thread)")
        }
        @Sendable func lookUp(_ store: any CacheStorage, _ url: URL, _ language: String) -> String? {
            let request = CacheRequest(url: url, headers: ["Accept-Language": language])
            return store.response(for: CacheRules.cacheKey(for: url)) { CacheRules.selects($0, for: request) }
                .map { String(decoding: $0.body, as: UTF8.self) }
        }
        for (name, store) in try stores() {
            let wrong = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                var generator = SplitMix64(seed: UInt64(thread))
                for _ in 0..<300 {
                    let url = urls[Int(generator.next() % 3)]
                    let language = "l\(generator.next() % 12)"
                    switch generator.next() % 10 {
                    case 0..<5:
                        store.save(variant(url, language, thread: thread), for: CacheRules.cacheKey(for: url))
                    case 5..<9:
                        if let body = lookUp(store, url, language), body != "\(url.path) \(language)" {
                            wrong.withLock { $0 += 1 }
                        }
                    default:
                        store.remove(CacheRules.cacheKey(for: url))
                    }
                }
            }
            XCTAssertEqual(wrong.current, 0, "\(name): a lookup returned another variant")
            let entries = store.entries(identifiedBy: nil)
            XCTAssertEqual(entries.count, store.entryCount(identifiedBy: nil), name)
            for url in urls {
                let variants = entries.filter { $0.url == url }
                XCTAssertLessThanOrEqual(variants.count, CacheRules.variantLimit, name)
                for variant in variants {
                    let language = try XCTUnwrap(variant.varyingRequestFields["accept-language"])
                    XCTAssertEqual(selected(store, language, url: url), "\(url.path) \(language)", name)
                }
            }
            if let disk = store as? DiskCacheStore {
                let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                    !$0.hasPrefix(".")
                }
                let sizes = try files.map {
                    try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent($0).path)[.size]
                        as? NSNumber
                }
                XCTAssertEqual(disk.byteCount, sizes.reduce(0) { $0 + ($1?.intValue ?? 0) }, name)
                XCTAssertEqual(files.count, entries.count, name)
            }
        }
    }

    // MARK: Disk

    func testVariantsSurviveTheProcessAndADamagedOneIsAMiss() throws {
        let first = try DiskCacheStore(directory: directory, byteLimit: 1 << 20)
        first.save(response("hello", language: "en", identifier: "doc/en"), for: key)
        first.save(response("hallo", language: "de", identifier: "doc/de"), for: key)
        first.save(response("plain", language: nil, vary: nil, dateOffset: -10), for: key)
        let second = try DiskCacheStore(directory: directory, byteLimit: 1 << 20)
        XCTAssertEqual(selected(second, "en"), "hello")
        XCTAssertEqual(selected(second, "de"), "hallo")
        XCTAssertEqual(second.entryCount(identifiedBy: "doc/"), 2)
        XCTAssertEqual(second.byteCount, first.byteCount)

        // The German file cut short, another garbage: misses, deleted, never a trap.
        let german = second.path(for: key, variant: response("", language: "de").entry.variantKey)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: german))
        try handle.truncate(atOffset: 30)
        try handle.close()
        let english = second.path(for: key, variant: response("", language: "en").entry.variantKey)
        try Data(repeating: 0x57, count: 64).write(to: URL(fileURLWithPath: english))
        let third = try DiskCacheStore(directory: directory, byteLimit: 1 << 20)
        // The damaged variants are misses; the one that varies on nothing is what is left.
        XCTAssertEqual(selected(third, "de"), "plain")
        XCTAssertEqual(selected(third, "en"), "plain")
        XCTAssertEqual(third.entryCount(identifiedBy: nil), 1, "the damaged files are gone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: german))
        XCTAssertFalse(FileManager.default.fileExists(atPath: english))
    }

    /// A file written before variants (named by the key alone) that holds a response with `Vary`
    /// is still read, and selected by its stored request fields.
    func testAFileOfOneResponsePerURLIsStillRead() throws {
        let store = try DiskCacheStore(directory: directory, byteLimit: 1 << 20)
        let old = response("hello", language: "en")
        let file = try XCTUnwrap(DiskCacheFormat.encode(old, key: key))
        try file.write(to: URL(fileURLWithPath: store.path(for: key)))
        let reopened = try DiskCacheStore(directory: directory, byteLimit: 1 << 20)
        XCTAssertEqual(selected(reopened, "en"), "hello")
        XCTAssertNil(selected(reopened, "de"))
        reopened.save(response("hallo", language: "de"), for: key)
        XCTAssertEqual(selected(reopened, "en"), "hello")
        XCTAssertEqual(selected(reopened, "de"), "hallo")
        reopened.remove(key)
        XCTAssertEqual(reopened.entryCount(identifiedBy: nil), 0)
        XCTAssertEqual(reopened.byteCount, 0)
    }

    // MARK: Listing (item 23)

    func testEntriesAreListedAndCountedByIdentifierPrefix() throws {
        let profile = URL(string: "https://api.example.com/users/1/profile")!
        let repos = URL(string: "https://api.example.com/users/2/repos")!
        for (name, store) in try stores() {
            store.save(response("hello", language: "en", identifier: "user-1/doc"), for: key)
            store.save(response("hallo", language: "de", receivedOffset: 1, identifier: "user-1/doc"), for: key)
            store.save(
                response("{}", language: nil, url: profile, vary: nil, identifier: "user-1/profile", status: 203),
                for: CacheRules.cacheKey(for: profile))
            store.save(
                response("[1, 2]", language: nil, url: repos, vary: nil, identifier: "user-2/repos"),
                for: CacheRules.cacheKey(for: repos))
            store.save(
                response("anonymous", language: nil, url: URL(string: "https://api.example.com/a")!, vary: nil),
                for: "https://api.example.com/a")

            // A read makes the English variant the most recently used: it is listed last.
            XCTAssertEqual(selected(store, "en"), "hello", name)
            let all = store.entries(identifiedBy: nil)
            guard all.count == 5 else {
                XCTFail("\(name): \(all.count) entries listed, not 5")
                continue
            }
            XCTAssertEqual(
                all.map(\.url.path), ["/doc", "/users/1/profile", "/users/2/repos", "/a", "/doc"],
                "\(name): from the least to the most recently used")
            XCTAssertEqual(
                all.map(\.cacheIdentifier), ["user-1/doc", "user-1/profile", "user-2/repos", nil, "user-1/doc"], name)
            XCTAssertEqual(all[0].varyingRequestFields, ["accept-language": "de"], name)
            XCTAssertEqual(all[0].storedDate, now + 1, name)
            XCTAssertEqual(all[4].varyingRequestFields, ["accept-language": "en"], name)
            XCTAssertEqual(all[4].storedDate, now, name)
            XCTAssertEqual(all[1].statusCode, 203, name)
            XCTAssertEqual(all[1].bodyByteCount, 2, name)
            XCTAssertEqual(all[2].bodyByteCount, 6, name)
            XCTAssertEqual(all[3].varyingRequestFields, [:], name)
            XCTAssertEqual(store.entries(identifiedBy: nil), all, "\(name): listing is no use")

            XCTAssertEqual(
                store.entries(identifiedBy: "user-1/").map(\.url.path), ["/doc", "/users/1/profile", "/doc"], name)
            XCTAssertEqual(store.entryCount(identifiedBy: "user-1/"), 3, name)
            XCTAssertEqual(store.entryCount(identifiedBy: "user-2/"), 1, name)
            XCTAssertEqual(store.entryCount(identifiedBy: ""), 4, "\(name): every response with an identifier")
            XCTAssertEqual(store.entryCount(identifiedBy: nil), 5, name)
            XCTAssertEqual(store.entries(identifiedBy: "nobody"), [], name)

            store.removeResponses(identifiedBy: "user-1/")
            XCTAssertEqual(store.entries(identifiedBy: nil).map(\.url.path), ["/users/2/repos", "/a"], name)
        }
        // A new process lists what the files hold, identifiers read from them.
        let reopened = try DiskCacheStore(directory: directory, byteLimit: 1 << 20)
        XCTAssertEqual(reopened.entryCount(identifiedBy: "user-2/"), 1)
        // Files written within a tick of the clock share a modification time: compared as a set.
        XCTAssertEqual(reopened.entries(identifiedBy: nil).map(\.bodyByteCount).sorted(), [6, "anonymous".utf8.count])
    }

    func testHTTPCacheListsAndCountsThroughItsStore() throws {
        for (name, store) in try stores() {
            let cache = HTTPCache(store: store)
            store.save(response("hello", language: "en", identifier: "docs/en"), for: key)
            store.save(response("hallo", language: "de", identifier: "docs/de"), for: key)
            XCTAssertEqual(cache.entryCount(), 2, name)
            XCTAssertEqual(cache.entries(identifiedBy: "docs/d").map(\.cacheIdentifier), ["docs/de"], name)
            cache.removeResponse(for: url)
            XCTAssertEqual(cache.entryCount(), 0, "\(name): every variant of the URL")
        }
    }
}
