// What Metrics.md's prose stands for: where an app keeps its figures, and, in a transport of its
// own, the context it was given and what it measured.
final class Stats: @unchecked Sendable {
    func record(_ metrics: CallMetrics) {}
}
let stats = Stats()
let statsQueue = DispatchQueue(label: "stats")
nonisolated(unsafe) var context: TransportContext! = nil
let reused = false
let firstByte = Duration.milliseconds(10)
let written: Int64 = 120
let read: Int64 = 4_096

// MARK: userRepos
// Getting Started's typed `userRepos`, which the guide calls. The shared context's untyped one
// stays beside it: the client's methods pick the typed form for these arguments.
extension TypedCall where Arguments == ArgumentList<String, String>, Body == NoBody, Response == [Repo] {
    static let userRepos = TypedCall(.init(name: "userRepos", relativePath: "users/%%0%%/repos?sort=%%1%%"))
}

// MARK: end
