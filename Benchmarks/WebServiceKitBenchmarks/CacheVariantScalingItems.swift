import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Size-scaling rows of the cache's `Vary` variants and entry listing (issue 22, items 6 and 23).
extension SizeScalingItem {
    /// N GETs of one URL, each with an `Accept-Language` never sent before, answered with
    /// `Vary: Accept-Language`: N misses and N stores of variants of one URL. The cache keeps 8
    /// of them, so each lookup and store looks at 8 at most: linear in N. Without the bound,
    /// every lookup would scan every variant stored before it (quadratic).
    static func varyVariants(name: String, directory: URL?) -> SizeScalingItem {
        SizeScalingItem(
            name: name,
            label: "N GETs of one URL with new Accept-Language values, Vary: Accept-Language, "
                + (directory == nil ? "memory cache" : "disk cache in /dev/shm"),
            unit: "store", isIssue: true
        ) { count in
            let cache = try directory.map { try HTTPCache(directory: TemporaryDirectories.make(in: $0)) } ?? HTTPCache()
            let transport = FixedTransport(
                response: TransportResponse(
                    statusCode: 200,
                    headers: [
                        "Content-Type": "application/json", "Cache-Control": "max-age=3600", "Vary": "Accept-Language",
                    ],
                    body: Data(#"{"id":1,"name":"one variant of a response of about a hundred bytes"}"#.utf8)))
            let client = WebServiceClient(serviceRoot: serviceRoot, transport: transport)
            client.cache = cache
            let call = WebServiceCall<Data>(relativePath: "doc", headers: ["Accept-Language": "l%%0%%"])
            return {
                for index in 0..<count {
                    let response = try client.performSynchronously(call, [index])
                    guard response.source == .network else { throw SizeScalingFailure("l\(index) was already cached") }
                }
                let kept = cache.entryCount()
                guard kept == min(count, 8) else { throw SizeScalingFailure("\(kept) variants kept, not 8") }
            }
        }
    }

    static let varyVariantsMemory = varyVariants(name: "vary-variants", directory: nil)
    static let varyVariantsDisk = varyVariants(name: "vary-variants-shm", directory: TemporaryDirectories.inMemory)

    /// A cache holding N responses (stored before the timing), half of them with an identifier
    /// under `user-1/`: `entries(identifiedBy:)` and `entryCount(identifiedBy:)` of that prefix.
    /// Sorting the list makes it N log N at most.
    static func cacheEntries(name: String, directory: URL?) -> SizeScalingItem {
        SizeScalingItem(
            name: name,
            label: "entries(identifiedBy:) and entryCount(identifiedBy:) of a cache of N responses, "
                + (directory == nil ? "memory" : "disk in /dev/shm"),
            unit: "entry", isIssue: true
        ) { count in
            let cache =
                try directory.map { try HTTPCache(directory: TemporaryDirectories.make(in: $0), diskLimit: 1 << 34) }
                ?? HTTPCache(memoryLimit: 1 << 34)
            let transport = FixedTransport(
                response: TransportResponse(
                    statusCode: 200, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=3600"],
                    body: Data(#"{"id":1}"#.utf8)))
            let client = WebServiceClient(serviceRoot: serviceRoot, transport: transport)
            client.cache = cache
            let call = WebServiceCall<Data>(relativePath: "items/%%0%%", cacheIdentifier: "user-%%1%%/items/%%0%%")
            for index in 0..<count { _ = try client.performSynchronously(call, [index, index % 2]) }
            return {
                let listed = cache.entries(identifiedBy: "user-1/").count
                let counted = cache.entryCount(identifiedBy: "user-1/")
                guard listed == count / 2, counted == count / 2 else {
                    throw SizeScalingFailure("\(listed) listed and \(counted) counted, not \(count / 2)")
                }
            }
        }
    }

    static let cacheEntriesMemory = cacheEntries(name: "cache-entries", directory: nil)
    static let cacheEntriesDisk = cacheEntries(name: "cache-entries-shm", directory: TemporaryDirectories.inMemory)
}
