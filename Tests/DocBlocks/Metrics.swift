// What Metrics.md's prose stands for: where an app keeps its figures, and what a transport of its
// own sends its requests through (here: answers at once, with what it measured).
final class Stats: @unchecked Sendable {
    func record(_ metrics: CallMetrics) {}
}
let stats = Stats()
let statsQueue = DispatchQueue(label: "stats")

/// One request carried: its response and the channel's figures.
struct GRPCExchange: Sendable {
    let response: TransportResponse
    let reused: Bool
    let firstByte: Duration
    let written: Int64
    let read: Int64
}

final class GRPCChannel: Sendable {
    func forward(_ request: WebServiceRequest) async throws -> GRPCExchange {
        let body = Data(#"[{"id":1,"name":"kit"}]"#.utf8)
        return GRPCExchange(
            response: TransportResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body),
            reused: false, firstByte: .milliseconds(10), written: 120, read: 4_096)
    }
}
let channel = GRPCChannel()

// MARK: userRepos
// Getting Started's typed `userRepos`, which the guide calls. The shared context's untyped one
// stays beside it: the client's methods pick the typed form for these arguments.
extension TypedCall where Arguments == ArgumentList<String, String>, Body == NoBody, Response == [Repo] {
    static let userRepos = TypedCall(.init(name: "userRepos", relativePath: "users/%%0%%/repos?sort=%%1%%"))
}

// MARK: end
