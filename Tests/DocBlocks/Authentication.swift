// What Authentication.md's prose stands for: a profile call and a token endpoint elsewhere.
struct Profile: Codable, Sendable { let name: String }
struct IssuedToken: Codable, Sendable { let token: String }

extension WebServiceCall where Response == Profile {
    static let profile = WebServiceCall(relativePath: "me")
}

extension WebServiceCall where Response == IssuedToken {
    static let issueToken = WebServiceCall(method: .post, relativePath: "oauth/token")
}

let authClient = WebServiceClient(serviceRoot: URL(string: "https://auth.example.com/")!, transport: stubs)
