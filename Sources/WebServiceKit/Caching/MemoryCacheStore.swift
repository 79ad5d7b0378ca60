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
final class MemoryCacheStore: CacheStorage {
    private struct Slot {
        var response: StoredResponse
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes (bodies and header fields) kept at once.
    let byteLimit: Int
    private let state = Locked(State())

    init(byteLimit: Int) { self.byteLimit = max(0, byteLimit) }

    func response(for key: String) -> StoredResponse? {
        state.withLock { state in
            guard var slot = state.slots[key] else { return nil }
            state.clock += 1
            slot.lastUse = state.clock
            state.slots[key] = slot
            return slot.response
        }
    }

    /// Stores `response`; one larger than the whole limit is not kept.
    func save(_ response: StoredResponse, for key: String) {
        let size = response.byteCount
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.bytes -= old.response.byteCount }
            guard size <= byteLimit else { return }
            state.clock += 1
            state.slots[key] = Slot(response: response, lastUse: state.clock)
            state.bytes += size
            guard state.bytes > byteLimit else { return }
            for (victim, slot) in state.slots.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > byteLimit else { break }
                state.slots[victim] = nil
                state.bytes -= slot.response.byteCount
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.bytes -= old.response.byteCount }
        }
    }

    func removeResponses(identifiedBy prefix: String) {
        state.withLock { state in
            for (key, slot) in state.slots where slot.response.identifier?.hasPrefix(prefix) ?? false {
                state.slots[key] = nil
                state.bytes -= slot.response.byteCount
            }
        }
    }

    func removeAll() { state.withLock { $0 = State() } }

    /// Bytes held now.
    var byteCount: Int { state.current.bytes }
}
