// The twins of Fails/: the same calls with the declared arguments and body compile.
import WebServiceKit
import WebServiceKitJSONRPC

func everyForm(_ client: WebServiceClient) async throws {
    let repos: [Repo] = try await client.perform(.userRepos, "octocat", "updated")
    _ = repos
    _ = try await client.response(for: .userRepos, "octocat", "updated")
    let note: Note = try await client.perform(.createNote, "octocat", body: Note(title: "Hi"))
    _ = note
    _ = try await client.response(for: .createNote, "octocat", body: Note(title: "Hi"))
    client.perform(.userRepos, "octocat", "updated", success: { _ in }, failure: { _ in })
    // In an async function a trailing closure would be taken for `progress:` of the async form:
    // the callback forms name `completion:` there.
    client.perform(.createNote, "octocat", body: Note(title: "Hi"), completion: { _ in })
    _ = try await client.stream(.feed, "news")
}

func callbacks(_ client: WebServiceClient) {
    client.perform(.createNote, "octocat", body: Note(title: "Hi")) { _ in }
    client.perform(.userRepos, "octocat", "updated") { result in _ = result }
}

func blocking(_ client: WebServiceClient) throws {
    _ = try client.performSynchronously(.userRepos, "octocat", "updated")
    _ = try client.performSynchronously(.createNote, "octocat", body: Note(title: "Hi"))
}

func untypedStillCompiles(_ client: WebServiceClient) async throws {
    let untyped = WebServiceCall<[Repo]>(relativePath: "users/%%0%%/repos?sort=%%1%%")
    _ = try await client.perform(untyped, "octocat", "updated")
    _ = try await client.perform(untyped, ["octocat", "updated"])
}

func jsonRPC(_ client: WebServiceClient) async throws {
    let total: Int = try await client.perform(Billing.rpc, Billing.total, [1, 2], arguments: "acme")
    _ = total
}
