import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

// The examples of Docs/TypedCalls.md, as the guide writes them. They live in this module, not
// beside DocumentationExamplesTests, whose untyped `WebServiceCall.userRepos` has the same name:
// where a method takes both kinds of call (`stubs.stub(.userRepos, …)`) the two names would be
// ambiguous, as they would be in an app that declared both.
struct Repo: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

struct NewRepo: Codable, Sendable {
    let name: String
    let description: String
}
extension TypedCall where Arguments == ArgumentList<String, String>, Body == NoBody, Response == [Repo] {
    /// GET users/{user}/repos?sort={sort}
    static let userRepos = TypedCall(.init(name: "userRepos", relativePath: "users/%%0%%/repos?sort=%%1%%"))
}

extension TypedCall where Arguments == ArgumentList<String>, Body == NewRepo, Response == Repo {
    /// POST users/{user}/repos with a JSON body
    static let createRepo = TypedCall(.init(name: "createRepo", method: .post, relativePath: "users/%%0%%/repos"))
}

extension TypedCall where Arguments == ArgumentList<>, Body == NoBody, Response == Data {
    /// GET ping, with no argument at all
    static let ping = TypedCall(.init(name: "ping", relativePath: "ping"))
}

enum GitHub {
    static let repo = TypedCall<ArgumentList<String, String>, NoBody, Repo>(.init(relativePath: "repos/%%0%%/%%1%%"))
}

extension TypedCall
where
    Arguments == ArgumentList<String, DownloadDestination>, Body == NoBody,
    Response == DownloadedFile
{
    static let report = TypedCall(.init(relativePath: "reports/%%0%%"))
}

final class TypedCallsGuideExamplesTests: XCTestCase {
    func testDeclaringAndCalling() async throws {
        let stubs = StubTransport(fallback: .json(Repo(id: 7, name: "swift")))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        stubs.stub(.userRepos, with: .json([Repo(id: 1, name: "hello")]))

        let repo = try await client.perform(GitHub.repo, "apple", "swift")
        let repos = try await client.perform(.userRepos, "octocat", "updated")
        let created = try await client.perform(
            .createRepo, "octocat", body: NewRepo(name: "hello", description: "A first repository"))
        let response = try await client.response(for: .ping)

        XCTAssertEqual(repo, Repo(id: 7, name: "swift"))
        XCTAssertEqual(repos, [Repo(id: 1, name: "hello")])
        XCTAssertEqual(created, Repo(id: 7, name: "swift"))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(
            stubs.requests.map { "\($0.request.httpMethod ?? "") \($0.request.url?.absoluteString ?? "")" },
            [
                "GET https://api.example.com/repos/apple/swift",
                "GET https://api.example.com/users/octocat/repos?sort=updated",
                "POST https://api.example.com/users/octocat/repos",
                "GET https://api.example.com/ping",
            ])
        let body = try JSONSerialization.jsonObject(with: stubs.requests[2].request.httpBody ?? Data())
        XCTAssertEqual(body as? [String: String], ["name": "hello", "description": "A first repository"])
    }

    func testWhatIsCheckedWhen() throws {
        let misdeclared = TypedCall<ArgumentList<String, Int>, NoBody, Data>(.init(relativePath: "users/%%0%%"))
        XCTAssertThrowsError(try misdeclared.validate()) { error in
            XCTAssertEqual(
                "\(error)",
                "invalid call descriptor: argument 1 of ArgumentList<String, Int> (Int) fills no wildcard: the "
                    + "template has no %%1%%; use it in the relative path, a header or the cache identifier, or remove it"
            )
        }
        try TypedCall.userRepos.validate(serviceRoot: URL(string: "https://api.example.com/v1/")!)
        try TypedCall.createRepo.validate()
        try TypedCall.ping.validate()
        try GitHub.repo.validate()
        try TypedCall.report.validate()
    }

    func testADownload() async throws {
        let stubs = StubTransport(fallback: .text("quarter,total\nq4,12\n"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: reportURL) }

        let file = try await client.perform(.report, "2024-q4", DownloadDestination(reportURL))

        XCTAssertEqual(try String(contentsOf: file.url, encoding: .utf8), "quarter,total\nq4,12\n")
        XCTAssertEqual(stubs.requests.first?.request.url?.absoluteString, "https://api.example.com/reports/2024-q4")
    }
}
