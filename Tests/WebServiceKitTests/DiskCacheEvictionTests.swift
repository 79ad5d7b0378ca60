import Foundation
import XCTest

@testable import WebServiceKit

/// A full disk store: the order of eviction after reads, the byte count after many evictions,
/// what a reopened store sees, and the reuse of evicted files (a full store creates and deletes
/// no file per save).
final class DiskCacheEvictionTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("DiskCacheEvictionTests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Helpers

    private func store(limit: Int) throws -> DiskCacheStore {
        try DiskCacheStore(directory: directory, byteLimit: limit)
    }

    /// The size of the file of a response with a body of `bodyCount` bytes and a path as long as
    /// `name`, found by storing one in a directory of its own.
    private func fileSize(bodyCount: Int = 100, like name: String) throws -> Int {
        let other = directory.appendingPathExtension("probe")
        defer { try? FileManager.default.removeItem(at: other) }
        let probe = try DiskCacheStore(directory: other, byteLimit: 1 << 20)
        let path = String(repeating: "p", count: name.count)
        probe.save(stored(path, bodyCount: bodyCount), for: storeKey(path))
        return probe.byteCount
    }

    private func files() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    /// Entry files by name, with their sizes.
    private func entrySizes() throws -> [String: Int] {
        var sizes: [String: Int] = [:]
        for name in files() where !name.hasPrefix(".") {
            sizes[name] = try byteCount(of: directory.appendingPathComponent(name).path)
        }
        return sizes
    }

    private func byteCount(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try XCTUnwrap((attributes[.size] as? NSNumber)?.intValue)
    }

    private func present(_ names: [String], in store: DiskCacheStore) -> [String] {
        names.filter { store.response(for: storeKey($0)) != nil }
    }

    // MARK: Order

    func testEvictionFollowsTheOrderOfUseReadsIncluded() throws {
        let size = try fileSize(like: "a")
        let store = try store(limit: 5 * size)
        for name in ["a", "b", "c", "d", "e"] { store.save(stored(name), for: storeKey(name)) }
        // Reads make a and c the most recently used: b, d, e, a, c from the oldest.
        XCTAssertNotNil(store.response(for: storeKey("a")))
        XCTAssertNotNil(store.response(for: storeKey("c")))
        // A save of an existing key makes it the newest too: d, e, a, c, b.
        store.save(stored("b"), for: storeKey("b"))

        store.save(stored("f"), for: storeKey("f"))
        store.save(stored("g"), for: storeKey("g"))
        XCTAssertEqual(store.byteCount, 5 * size)
        // Checked through the index and the files only: a read would change the order.
        let expected = ["a", "c", "b", "f", "g"].map { DiskCacheStore.fileName(for: storeKey($0)) }
        XCTAssertEqual(Set(try entrySizes().keys), Set(expected))

        XCTAssertNotNil(store.response(for: storeKey("a")))
        store.save(stored("h"), for: storeKey("h"))
        store.save(stored("i"), for: storeKey("i"))
        // c and b were the oldest; a was read just before.
        XCTAssertEqual(present(["a", "b", "c", "d", "e", "f", "g", "h", "i"], in: store), ["a", "f", "g", "h", "i"])
        XCTAssertEqual(try entrySizes().values.reduce(0, +), store.byteCount)
    }

    /// A large response evicts as many small ones as it needs, oldest first, and no more.
    func testALargeResponseEvictsTheOldestUntilItFits() throws {
        let small = try fileSize(like: "a")
        let large = try fileSize(bodyCount: 100 + 2 * small, like: "L")
        let store = try store(limit: 6 * small)
        for name in ["a", "b", "c", "d", "e", "f"] { store.save(stored(name), for: storeKey(name)) }
        XCTAssertNotNil(store.response(for: storeKey("a")))
        store.save(stored("L", bodyCount: 100 + 2 * small), for: storeKey("L"))
        // large = 3 × small: b, c and d go (a was read).
        XCTAssertEqual(large, 3 * small)
        XCTAssertEqual(present(["a", "b", "c", "d", "e", "f", "L"], in: store), ["a", "e", "f", "L"])
        XCTAssertEqual(store.byteCount, 6 * small)
        XCTAssertEqual(try entrySizes().values.reduce(0, +), store.byteCount)
    }

    // MARK: Byte count

    /// Many saves of responses of varied sizes, reads and overwrites through a store that keeps
    /// a tenth of them: the count is the sum of the files left, within the limit, and each of
    /// those files reads back.
    func testTheByteCountAfterManyEvictionsIsTheSizeOfTheFilesLeft() throws {
        let limit = 40_000
        let store = try store(limit: limit)
        var generator = SplitMix64(seed: 25)
        var written: [String: Int] = [:]
        for step in 0..<600 {
            let name = String(format: "k%03d", Int(generator.next() % 200))
            if step % 4 == 3 {
                _ = store.response(for: storeKey(name))
            } else {
                let bodyCount = Int(generator.next() % 3000)
                store.save(stored(name, bodyCount: bodyCount), for: storeKey(name))
                written[name] = bodyCount
            }
        }
        let sizes = try entrySizes()
        XCTAssertEqual(store.byteCount, sizes.values.reduce(0, +))
        XCTAssertLessThanOrEqual(store.byteCount, limit)
        XCTAssertGreaterThan(sizes.count, 10)
        // Every file left is a whole response of the size last written for its key.
        for (name, bodyCount) in written where sizes[DiskCacheStore.fileName(for: storeKey(name))] != nil {
            XCTAssertEqual(store.response(for: storeKey(name))?.body.count, bodyCount, name)
        }
        // The other files are the spares, small.
        let spares = files().filter { $0.hasPrefix(".") }
        XCTAssertEqual(Set(spares), Set(store.spareNames))
        for spare in spares {
            XCTAssertLessThanOrEqual(
                try byteCount(of: directory.appendingPathComponent(spare).path), DiskCacheStore.spareByteLimit)
        }
    }

    // MARK: Reopening

    func testAReopenedStoreSeesTheSameEntriesAndTheSameOrder() throws {
        let size = try fileSize(like: "r000")
        var names: [String] = []
        var bytes = 0
        do {
            let first = try store(limit: 20 * size)
            for index in 0..<50 {
                let name = String(format: "r%03d", index)
                first.save(stored(name, bodyCount: 100), for: storeKey(name))
            }
            names = present((0..<50).map { String(format: "r%03d", $0) }, in: first)
            bytes = first.byteCount
            XCTAssertFalse(first.spareNames.isEmpty)
        }
        XCTAssertEqual(names, (30..<50).map { String(format: "r%03d", $0) })
        XCTAssertEqual(files().filter { $0.hasPrefix(".") }, [], "a released store deletes its spares")

        // Modification times, oldest first, in the order the files were last used.
        let now = Date()
        for (index, name) in names.enumerated() {
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(Double(index - 100))],
                ofItemAtPath: directory.appendingPathComponent(DiskCacheStore.fileName(for: storeKey(name))).path)
        }
        let second = try store(limit: 20 * size)
        XCTAssertEqual(second.byteCount, bytes)
        XCTAssertEqual(try entrySizes().values.reduce(0, +), bytes)
        // Two new responses evict the two oldest, r030 and r031.
        second.save(stored("n000"), for: storeKey("n000"))
        second.save(stored("n001"), for: storeKey("n001"))
        XCTAssertEqual(present(names, in: second), Array(names.dropFirst(2)))
        let body = try XCTUnwrap(second.response(for: storeKey("r049"))).body
        XCTAssertEqual(body, Data(repeating: 0x72, count: 100))
    }

    // MARK: Reuse of evicted files

    /// Once full, a store writes each new response into the file it evicted last: no file is
    /// created and none deleted per save.
    func testAFullStoreCreatesNoFilePerSave() throws {
        let size = try fileSize(like: "c000")
        let store = try store(limit: 3 * size)
        for index in 0..<100 {
            let name = String(format: "c%03d", index)
            store.save(stored(name), for: storeKey(name))
        }
        // Three to fill the store, a fourth before the first eviction; then only reuse.
        XCTAssertEqual(store.createdFileCount, 4)
        XCTAssertEqual(store.spareNames.count, 1)
        XCTAssertEqual(files().count, 4)
        XCTAssertEqual(present(["c097", "c098", "c099"], in: store), ["c097", "c098", "c099"])
        XCTAssertEqual(store.byteCount, 3 * size)
    }

    func testAReusedFileIsPrivateAndHoldsOnlyTheNewResponse() throws {
        let size = try fileSize(like: "a")
        let store = try store(limit: 2 * size)
        for name in ["a", "b", "c"] { store.save(stored(name), for: storeKey(name)) }
        let spare = directory.appendingPathComponent(try XCTUnwrap(store.spareNames.first)).path
        // A spare longer than the new response, and with other permissions, is cut to the new
        // length and made private again.
        try Data(repeating: 0xEE, count: 3 * size).write(to: URL(fileURLWithPath: spare))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: spare)

        store.save(stored("d", bodyCount: 10), for: storeKey("d"))
        XCTAssertEqual(store.createdFileCount, 3, "d was written into the spare")
        let path = store.path(for: storeKey("d"))
        XCTAssertEqual(store.response(for: storeKey("d"))?.body, Data(repeating: 0x64, count: 10))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try entrySizes().values.reduce(0, +), store.byteCount)
    }

    func testASpareDeletedBehindTheStoresBackIsReplacedByANewFile() throws {
        let size = try fileSize(like: "a")
        let store = try store(limit: 2 * size)
        for name in ["a", "b", "c"] { store.save(stored(name), for: storeKey(name)) }
        let spare = try XCTUnwrap(store.spareNames.first)
        try FileManager.default.removeItem(at: directory.appendingPathComponent(spare))
        store.save(stored("d"), for: storeKey("d"))
        XCTAssertEqual(store.createdFileCount, 4)
        XCTAssertEqual(present(["c", "d"], in: store), ["c", "d"])
        XCTAssertEqual(try entrySizes().values.reduce(0, +), store.byteCount)
    }

    func testSparesAreDeletedByRemoveAllAndAtCreation() throws {
        let size = try fileSize(like: "a")
        let store = try store(limit: 2 * size)
        for name in ["a", "b", "c", "d"] { store.save(stored(name), for: storeKey(name)) }
        XCTAssertFalse(store.spareNames.isEmpty)
        store.removeAll()
        XCTAssertEqual(files(), [])
        XCTAssertEqual(store.spareNames, [])

        // One left by a store that did not end normally, however recent.
        try Data().write(to: directory.appendingPathComponent(".wskc-spare-left"))
        _ = try self.store(limit: 2 * size)
        XCTAssertEqual(files(), [])
    }

    func testAnEvictedFileLargerThanTheSpareLimitIsDeleted() throws {
        let store = try store(limit: 3 * DiskCacheStore.spareByteLimit)
        let large = DiskCacheStore.spareByteLimit + 1
        for name in ["a", "b"] { store.save(stored(name, bodyCount: large), for: storeKey(name)) }
        store.save(stored("c", bodyCount: large), for: storeKey("c"))
        XCTAssertEqual(present(["a", "b", "c"], in: store), ["b", "c"])
        XCTAssertEqual(store.spareNames, [])
        XCTAssertEqual(files().count, 2)
        XCTAssertEqual(try entrySizes().values.reduce(0, +), store.byteCount)
    }

    /// No more spares than ``DiskCacheStore/spareLimit`` are kept, whatever a save evicts.
    func testSparesAreBounded() throws {
        let small = try fileSize(bodyCount: 0, like: "s000")
        let store = try store(limit: 20 * small)
        for index in 0..<20 {
            let name = String(format: "s%03d", index)
            store.save(stored(name, bodyCount: 0), for: storeKey(name))
        }
        // Evicts all twenty small files.
        store.save(stored("big", bodyCount: 19 * small), for: storeKey("big"))
        XCTAssertEqual(store.spareNames.count, DiskCacheStore.spareLimit)
        XCTAssertEqual(files().filter { $0.hasPrefix(".") }.count, DiskCacheStore.spareLimit)
        XCTAssertEqual(try entrySizes().values.reduce(0, +), store.byteCount)
        XCTAssertLessThanOrEqual(store.byteCount, 20 * small)
    }
}

/// A response to GET https://api.example.com/`path` whose body is `bodyCount` copies of the
/// first byte of `path`.
private func stored(_ path: String, bodyCount: Int = 100) -> StoredResponse {
    let now = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
    let entry = CacheEntry(
        method: .get, url: URL(string: "https://api.example.com/\(path)")!, status: 200,
        responseHeaders: ["Cache-Control": "max-age=60"], requestTime: now, responseTime: now,
        varyingRequestHeaders: [:])
    return StoredResponse(entry: entry, body: Data(repeating: path.utf8.first ?? 0, count: bodyCount))
}

private func storeKey(_ path: String) -> String { "https://api.example.com/\(path)" }
