// What Retries.md's prose stands for: a report type, a search call (of a search service down
// for maintenance), the app's scheduler, a payment, and the client of the first example, with its
// retry policy.
struct Report: Codable, Sendable { let id: String }
struct PaymentOrder: Codable, Sendable { let amount: Int }
struct Payment: Codable, Sendable { let id: String }
let order = PaymentOrder(amount: 100)
extension TypedCall where Arguments == ArgumentList<String>, Body == NoBody, Response == [Repo] {
    static let search = TypedCall(.init(relativePath: "archive/search?q=%%0%%"))
}
client.retryPolicy = RetryPolicy(maximumAttempts: 3)
func scheduleLater(after seconds: TimeInterval) {}

// MARK: userRepos
// Getting Started's typed `userRepos`, which the guide calls. The shared context's untyped one
// stays beside it: the client's methods pick the typed form for these arguments.
extension TypedCall where Arguments == ArgumentList<String, String>, Body == NoBody, Response == [Repo] {
    static let userRepos = TypedCall(.init(name: "userRepos", relativePath: "users/%%0%%/repos?sort=%%1%%"))
}

// MARK: end
