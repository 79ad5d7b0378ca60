// expected: cannot convert value of type 'Int' to expected argument type 'String'
import WebServiceKit
import WebServiceKitJSONRPC

func jsonRPCWrongArgumentType(_ client: WebServiceClient) async throws {
    _ = try await client.perform(Billing.rpc, Billing.total, [1, 2], arguments: 7)
}
