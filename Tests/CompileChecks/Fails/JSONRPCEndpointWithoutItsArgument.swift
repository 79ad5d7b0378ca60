// expected: no exact matches in call to instance method 'perform'
import WebServiceKit
import WebServiceKitJSONRPC

func jsonRPCWithoutItsArgument(_ client: WebServiceClient) async throws {
    _ = try await client.perform(Billing.rpc, Billing.total, [1, 2])
}
