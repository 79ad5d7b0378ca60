// What GettingStarted.md's prose stands for: a slow call, a callback call's task and the
// service's error body.
extension WebServiceCall where Response == Data {
    static let slow = WebServiceCall(name: "slow", relativePath: "delay/%%0%%", timeout: 1)
}
let task = client.perform(.userRepos, "octocat", "updated", success: { _ in }, failure: { _ in })
struct ServiceFailure: Error, Decodable, Sendable { let error: String }
// The guide's test, run as XCTest would run it (when the blocks run, a failed XCTAssertEqual ends
// the program).
try await RepoListTests(name: "testLoadsRepos", testClosure: { _ in }).testLoadsRepos()
