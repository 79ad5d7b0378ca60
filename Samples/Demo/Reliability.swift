import Foundation
import WebServiceKit

extension WebServiceCall where Response == Data {
    /// GET bytes/{count}: that many random bytes, with a Content-Length.
    static let randomBytes = WebServiceCall(name: "randomBytes", relativePath: "bytes/%%0%%")
}

/// Bad input and oversized answers end in typed errors before anything is lost or sent: a body
/// over the client's limit, a header value that would inject a field, from an argument or set in
/// `prepare` (a `WebServiceRequest` keeps the value for the check, where Foundation's `URLRequest`
/// on Linux dropped it and the call went out without the field).
func demonstrateLimits(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.maximumResponseBodySize = 64 * 1024
    for count in [1_000, 100_000] {
        do {
            let bytes = try await client.perform(.randomBytes, count)
            print("bytes/\(count): \(bytes.count) bytes, under the 64 KiB limit")
        } catch {
            // Content-Length says 100,000: the call fails before the body is read.
            print("bytes/\(count): \(error.category): \(error)")
        }
    }
    do {
        _ = try await client.perform(.search, "books", "swift", "trace\r\nX-Injected: yes")
        print("sent a header with CR/LF: should not happen")
    } catch {
        print("X-Trace with CR/LF: \(error.category): \(error)")
    }
    do {
        _ = try await client.perform(
            .search, "books", "swift", "trace",
            prepare: { request in request.setValue("1\r\nX-Injected: yes", forHTTPHeaderField: "X-Request-ID") })
        print("sent a header set in prepare with CR/LF: should not happen")
    } catch {
        print("X-Request-ID set in prepare with CR/LF: \(error.category): \(error)")
    }
}
