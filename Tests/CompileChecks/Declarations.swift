// The endpoint table the compile checks use: each file of Fails/ must not compile beside it, each
// file of Compiles/ must (CompileFailureTests builds them one by one against the library).
import Foundation
import WebServiceKit
import WebServiceKitJSONRPC

struct Repo: Codable, Sendable { let name: String }
struct Note: Codable, Sendable { let title: String }

extension TypedCall where Arguments == ArgumentList<String, String>, Body == NoBody, Response == [Repo] {
    static let userRepos = TypedCall(.init(relativePath: "users/%%0%%/repos?sort=%%1%%"))
}

extension TypedCall where Arguments == ArgumentList<String>, Body == Note, Response == Note {
    static let createNote = TypedCall(.init(method: .post, relativePath: "users/%%0%%/notes"))
}

extension TypedCall where Arguments == ArgumentList<String>, Body == NoBody, Response == ResponseStream<String> {
    static let feed = TypedCall(.init(relativePath: "feeds/%%0%%", stream: .lines))
}

enum Billing {
    static let rpc = TypedJSONRPCEndpoint<ArgumentList<String>>(JSONRPCEndpoint(relativePath: "tenants/%%0%%/rpc"))
    static let total = JSONRPCMethod<[Int], Int>("total")
}
