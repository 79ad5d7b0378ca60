// What Caching.md's prose stands for: a cacheable call and the client's cache.
extension TypedCall where Arguments == ArgumentList<>, Body == NoBody, Response == Data {
    static let cacheable = TypedCall(.init(relativePath: "cache/60"))
}

let cache = HTTPCache(memoryLimit: 1 << 20)
client.cache = cache
