// The context every guide's code blocks assume (DocBlocksTests, DocBlocksRunTests): the endpoint
// table of Getting Started and a client of the example API (the local one when the blocks run).
// A section (from one `// MARK: name` to the next) is left out of a guide that declares `name`
// itself.

let root = URL(string: "https://api.example.com/")!
let stubs = StubTransport(fallback: .status(200))
let client = WebServiceClient(serviceRoot: root)

// MARK: Repo
struct Repo: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

// MARK: NewRepo
struct NewRepo: Codable, Sendable {
    let name: String
    let description: String
}

// MARK: userRepos
extension WebServiceCall where Response == [Repo] {
    static let userRepos = WebServiceCall(name: "userRepos", relativePath: "users/%%0%%/repos?sort=%%1%%")
}

// MARK: createRepo
extension WebServiceCall where Response == Repo {
    static let createRepo = WebServiceCall(name: "createRepo", method: .post, relativePath: "user/repos")
}

// MARK: deleteRepo
extension WebServiceCall where Response == EmptyResponse {
    static let deleteRepo = WebServiceCall(name: "deleteRepo", method: .delete, relativePath: "repos/%%0%%/%%1%%")
}

// MARK: end
