import Foundation
import WebServiceKit

/// Metrics per call against the fault server: three GETs on one kept-alive connection (the first
/// connects, the others reuse it), two POSTs with a JSON body on the same connection, then a call
/// that is retried, as the monitor hears of them.
func demonstrateMetrics(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.metricsMonitor = { metrics in
        let routes = metrics.transactions.map { transaction in
            let reuse = transaction.connectionReused.map { $0 ? "reused" : "new connection" } ?? "reuse unknown"
            return "\(transaction.route.map { "\($0)" } ?? "?") (\(reuse))"
        }
        print(
            "monitor: \(metrics.attempts) attempt(s), \(metrics.transactions.count) request(s), "
                + "source \(metrics.source.map { "\($0)" } ?? "none"): \(routes.joined(separator: ", "))")
    }
    let tag = UUID().uuidString
    let peer = WebServiceCall<Data>(relativePath: "keep-alive/peer?tag=\(tag)")
    for _ in 0..<3 {
        guard let response = try? await client.response(for: peer) else { continue }
        print(response.metrics)
    }
    // Every method with a body in memory rides the kept-alive connection too.
    let note = WebServiceCall<Data>(method: .post, relativePath: "keep-alive/peer?tag=\(tag)")
    for number in 1...2 {
        guard let response = try? await client.response(for: note, arguments: [["note": "number \(number)"]]) else {
            continue
        }
        print("POST \(number): \(String(decoding: response.body, as: UTF8.self))")
    }
    client.retryPolicy = RetryPolicy(maximumAttempts: 2, baseDelay: 0.05, maximumDelay: 1)
    let steps = Data(#"[{"status": 503, "body": "busy"}, {"status": 200, "body": "ok"}]"#.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    let retried = WebServiceCall<String>(relativePath: "script?tag=\(tag)-retry&steps=\(steps)")
    if let response = try? await client.response(for: retried) {
        let reasons = response.metrics.transactions.map { "\($0.reason)" }
        print("retried: \(response.metrics.retries) retry, reasons \(reasons.joined(separator: ", "))")
    }
}
