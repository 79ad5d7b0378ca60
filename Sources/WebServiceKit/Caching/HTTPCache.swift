import Foundation

/// A private HTTP cache that follows RFC 9111, shared by the calls of the clients it is given to.
///
/// ```swift
/// client.cache = HTTPCache(memoryLimit: 20 << 20)
/// let first = try await client.response(for: .profile)     // from the network
/// let second = try await client.response(for: .profile)    // second.source == .cache while fresh
/// ```
///
/// What a call does with it is its descriptor's ``CachePolicy``. Only complete responses are
/// stored; a body cut short by a transport failure never is.
///
/// A URL whose responses vary by request fields (`Vary: Accept-Language`, RFC 9111 §4.1) keeps
/// one response per combination of those fields, up to 8, and each request gets the one stored
/// for fields like its own. ``entries(identifiedBy:)`` lists what is stored.
public final class HTTPCache: Sendable {
    let store: any CacheStorage
    /// The revalidations running in the background (`stale-while-revalidate`).
    let revalidations = BackgroundRevalidations()

    /// Creates a cache that keeps up to `memoryLimit` bytes in memory (10 MiB by default),
    /// evicting the least recently used responses first.
    public init(memoryLimit: Int = 10 << 20) { store = MemoryCacheStore(byteLimit: memoryLimit) }

    /// Creates a cache that keeps up to `diskLimit` bytes (50 MiB by default) in files in
    /// `directory`, evicting the least recently used responses first. What it stores survives
    /// the process: a cache created later on the same directory serves it.
    ///
    /// The directory and its parents are created if needed; the directory gets permissions
    /// `0700` and each response file `0600`. Give each cache a directory of its own, such as one
    /// under the app's caches directory. A file that cannot be read back is a miss, and one that
    /// cannot be written (disk full, say) is simply not stored.
    ///
    /// - Throws: The file system's error when the directory cannot be created, is not a
    ///   directory, or its permissions cannot be set.
    public init(directory: URL, diskLimit: Int = 50 << 20) throws {
        store = try DiskCacheStore(directory: directory, byteLimit: diskLimit)
    }

    init(store: any CacheStorage) { self.store = store }

    /// Forgets every stored response.
    public func removeAll() { store.removeAll() }

    /// Forgets every response stored by calls whose cache identifier starts with `prefix`
    /// (ROAD's targeted invalidation; see ``CallFields/cacheIdentifier``).
    public func removeResponses(identifiedBy prefix: String) { store.removeResponses(identifiedBy: prefix) }

    /// Forgets every response stored for `url`: all its variants, when its responses vary by
    /// request fields (`Vary`, RFC 9111 §4.1).
    public func removeResponse(for url: URL) { store.remove(CacheRules.cacheKey(for: url)) }

    /// The responses the cache holds, from the least to the most recently used (the order in
    /// which it would evict them); with `prefix`, only those stored by calls whose cache
    /// identifier starts with it (the responses ``removeResponses(identifiedBy:)`` would remove;
    /// ``CallFields/cacheIdentifier``). Listing does not count as a use.
    ///
    /// ```swift
    /// let profiles = cache.entries(identifiedBy: "user-42/")
    /// let bytes = profiles.reduce(0) { $0 + $1.bodyByteCount }
    /// ```
    ///
    /// Each variant of a URL (`Vary`) is an entry of its own. A disk cache reads the head of
    /// every file it lists (not the bodies): a management call, not one for every request.
    public func entries(identifiedBy prefix: String? = nil) -> [Entry] { store.entries(identifiedBy: prefix) }

    /// How many responses ``entries(identifiedBy:)`` would list. Without `prefix` it is counted
    /// without reading anything; with one, a disk cache reads the identifiers it does not know
    /// yet once.
    public func entryCount(identifiedBy prefix: String? = nil) -> Int { store.entryCount(identifiedBy: prefix) }

    /// Bytes held now.
    public var byteCount: Int { store.byteCount }
}

/// Where a response came from.
public enum ResponseSource: Sendable, Hashable {
    /// The server, with no help from the cache.
    case network
    /// The cache, fresh; no request was sent.
    case cache
    /// The cache, after the server confirmed it with 304 (Not Modified).
    case revalidatedCache
    /// The cache, stale: allowed by `max-stale`, served while the cache revalidates it in the
    /// background (`stale-while-revalidate`), or served because the server could not be reached
    /// or failed (``CachePolicy/offlineFallback``, `stale-if-error`).
    case staleCache
}
