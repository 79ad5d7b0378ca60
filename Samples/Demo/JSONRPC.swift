import Foundation
import WebServiceKit
import WebServiceKitJSONRPC

/// The named params of the demo server's `subtract`.
struct DemoSubtraction: Encodable, Sendable {
    let minuend: Int
    let subtrahend: Int
}

/// The methods of the local JSON-RPC server (`Tests/Servers/jsonrpc_server.py`).
enum DemoRPC {
    static let endpoint = JSONRPCEndpoint(relativePath: "rpc")
    static let subtract = JSONRPCMethod<[Int], Int>("subtract")
    static let subtractNamed = JSONRPCMethod<DemoSubtraction, Int>("subtract")
    static let record = JSONRPCMethod<[String], JSONRPCValue>("record")
    static let recorded = JSONRPCMethod<[String], [String]>("recorded")
    static let missing = JSONRPCMethod<[Int], Int>("no_such_method")
}

/// JSON-RPC 2.0 against the local server (`Scripts/demo` starts one from PyPI `json-rpc`): a
/// call, a batch answered out of order with a result and an error per request, a notification.
func demonstrateJSONRPC(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    do {
        let difference = try await client.perform(DemoRPC.endpoint, DemoRPC.subtract, [42, 23])
        print("subtract [42, 23] = \(difference)")
        var batch = JSONRPCBatch()
        let named = batch.add(DemoRPC.subtractNamed, DemoSubtraction(minuend: 5, subtrahend: 8))
        let missing = batch.add(DemoRPC.missing, [1])
        batch.notify(DemoRPC.record, ["demo", "sent in a batch"])
        let responses = try await client.perform(DemoRPC.endpoint, batch)
        print("batch, answered in reverse order: subtract(minuend: 5, subtrahend: 8) = \(responses.result(for: named))")
        if case .failure(let error) = responses.result(for: missing), let failure = error.jsonRPCError {
            print("batch: no_such_method failed with \(failure)")
        }
        let recorded = try await client.perform(DemoRPC.endpoint, DemoRPC.recorded, ["demo"])
        print("the server recorded the notification: \(recorded)")
    } catch {
        print("failed: \(error)")
    }
}
