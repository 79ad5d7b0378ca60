import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitOData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One row of the size-scaling measure: work whose size is N, done once per child process.
struct SizeScalingItem: Sendable {
    /// The name on the command line (`--size-once NAME N`, `--size-items NAME,…`).
    let name: String
    /// What the row measures, for its line.
    let label: String
    /// What one of the N is, for "us per field".
    let unit: String
    /// Whether the row is one of issue 25's paths; a guard (a path that was linear already, or
    /// the comparison for one) otherwise. Guards' lines say "guard:".
    let isIssue: Bool
    /// Whether the child reports the growth of its peak RSS across the work (paging).
    var tracksMemory = false
    /// Whether the figures are wall time rather than the CPU time of the child's threads.
    var usesWallTime = false
    /// Builds the inputs of size N (not timed) and returns the work (timed). The work throws
    /// when the library did not do what it should.
    let prepare: @Sendable (Int) throws -> () throws -> Void
}

extension SizeScalingItem {
    /// Every row, in the order they run: issue 25's items in its order, each next to its guard,
    /// then the paths that were linear already.
    static let all: [SizeScalingItem] = [
        multipart, odataOr, odataIn, odataSelect, odataSearch, headerFloor, redactedHeaders, loggedHeaders,
        unloggedHeaders,
        cachedHeaders,
        diskCachePlain,
        diskCacheEvicting,
        memoryDiskCachePlain, memoryDiskCacheEvicting, paging, memoryCache, cachedRanges, jsonRPCBatch, queryItems,
        responseHeaders, jsonArray, varyVariantsMemory, varyVariantsDisk, cacheEntriesMemory, cacheEntriesDisk,
    ]

    static let serviceRoot = URL(string: "http://127.0.0.1/")!

    // MARK: Issue 25's items

    /// 1. N text fields in one `multipart/form-data` body, and a 1-byte stream part at the end so
    /// that every N takes the streamed path (text alone goes out as `Data` up to 1 MiB); the
    /// transport reads the body to its end.
    static let multipart = SizeScalingItem(
        name: "multipart", label: "multipart body of N text fields (and a 1-byte stream part), read to the end",
        unit: "field", isIssue: true
    ) { count in
        var parts = (0..<count).map { FormData(name: "field\($0)", value: "value \($0)") }
        parts.append(FormData(name: "end", length: 1, fileName: "end.bin") { InputStream(data: Data("x".utf8)) })
        let transport = DrainingTransport()
        let client = WebServiceClient(serviceRoot: serviceRoot, transport: transport)
        let call = WebServiceCall<Data>(method: .post, relativePath: "upload")
        return {
            _ = try client.performSynchronously(call, [parts])
            // Each field is at least its name, its value and a delimiter line.
            guard transport.bytesReceived > Int64(count) * 20 else {
                throw SizeScalingFailure("only \(transport.bytesReceived) body bytes for \(count) fields")
            }
        }
    }

    /// 2. `$filter` of N `eq` terms joined by `or`, built and written as the query's URL.
    static let odataOr = SizeScalingItem(
        name: "odata-or", label: "OData $filter of N or-ed terms built and written to a URL", unit: "term",
        isIssue: true
    ) { count in
        let terms = (0..<count).map { ODataExpression.property("ID") == $0 }
        return {
            var filter = terms[0]
            for term in terms.dropFirst() { filter = filter || term }
            let url = try ODataQuery("Products").filter(filter).relativeURL(version: .v401)
            guard url.hasSuffix("%20eq%20\(count - 1))") else {
                throw SizeScalingFailure("the URL does not end with the last term: …\(url.suffix(40))")
            }
        }
    }

    /// 2. `in` with N values written for OData 4.0, which has no `in`: an `eq`/`or` chain.
    static let odataIn = SizeScalingItem(
        name: "odata-in", label: "OData v4 in-list of N values (written as an or-chain) to a URL", unit: "value",
        isIssue: true
    ) { count in
        let values: [any ODataLiteralConvertible] = Array(0..<count)
        return {
            let url = try ODataQuery("Products").filter(.property("ID").in(values)).relativeURL(version: .v4)
            guard url.hasSuffix("%20eq%20\(count - 1)))") else {
                throw SizeScalingFailure("the URL does not end with the last value: …\(url.suffix(40))")
            }
        }
    }

    /// 3. N chained `select` calls, one name each (the only way to pass a list known at run time
    /// before issue 25), then the URL.
    static let odataSelect = SizeScalingItem(
        name: "odata-select", label: "OData N chained select(...) calls then written to a URL", unit: "call",
        isIssue: true
    ) { count in
        let names = (0..<count).map { "P\($0)" }
        return {
            var query = ODataQuery("Products")
            for name in names { query = query.select(name) }
            let url = try query.relativeURL(version: .v401)
            guard url.hasSuffix("P\(count - 1)") else {
                throw SizeScalingFailure("the URL does not end with the last name")
            }
        }
    }

    /// A typed `$search` of N terms joined by `AND`, built and written as the query's URL (the
    /// text is written once, when the query is; it was concatenated as the chain grew).
    static let odataSearch = SizeScalingItem(
        name: "odata-search", label: "OData $search of N and-ed terms built and written to a URL", unit: "term",
        isIssue: false
    ) { count in
        let terms = (0..<count).map { ODataSearch.term("t\($0)") }
        return {
            var search = terms[0]
            for term in terms.dropFirst() { search = search && term }
            let url = try ODataQuery("Products").search(search).relativeURL(version: .v401)
            guard url.hasSuffix("t\(count - 1)") else {
                throw SizeScalingFailure("the URL does not end with the last term: …\(url.suffix(40))")
            }
        }
    }

    /// 4. One call carrying N header fields, every one of them redacted, logged at `.body`.
    static let redactedHeaders = SizeScalingItem(
        name: "redaction", label: "one call with N redacted header fields logged at .body", unit: "field",
        isIssue: true
    ) { count in
        try loggedCall(fields: count, redacted: true)
    }

    /// Guard for 4: the same call with fields that are not redacted.
    static let loggedHeaders = SizeScalingItem(
        name: "logged-headers", label: "one call with N header fields, none redacted, logged at .body",
        unit: "field", isIssue: false
    ) { count in
        try loggedCall(fields: count, redacted: false)
    }

    /// Guard for 4: the same call, not logged: what N header fields cost the rest of the call.
    static let unloggedHeaders = SizeScalingItem(
        name: "headers", label: "one call with N header fields and one shared by the client, not logged", unit: "field",
        isIssue: false
    ) { count in
        var headers: [String: String] = [:]
        for index in 0..<count { headers["X-Field-\(index)"] = "plain-value-\(index)" }
        let client = WebServiceClient(
            serviceRoot: serviceRoot,
            transport: AnsweringTransport { request in
                TransportResponse(
                    statusCode: 200, headers: ["Content-Type": "text/plain"],
                    body: Data("\(request.allHTTPHeaderFields?.count ?? 0)".utf8))
            })
        // A field every call of the client sends: each of the call's own fields is checked
        // against it (they replace a shared field of the same name).
        client.sharedHeaders = ["X-Shared": "1"]
        let call = WebServiceCall<String>(relativePath: "items", headers: headers)
        return {
            let sent = try client.performSynchronously(call)
            guard let sentCount = Int(sent.value), sentCount > count else {
                throw SizeScalingFailure("\(sent.value) header fields reached the transport, \(count) expected")
            }
        }
    }

    /// Guard for 4: the same call through a memory cache that stores its response (the cache
    /// reads the request's fields as ``HTTPHeaders``, in name order), not logged.
    static let cachedHeaders = SizeScalingItem(
        name: "cached-headers", label: "one call with N header fields through a memory cache, not logged",
        unit: "field", isIssue: false
    ) { count in
        var headers: [String: String] = [:]
        for index in 0..<count { headers["X-Field-\(index)"] = "plain-value-\(index)" }
        let cache = HTTPCache(memoryLimit: 1 << 30)
        let client = WebServiceClient(
            serviceRoot: serviceRoot,
            transport: AnsweringTransport { request in
                TransportResponse(
                    statusCode: 200, headers: ["Content-Type": "text/plain", "Cache-Control": "max-age=3600"],
                    body: Data("\(request.allHTTPHeaderFields?.count ?? 0)".utf8))
            })
        client.cache = cache
        let call = WebServiceCall<String>(relativePath: "items", headers: headers)
        return {
            let sent = try client.performSynchronously(call)
            guard Int(sent.value) == count, sent.source == .network, cache.byteCount > 0 else {
                throw SizeScalingFailure("\(sent.value) fields sent, source \(sent.source), nothing stored?")
            }
        }
    }

    /// The floor of the rows above: no library code, only what any client of `URLRequest`
    /// does with the same N fields. The call's (name, value) pairs in name order, as a descriptor
    /// holds them (each value a string of its own, allocated in that order), go into one
    /// `[String: String]` with room reserved, every name and value is read once byte by byte (as
    /// the request check does), and the dictionary is freed. What this costs per field at each N
    /// is the memory hierarchy's share: the rows above grow past it only by their own work.
    static let headerFloor = SizeScalingItem(
        name: "header-floor", label: "floor: N fields put in a [String: String], each read once, freed", unit: "field",
        isIssue: false
    ) { count in
        var pairs: [(name: String, value: String)] = []
        for index in 0..<count { pairs.append(("X-Field-\(index)", "plain-value-\(index)")) }
        pairs.sort { $0.name < $1.name }
        // Fresh copies in name order, as parsing a descriptor's templates makes them.
        pairs = pairs.map { ($0.name, String(decoding: Array($0.value.utf8), as: UTF8.self)) }
        return {
            var fields: [String: String] = [:]
            fields.reserveCapacity(pairs.count)
            for pair in pairs { fields[pair.name] = pair.value }
            var sum = 0
            for (name, value) in fields {
                for byte in name.utf8 { sum &+= Int(byte) }
                for byte in value.utf8 { sum &+= Int(byte) }
            }
            guard fields.count == count, sum > count else {
                throw SizeScalingFailure("\(fields.count) fields, byte sum \(sum)")
            }
        }
    }

    static func loggedCall(fields count: Int, redacted: Bool) throws -> () throws -> Void {
        let prefix = redacted ? "secret-value-" : "plain-value-"
        var headers: [String: String] = [:]
        for index in 0..<count { headers["X-Field-\(index)"] = "\(prefix)\(index)" }
        let logger = CountingLogger(marker: prefix)
        let client = WebServiceClient(
            serviceRoot: serviceRoot,
            transport: FixedTransport(
                response: TransportResponse(
                    statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data("ok".utf8))))
        client.logger = logger
        client.logLevel = .body
        if redacted { client.logRedaction = LogRedaction(headers: Set(headers.keys)) }
        let call = WebServiceCall<Data>(relativePath: "items", headers: headers)
        return {
            _ = try client.performSynchronously(call)
            guard logger.messages == 2, logger.characters > count * 10 else {
                throw SizeScalingFailure("\(logger.messages) messages of \(logger.characters) characters logged")
            }
            guard logger.sawMarker != redacted else {
                throw SizeScalingFailure(redacted ? "a secret reached the log" : "the plain values are not in the log")
            }
        }
    }

    /// Guard for 5: N responses stored in a disk cache that never evicts, on the disk (wall
    /// time: waiting for the device is part of a store's cost there).
    static let diskCachePlain = diskCacheStores(
        name: "disk-cache", in: TemporaryDirectories.onDisk, evicting: false, usesWallTime: true)

    /// 5. N responses stored in a disk cache that holds about 1,000 of them, so that past the
    /// first 1,000 every store evicts one; on the disk, wall time.
    static let diskCacheEvicting = diskCacheStores(
        name: "disk-cache-evicting", in: TemporaryDirectories.onDisk, evicting: true, usesWallTime: true)

    /// The two rows above in memory (`/dev/shm`), CPU time: the store's own cost.
    static let memoryDiskCachePlain = diskCacheStores(
        name: "shm-cache", in: TemporaryDirectories.inMemory, evicting: false, usesWallTime: false)
    static let memoryDiskCacheEvicting = diskCacheStores(
        name: "shm-cache-evicting", in: TemporaryDirectories.inMemory, evicting: true, usesWallTime: false)

    /// The never-full row an evicting row is compared with.
    /// The rows whose time is bounded by memory rather than by their work, and the floor each is
    /// compared with: the same N strings in a plain dictionary, no library code. Measured first.
    static let floorRows = [
        redactedHeaders.name: headerFloor.name, loggedHeaders.name: headerFloor.name,
        unloggedHeaders.name: headerFloor.name, cachedHeaders.name: headerFloor.name,
    ]

    static let plainRows = [
        diskCacheEvicting.name: diskCachePlain.name, memoryDiskCacheEvicting.name: memoryDiskCachePlain.name,
    ]

    static func diskCacheStores(name: String, in parent: URL, evicting: Bool, usesWallTime: Bool) -> SizeScalingItem {
        let what = evicting ? "full past 1,000 entries (evicting)" : "never full"
        let clock = usesWallTime ? ", wall time" : ""
        return SizeScalingItem(
            name: name, label: "disk cache in \(parent.path), N stores, \(what)\(clock)", unit: "store",
            isIssue: evicting, usesWallTime: usesWallTime
        ) { count in
            try cacheStores(count: count, probeDirectory: TemporaryDirectories.make(in: parent)) { entryBytes in
                try HTTPCache(
                    directory: TemporaryDirectories.make(in: parent), diskLimit: evicting ? entryBytes * 1_000 : 1 << 40
                )
            }
        }
    }

    /// Guard: N responses stored in a memory cache large enough for all of them.
    static let memoryCache = SizeScalingItem(
        name: "memory-cache", label: "memory cache, N stores, never full", unit: "store", isIssue: false
    ) { count in
        try cacheStores(count: count, probeDirectory: TemporaryDirectories.make(in: TemporaryDirectories.inMemory)) {
            _ in HTTPCache(memoryLimit: 1 << 34)
        }
    }

    /// Guard for issue 22's item 10: N requests for a 100-byte range each, spread over one stored
    /// response of N × 100 bytes, all answered by the memory cache with a 206. Linear when a hit
    /// costs the range, not the stored body (a copy of the body per hit would be quadratic).
    static let cachedRanges = SizeScalingItem(
        name: "cached-ranges", label: "N 100-byte ranges of a stored N x 100-byte body, cut by the memory cache",
        unit: "range", isIssue: false
    ) { count in
        let length = count * 100
        let transport = FixedTransport(
            response: TransportResponse(
                statusCode: 200,
                headers: [
                    "Content-Type": "application/octet-stream", "Cache-Control": "max-age=3600",
                    "Content-Length": String(length),
                ], body: Data(repeating: 0x61, count: length)))
        let client = WebServiceClient(serviceRoot: serviceRoot, transport: transport)
        client.cache = HTTPCache(memoryLimit: 1 << 34)
        _ = try client.performSynchronously(WebServiceCall<Data>(relativePath: "body"))
        let calls = (0..<count).map { index in
            WebServiceCall<Data>(relativePath: "body", headers: ["Range": "bytes=\(index * 100)-\(index * 100 + 99)"])
        }
        return {
            for call in calls {
                let response = try client.performSynchronously(call)
                guard response.statusCode == 206, response.body.count == 100, response.source == .cache else {
                    throw SizeScalingFailure("a range came back \(response.statusCode), \(response.body.count) bytes")
                }
            }
        }
    }

    /// N cacheable GETs of distinct URLs through a client whose transport answers at once: one
    /// store each. `cache` gets the bytes one stored response takes on disk, measured first.
    static func cacheStores(count: Int, probeDirectory: URL, cache makeCache: (Int) throws -> HTTPCache) throws
        -> () throws -> Void
    {
        let transport = FixedTransport(
            response: TransportResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"],
                body: Data(#"{"id":1,"name":"a cached response of about a hundred bytes","tags":["x","y"]}"#.utf8)))
        let call = WebServiceCall<Data>(relativePath: "items/%%0%%")
        func store(_ client: WebServiceClient, _ range: Range<Int>) throws {
            for index in range {
                let response = try client.performSynchronously(call, [index])
                guard response.source == .network else { throw SizeScalingFailure("item \(index) was already cached") }
            }
        }
        // What one stored response takes on disk, from 50 stores into a cache of its own.
        let probe = WebServiceClient(serviceRoot: serviceRoot, transport: transport)
        let probeCache = try HTTPCache(directory: probeDirectory)
        probe.cache = probeCache
        try store(probe, 1_000_000..<1_000_050)
        let entryBytes = max(1, probeCache.byteCount / 50)

        let cache = try makeCache(entryBytes)
        let client = WebServiceClient(serviceRoot: serviceRoot, transport: transport)
        client.cache = cache
        return {
            try store(client, 0..<count)
            guard cache.byteCount > 0 else { throw SizeScalingFailure("nothing was stored") }
        }
    }

    /// 6. N pages of an OData collection through ``ODataPages``, each page's next link pointing
    /// to the next one; the child reports how far its peak RSS grew.
    static let paging = SizeScalingItem(
        name: "paging", label: "OData paging through N pages (next links)", unit: "page", isIssue: true,
        tracksMemory: true
    ) { count in
        struct Item: Decodable, Sendable {
            let id: Int
        }
        let transport = AnsweringTransport { request in
            let page =
                request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }?
                .first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 0
            let next = page + 1 < count ? #","@odata.nextLink":"http://127.0.0.1/Items?page=\#(page + 1)""# : ""
            return TransportResponse(
                statusCode: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"value":[{"id":\#(page)}]\#(next)}"#.utf8))
        }
        let client = WebServiceClient(serviceRoot: serviceRoot, transport: transport)
        let call = WebServiceCall<ODataCollection<Item>>(relativePath: "", urlBuilder: ODataURLBuilder())
        return {
            let (pages, last) = try waitFor {
                var pages = 0
                var last = -1
                for try await page in client.pages(call, ODataQuery("Items")) {
                    pages += 1
                    last = page.values.last?.id ?? last
                }
                return (pages, last)
            }
            guard pages == count, last == count - 1 else {
                throw SizeScalingFailure("\(pages) pages fetched, the last one \(last), \(count) expected")
            }
        }
    }

    // MARK: Guards that were linear already

    /// A JSON-RPC batch of N requests: encoded, sent, and each answer read back by its key.
    static let jsonRPCBatch = SizeScalingItem(
        name: "jsonrpc-batch", label: "JSON-RPC batch of N calls encoded, answered and read", unit: "call",
        isIssue: false
    ) { count in
        // A fresh endpoint numbers its requests from 1, so the answers can be written up front.
        let endpoint = JSONRPCEndpoint(relativePath: "rpc")
        let add = JSONRPCMethod<[Int], Int>("add")
        var batch = JSONRPCBatch()
        let keys = (0..<count).map { batch.add(add, [$0, 1]) }
        let answers = Data(
            ("[" + (1...count).map { #"{"jsonrpc":"2.0","id":\#($0),"result":\#($0)}"# }.joined(separator: ",") + "]")
                .utf8)
        let client = WebServiceClient(
            serviceRoot: serviceRoot,
            transport: FixedTransport(
                response: TransportResponse(
                    statusCode: 200, headers: ["Content-Type": "application/json"], body: answers)
            ))
        let sent = batch
        return {
            let response = try waitFor { try await client.perform(endpoint, sent) }
            for (index, key) in keys.enumerated() {
                guard try response.value(for: key) == index + 1 else {
                    throw SizeScalingFailure("request \(index) got another answer")
                }
            }
        }
    }

    /// A request whose URL has N query items, from one list argument (`?q=%%0%%`).
    static let queryItems = SizeScalingItem(
        name: "query-items", label: "request with N query items built", unit: "item", isIssue: false
    ) { count in
        let client = WebServiceClient(serviceRoot: serviceRoot, transport: DrainingTransport())
        let call = WebServiceCall<Data>(relativePath: "search?q=%%0%%")
        let values = Array(0..<count)
        return {
            let request = try client.request(for: call, arguments: [values])
            guard request.url?.absoluteString.hasSuffix("q=\(count - 1)") == true else {
                throw SizeScalingFailure("the URL does not end with the last item")
            }
        }
    }

    /// A response with N header fields through the pipeline (validation, content type, cache
    /// rules), then one field looked up. The wire parser is not reachable here: it refuses heads
    /// over 64 KiB, about 6,000 such fields.
    static let responseHeaders = SizeScalingItem(
        name: "response-headers", label: "response with N header fields through the pipeline", unit: "field",
        isIssue: false
    ) { count in
        var fields = ["Content-Type": "application/json"]
        for index in 0..<count { fields["X-Field-\(index)"] = "value-\(index)" }
        let client = WebServiceClient(
            serviceRoot: serviceRoot,
            transport: FixedTransport(
                response: TransportResponse(statusCode: 200, headers: HTTPHeaders(fields), body: Data("{}".utf8))))
        let call = WebServiceCall<Data>(relativePath: "items")
        return {
            let response = try client.performSynchronously(call)
            guard response.headers["x-field-\(count - 1)"] == "value-\(count - 1)" else {
                throw SizeScalingFailure("the last field is missing")
            }
        }
    }

    /// A JSON array of N small objects decoded by a call.
    static let jsonArray = SizeScalingItem(
        name: "json-array", label: "JSON array of N objects decoded by a call", unit: "element", isIssue: false
    ) { count in
        struct Element: Decodable, Sendable {
            let id: Int
            let name: String
        }
        let body = Data(
            ("[" + (0..<count).map { #"{"id":\#($0),"name":"element \#($0)"}"# }.joined(separator: ",") + "]").utf8)
        let client = WebServiceClient(
            serviceRoot: serviceRoot,
            transport: FixedTransport(
                response: TransportResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body))
        )
        let call = WebServiceCall<[Element]>(relativePath: "items")
        return {
            let elements = try client.performSynchronously(call).value
            guard elements.count == count, elements.last?.id == count - 1 else {
                throw SizeScalingFailure("\(elements.count) elements decoded")
            }
        }
    }
}
