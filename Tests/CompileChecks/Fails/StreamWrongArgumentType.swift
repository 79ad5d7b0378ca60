// expected: cannot convert value of type 'Bool' to expected argument type 'String'
import WebServiceKit

func streamWrongType(_ client: WebServiceClient) async throws {
    _ = try await client.stream(.feed, true)
}
