import Foundation
import WebServiceKit

extension WebServiceCall where Response == Authenticated {
    /// httpbin's Basic-protected resource, logged with header fields whatever the client's level.
    static let loggedBasic = WebServiceCall(
        name: "loggedBasic", relativePath: "basic-auth/user/passwd", logLevel: .headers)
}

/// Prints each message to standard output, so that it appears in order with the demo's own lines
/// (the default ``StandardErrorLogger`` writes to standard error).
struct PrintLogger: WebServiceLogger {
    func log(_ message: LogMessage) { print(message.text) }
}

/// One call logged at `.headers`: the Basic credential the provider adds shows as `[redacted]`.
func demonstrateLogging(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.logger = PrintLogger()
    client.authenticationProvider = BasicAuthenticationProvider(
        user: "user", password: "passwd", sendsPreemptively: true)
    do {
        let result = try await client.perform(.loggedBasic)
        print("authenticated=\(result.authenticated) as \(result.user)")
    } catch {
        print("failed: \(error)")
    }
}

/// Prints the first line of each message and the conditional fields, nothing else.
struct WireSummaryLogger: WebServiceLogger {
    func log(_ message: LogMessage) {
        let lines = message.text.split(separator: "\n")
        let shown = lines.prefix(1) + lines.dropFirst().filter { $0.hasPrefix("If-") }
        print(shown.joined(separator: "\n   "))
    }
}

/// The log is a stage below the cache: a revalidation is logged as it goes on the wire, with the
/// validators the cache added and the server's 304, while the caller gets the stored body.
func demonstrateWireLogging(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.cache = HTTPCache(memoryLimit: 1 << 20)
    client.logger = WireSummaryLogger()
    client.logLevel = .headers
    for attempt in 1...2 {
        do {
            let response = try await client.response(for: .validated)
            print("call \(attempt): \(response.statusCode) from \(response.source), \(response.body.count) bytes")
        } catch {
            print("failed: \(error)")
        }
    }
}
