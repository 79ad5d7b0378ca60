/// Keys from the least to the most recently used, each step O(1): the eviction order of a cache
/// that must not sort all its entries on every store once it is full.
///
/// A doubly linked list threaded through a dictionary: each key knows its older and newer
/// neighbours.
struct RecencyList<Key: Hashable> {
    private struct Links {
        var older: Key?
        var newer: Key?
    }

    private var links: [Key: Links] = [:]
    /// The least recently used key: the next to evict.
    private(set) var oldest: Key?
    private var newest: Key?

    /// How many keys the list holds.
    var count: Int { links.count }

    /// Makes `key` the most recently used, adding it if it is not there.
    mutating func touch(_ key: Key) {
        if newest == key { return }
        if links[key] != nil { remove(key) }
        links[key] = Links(older: newest, newer: nil)
        if let newest { links[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
    }

    /// Forgets `key`; nothing happens if it is not there.
    mutating func remove(_ key: Key) {
        guard let removed = links.removeValue(forKey: key) else { return }
        if let older = removed.older { links[older]?.newer = removed.newer } else { oldest = removed.newer }
        if let newer = removed.newer { links[newer]?.older = removed.older } else { newest = removed.older }
    }

    /// The keys from the least to the most recently used: for tests.
    var keysFromOldest: [Key] {
        var keys: [Key] = []
        var next = oldest
        while let key = next {
            keys.append(key)
            next = links[key]?.newer
        }
        return keys
    }
}
