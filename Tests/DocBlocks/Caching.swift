// What Caching.md's prose stands for: a cacheable call and the client's cache.
extension WebServiceCall where Response == Data {
    static let cacheable = WebServiceCall(relativePath: "cache/60")
}

let cache = HTTPCache(memoryLimit: 1 << 20)
