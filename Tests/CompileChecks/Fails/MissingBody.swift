// expected: this call sends a body: pass it as `body:` after the arguments
import WebServiceKit

func missingBody(_ client: WebServiceClient) async throws {
    _ = try await client.perform(.createNote, "octocat")
}
