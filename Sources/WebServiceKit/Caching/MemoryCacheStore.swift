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
///
/// A key (``CacheRules/cacheKey(for:)``) holds up to ``CacheRules/variantLimit`` responses, its
/// variants, each identified by ``CacheEntry/variantKey`` (RFC 9111 §4.1; `Variants.swift`).
protocol CacheStorage: Sendable {
    /// The most recent (``CacheRules/isMoreRecent(_:than:)``) of the variants stored for `key`
    /// that `selects` accepts, or `nil`; the one returned becomes the most recently used.
    func response(for key: String, selectedBy selects: (CacheEntry) -> Bool) -> StoredResponse?
    /// Stores `response` for `key`, replacing the variant with its ``CacheEntry/variantKey`` and,
    /// when given, the variant `previous` was stored as (a response freshened by a 304 whose
    /// `Vary` changed). With ``CacheRules/variantLimit`` other variants stored, the least recently
    /// used of them goes.
    func save(_ response: StoredResponse, for key: String, replacing previous: CacheEntry?)
    /// Removes every variant stored for `key`.
    func remove(_ key: String)
    /// Removes the variant `variant` (a ``CacheEntry/variantKey``) of `key`.
    func remove(_ key: String, variant: String)
    /// Removes every response whose identifier starts with `prefix`.
    func removeResponses(identifiedBy prefix: String)
    func removeAll()
    /// The responses held whose identifier matches `prefix` (every one when `nil`), from the
    /// least to the most recently used.
    func entries(identifiedBy prefix: String?) -> [HTTPCache.Entry]
    /// How many responses ``entries(identifiedBy:)`` would list.
    func entryCount(identifiedBy prefix: String?) -> Int
    /// Bytes held now.
    var byteCount: Int { get }
}

extension CacheStorage {
    /// The most recent variant stored for `key`, whatever request fields it was stored for.
    func response(for key: String) -> StoredResponse? { response(for: key, selectedBy: { _ in true }) }

    /// Stores `response` as the variant its `Vary` fields identify.
    func save(_ response: StoredResponse, for key: String) { save(response, for: key, replacing: nil) }
}

/// A variant's place in a store: the URL's key and the variant's secondary key.
struct VariantID: Hashable, Sendable {
    var key: String
    var variant: String
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
        var slots: [VariantID: Slot] = [:]
        /// The variant keys stored for each key, from the least to the most recently used.
        var variants: [String: [String]] = [:]
        var recency = RecencyList<VariantID>()
        var bytes = 0
    }

    /// The most bytes (bodies and header fields) kept at once.
    let byteLimit: Int
    private let state = Locked(State())

    init(byteLimit: Int) { self.byteLimit = max(0, byteLimit) }

    func response(for key: String, selectedBy selects: (CacheEntry) -> Bool) -> StoredResponse? {
        state.withLock { state in
            var chosen: (id: VariantID, response: StoredResponse)?
            for variant in state.variants[key] ?? [] {
                let id = VariantID(key: key, variant: variant)
                guard let response = state.slots[id]?.response, selects(response.entry) else { continue }
                if let best = chosen, !CacheRules.isMoreRecent(response.entry, than: best.response.entry) { continue }
                chosen = (id, response)
            }
            guard let chosen else { return nil }
            state.touch(chosen.id)
            return chosen.response
        }
    }

    /// Stores `response`; one larger than the whole limit is not kept (and the variant it would
    /// have replaced is gone).
    func save(_ response: StoredResponse, for key: String, replacing previous: CacheEntry?) {
        let size = response.byteCount
        let id = VariantID(key: key, variant: response.entry.variantKey)
        state.withLock { state in
            state.remove(id)
            if let previous { state.remove(VariantID(key: key, variant: previous.variantKey)) }
            guard size <= byteLimit else { return }
            while let variants = state.variants[key], variants.count >= CacheRules.variantLimit,
                let oldest = variants.first
            {
                state.remove(VariantID(key: key, variant: oldest))
            }
            state.slots[id] = Slot(response: response, byteCount: size)
            state.touch(id)
            state.bytes += size
            while state.bytes > byteLimit, let victim = state.recency.oldest {
                state.remove(victim)
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { state in
            for variant in state.variants[key] ?? [] { state.remove(VariantID(key: key, variant: variant)) }
        }
    }

    func remove(_ key: String, variant: String) {
        state.withLock { $0.remove(VariantID(key: key, variant: variant)) }
    }

    func removeResponses(identifiedBy prefix: String) {
        state.withLock { state in
            let ids = state.slots.compactMap { id, slot in
                (slot.response.identifier?.hasPrefix(prefix) ?? false) ? id : nil
            }
            for id in ids { state.remove(id) }
        }
    }

    func removeAll() { state.withLock { $0 = State() } }

    func entries(identifiedBy prefix: String?) -> [HTTPCache.Entry] {
        state.withLock { state in
            state.recency.keysFromOldest.compactMap { id in
                guard let response = state.slots[id]?.response, cacheIdentifier(response.identifier, matches: prefix)
                else { return nil }
                return HTTPCache.Entry(
                    response.entry, identifier: response.identifier, bodyByteCount: response.body.count)
            }
        }
    }

    func entryCount(identifiedBy prefix: String?) -> Int {
        state.withLock { state in
            guard prefix != nil else { return state.slots.count }
            return state.slots.values.reduce(0) {
                $0 + (cacheIdentifier($1.response.identifier, matches: prefix) ? 1 : 0)
            }
        }
    }

    /// Bytes held now.
    var byteCount: Int { state.current.bytes }

    /// The keys from the least to the most recently used, one per variant: for tests.
    var keysFromOldest: [String] { state.withLock { $0.recency.keysFromOldest.map(\.key) } }
}

extension MemoryCacheStore.State {
    /// Makes `id` the most recently used variant, of the store and of its key.
    fileprivate mutating func touch(_ id: VariantID) {
        recency.touch(id)
        guard variants[id.key]?.last != id.variant else { return }
        // In place: the common key has one variant, and a hit should not copy its list.
        variants[id.key, default: []].removeAll { $0 == id.variant }
        variants[id.key, default: []].append(id.variant)
    }

    fileprivate mutating func remove(_ id: VariantID) {
        guard let old = slots.removeValue(forKey: id) else { return }
        bytes -= old.byteCount
        recency.remove(id)
        variants[id.key]?.removeAll { $0 == id.variant }
        if variants[id.key]?.isEmpty ?? false { variants[id.key] = nil }
    }
}
