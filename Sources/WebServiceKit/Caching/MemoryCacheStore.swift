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

/// An in-memory store with a byte limit, evicting the least recently used responses first.
///
/// Eviction takes the oldest entry of a ``RecencyList``: a full store used to sort every entry
/// on each save, under the lock every call of every client sharing the cache takes (at 10 MiB
/// of small responses, some 20,000 entries sorted per stored response).
///
/// Each variant is kept under a name: the key itself for a response without `Vary` (the common
/// case, which then costs the index what it did before variants), or the key, a NUL and the
/// variant key (``slotName(key:variant:)``; a key, a URL's text, has no NUL).
final class MemoryCacheStore: CacheStorage {
    fileprivate struct Slot {
        var response: StoredResponse
        /// `response.byteCount`, counted once.
        var byteCount: Int
    }

    fileprivate struct State {
        /// By ``MemoryCacheStore/slotName(key:variant:)``.
        var slots: [String: Slot] = [:]
        /// The variant keys of each key, from the least to the most recently used; none for a key
        /// whose only response has no `Vary`.
        var variants: [String: [String]] = [:]
        var recency = RecencyList<String>()
        var bytes = 0
    }

    /// The most bytes (bodies and header fields) kept at once.
    let byteLimit: Int
    private let state = Locked(State())

    init(byteLimit: Int) { self.byteLimit = max(0, byteLimit) }

    /// The name a variant is kept under: `key` for a response without `Vary`.
    fileprivate static func slotName(key: String, variant: String) -> String {
        variant.isEmpty ? key : key + "\u{0}" + variant
    }

    /// The key and the variant key of a ``slotName(key:variant:)``: not kept in the slots, which
    /// would cost every response two more strings.
    fileprivate static func parts(ofSlotName name: String) -> (key: String, variant: String) {
        guard let separator = name.utf8.firstIndex(of: 0) else { return (name, "") }
        return (String(name[..<separator]), String(name[name.utf8.index(after: separator)...]))
    }

    func response(for key: String, selectedBy selects: (CacheEntry) -> Bool) -> StoredResponse? {
        state.withLock { state in
            guard let variants = state.variants[key] else {
                // One response without `Vary`, or none.
                guard let response = state.slots[key]?.response, selects(response.entry) else { return nil }
                state.recency.touch(key)
                return response
            }
            var chosen: (variant: String, response: StoredResponse)?
            for variant in variants {
                guard let response = state.slots[Self.slotName(key: key, variant: variant)]?.response,
                    selects(response.entry)
                else { continue }
                if let best = chosen, !CacheRules.isMoreRecent(response.entry, than: best.response.entry) { continue }
                chosen = (variant, response)
            }
            guard let chosen else { return nil }
            state.touch(key: key, variant: chosen.variant)
            return chosen.response
        }
    }

    /// Stores `response`; one larger than the whole limit is not kept (and the variant it would
    /// have replaced is gone).
    func save(_ response: StoredResponse, for key: String, replacing previous: CacheEntry?) {
        let size = response.byteCount
        let variant = response.entry.variantKey
        let name = Self.slotName(key: key, variant: variant)
        state.withLock { state in
            state.remove(name)
            if let previous { state.remove(Self.slotName(key: key, variant: previous.variantKey)) }
            guard size <= byteLimit else { return }
            while case let variants = state.variantKeys(of: key), variants.count >= CacheRules.variantLimit,
                let oldest = variants.first
            {
                state.remove(Self.slotName(key: key, variant: oldest))
            }
            state.slots[name] = Slot(response: response, byteCount: size)
            state.touch(key: key, variant: variant)
            state.bytes += size
            while state.bytes > byteLimit, let victim = state.recency.oldest {
                state.remove(victim)
            }
        }
    }

    func remove(_ key: String) {
        state.withLock { state in
            for variant in state.variantKeys(of: key) { state.remove(Self.slotName(key: key, variant: variant)) }
        }
    }

    func remove(_ key: String, variant: String) {
        state.withLock { $0.remove(Self.slotName(key: key, variant: variant)) }
    }

    func removeResponses(identifiedBy prefix: String) {
        state.withLock { state in
            let names = state.slots.compactMap { name, slot in
                (slot.response.identifier?.hasPrefix(prefix) ?? false) ? name : nil
            }
            for name in names { state.remove(name) }
        }
    }

    func removeAll() { state.withLock { $0 = State() } }

    func entries(identifiedBy prefix: String?) -> [HTTPCache.Entry] {
        state.withLock { state in
            state.recency.keysFromOldest.compactMap { name in
                guard let response = state.slots[name]?.response, cacheIdentifier(response.identifier, matches: prefix)
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
    var keysFromOldest: [String] {
        state.withLock { state in state.recency.keysFromOldest.map { Self.parts(ofSlotName: $0).key } }
    }
}

extension MemoryCacheStore.State {
    /// The variant keys stored for `key`, from the least to the most recently used.
    fileprivate func variantKeys(of key: String) -> [String] {
        variants[key] ?? (slots[key] != nil ? [""] : [])
    }

    /// Makes the variant `variant` of `key` the most recently used, of the store and of its key.
    fileprivate mutating func touch(key: String, variant: String) {
        recency.touch(MemoryCacheStore.slotName(key: key, variant: variant))
        guard variants[key] != nil else {
            // A key gets a list with its first response that has `Vary`, behind the one without.
            if !variant.isEmpty { variants[key] = slots[key] != nil ? ["", variant] : [variant] }
            return
        }
        guard variants[key]?.last != variant else { return }
        // In place: a hit should not copy the list.
        variants[key, default: []].removeAll { $0 == variant }
        variants[key, default: []].append(variant)
    }

    fileprivate mutating func remove(_ name: String) {
        guard let old = slots.removeValue(forKey: name) else { return }
        bytes -= old.byteCount
        recency.remove(name)
        let (key, variant) = MemoryCacheStore.parts(ofSlotName: name)
        guard variants[key] != nil else { return }
        variants[key]?.removeAll { $0 == variant }
        // A key left with no response, or with its response without `Vary` alone, needs no list.
        if let left = variants[key], left.isEmpty || left == [""] { variants[key] = nil }
    }
}
