// expected: 'String, String' and 'String, String, String' have the same shape
import WebServiceKit

func tooMany(_ client: WebServiceClient) async throws {
    _ = try await client.perform(.userRepos, "octocat", "updated", "abc")
}
