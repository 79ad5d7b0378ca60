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
