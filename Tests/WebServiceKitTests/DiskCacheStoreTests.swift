import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The disk store: file format, persistence, permissions, eviction, damaged files, failed
/// writes, invalidation and concurrency.
final class DiskCacheStoreTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("DiskCacheStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        // A test may have left a directory without write permission.
        if let enumerator = FileManager.default.enumerator(atPath: root.path) {
            for case let path as String in enumerator {
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o700], ofItemAtPath: root.appendingPathComponent(path).path)
            }
        }
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: Helpers

    private var directory: URL { root.appendingPathComponent("cache") }

    private func store(limit: Int = 1 << 20) throws -> DiskCacheStore {
        try DiskCacheStore(directory: directory, byteLimit: limit)
    }

    private func permissions(_ path: String) throws -> Int {
        try XCTUnwrap((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    /// The names of the entry files in the directory (temporary files excluded).
    private func entryFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    private func allFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private func sizeOnDisk() throws -> Int {
        try entryFiles().reduce(0) { total, name in
            let attributes = try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(name).path)
            return total + ((attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    private func fileSize(of key: String, in store: DiskCacheStore) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path(for: key))
        return try XCTUnwrap((attributes[.size] as? NSNumber)?.intValue)
    }

    private func assertSame(
        _ stored: StoredResponse?, _ expected: StoredResponse, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let stored else { return XCTFail("miss", file: file, line: line) }
        XCTAssertEqual(stored.entry, expected.entry, file: file, line: line)
        XCTAssertEqual(
            stored.entry.responseHeaders.fields, expected.entry.responseHeaders.fields, file: file, line: line)
        XCTAssertEqual(stored.body, expected.body, file: file, line: line)
        XCTAssertEqual(stored.identifier, expected.identifier, file: file, line: line)
    }

    // MARK: Round trip and persistence

    func testRoundTripKeepsEveryFieldAndTheHeaderOrder() throws {
        let store = try store()
        let requestTime = Date(timeIntervalSinceReferenceDate: 767_000_123.456_789_1)
        let entry = CacheEntry(
            method: "PROPFIND", url: URL(string: "https://api.example.com/v1/users/octo%20cat?sort=updated&x=%C3%A9")!,
            status: 203,
            responseHeaders: HTTPHeaders([
                .init(name: "Content-Type", value: "application/json; charset=utf-8"),
                .init(name: "X-Zeta", value: "1"), .init(name: "cache-control", value: "max-age=60, public"),
                .init(name: "X-Alpha", value: "ünïcödé \"quoted\""), .init(name: "X-Zeta", value: "2"),
                .init(name: "Vary", value: "Accept-Language"),
            ]),
            requestTime: requestTime, responseTime: requestTime.addingTimeInterval(0.031_415_926),
            varyingRequestHeaders: ["accept-language": "fr-CH, fr;q=0.9"])
        var body = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        body.append(contentsOf: [0, 0, 0xff])
        let original = StoredResponse(entry: entry, body: body, identifier: "users/octocat/profile")
        store.save(original, for: key("a"))
        assertSame(store.response(for: key("a")), original)
        let names = store.response(for: key("a"))?.entry.responseHeaders.fields.map(\.name)
        XCTAssertEqual(names, ["Content-Type", "X-Zeta", "cache-control", "X-Alpha", "X-Zeta", "Vary"])
        assertSame(try self.store().response(for: key("a")), original)

        let plain = StoredResponse(entry: entry, body: Data())
        store.save(plain, for: key("b"))
        assertSame(store.response(for: key("b")), plain)
        XCTAssertNil(store.response(for: key("c")))
        XCTAssertEqual(store.byteCount, try sizeOnDisk())
        // A response with `Vary` is a variant: its file name adds the hash of its secondary key.
        XCTAssertEqual(
            entryFiles().sorted(),
            [key("a"), key("b")].map { DiskCacheStore.fileName(for: $0, variant: entry.variantKey) }.sorted())
        XCTAssertEqual(DiskCacheStore.fileName(for: key("a")), SHA256.hexDigest(key("a")))
    }

    func testTheFileStartsWithTheMagicAndTheVersion() throws {
        let store = try store()
        store.save(response("a"), for: key("a"))
        let file = try Data(contentsOf: URL(fileURLWithPath: store.path(for: key("a"))))
        XCTAssertEqual(Array(file.prefix(6)), Array("WSKC".utf8) + [0, 1])
    }

    func testAResponseOverwrittenForTheSameKeyIsTheNewOne() throws {
        let store = try store()
        store.save(response("a", body: Data(count: 500)), for: key("a"))
        let newer = response("a", body: Data("v2".utf8))
        store.save(newer, for: key("a"))
        assertSame(store.response(for: key("a")), newer)
        XCTAssertEqual(store.byteCount, try sizeOnDisk())
        XCTAssertEqual(entryFiles().count, 1)
    }

    func testResponsesPersistAcrossStoresOnTheSameDirectory() throws {
        let first = try store()
        let a = response("a", body: Data("alpha".utf8), identifier: "items/a")
        let b = response("b", body: Data(count: 3000))
        first.save(a, for: key("a"))
        first.save(b, for: key("b"))
        let bytes = first.byteCount

        let second = try store()
        XCTAssertEqual(second.byteCount, bytes)
        assertSame(second.response(for: key("a")), a)
        assertSame(second.response(for: key("b")), b)
        XCTAssertNil(second.response(for: key("c")))
    }

    func testHTTPCacheOnADirectoryServesAndInvalidatesResponsesStoredByAnEarlierCache() async throws {
        let stubs = StubTransport(
            fallback: .init(headers: ["Cache-Control": "max-age=60"], body: Data("{\"id\":1}".utf8)))
        let call = WebServiceCall<Data>(relativePath: "profile", cacheIdentifier: "users/me/profile")
        let nested = root.appendingPathComponent("a/b/c")
        do {
            let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
            client.cache = try HTTPCache(directory: nested)
            let first = try await client.response(for: call)
            XCTAssertEqual(first.source, .network)
            XCTAssertGreaterThan(client.cache?.byteCount ?? 0, 0)
        }
        XCTAssertEqual(try permissions(nested.path), 0o700)
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = try HTTPCache(directory: nested, diskLimit: 1 << 20)
        let second = try await client.response(for: call)
        XCTAssertEqual(second.source, .cache)
        XCTAssertEqual(second.body, Data("{\"id\":1}".utf8))
        XCTAssertEqual(stubs.requests.count, 1)

        // The identifier was stored in the file: invalidation by prefix reaches it.
        let third = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        third.cache = try HTTPCache(directory: nested)
        third.cache?.removeResponses(identifiedBy: "users/me/")
        XCTAssertEqual(third.cache?.byteCount, 0)
        let fourth = try await third.response(for: call)
        XCTAssertEqual(fourth.source, .network)
        XCTAssertEqual(stubs.requests.count, 2)
    }

    // MARK: Permissions

    func testTheDirectoryIs0700AndEachFile0600() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try store()
        XCTAssertEqual(try permissions(directory.path), 0o700)
        store.save(response("a"), for: key("a"))
        store.save(response("b"), for: key("b"))
        XCTAssertEqual(entryFiles().count, 2)
        for name in entryFiles() {
            XCTAssertEqual(try permissions(directory.appendingPathComponent(name).path), 0o600, name)
        }
    }

    func testAnExistingDirectoryIsMade0700AndFilesAre0600WhateverTheUmask() throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        XCTAssertEqual(try permissions(directory.path), 0o755)
        let previous = umask(0o000)
        defer { umask(previous) }
        let store = try store()
        XCTAssertEqual(try permissions(directory.path), 0o700)
        store.save(response("a"), for: key("a"))
        XCTAssertEqual(try permissions(store.path(for: key("a"))), 0o600)
    }

    // MARK: Eviction

    func testTheLeastRecentlyUsedResponseIsEvictedPastTheLimit() throws {
        let size = try store().saving(response("p"), for: key("p"))
        try FileManager.default.removeItem(at: directory)
        // Room for three responses, not four.
        let store = try store(limit: 3 * size + size / 2)
        for name in ["a", "b", "c"] { store.save(response(name), for: key(name)) }
        XCTAssertEqual(store.byteCount, 3 * size)
        XCTAssertNotNil(store.response(for: key("a")))
        store.save(response("d"), for: key("d"))
        XCTAssertNil(store.response(for: key("b")), "b was the least recently used")
        for name in ["a", "c", "d"] { XCTAssertNotNil(store.response(for: key(name)), name) }
        XCTAssertEqual(store.byteCount, 3 * size)
        XCTAssertEqual(try sizeOnDisk(), 3 * size)
        XCTAssertEqual(entryFiles().count, 3)
    }

    func testAResponseLargerThanTheLimitIsNotStoredAndReplacesTheOlderOne() throws {
        let store = try store(limit: 1000)
        store.save(response("a", body: Data(count: 10)), for: key("a"))
        XCTAssertNotNil(store.response(for: key("a")))
        store.save(response("a", body: Data(count: 2000)), for: key("a"))
        XCTAssertNil(store.response(for: key("a")))
        XCTAssertEqual(store.byteCount, 0)
        XCTAssertEqual(allFiles(), [])
    }

    /// A new store orders the files by modification time, and a hit refreshes that time.
    func testTheOrderOfUseSurvivesTheProcess() throws {
        let size = try store().saving(response("a"), for: key("a"))
        let first = try store()
        first.save(response("b"), for: key("b"))
        let manager = FileManager.default
        try manager.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-100)], ofItemAtPath: first.path(for: key("a")))
        try manager.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-50)], ofItemAtPath: first.path(for: key("b")))

        // a is the older; reading it makes it the newer.
        let second = try store(limit: 2 * size + size / 2)
        XCTAssertNotNil(second.response(for: key("a")))

        let third = try store(limit: 2 * size + size / 2)
        third.save(response("c"), for: key("c"))
        XCTAssertNil(third.response(for: key("b")), "b was the least recently used")
        XCTAssertNotNil(third.response(for: key("a")))
        XCTAssertNotNil(third.response(for: key("c")))
    }

    func testASmallerLimitEvictsAtCreation() throws {
        let first = try store()
        for name in ["a", "b", "c", "d"] { first.save(response(name), for: key(name)) }
        let size = try fileSize(of: key("a"), in: first)
        let second = try store(limit: 2 * size)
        XCTAssertEqual(second.byteCount, 2 * size)
        XCTAssertEqual(entryFiles().count, 2)
    }

    // MARK: Damaged files

    func testATruncatedFileIsAMissAndIsDeleted() throws {
        let store = try store()
        for (name, length) in [("a", -1), ("b", 10), ("c", 0), ("d", 25)] {
            store.save(response(name), for: key(name))
            let path = store.path(for: key(name))
            let size = try fileSize(of: key(name), in: store)
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: UInt64(length < 0 ? size + length : length))
            try handle.close()
            XCTAssertNil(store.response(for: key(name)), name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), name)
        }
        XCTAssertEqual(store.byteCount, 0)

        // Also when a new store finds it.
        store.save(response("e"), for: key("e"))
        let path = store.path(for: key("e"))
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        try file.prefix(file.count / 2).write(to: URL(fileURLWithPath: path))
        let next = try self.store()
        XCTAssertNil(next.response(for: key("e")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(next.byteCount, 0)
    }

    func testAGarbageFileIsAMiss() throws {
        let store = try store()
        let path = store.path(for: key("a"))
        // Random bytes; the right header with metadata that is not JSON; valid JSON of another
        // shape; a body length that overflows; nothing at all.
        let magic = Array("WSKC".utf8)
        let json = Array("{\"a\":1}".utf8)
        let garbage: [Data] = [
            Data((0..<300).map { _ in UInt8.random(in: 0...255) }),
            bytes(magic, [0, 1], [0, 0, 0, 5], [0, 0, 0, 0, 0, 0, 0, 3], Array("nope!abc".utf8)),
            bytes(magic, [0, 1], [0, 0, 0, UInt8(json.count)], [UInt8](repeating: 0, count: 8), json),
            bytes(magic, [0, 1], [0, 0, 0, 5], [UInt8](repeating: 0xff, count: 8), Array("nope!abc".utf8)),
            Data(),
        ]
        for (index, content) in garbage.enumerated() {
            try content.write(to: URL(fileURLWithPath: path))
            let next = try self.store()
            XCTAssertNil(next.response(for: key("a")), "garbage \(index)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "garbage \(index)")
            XCTAssertEqual(next.byteCount, 0, "garbage \(index)")
        }
        // Garbage over a file the store knows.
        store.save(response("b"), for: key("b"))
        try Data(repeating: 0x41, count: 400).write(to: URL(fileURLWithPath: store.path(for: key("b"))))
        XCTAssertNil(store.response(for: key("b")))
        XCTAssertEqual(store.byteCount, 0)
    }

    func testAnotherFormatVersionIsAMiss() throws {
        let store = try store()
        store.save(response("a"), for: key("a"))
        let path = store.path(for: key("a"))
        var file = try Data(contentsOf: URL(fileURLWithPath: path))
        file[5] = 2
        try file.write(to: URL(fileURLWithPath: path))
        XCTAssertNil(store.response(for: key("a")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(store.byteCount, 0)
    }

    func testTheFileOfAnotherKeyIsAMiss() throws {
        let store = try store()
        store.save(response("a"), for: key("a"))
        try FileManager.default.copyItem(atPath: store.path(for: key("a")), toPath: store.path(for: key("b")))
        let next = try self.store()
        XCTAssertNil(next.response(for: key("b")))
        XCTAssertNotNil(next.response(for: key("a")))
    }

    func testAnUnreadableFileIsAMiss() throws {
        let store = try store()
        store.save(response("a"), for: key("a"))
        let path = store.path(for: key("a"))
        // A directory where the file was: no read gives bytes.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        XCTAssertNil(store.response(for: key("a")))
        XCTAssertEqual(store.byteCount, 0)
        // A file deleted behind the store's back.
        store.save(response("b"), for: key("b"))
        try FileManager.default.removeItem(atPath: store.path(for: key("b")))
        XCTAssertNil(store.response(for: key("b")))
        XCTAssertEqual(store.byteCount, 0)
    }

    func testOtherFilesInTheDirectoryAreLeftAlone() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README"))
        let store = try store()
        XCTAssertEqual(store.byteCount, 0)
        store.save(response("a"), for: key("a"))
        store.removeAll()
        XCTAssertEqual(allFiles(), ["README"])
    }

    // MARK: Failed writes

    func testAnUnwritableDirectoryStoresNothing() throws {
        let store = try store()
        store.save(response("a"), for: key("a"))
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)
        store.save(response("b"), for: key("b"))
        if getuid() != 0 {
            XCTAssertNil(store.response(for: key("b")))
            XCTAssertEqual(allFiles().count, 1, "no temporary file is left")
        }
        // Root writes anyway; either way the index matches the files.
        XCTAssertEqual(store.byteCount, try sizeOnDisk())
        XCTAssertNotNil(store.response(for: key("a")))

        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        store.save(response("c"), for: key("c"))
        XCTAssertNotNil(store.response(for: key("c")))
        XCTAssertEqual(store.byteCount, try sizeOnDisk())
    }

    /// Root ignores permissions: a directory that has become a regular file fails for everyone.
    func testADirectoryReplacedByARegularFileStoresNothing() throws {
        let store = try store()
        store.save(response("a"), for: key("a"))
        try FileManager.default.removeItem(at: directory)
        try Data("not a directory".utf8).write(to: directory)
        store.save(response("b"), for: key("b"))
        XCTAssertNil(store.response(for: key("b")))
        XCTAssertNil(store.response(for: key("a")))
        XCTAssertEqual(store.byteCount, 0)
        store.remove(key("a"))
        store.removeResponses(identifiedBy: "")
        store.removeAll()
        XCTAssertEqual(try Data(contentsOf: directory), Data("not a directory".utf8))
    }

    func testARegularFileIsNoDirectory() throws {
        try Data("file".utf8).write(to: directory)
        XCTAssertThrowsError(try store())
        XCTAssertThrowsError(try HTTPCache(directory: directory))
        XCTAssertThrowsError(try HTTPCache(directory: directory.appendingPathComponent("below")))
    }

    func testADeletedDirectoryIsCreatedAgainOnTheNextSave() throws {
        let store = try store()
        store.save(response("a"), for: key("a"))
        try FileManager.default.removeItem(at: directory)
        XCTAssertNil(store.response(for: key("a")))
        store.save(response("b"), for: key("b"))
        XCTAssertNotNil(store.response(for: key("b")))
        XCTAssertEqual(try permissions(directory.path), 0o700)
        XCTAssertEqual(store.byteCount, try sizeOnDisk())
    }

    func testOldTemporaryFilesAreDeletedAtCreation() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let old = directory.appendingPathComponent(".wskc-old").path
        let recent = directory.appendingPathComponent(".wskc-recent").path
        try Data(count: 10).write(to: URL(fileURLWithPath: old))
        try Data(count: 10).write(to: URL(fileURLWithPath: recent))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: old)
        let store = try store()
        XCTAssertEqual(store.byteCount, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: old))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recent), "it may be another process's write")
    }

    // MARK: Removal

    func testRemoveResponsesIdentifiedByAPrefix() throws {
        let identifiers: [String: String?] = [
            "a": "users/1/profile", "b": "users/1/repos", "c": "users/10/profile", "d": "users/2/profile",
            "e": nil,
        ]
        let store = try store()
        for (name, identifier) in identifiers { store.save(response(name, identifier: identifier), for: key(name)) }
        store.removeResponses(identifiedBy: "users/1/")
        for name in ["a", "b"] { XCTAssertNil(store.response(for: key(name)), name) }
        for name in ["c", "d", "e"] { XCTAssertNotNil(store.response(for: key(name)), name) }
        XCTAssertEqual(store.byteCount, try sizeOnDisk())

        // A new store reads the identifiers from the files.
        let next = try self.store()
        next.removeResponses(identifiedBy: "users/1")
        XCTAssertNil(next.response(for: key("c")))
        XCTAssertNotNil(next.response(for: key("d")))
        XCTAssertNotNil(next.response(for: key("e")))
        XCTAssertEqual(entryFiles().count, 2)
        XCTAssertEqual(next.byteCount, try sizeOnDisk())
    }

    func testRemoveAndRemoveAll() throws {
        let store = try store()
        for name in ["a", "b", "c"] { store.save(response(name), for: key(name)) }
        store.remove(key("a"))
        XCTAssertNil(store.response(for: key("a")))
        XCTAssertEqual(entryFiles().count, 2)
        XCTAssertEqual(store.byteCount, try sizeOnDisk())
        store.remove(key("missing"))
        store.removeAll()
        XCTAssertEqual(store.byteCount, 0)
        XCTAssertEqual(allFiles(), [])
        XCTAssertNil(store.response(for: key("b")))
        XCTAssertEqual(try self.store().byteCount, 0)
        store.save(response("d"), for: key("d"))
        XCTAssertNotNil(store.response(for: key("d")))
    }

    // MARK: Concurrency

    func testConcurrentSavesReadsAndRemovals() throws {
        let size = try store().saving(response("k00", body: Data(count: 300)), for: key("k00"))
        // Room for 12 of the 24 keys, so eviction runs all the time.
        let store = try store(limit: 12 * size)
        let keys = (0..<24).map { String(format: "k%02d", $0) }
        let wrong = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for step in 0..<300 {
                let name = keys[(thread * 7 + step * 5) % keys.count]
                switch (thread + step) % 10 {
                case 0: store.remove(key(name))
                case 1...4:
                    store.save(response(name, body: Data(repeating: UInt8(step % 256), count: 300)), for: key(name))
                default:
                    if let found = store.response(for: key(name)) {
                        if found.entry.url.lastPathComponent != name || found.body.count != 300
                            || Set(found.body).count != 1
                        {
                            wrong.withLock { $0 += 1 }
                        }
                    }
                }
                _ = store.byteCount
            }
        }
        XCTAssertEqual(wrong.current, 0)
        XCTAssertLessThanOrEqual(store.byteCount, 12 * size)
        XCTAssertEqual(store.byteCount, try sizeOnDisk())
        // Evicted files are kept, emptied, for the next saves to reuse; nothing else is left.
        XCTAssertEqual(
            Set(allFiles()).subtracting(entryFiles()), Set(store.spareNames), "no temporary file is left")
        XCTAssertLessThanOrEqual(store.spareNames.count, DiskCacheStore.spareLimit)
        XCTAssertEqual(try self.store(limit: 12 * size).byteCount, store.byteCount)
    }
}

/// A response to GET https://api.example.com/`path`.
private func response(
    _ path: String, body: Data = Data(count: 100), identifier: String? = nil, headers: HTTPHeaders? = nil
) -> StoredResponse {
    // Fixed times: the files of same-length paths have the same size.
    let now = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
    let entry = CacheEntry(
        method: .get, url: URL(string: "https://api.example.com/\(path)")!, status: 200,
        responseHeaders: headers ?? ["Cache-Control": "max-age=60", "Content-Type": "application/json"],
        requestTime: now.addingTimeInterval(-0.125), responseTime: now, varyingRequestHeaders: [:])
    return StoredResponse(entry: entry, body: body, identifier: identifier)
}

/// The store's key for that response.
private func key(_ path: String) -> String { "https://api.example.com/\(path)" }

/// Bytes from parts.
private func bytes(_ parts: [UInt8]...) -> Data { Data(parts.joined()) }

extension DiskCacheStore {
    /// Saves `response` and returns the size of its file.
    fileprivate func saving(_ response: StoredResponse, for key: String) throws -> Int {
        save(response, for: key)
        let attributes = try FileManager.default.attributesOfItem(atPath: path(for: key))
        return try XCTUnwrap((attributes[.size] as? NSNumber)?.intValue)
    }
}
