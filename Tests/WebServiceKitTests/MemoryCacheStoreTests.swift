import Foundation
import XCTest

@testable import WebServiceKit

/// The memory store's least-recently-used order, checked against a plain model over a long
/// random walk of reads, saves and removals.
final class MemoryCacheStoreTests: XCTestCase {
    func testRecencyListKeepsUseOrderThroughTouchesAndRemovals() {
        var list = RecencyList<String>()
        for key in ["a", "b", "c", "d"] { list.touch(key) }
        list.touch("b")
        list.remove("c")
        list.touch("a")
        list.remove("x")
        XCTAssertEqual(list.keysFromOldest, ["d", "b", "a"])
        XCTAssertEqual(list.oldest, "d")
        list.remove("d")
        list.remove("a")
        XCTAssertEqual(list.keysFromOldest, ["b"])
        list.remove("b")
        XCTAssertNil(list.oldest)
        XCTAssertEqual(list.count, 0)
        list.touch("e")
        XCTAssertEqual(list.keysFromOldest, ["e"])
    }

    func testEvictionFollowsTheModelOverARandomWalk() {
        let limit = 2_000
        let store = MemoryCacheStore(byteLimit: limit)
        // The model: keys from the least to the most recently used, and their sizes.
        var order: [String] = []
        var sizes: [String: Int] = [:]
        var random = SystemRandomNumberGenerator()
        for step in 0..<5_000 {
            let key = "k\(Int.random(in: 0..<40, using: &random))"
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let hit = store.response(for: key)
                XCTAssertEqual(hit != nil, sizes[key] != nil, "step \(step): read \(key)")
                if hit != nil {
                    order.removeAll { $0 == key }
                    order.append(key)
                }
            case 4..<9:
                let stored = response(key, bodyLength: Int.random(in: 0..<700, using: &random))
                let size = stored.byteCount
                store.save(stored, for: key)
                order.removeAll { $0 == key }
                sizes[key] = nil
                if size <= limit {
                    order.append(key)
                    sizes[key] = size
                    while sizes.values.reduce(0, +) > limit { sizes[order.removeFirst()] = nil }
                }
            default:
                store.remove(key)
                order.removeAll { $0 == key }
                sizes[key] = nil
            }
            XCTAssertEqual(store.keysFromOldest, order, "step \(step)")
            XCTAssertEqual(store.byteCount, sizes.values.reduce(0, +), "step \(step)")
        }
    }

    func testRemovalByIdentifierPrefixLeavesTheOrderOfTheRest() {
        let store = MemoryCacheStore(byteLimit: 1 << 20)
        for (key, identifier) in [("a", "users/1"), ("b", "repos/1"), ("c", "users/2"), ("d", nil)] {
            store.save(response(key, bodyLength: 10, identifier: identifier), for: key)
        }
        store.removeResponses(identifiedBy: "users/")
        XCTAssertEqual(store.keysFromOldest, ["b", "d"])
        XCTAssertEqual(store.byteCount, response("b", bodyLength: 10).byteCount * 2)
        store.removeAll()
        XCTAssertEqual(store.keysFromOldest, [])
        XCTAssertEqual(store.byteCount, 0)
    }

    private func response(_ key: String, bodyLength: Int, identifier: String? = nil) -> StoredResponse {
        let entry = CacheEntry(
            method: .get, url: URL(string: "https://api.example.com/\(key)")!, status: 200,
            responseHeaders: ["Cache-Control": "max-age=60"], requestTime: Date(), responseTime: Date(),
            varyingRequestHeaders: [:])
        return StoredResponse(entry: entry, body: Data(count: bodyLength), identifier: identifier)
    }
}
