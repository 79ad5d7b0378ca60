import Foundation
import WebServiceKit

/// Prints each retry from its metadata (the scripted URLs are long), and nothing else.
private struct RetryLogger: WebServiceLogger {
    func log(_ message: LogMessage) {
        guard message.kind == .retry else { return }
        let fields = message.metadata
        let attempt = fields[LogMessage.MetadataKey.attempt] ?? "?"
        let wait = fields[LogMessage.MetadataKey.retryDelayMilliseconds] ?? "?"
        print("retry: attempt \(attempt) in \(wait) ms, after \(fields[LogMessage.MetadataKey.error] ?? "?")")
    }
}

/// A retry policy against the fault server's scripted answers: two 503s, then 200; then a 429
/// whose `Retry-After` asks for an hour, more than the policy waits.
func demonstrateRetries(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: 0.1, maximumDelay: 5)
    client.logger = RetryLogger()
    client.logLevel = .basic
    let tag = UUID().uuidString
    let unavailable = #"{"status": 503, "body": "busy"}"#
    let answers = [
        "[\(unavailable), \(unavailable), {\"status\": 200, \"body\": \"ok\"}]",
        #"[{"status": 429, "headers": [["Retry-After", "3600"]]}, {"status": 200}]"#,
    ]
    for (index, steps) in answers.enumerated() {
        let encoded = Data(steps.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let call = WebServiceCall<String>(relativePath: "script?tag=\(tag)-\(index)&steps=\(encoded)")
        do {
            let response = try await client.response(for: call)
            print("\"\(response.value)\" after \(response.attempts) attempts")
        } catch {
            print("\(error.category): \(error)")
        }
    }
}
