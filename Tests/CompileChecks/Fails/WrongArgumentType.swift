// expected: cannot convert value of type 'Int' to expected argument type 'String'
import WebServiceKit

func wrongType(_ client: WebServiceClient) async throws {
    _ = try await client.perform(.userRepos, 42, "updated")
}
