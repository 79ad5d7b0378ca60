// expected: cannot convert value of type '[Repo]' to specified type 'Note'
import WebServiceKit

func wrongResponse(_ client: WebServiceClient) async throws {
    let note: Note = try await client.perform(.userRepos, "octocat", "updated")
    _ = note
}
