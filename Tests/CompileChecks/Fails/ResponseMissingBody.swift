// expected: this call sends a body: pass it as `body:` after the arguments
import WebServiceKit

func responseMissingBody(_ client: WebServiceClient) async throws {
    _ = try await client.response(for: .createNote, "octocat")
}
