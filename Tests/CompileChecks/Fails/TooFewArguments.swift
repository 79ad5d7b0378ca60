// expected: 'String, String' and 'String' have the same shape
import WebServiceKit

func tooFew(_ client: WebServiceClient) async throws {
    _ = try await client.perform(.userRepos, "octocat")
}
