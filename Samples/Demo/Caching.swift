import Foundation
import WebServiceKit

extension WebServiceCall where Response == Data {
    /// httpbin answers with `Cache-Control: public, max-age=60`.
    static let cacheable = WebServiceCall(name: "cacheable", relativePath: "cache/60")
    /// httpbin answers with `ETag` and `Last-Modified`, and 304 to conditional requests.
    static let validated = WebServiceCall(name: "validated", relativePath: "cache")
    /// httpbin answers without any caching field.
    static let uncacheable = WebServiceCall(name: "uncacheable", relativePath: "get")
    /// The first 16 bytes of `cacheable`: the cache cuts them from the stored 200.
    static let cacheableStart = WebServiceCall(
        name: "cacheableStart", relativePath: "cache/60", headers: ["Range": "bytes=0-15"])
    /// httpbin sends back the fields asked for: stale at once, usable stale for a minute while
    /// the cache validates it in the background (RFC 5861).
    static let staleWhileRevalidate = WebServiceCall(
        name: "staleWhileRevalidate",
        relativePath: "response-headers?Cache-Control=max-age%3D0%2C%20stale-while-revalidate%3D60")
}

/// Calls `call` twice through a client with an HTTP cache and prints where each answer came from.
func demonstrateCache(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.cache = HTTPCache(memoryLimit: 1 << 20)
    // A network interceptor sees each response before the cache stores it: this one makes
    // /get, which says nothing about caching, cacheable for a minute.
    client.networkInterceptors = [
        ResponseProcessor { response, request, _ in
            var response = response
            if request.url?.path == "/get", response.statusCode == 200 {
                response.headers["Cache-Control"] = "max-age=60"
            }
            return response
        }
    ]
    let pairs: [(WebServiceCall<Data>, String)] = [
        (.cacheable, "max-age=60"), (.validated, "ETag/Last-Modified"),
        (.uncacheable, "no caching field, max-age=60 from a network interceptor"),
    ]
    for (call, what) in pairs {
        for attempt in 1...2 {
            let started = Date()
            do {
                let response = try await client.response(for: call)
                let milliseconds = Date().timeIntervalSince(started) * 1000
                print(
                    String(
                        format: "%@ call %d: %@, %d bytes, %.2f ms", what, attempt, "\(response.source)",
                        response.body.count, milliseconds))
            } catch {
                print("failed: \(error)")
            }
        }
    }
    do {
        let part = try await client.response(for: .cacheableStart)
        print(
            "Range bytes=0-15 of the stored answer: \(part.statusCode) from \(part.source), "
                + "Content-Range \(part.headers["Content-Range"] ?? "none"), \(part.body.count) bytes")
        for attempt in 1...2 {
            let response = try await client.response(for: .staleWhileRevalidate)
            print(
                "max-age=0, stale-while-revalidate=60, call \(attempt): \(response.source)"
                    + (response.source == .staleCache ? " (at once; a validation goes on in the background)" : ""))
        }
    } catch {
        print("failed: \(error)")
    }
}
