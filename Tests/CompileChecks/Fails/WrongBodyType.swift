// expected: cannot convert value of type 'Repo' to expected argument type 'Note'
import WebServiceKit

func wrongBody(_ client: WebServiceClient) async throws {
    _ = try await client.perform(.createNote, "octocat", body: Repo(name: "r"))
}
