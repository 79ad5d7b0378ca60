// What Authentication.md's prose stands for: a profile call and a token endpoint elsewhere.
struct Profile: Codable, Sendable { let name: String }
struct IssuedToken: Codable, Sendable { let token: String }

extension TypedCall where Arguments == ArgumentList<>, Body == NoBody, Response == Profile {
    static let profile = TypedCall(.init(relativePath: "me"))
}

extension TypedCall where Arguments == ArgumentList<>, Body == [String: String], Response == IssuedToken {
    static let issueToken = TypedCall(.init(method: .post, relativePath: "oauth/token"))
}

let authClient = WebServiceClient(serviceRoot: URL(string: "https://auth.example.com/")!, transport: stubs)
