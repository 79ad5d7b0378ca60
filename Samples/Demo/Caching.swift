import Foundation
import WebServiceKit

extension WebServiceCall where Response == Data {
    /// httpbin answers with `Cache-Control: public, max-age=60`.
    static let cacheable = WebServiceCall(name: "cacheable", relativePath: "cache/60")
    /// httpbin answers with `ETag` and `Last-Modified`, and 304 to conditional requests.
    static let validated = WebServiceCall(name: "validated", relativePath: "cache")
}

/// Calls `call` twice through a client with an HTTP cache and prints where each answer came from.
func demonstrateCache(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.cache = HTTPCache(memoryLimit: 1 << 20)
    for (call, what) in [(WebServiceCall<Data>.cacheable, "max-age=60"), (.validated, "ETag/Last-Modified")] {
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
}
