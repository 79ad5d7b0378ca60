// expected: cannot convert value of type 'Note' to expected argument type 'NoBody'
import WebServiceKit

func bodyWithoutOne(_ client: WebServiceClient) async throws {
    _ = try await client.perform(.userRepos, "octocat", "updated", body: Note(title: "Hi"))
}
