import Foundation

/// A stored response: what the rules decide with, the complete body, and the call's cache
/// identifier (for invalidation by prefix).
struct StoredResponse: Sendable {
    var entry: CacheEntry
    var body: Data
    var identifier: String? = nil

    var byteCount: Int {
        body.count + entry.responseHeaders.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}

/// Where an ``HTTPCache`` keeps responses. Implementations are safe to call from many threads,
/// keep only complete responses, and treat anything they cannot read back as a miss.
protocol CacheStorage: Sendable {
    func response(for key: String) -> StoredResponse?
    func save(_ response: StoredResponse, for key: String)
    func remove(_ key: String)
    /// Removes every response whose identifier starts with `prefix`.
    func removeResponses(identifiedBy prefix: String)
    func removeAll()
    /// Bytes held now.
    var byteCount: Int { get }
}

/// An in-memory store with a byte limit, evicting the least recently used responses first.
///
/// Eviction takes the oldest entry of a ``RecencyList``: a full store used to sort every entry
/// on each save, under the lock every call of every client sharing the cache takes (at 10 MiB
/// of small responses, some 20,000 entries sorted per stored response).
final class MemoryCacheStore: CacheStorage {
    fileprivate struct Slot {
        var response: StoredResponse
        /// `response.byteCount`, counted once.
        var byteCount: Int
    }

    fileprivate struct State {
        var slots: [String: Slot] = [:]
        var recency = RecencyList<String>()
        var bytes = 0
    }

    /// The most bytes (bodies and header fields) kept at once.
    let byteLimit: Int
    private let state = Locked(State())

    init(byteLimit: Int) { self.byteLimit = max(0, byteLimit) }

    func response(for key: String) -> StoredResponse? {
        state.withLock { state in
            guard let slot = state.slots[key] else { return nil }
            state.recency.touch(key)
            return slot.response
        }
    }

    /// Stores `response`; one larger than the whole limit is not kept.
    func save(_ response: StoredResponse, for key: String) {
        let size = response.byteCount
        state.withLock { state in
            state.remove(key)
            guard size <= byteLimit else { return }
            state.slots[key] = Slot(response: response, byteCount: size)
            state.recency.touch(key)
            state.bytes += size
            while state.bytes > byteLimit, let victim = state.recency.oldest {
                state.remove(victim)
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { $0.remove(key) }
    }

    func removeResponses(identifiedBy prefix: String) {
        state.withLock { state in
            let keys = state.slots.compactMap { key, slot in
                (slot.response.identifier?.hasPrefix(prefix) ?? false) ? key : nil
            }
            for key in keys { state.remove(key) }
        }
    }

    func removeAll() { state.withLock { $0 = State() } }

    /// Bytes held now.
    var byteCount: Int { state.current.bytes }

    /// The keys from the least to the most recently used: for tests.
    var keysFromOldest: [String] { state.withLock { $0.recency.keysFromOldest } }
}

extension MemoryCacheStore.State {
    fileprivate mutating func remove(_ key: String) {
        guard let old = slots.removeValue(forKey: key) else { return }
        bytes -= old.byteCount
        recency.remove(key)
    }
}
