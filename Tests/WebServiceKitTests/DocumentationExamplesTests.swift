import Dispatch
import Foundation
import WebServiceKit
import WebServiceKitTesting
import WebServiceKitXML
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Swift examples of README.md and Docs/*.md, run against StubTransport with assertions on
// what the stubs received and returned. The pages' blocks themselves are type-checked
// (DocBlocksTests) and run against the local servers (DocBlocksRunTests); these copies add the
// checks a page does not show. When you change an example, change its copy here too.

// MARK: - The endpoint table (README.md, Docs/GettingStarted.md)

struct Repo: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

struct NewRepo: Codable, Sendable {
    let name: String
    let description: String
}

extension WebServiceCall where Response == [Repo] {
    /// GET users/{user}/repos?sort={sort}
    static let userRepos = WebServiceCall(
        name: "userRepos",
        relativePath: "users/%%0%%/repos?sort=%%1%%",
        headers: ["Accept": "application/json"])
}

extension WebServiceCall where Response == Repo {
    /// POST user/repos; the NewRepo argument, used by no wildcard, is the JSON body.
    static let createRepo = WebServiceCall(name: "createRepo", method: .post, relativePath: "user/repos")
}

extension WebServiceCall where Response == EmptyResponse {
    /// DELETE repos/{owner}/{name}; the service answers 204 No Content.
    static let deleteRepo = WebServiceCall(name: "deleteRepo", method: .delete, relativePath: "repos/%%0%%/%%1%%")
}

// MARK: - Docs/DescriptorReference.md declarations

struct UserID: WildcardConvertible, Sendable {
    let raw: Int
    var wildcardText: String { "u\(raw)" }
}

enum Sort: String, Sendable {
    case updated
    case fullName = "full_name"
}

struct APIError: Error, Decodable {
    let code: Int
    let message: String
}

extension WebServiceCall where Response == Repo {
    /// GET repos/{owner}/{name}; a refused call's body is decoded as an APIError.
    static let repo = WebServiceCall(
        relativePath: "repos/%%0%%/%%1%%", errorHandler: DecodableErrorHandler(APIError.self))
}

/// Some services answer 200 with `{"error": "..."}`: this handler turns such bodies into errors.
struct EnvelopeError: Error, Decodable {
    let error: String
}

struct EnvelopeErrorHandler: ResponseErrorHandler {
    func error(for response: ResponseContext, body: Data, statusAccepted: Bool) -> (any Error)? {
        try? JSONDecoder().decode(EnvelopeError.self, from: body)
    }
}

/// A page of results, given to the URL builder rather than to a wildcard.
struct Page: Sendable {
    let number: Int
    let size: Int
}

struct PageURLBuilder: URLBuilder {
    func accepts(_ argument: Any) -> Bool { argument is Page }

    func buildURL(from url: URL, arguments: [Any]) throws -> URL {
        guard let page = arguments.first as? Page,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "page", value: "\(page.number)"),
                URLQueryItem(name: "per_page", value: "\(page.size)"),
            ]
        return components.url ?? url
    }
}

/// Answers `userRepos` from memory, without sending anything.
struct CannedRepos: WebServiceInterceptor {
    func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
        guard call.id == WebServiceCall<[Repo]>.userRepos.descriptor.id else { return .proceed(request) }
        return .respond(TransportResponse(statusCode: 200, body: Data(#"[{"id":7,"name":"canned"}]"#.utf8)))
    }
}

struct TokenRefused: Error {}

actor TokenStore {
    private(set) var token = "expired"
    private var refreshed = false

    /// Gets a new token once; when that one is refused too, the login is gone.
    func refresh() async throws {
        guard !refreshed else { throw TokenRefused() }
        refreshed = true
        token = "fresh"
    }
}

struct BearerTokenProvider: AuthenticationProvider {
    let store: TokenStore

    func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        var request = request
        request.setValue("Bearer \(await store.token)", forHTTPHeaderField: "Authorization")
        return request
    }

    func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor) async throws
        -> AuthenticationDecision
    {
        guard response.statusCode == 401 else { return .proceed }
        try await store.refresh()
        return .retry
    }
}

/// Logs in with a token endpoint; here the tokens are made up.
struct TokenLogin: CredentialAuthenticator {
    func authenticate(replacing current: String?) async throws -> String {
        current == nil ? "first-token" : "second-token"  // a real one calls the token endpoint
    }

    func apply(_ token: String, to request: inout WebServiceRequest) {
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
}

/// Docs/DescriptorReference.md, "What every request gets": the counter the wrapping transport uses.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
}

struct CountingTransport: WebServiceTransport {
    let base: RoutingTransport
    let counter: CallCounter

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        counter.increment()
        return try await base.send(request, context: context)
    }

    // Without it, requests would go without the configuration's fields and cookies.
    var bridge: RequestBridge? { base.bridge }
}

// MARK: - Docs/Serialization.md declarations

struct Person: Codable, Sendable, Equatable {
    let name: String
    let city: String
}

extension WebServiceCall where Response == String {
    /// A legacy service that reads and writes windows-1251 text.
    static let legacyGreeting = WebServiceCall(
        method: .post, relativePath: "legacy/greet", requestSerializer: .text, bodyCharset: .windows1251)
}

extension WebServiceCall where Response == Person {
    /// Sends a Person as JSON written in windows-1251.
    static let legacyPerson = WebServiceCall(
        method: .post, relativePath: "legacy/person", bodyCharset: .windows1251)
}

struct Price: Codable, Sendable, Equatable, XMLNodeKindProviding {
    let currency: String
    let amount: Decimal

    static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
        key.stringValue == "currency" ? .attribute : .text
    }
}

struct Product: Codable, Sendable, Equatable, XMLNodeKindProviding {
    let id: Int
    let title: String
    let price: Price

    static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
        key.stringValue == "id" ? .attribute : .element
    }
}

extension WebServiceCall where Response == [Product] {
    /// Every <product> of <catalogue><products>…</products></catalogue>.
    static let catalogue = WebServiceCall(
        relativePath: "catalogue.xml", serializer: XMLResponseSerializer<[Product]>(),
        serializationRoot: "products.product")
}

extension WebServiceCall where Response == EmptyResponse {
    /// PUT one product as an XML document.
    static let putProduct = WebServiceCall(method: .put, relativePath: "products/%%0%%", requestSerializer: .xml)
}

struct Signup: Encodable, Sendable {
    let name: String
    let tags: [String]
    let newsletter: Bool
    let address: [String: String]
    let referrer: String?
}

extension WebServiceCall where Response == EmptyResponse {
    static let signup = WebServiceCall(method: .post, relativePath: "signup", requestSerializer: .formURLEncoded)
}

/// Reads `text/csv` into rows of fields (a sketch: no quoting rules).
struct CSVResponseSerializer: ResponseSerializer {
    func deserialize(_ body: Data, context: ResponseContext) throws -> [[String]] {
        guard let text = String(data: body, encoding: .utf8) else {
            throw SerializationError("the body is not UTF-8 text")
        }
        return text.split(whereSeparator: \.isNewline).map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// An empty body is an empty table rather than an error.
    func emptyValue() -> [[String]]? { [] }
}

extension WebServiceCall where Response == [[String]] {
    static let report = WebServiceCall(relativePath: "report.csv", serializer: CSVResponseSerializer())
}

extension WebServiceCall where Response == Int {
    /// A plain-text number.
    static let visitorCount = WebServiceCall(
        relativePath: "visitors",
        serializer: ClosureResponseSerializer<Int> { body, _ in
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let count = Int(text) else { throw SerializationError("\"\(text)\" is not a number") }
            return count
        })
}

/// Sends `[String: String]` as `name: value` lines.
struct LinesRequestSerializer: RequestSerializer {
    func serialize(_ value: Any, charset: Charset) throws -> SerializedBody {
        guard let fields = value as? [String: String] else {
            throw SerializationError("a lines body must be [String: String]; got \(type(of: value))")
        }
        let text = fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
        guard let data = text.data(using: charset.encoding) else {
            throw SerializationError("the text cannot be represented in \(charset.ianaName)")
        }
        return SerializedBody(data: data, contentType: "text/x-lines; charset=\(charset.ianaName)")
    }
}

extension WebServiceCall where Response == EmptyResponse {
    static let sendLines = WebServiceCall(
        method: .post, relativePath: "lines", requestSerializer: LinesRequestSerializer())
}

// MARK: - Docs/GettingStarted.md "Testing your own code", verbatim

final class RepoListTests: XCTestCase {
    func testLoadsRepos() async throws {
        let stubs = StubTransport()
        stubs.stub(.userRepos, with: .json([Repo(id: 1, name: "kit")]))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)

        let repos = try await client.perform(.userRepos, "octocat", "updated")

        XCTAssertEqual(repos, [Repo(id: 1, name: "kit")])
        XCTAssertEqual(stubs.requests.count, 1)
        XCTAssertEqual(
            stubs.requests[0].request.url?.absoluteString, "https://api.example.com/users/octocat/repos?sort=updated")
        XCTAssertEqual(stubs.requests[0].call.name, "userRepos")
    }
}

// MARK: - The examples

final class DocumentationExamplesTests: XCTestCase {
    /// A client like the pages' `client`, over a stub transport that records what it is sent.
    private func stubbedClient(
        _ fallback: StubTransport.Stub = .json([Repo(id: 1, name: "kit")])
    ) -> (WebServiceClient, StubTransport) {
        let stubs = StubTransport(fallback: fallback)
        return (WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs), stubs)
    }

    // MARK: README.md

    func testReadmeExample() async throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let request = try client.request(for: .userRepos, arguments: ["octocat", "updated"])
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users/octocat/repos?sort=updated")

        let (stubbed, _) = stubbedClient()
        do {
            let client = stubbed
            // async/await: GET https://api.example.com/users/octocat/repos?sort=updated
            let repos = try await client.perform(.userRepos, "octocat", "updated")
            XCTAssertEqual(repos.map(\.name), ["kit"])

            // callbacks, with a task you can cancel
            let done = expectation(description: "callback")
            let task = client.perform(
                .userRepos, ["octocat", "updated"],
                success: { repos in
                    print(repos.map(\.name))
                    done.fulfill()
                },
                failure: { error in
                    print(error)
                    XCTFail("\(error)")
                })
            await fulfillment(of: [done], timeout: 5)
            XCTAssertFalse(task.isCancelled)
        }
    }

    // MARK: GettingStarted.md

    /// DescriptorReference.md, "The interceptor chain": a network interceptor that makes answers
    /// cacheable for a minute.
    /// DescriptorReference.md, "What every request gets": a wrapping transport that forwards the
    /// bridge sends the configuration's fields, as its base would.
    func testAWrappingTransportForwardsTheBridge() async throws {
        struct Recorded: WebServiceInterceptor {
            let seen: Locked<WebServiceRequest?>
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                seen.withLock { $0 = request }
                return .respond(TransportResponse(statusCode: 200, body: Data("[]".utf8)))
            }
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-App": "demo"]
        let counter = CallCounter()
        let client = WebServiceClient(
            serviceRoot: URL(string: "http://127.0.0.1:9/")!,
            transport: CountingTransport(base: RoutingTransport(configuration: configuration), counter: counter))
        let seen = Locked<WebServiceRequest?>(nil)
        client.networkInterceptors = [Recorded(seen: seen)]
        _ = try await client.perform(.userRepos, "octocat", "updated")
        let request = try XCTUnwrap(seen.withLock { $0 })
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-App"), "demo")
        XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), RequestBridge.userAgent)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json", "the call's own")
        XCTAssertEqual(counter.count, 0, "the interceptor answered")
    }

    func testForceCacheNetworkInterceptor() async throws {
        let stubs = StubTransport(fallback: .text("answer"))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        client.networkInterceptors = [
            ResponseProcessor { response, _, _ in
                var response = response
                if response.statusCode == 200 { response.headers["Cache-Control"] = "max-age=60" }
                return response
            }
        ]
        let call = WebServiceCall<String>(relativePath: "answer")
        _ = try await client.perform(call)
        let second = try await client.response(for: call)
        XCTAssertEqual(second.source, .cache)
        XCTAssertEqual(stubs.requests.count, 1)
    }

    /// DescriptorReference.md, "Fields at a glance": a call built from a `CallFields` value.
    func testACallFromFields() throws {
        var fields = CallFields(method: .get, relativePath: "users/%%0%%/repos?sort=%%1%%")
        fields.headers = ["Accept": "application/json"]
        fields.cache = .maxAge(300)
        let userRepos = WebServiceCall<[Repo]>(fields)
        XCTAssertEqual(userRepos.relativePath, "users/%%0%%/repos?sort=%%1%%")
        XCTAssertEqual(userRepos.cache, .maxAge(300))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let request = try client.request(for: userRepos, arguments: ["octocat", "updated"])
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users/octocat/repos?sort=updated")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json")
    }

    func testCreateAClient() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        client.sharedHeaders = ["User-Agent": "MyApp/1.0"]

        let request = try client.request(for: .userRepos, arguments: ["octocat", "updated"])
        XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), "MyApp/1.0")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json")
        XCTAssertEqual(request.timeoutInterval, 60)
    }

    func testCallbacks() {
        let (client, _) = stubbedClient()
        let done = expectation(description: "callback")
        let task = client.perform(
            .userRepos, ["octocat", "updated"],
            success: { repos in
                print("\(repos.count) repositories")
                XCTAssertEqual(repos, [Repo(id: 1, name: "kit")])
                done.fulfill()
            },
            failure: { error in
                print("failed: \(error)")
                XCTFail("\(error)")
            })
        wait(for: [done], timeout: 5)
        XCTAssertTrue(task.isFinished)

        let whole = expectation(description: "completion")
        client.perform(
            .userRepos, ["octocat", "updated"],
            completion: { result in
                switch result {
                case .success(let response):
                    print(response.statusCode, response.headers["Content-Type"] ?? "-", response.value.count)
                    XCTAssertEqual(response.statusCode, 200)
                    XCTAssertEqual(response.headers["content-type"], "application/json")
                case .failure(let error):
                    print(error)
                    XCTFail("\(error)")
                }
                whole.fulfill()
            })
        wait(for: [whole], timeout: 5)
    }

    func testAsyncAwait() async throws {
        let (client, stubs) = stubbedClient()
        stubs.stub(.createRepo, with: .json(Repo(id: 2, name: "kit"), statusCode: 201))

        let repos = try await client.perform(.userRepos, "octocat", "updated")

        let arguments: [any Sendable] = ["octocat", "updated"]
        let same = try await client.perform(.userRepos, arguments: arguments)

        let created = try await client.perform(.createRepo, NewRepo(name: "kit", description: "A test"))

        XCTAssertEqual(repos, same)
        XCTAssertEqual(created, Repo(id: 2, name: "kit"))
        let post = try XCTUnwrap(stubs.requests.last?.request)
        XCTAssertEqual(post.httpMethod, "POST")
        XCTAssertEqual(post.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=utf-8")
        let sent = try JSONDecoder().decode(NewRepo.self, from: post.httpBody ?? Data())
        XCTAssertEqual(sent.name, "kit")
    }

    func testAnArrayIsTheArgumentListInEveryForm() async throws {
        let (client, stubs) = stubbedClient()
        _ = try await client.perform(.userRepos, ["octocat", "updated"])
        XCTAssertEqual(
            stubs.requests.last?.request.url?.absoluteString, "https://api.example.com/users/octocat/repos?sort=updated"
        )
    }

    func testTheWholeResponse() async throws {
        let (client, _) = stubbedClient(.json([Repo(id: 1, name: "kit")], headers: ["ETag": "\"v1\""]))

        let response = try await client.response(for: .userRepos, "octocat", "updated")
        print(response.statusCode)  // 200
        print(response.headers["etag"] ?? "-")  // "v1" (names are case-insensitive)
        print(response.body.count)  // the raw bytes the value was decoded from
        print(response.request.url!)  // https://api.example.com/users/octocat/repos?sort=updated
        let names = response.map { repos in repos.map(\.name) }  // WebServiceResponse<[String]>

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.headers["etag"], "\"v1\"")
        XCTAssertEqual(try JSONDecoder().decode([Repo].self, from: response.body), [Repo(id: 1, name: "kit")])
        XCTAssertEqual(response.request.url?.absoluteString, "https://api.example.com/users/octocat/repos?sort=updated")
        XCTAssertEqual(response.url, response.request.url)
        XCTAssertEqual(names.value, ["kit"])
        XCTAssertEqual(names.statusCode, 200)
    }

    func testErrors() async {
        let (client, stubs) = stubbedClient()
        stubs.stub(.deleteRepo, with: .text("no such repository", statusCode: 404))
        var seen = ""
        var described = ""
        do {
            _ = try await client.perform(.deleteRepo, "octocat", "kit")
        } catch {
            described = "\(error)"
            switch error.reason {
            case .unacceptableStatus(let code, _, let body):
                print("refused with \(code): \(String(decoding: body, as: UTF8.self))")
                seen = "\(code) \(String(decoding: body, as: UTF8.self))"
            case .cancelled(let reason):
                print("cancelled: \(reason ?? "no reason given")")
            case _ where error.isTimeout:
                print("timed out")
            default:
                print(error)  // deleteRepo (DELETE https://api.example.com/repos/octocat/kit): …
            }
        }
        XCTAssertEqual(seen, "404 no such repository")
        XCTAssertEqual(
            described,
            "deleteRepo (DELETE https://api.example.com/repos/octocat/kit): unacceptable status 404; body starts: "
                + "no such repository")

        stubs.stub(.deleteRepo, with: .status(204))
        do {
            _ = try await client.perform(.deleteRepo, "octocat", "kit")
        } catch {
            XCTFail("\(error)")
        }
    }

    func testErrorHelpers() {
        let error = WebServiceError.unacceptableStatus(code: 503, headers: [:], body: Data("busy".utf8))
        XCTAssertEqual(error.statusCode, 503)
        XCTAssertFalse(error.isTimeout)
        XCTAssertFalse(error.isCancelled)
        XCTAssertEqual(error.description, "unacceptable status 503; body starts: busy")
        XCTAssertTrue(WebServiceError.transport(URLError(.timedOut)).isTimeout)
        XCTAssertTrue(WebServiceError.cancelled(reason: "x").isCancelled)
        XCTAssertNil(WebServiceError.transport(URLError(.timedOut)).statusCode)
    }

    func testCancellingACallbackTask() {
        let (client, _) = stubbedClient(.init(body: Data("[]".utf8), delay: 5))
        let done = expectation(description: "cancelled")
        let task = client.perform(
            .userRepos, ["octocat", "updated"],
            success: { _ in XCTFail("cancelled calls do not succeed") },
            failure: { error in
                // .cancelled(reason: "the user left the screen")
                guard case .cancelled(let reason) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(reason, "the user left the screen")
                done.fulfill()
            })
        task.cancel(reason: "the user left the screen")
        XCTAssertTrue(task.isCancelled)
        wait(for: [done], timeout: 5)
        task.cancel()  // no second callback
    }

    func testCancellingASwiftTask() async {
        let (client, _) = stubbedClient(.init(body: Data("[]".utf8), delay: 5))
        let work = Task { try await client.perform(.userRepos, "octocat", "updated") }
        try? await Task.sleep(nanoseconds: 50_000_000)
        work.cancel()
        do {
            _ = try await work.value
            XCTFail("must be cancelled")
        } catch let error as WebServiceError where error.isCancelled {
            print("cancelled")  // .cancelled(reason: nil)
            guard case .cancelled(nil) = error.reason else { return XCTFail("\(error)") }
        } catch {
            XCTFail("\(error)")
        }
    }

    func testPerformSynchronously() throws {
        let (client, _) = stubbedClient()

        // In a command-line tool, or a synchronous XCTest method; never in async code.
        let response = try client.performSynchronously(.userRepos, ["octocat", "updated"])
        print(response.statusCode, response.value.map(\.name))

        XCTAssertEqual(response.value, [Repo(id: 1, name: "kit")])
        XCTAssertEqual(response.statusCode, 200)
    }

    func testPerformSynchronouslyRefusesInsideATaskAndOnTheCallbackQueue() async {
        let (client, stubs) = stubbedClient()
        do {
            _ = try client.performSynchronously(.userRepos, ["octocat", "updated"])
            XCTFail("must refuse inside a task")
        } catch {
            // invalid call descriptor: performSynchronously would block a Swift concurrency thread; use `await perform`
            guard case .invalidCall(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("Swift concurrency thread"), reason)
        }
        let reason = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            client.callbackQueue.async {
                do {
                    _ = try client.performSynchronously(.userRepos, ["octocat", "updated"])
                    done.resume(returning: "accepted")
                } catch {
                    done.resume(returning: "\(error)")
                }
            }
        }
        XCTAssertEqual(
            reason,
            "userRepos (GET users/%%0%%/repos?sort=%%1%%): invalid call descriptor: performSynchronously would "
                + "deadlock on the client's callback queue")
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testCallbackQueue() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, callbackQueue: .main)
        XCTAssertNoThrow(try client.request(for: .userRepos, arguments: ["octocat", "updated"]))

        let stubs = StubTransport(fallback: .json([Repo(id: 1, name: "kit")]))
        let stubbed = WebServiceClient(
            serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs, callbackQueue: .main)
        let done = expectation(description: "on main")
        stubbed.perform(
            .userRepos, ["octocat", "updated"],
            success: { _ in
                XCTAssertTrue(Thread.isMainThread)
                done.fulfill()
            },
            failure: { XCTFail("\($0)") })
        wait(for: [done], timeout: 5)
    }

    func testStubSequencesMatchersAndFailures() async throws {
        let stubs = StubTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)

        // The first call gets 503, every later one 204.
        stubs.stub(.deleteRepo, with: .status(503), .status(204))
        // Any request to another host fails as if offline.
        stubs.stub(where: { $0.url?.host != "api.example.com" }, with: .failure(.notConnectedToInternet))

        do {
            _ = try await client.perform(.deleteRepo, "octocat", "kit")
            XCTFail("503 first")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        _ = try await client.perform(.deleteRepo, "octocat", "kit")
        _ = try await client.perform(.deleteRepo, "octocat", "kit")
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "https://cdn.example.com/a.png"))
            XCTFail("offline")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .notConnectedToInternet)
        }
        do {
            _ = try await client.perform(.userRepos, "octocat", "updated")  // no stub, no fallback
            XCTFail("no stub")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .fileDoesNotExist)
        }
        XCTAssertEqual(stubs.requests.count, 5)
        stubs.reset()
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testStubDelayAndTimeout() async {
        let stubs = StubTransport(fallback: .init(body: Data("[]".utf8), delay: 2))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.timeout = 0.1
        do {
            _ = try await client.perform(.userRepos, "octocat", "updated")
            XCTFail("the 2 s delay is past the 0.1 s deadline")
        } catch {
            XCTAssertTrue(error.isTimeout, "\(error)")
        }
    }

    func testRequestForDebugging() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)

        let request = try client.request(for: .userRepos, arguments: ["octocat", "updated"])
        print(request.httpMethod ?? "", request.url!)  // GET https://api.example.com/users/octocat/repos?sort=updated
        print(request.allHTTPHeaderFields ?? [:])
        // ["Accept": "application/json", "User-Agent": "MyApp WebServiceKit", "Accept-Encoding": "gzip, deflate"]

        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users/octocat/repos?sort=updated")
        XCTAssertEqual(
            request.allHTTPHeaderFields ?? [:],
            [
                "Accept": "application/json", "User-Agent": RequestBridge.userAgent,
                "Accept-Encoding": "gzip, deflate",
            ])
        XCTAssertThrowsError(try client.request(for: .userRepos, arguments: ["octocat"])) { error in
            guard case .invalidArguments(1, _)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
        }
    }

    // MARK: DescriptorReference.md

    func testAnchors() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!)

        let relative = WebServiceCall<Data>(relativePath: "users/%%0%%")
        let fromOrigin = WebServiceCall<Data>(relativePath: "/status")
        let absolute = WebServiceCall<Data>(relativePath: "https://uploads.example.com/files/%%0%%")

        let a = try client.request(for: relative, arguments: ["ann"]).url!  // https://api.example.com/v1/users/ann
        let b = try client.request(for: fromOrigin, arguments: []).url!  // https://api.example.com/status
        let c = try client.request(for: absolute, arguments: ["a.txt"]).url!  // https://uploads.example.com/files/a.txt

        XCTAssertEqual(a.absoluteString, "https://api.example.com/v1/users/ann")
        XCTAssertEqual(b.absoluteString, "https://api.example.com/status")
        XCTAssertEqual(c.absoluteString, "https://uploads.example.com/files/a.txt")

        let noSlash = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1")!)
        XCTAssertEqual(
            try noSlash.request(for: relative, arguments: ["ann"]).url?.absoluteString,
            "https://api.example.com/v1/users/ann")
    }

    func testDescriptorFieldsAreReadableOnTheCall() {
        let call = WebServiceCall<[Repo]>.userRepos
        XCTAssertEqual(call.name, "userRepos")
        XCTAssertEqual(call.method, .get)
        XCTAssertEqual(call.relativePath, "users/%%0%%/repos?sort=%%1%%")
        XCTAssertEqual(WebServiceCall<Data>(method: .delete, relativePath: "x").name, "DELETE x")
        XCTAssertEqual(WebServiceCall<Data>(method: "PROPFIND", relativePath: "dav/").method.rawValue, "PROPFIND")
    }

    func testSuccessCodes() async throws {
        let (client, stubs) = stubbedClient(.status(404))
        let adds = WebServiceCall<Data>(relativePath: "a", successCodes: [404])
        let replaces = WebServiceCall<Data>(relativePath: "b", successCodes: [404], overridesClientSuccessCodes: true)

        _ = try await client.perform(adds)  // 404 accepted
        _ = try await client.perform(replaces)  // 404 accepted
        stubs.stub(replaces, with: .status(200))
        do {
            _ = try await client.perform(replaces)  // 200 refused: only 404 counts
            XCTFail("200 is not accepted")
        } catch {
            guard case .unacceptableStatus(200, _, _) = error.reason else { return XCTFail("\(error)") }
        }
        client.successCodes = [200..<300, 304]
        stubs.stub(adds, with: .status(304))
        _ = try await client.perform(adds)  // 304 accepted: the client's codes plus 404
    }

    func testDefaultSerializers() async throws {
        let (client, _) = stubbedClient(.text(#"{"id":1,"name":"kit"}"#, contentType: "application/json"))
        let data = try await client.perform(WebServiceCall<Data>(relativePath: "r"))
        let text = try await client.perform(WebServiceCall<String>(relativePath: "r"))
        let nothing = try await client.perform(WebServiceCall<EmptyResponse>(relativePath: "r"))
        let repo = try await client.perform(WebServiceCall<Repo>(relativePath: "r"))
        let maybe = try await client.perform(WebServiceCall<Repo?>(relativePath: "r"))
        XCTAssertEqual(data.count, 21)
        XCTAssertEqual(text, #"{"id":1,"name":"kit"}"#)
        XCTAssertEqual(nothing, EmptyResponse())
        XCTAssertEqual(repo, Repo(id: 1, name: "kit"))
        XCTAssertEqual(maybe, Repo(id: 1, name: "kit"))

        let (empty, _) = stubbedClient(.status(204))
        let none = try await empty.perform(WebServiceCall<Repo?>(relativePath: "r"))
        XCTAssertNil(none)

        // String? is JSON, not text: the text serializer is the default for String only.
        do {
            _ = try await client.perform(WebServiceCall<String?>(relativePath: "r"))
            XCTFail("a JSON object is not a JSON string")
        } catch {
            guard case .decoding = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testSerializationRoot() async throws {
        let weather = #"{"coord":{"lon":-0.13,"lat":51.51},"list":[{"id":1},{"id":2}]}"#
        let (client, _) = stubbedClient(.text(weather, contentType: "application/json"))

        let lon = try await client.perform(
            WebServiceCall<Double>(relativePath: "weather", serializationRoot: "coord.lon"))
        let secondID = try await client.perform(
            WebServiceCall<Int>(relativePath: "weather", serializationRoot: "list.1.id"))
        let title = WebServiceCall<String>(
            relativePath: "weather", serializer: JSONResponseSerializer<String>(), serializationRoot: "coord.name")

        XCTAssertEqual(lon, -0.13)
        XCTAssertEqual(secondID, 2)
        XCTAssertNoThrow(try title.validate())
        XCTAssertThrowsError(try WebServiceCall<String>(relativePath: "w", serializationRoot: "coord.name").validate())
    }

    func testBodyParameterAndTheDefaultBody() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)

        // POST, PUT, PATCH: the first argument no wildcard uses is the body.
        let rename = WebServiceCall<Repo>(method: .patch, relativePath: "repos/%%0%%/%%1%%")
        let patch = try client.request(for: rename, arguments: ["octocat", "kit", ["name": "kit2"]])

        // Any method, any position: name the body argument.
        let search = WebServiceCall<[Repo]>(method: "QUERY", relativePath: "search?limit=%%1%%", bodyParameter: 0)
        let query = try client.request(for: search, arguments: [["language": "swift"], 10])

        XCTAssertEqual(String(decoding: patch.httpBody ?? Data(), as: UTF8.self), #"{"name":"kit2"}"#)
        XCTAssertEqual(query.url?.absoluteString, "https://api.example.com/search?limit=10")
        XCTAssertEqual(String(decoding: query.httpBody ?? Data(), as: UTF8.self), #"{"language":"swift"}"#)

        // GET sends no body unless bodyParameter names one: a leftover argument is an error.
        XCTAssertThrowsError(try client.request(for: .userRepos, arguments: ["octocat", "updated", "extra"])) {
            guard case .invalidArguments(2, _)? = ($0 as? WebServiceError)?.reason else { return XCTFail("\($0)") }
        }
        // Data goes as it is, with no Content-Type; a nil Optional sends no body.
        let upload = WebServiceCall<Data>(
            method: .put, relativePath: "files/%%0%%", headers: ["Content-Type": "image/png"])
        let put = try client.request(for: upload, arguments: ["a.png", Data([0x89, 0x50, 0x4E, 0x47])])
        XCTAssertEqual(put.httpBody, Data([0x89, 0x50, 0x4E, 0x47]))
        XCTAssertEqual(put.value(forHTTPHeaderField: "Content-Type"), "image/png")
        let none = try client.request(for: upload, arguments: ["a.png", Data?.none])
        XCTAssertNil(none.httpBody)
    }

    func testArgumentKinds() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let call = WebServiceCall<Data>(relativePath: "v/%%0%%")
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let cases: [(any Sendable, String)] = [
            ("deep red", "deep%20red"), (42, "42"), (-7, "-7"), (UInt8(255), "255"), (3.5, "3.5"), (2.0, "2"),
            (Float(0.25), "0.25"), (1e20, "1e%2B20"), (true, "true"), (uuid, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
            (Date(timeIntervalSince1970: 0.75), "1970-01-01T00%3A00%3A00Z"),
            (URL(string: "https://a.b/c")!, "https%3A%2F%2Fa.b%2Fc"), (Decimal(string: "12.50")!, "12.5"),
            (Sort.fullName, "full_name"), (Optional("x"), "x"), (UserID(raw: 7), "u7"),
        ]
        for (argument, expected) in cases {
            let url = try client.request(for: call, arguments: [argument]).url
            XCTAssertEqual(url?.absoluteString, "https://api.example.com/v/\(expected)", "\(argument)")
        }
    }

    func testOptionalsAndLists() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let search = WebServiceCall<[Repo]>(
            relativePath: "search?q=%%0%%&page=%%1%%&id=%%2%%", headers: ["X-Trace": "%%3%%"])

        let some = try client.request(for: search, arguments: ["kit", 2, [1, 2], "t-1"])
        // https://api.example.com/search?q=kit&page=2&id=1&id=2, X-Trace: t-1
        let none = try client.request(for: search, arguments: ["kit", Int?.none, [Int](), String?.none])
        // https://api.example.com/search?q=kit, no X-Trace field

        XCTAssertEqual(some.url?.absoluteString, "https://api.example.com/search?q=kit&page=2&id=1&id=2")
        XCTAssertEqual(some.value(forHTTPHeaderField: "X-Trace"), "t-1")
        XCTAssertEqual(none.url?.absoluteString, "https://api.example.com/search?q=kit")
        XCTAssertNil(none.value(forHTTPHeaderField: "X-Trace"))

        XCTAssertThrowsError(try client.request(for: .userRepos, arguments: [String?.none, "updated"])) {
            guard case .invalidArguments(0, let reason)? = ($0 as? WebServiceError)?.reason else {
                return XCTFail("\($0)")
            }
            XCTAssertEqual(reason, "nil cannot fill %%0%% in the path")
        }
    }

    func testQueryItemsFromAValue() throws {
        struct RepoFilter: Encodable, Sendable {
            let language: String
            let page: Int?
            let topics: [String]
        }
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let filtered = WebServiceCall<[Repo]>(relativePath: "search?q=%%0%%&%%1%%")

        let url = try client.request(
            for: filtered, arguments: ["kit", RepoFilter(language: "swift", page: nil, topics: ["http", "ios"])]
        ).url!
        // https://api.example.com/search?q=kit&language=swift&topics=http&topics=ios
        let commas = try client.request(
            for: filtered,
            arguments: [
                "kit",
                QueryParameters(
                    encoding: RepoFilter(language: "c++", page: 2, topics: ["a", "b"]), lists: .commaSeparated),
            ]
        ).url!
        // https://api.example.com/search?q=kit&language=c%2B%2B&page=2&topics=a,b
        let dictionary = try client.request(for: filtered, arguments: ["kit", ["sort": "stars", "order": "desc"]]).url!
        // https://api.example.com/search?q=kit&order=desc&sort=stars

        XCTAssertEqual(url.absoluteString, "https://api.example.com/search?q=kit&language=swift&topics=http&topics=ios")
        XCTAssertEqual(commas.absoluteString, "https://api.example.com/search?q=kit&language=c%2B%2B&page=2&topics=a,b")
        XCTAssertEqual(dictionary.absoluteString, "https://api.example.com/search?q=kit&order=desc&sort=stars")
    }

    func testPreEncodedPath() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let file = WebServiceCall<Data>(relativePath: "files/%%0%%")

        let plain = try client.request(for: file, arguments: ["docs/a b.txt"]).url!
        // https://api.example.com/files/docs%2Fa%20b.txt: one segment
        let nested = try client.request(for: file, arguments: [PreEncodedPath("docs/a%20b.txt")]).url!
        // https://api.example.com/files/docs/a%20b.txt: two segments

        XCTAssertEqual(plain.absoluteString, "https://api.example.com/files/docs%2Fa%20b.txt")
        XCTAssertEqual(nested.absoluteString, "https://api.example.com/files/docs/a%20b.txt")
        XCTAssertThrowsError(try client.request(for: file, arguments: [PreEncodedPath("a b")]))
    }

    func testEncodingPerPlace() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!)
        let literal = WebServiceCall<Data>(relativePath: "a%2Fb/caf\u{e9} x/%%0%%?q=1+2&sort=-date&flag")
        let header = WebServiceCall<Data>(relativePath: "h", headers: ["X-Text": "v=%%0%%"])

        XCTAssertEqual(
            try client.request(for: literal, arguments: ["v"]).url?.absoluteString,
            "https://api.example.com/v1/a%2Fb/caf%C3%A9%20x/v?q=1+2&sort=-date&flag")
        XCTAssertEqual(
            try client.request(for: header, arguments: ["a b/c?d&e=%41 café"]).value(forHTTPHeaderField: "X-Text"),
            "v=a b/c?d&e=%41 café")
        let values = WebServiceCall<Data>(relativePath: "items/%%0%%?q=%%0%%")
        XCTAssertEqual(
            try client.request(for: values, arguments: ["a b&c=d+e/é"]).url?.absoluteString,
            "https://api.example.com/v1/items/a%20b%26c%3Dd%2Be%2F%C3%A9?q=a%20b%26c%3Dd%2Be%2F%C3%A9")
        // Dot segments would climb out of the path: refused.
        XCTAssertThrowsError(
            try client.request(for: WebServiceCall<Data>(relativePath: "items/%%0%%/end"), arguments: [".."]))
    }

    func testArgumentAndHeaderErrors() {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let traced = WebServiceCall<Data>(relativePath: "h/%%0%%", headers: ["X-Trace": "%%1%%"])

        let errors: [(arguments: [any Sendable], expected: String)] = [
            (["a"], "invalid argument 1: missing: %%1%% in the header X-Trace uses argument 1 but only 1 were passed"),
            (
                ["a", "t", "b"],
                "invalid argument 2: a String that nothing uses: no %%2%% wildcard refers to it and a GET call sends "
                    + "no body unless bodyParameter names one"
            ),
            (
                [Page(number: 1, size: 10), "t"],
                "invalid argument 0: a Page cannot fill %%0%% in the path; pass a String, number, Bool, UUID, "
                    + "Date, URL, RawRepresentable or Optional, or conform it to WildcardConvertible"
            ),
            (
                ["a", "t\r\nX-Admin: yes"],
                "refused header \"X-Trace\": the value contains CR or LF (header injection)"
            ),
        ]
        for (arguments, expected) in errors {
            XCTAssertThrowsError(try client.request(for: traced, arguments: arguments)) {
                XCTAssertEqual("\($0)", expected)
            }
        }
    }

    func testTemplateErrorsAndValidate() {
        XCTAssertNoThrow(try WebServiceCall<[Repo]>.userRepos.validate())
        XCTAssertNoThrow(try WebServiceCall<Repo>.createRepo.validate())
        XCTAssertNoThrow(try WebServiceCall<EmptyResponse>.deleteRepo.validate())

        let broken = WebServiceCall<Data>(relativePath: "users/%%name%%")
        XCTAssertThrowsError(try broken.validate()) { error in
            // invalid call descriptor: malformed template "users/%%name%%": wildcard '%%name%%' must be a
            // decimal argument index from 0 to 999
            XCTAssertEqual(
                "\(error)",
                "invalid call descriptor: malformed template \"users/%%name%%\": wildcard '%%name%%' must be a "
                    + "decimal argument index from 0 to 999")
        }

        let root = URL(string: "https://api.example.com/v1/")!
        let me = WebServiceCall<Repo>(relativePath: "/user")
        XCTAssertThrowsError(try me.validate(serviceRoot: root)) { error in
            // invalid call descriptor: relativePath "/user" starts with "/", so it resolves against the
            // origin (https://api.example.com/user) and drops the service root's path "/v1/"; write
            // "user" to call https://api.example.com/v1/user, or validate without the root if the call
            // leaves the root's path on purpose
            XCTAssertEqual(
                "\(error)",
                "invalid call descriptor: relativePath \"/user\" starts with \"/\", so it resolves against the "
                    + "origin (https://api.example.com/user) and drops the service root's path \"/v1/\"; write "
                    + "\"user\" to call https://api.example.com/v1/user, or validate without the root if the call "
                    + "leaves the root's path on purpose")
        }
        XCTAssertNoThrow(try WebServiceCall<Repo>(relativePath: "user").validate(serviceRoot: root))
    }

    /// What `validate(serviceRoot:)` says is where the request really goes: the URLs it names are
    /// the ones the factory builds, and a root without a path, an absolute URL or a path without
    /// the `/` pass.
    func testValidateWithTheRootNamesTheURLsTheRequestGetsAndPassesTheRest() throws {
        let root = URL(string: "http://127.0.0.1:8080/anything/v1")!
        let client = WebServiceClient(serviceRoot: root)
        let leading = WebServiceCall<Data>(relativePath: "/users/%%0%%")
        XCTAssertEqual(
            try client.request(for: leading, arguments: ["a"]).url?.absoluteString, "http://127.0.0.1:8080/users/a")
        XCTAssertThrowsError(try leading.validate(serviceRoot: root)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("(http://127.0.0.1:8080/users/%%0%%)"), text)
            XCTAssertTrue(text.contains("\"/anything/v1/\""), text)
            XCTAssertTrue(text.contains("call http://127.0.0.1:8080/anything/v1/users/%%0%%"), text)
        }
        let kept = WebServiceCall<Data>(relativePath: "users/%%0%%")
        XCTAssertEqual(
            try client.request(for: kept, arguments: ["a"]).url?.absoluteString,
            "http://127.0.0.1:8080/anything/v1/users/a")
        XCTAssertNoThrow(try kept.validate(serviceRoot: root))
        XCTAssertNoThrow(try leading.validate(serviceRoot: URL(string: "http://127.0.0.1:8080")!))
        XCTAssertNoThrow(try leading.validate(serviceRoot: URL(string: "http://127.0.0.1:8080/")!))
        XCTAssertNoThrow(try WebServiceCall<Data>(relativePath: "https://other.example/x").validate(serviceRoot: root))
        XCTAssertNoThrow(try leading.validate(), "without the root, nothing to compare with")
        // A "." or ".." segment written in the path: the server would resolve it away.
        let climbing = WebServiceCall<Data>(relativePath: "../admin/%%0%%")
        XCTAssertEqual(
            try client.request(for: climbing, arguments: ["a"]).url?.absoluteString,
            "http://127.0.0.1:8080/anything/v1/../admin/a", "sent as written")
        XCTAssertThrowsError(try climbing.validate(serviceRoot: root)) { error in
            XCTAssertEqual(
                "\(error)",
                "invalid call descriptor: relativePath \"../admin/%%0%%\" has a \".\" or \"..\" segment, which the "
                    + "server removes as it resolves the path (RFC 3986 §5.2.4): the call would reach "
                    + "http://127.0.0.1:8080/anything/admin/%%0%%, not "
                    + "http://127.0.0.1:8080/anything/v1/../admin/%%0%%; write the path without it")
        }
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "a/./b").validate(serviceRoot: root))
        XCTAssertNoThrow(try WebServiceCall<Data>(relativePath: "a/..b/.c?x=..").validate(serviceRoot: root))
        // A malformed template still says so first.
        XCTAssertThrowsError(try WebServiceCall<Data>(relativePath: "/a/%%x%%").validate(serviceRoot: root)) {
            XCTAssertTrue("\($0)".contains("malformed template"), "\($0)")
        }
    }

    func testURLBuilder() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let starred = WebServiceCall<[Repo]>(relativePath: "users/%%0%%/starred", urlBuilder: PageURLBuilder())

        let request = try client.request(for: starred, arguments: ["octocat", Page(number: 3, size: 50)])
        // https://api.example.com/users/octocat/starred?page=3&per_page=50

        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/users/octocat/starred?page=3&per_page=50")
    }

    /// DescriptorReference.md, "The request every stage sees": a CR/LF value set in `prepare`.
    func testTheRequestEveryStageSees() async throws {
        let (client, stubs) = stubbedClient()
        let printed = LockedLog()

        do {
            _ = try await client.perform(
                .userRepos, arguments: ["octocat", "updated"],
                prepare: { request in request.setValue("1\r\nX-Injected: yes", forHTTPHeaderField: "X-Request-ID") })
        } catch {
            if case .invalidHeader(let name, let reason) = error.reason {
                print(name, reason)  // X-Request-ID the value contains CR or LF (header injection)
                printed.append("\(name) \(reason)")
            }
        }

        XCTAssertEqual(printed.entries, ["X-Request-ID the value contains CR or LF (header injection)"])
        XCTAssertTrue(stubs.requests.isEmpty)
        // A method goes as it was set (RFC 9110 §9.1).
        _ = try await client.perform(
            .userRepos, arguments: ["octocat", "updated"], prepare: { $0.httpMethod = "Delete" })
        XCTAssertEqual(stubs.requests.last?.request.httpMethod, "Delete")
        // `URLRequest` at the edges, both ways.
        let request = try client.request(for: .userRepos, arguments: ["octocat", "updated"])
        XCTAssertEqual(WebServiceRequest(request.urlRequest), request)
    }

    func testInterceptors() async throws {
        let (client, stubs) = stubbedClient()
        let log = LockedLog()

        client.interceptors = [
            RequestProcessor { request, call in
                request.setValue(call.name, forHTTPHeaderField: "X-Call")
            },
            ResponseProcessor { response, request, call in
                print("\(call.name): \(response.statusCode)")
                log.append("\(call.name): \(response.statusCode)")
                return response
            },
        ]
        let repos = try await client.perform(
            .userRepos, arguments: ["octocat", "updated"],
            prepare: { request in request.setValue("no-cache", forHTTPHeaderField: "Cache-Control") })

        XCTAssertEqual(repos.count, 1)
        let sent = try XCTUnwrap(stubs.requests.last?.request)
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-Call"), "userRepos")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Cache-Control"), "no-cache")
        XCTAssertEqual(log.entries, ["userRepos: 200"])

        client.interceptors = [CannedRepos()]
        let canned = try await client.perform(.userRepos, "octocat", "updated")
        XCTAssertEqual(canned, [Repo(id: 7, name: "canned")])
        XCTAssertEqual(stubs.requests.count, 1, "the canned answer sent nothing")
    }

    #if os(Linux) && canImport(Glibc)
        /// GettingStarted's `error.timeout` example, against a listener of the test's own that
        /// takes the request and never answers.
        func testTypedTimeout() async throws {
            let (listener, port) = try loopbackListener()
            defer { close(listener) }
            let client = WebServiceClient(
                serviceRoot: URL(string: "http://127.0.0.1:\(port)/")!, transport: HTTP1Transport())
            let slow = WebServiceCall<Data>(name: "slow", relativePath: "delay/%%0%%", timeout: 1)
            var seen: TimeoutFailure?
            do {
                _ = try await client.perform(slow, 30)
            } catch {
                if let timeout = error.timeout {
                    // waitingForResponse 10.0 the call's timeout (…)
                    print(timeout.phase, timeout.limit ?? 0, timeout.setting)
                    seen = timeout
                }
            }
            let timeout = try XCTUnwrap(seen)
            // Waiting for the response, unless the machine was too busy to connect within the second.
            XCTAssertTrue([.waitingForResponse, .sending, .connecting].contains(timeout.phase), "\(timeout)")
            XCTAssertEqual(timeout.limit, 1)
            XCTAssertEqual(timeout.setting, TimeoutFailure.callTimeout)
        }
    #endif

    func testErrorHandlers() async {
        let (client, stubs) = stubbedClient()
        stubs.stub(.repo, with: .text(#"{"code":34,"message":"Not Found"}"#, statusCode: 404))
        do {
            _ = try await client.perform(.repo, "octocat", "nope")
            XCTFail("404")
        } catch {
            if case .application(let error as APIError, let status) = error.reason {
                print("\(status): \(error.message)")  // 404: Not Found
                XCTAssertEqual(status, 404)
                XCTAssertEqual(error.code, 34)
            } else {
                XCTFail("\(error)")
            }
        }

        client.errorHandler = EnvelopeErrorHandler()
        stubs.stub(.userRepos, with: .text(#"{"error":"rate limited"}"#))
        do {
            _ = try await client.perform(.userRepos, "octocat", "updated")
            XCTFail("the envelope says error")
        } catch {
            guard case .application(let envelope as EnvelopeError, 200) = error.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(envelope.error, "rate limited")
        }
    }

    func testAuthenticationProvider() async throws {
        let (client, stubs) = stubbedClient()
        client.authenticationProvider = BearerTokenProvider(store: TokenStore())
        stubs.stub(.userRepos, with: .status(401), .json([Repo(id: 1, name: "kit")]))

        let repos = try await client.perform(.userRepos, "octocat", "updated")

        XCTAssertEqual(repos.count, 1)
        XCTAssertEqual(
            stubs.requests.map { $0.request.value(forHTTPHeaderField: "Authorization") },
            ["Bearer expired", "Bearer fresh"])

        stubs.stub(.userRepos, with: .status(401))
        do {
            _ = try await client.perform(.userRepos, "octocat", "updated")
            XCTFail("the fresh token is refused too")
        } catch {
            // authentication failed: TokenRefused()
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "TokenRefused()")
        }
        XCTAssertEqual(stubs.requests.count, 3)

        struct AlwaysRetry: AuthenticationProvider {
            func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest
            { request }
            func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor)
                async throws
                -> AuthenticationDecision
            { response.statusCode == 401 ? .retry : .proceed }
        }
        client.authenticationProvider = AlwaysRetry()
        stubs.reset()
        stubs.stub(.userRepos, with: .status(401))
        do {
            _ = try await client.perform(.userRepos, "octocat", "updated")
            XCTFail("the client stops retrying")
        } catch {
            XCTAssertEqual(
                "\(error)",
                "userRepos (GET https://api.example.com/users/octocat/repos?sort=updated): authentication failed: "
                    + "still refused after 3 retries (status 401)")
        }
        XCTAssertEqual(stubs.requests.count, 4, "the first try and three retries")
    }

    func testBasicAuthentication() async throws {
        let (client, stubs) = stubbedClient()
        stubs.stub(
            .userRepos, with: .status(401, headers: ["WWW-Authenticate": #"Basic realm="api""#]),
            .json([Repo(id: 1, name: "kit")]))

        client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "passwd")

        _ = try await client.perform(.userRepos, "octocat", "updated")
        _ = try await client.perform(.userRepos, "octocat", "updated")
        XCTAssertEqual(
            stubs.requests.map { $0.request.value(forHTTPHeaderField: "Authorization") },
            [nil, "Basic dXNlcjpwYXNzd2Q=", "Basic dXNlcjpwYXNzd2Q="])

        let insecure = WebServiceClient(serviceRoot: URL(string: "http://api.example.com/")!, transport: stubs)
        insecure.authenticationProvider = BasicAuthenticationProvider(
            user: "user", password: "passwd", sendsPreemptively: true)
        do {
            _ = try await insecure.perform(.userRepos, "octocat", "updated")
            XCTFail("no Basic credentials over plain http")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.hasPrefix("refusing to send Basic credentials over plain http"), reason)
        }

        stubs.reset()
        stubs.stub(.userRepos, with: .status(401, headers: ["WWW-Authenticate": #"Basic realm="api""#]))
        do {
            _ = try await client.perform(.userRepos, "octocat", "updated")
            XCTFail("refused credentials")
        } catch {
            XCTAssertEqual(
                error.reason.description,
                #"authentication failed: the server refused the Basic credentials for realm "api""#)
        }
        XCTAssertEqual(stubs.requests.count, 1, "sent preemptively, refused, not retried")
    }

    func testDigestAuthentication() async throws {
        let (client, stubs) = stubbedClient()
        let challenge = #"Digest realm="api", qop="auth", algorithm=SHA-256, nonce="7ypf", opaque="x1""#
        stubs.stub(
            .userRepos, with: .status(401, headers: ["WWW-Authenticate": challenge]), .json([Repo(id: 1, name: "kit")]))

        client.authenticationProvider = DigestAuthenticationProvider(user: "user", password: "passwd")

        _ = try await client.perform(.userRepos, "octocat", "updated")
        let sent = stubs.requests.map { $0.request.value(forHTTPHeaderField: "Authorization") }
        XCTAssertEqual(sent.count, 2)
        XCTAssertNil(sent[0])
        let answer = try XCTUnwrap(sent[1])
        XCTAssertTrue(answer.hasPrefix(#"Digest username="user", realm="api""#), answer)
        XCTAssertTrue(answer.contains("algorithm=SHA-256"), answer)
        XCTAssertTrue(answer.contains(#"uri="/users/octocat/repos?sort=updated""#), answer)
    }

    func testSingleFlightTokens() async throws {
        let (client, stubs) = stubbedClient()
        stubs.stub(.userRepos, with: .status(401), .json([Repo(id: 1, name: "kit")]))

        let provider = SingleFlightAuthenticationProvider(TokenLogin())
        client.authenticationProvider = provider

        _ = try await client.perform(.userRepos, "octocat", "updated")

        XCTAssertEqual(
            stubs.requests.map { $0.request.value(forHTTPHeaderField: "Authorization") },
            ["Bearer first-token", "Bearer second-token"])
        XCTAssertEqual(provider.credential, "second-token")
        await provider.invalidate()
        XCTAssertFalse(provider.isAuthenticated)
    }

    func testRedirects() async throws {
        let (client, stubs) = stubbedClient()
        let moved = WebServiceCall<String>(relativePath: "old-name")
        stubs.stub(moved, with: .status(301, headers: ["Location": "/new-name"]), .text("landed"))

        let response = try await client.response(for: moved)
        print(response.value, response.request.url!)  // landed https://api.example.com/new-name

        XCTAssertEqual(response.value, "landed")
        XCTAssertEqual(response.request.url?.absoluteString, "https://api.example.com/new-name")
        XCTAssertEqual(stubs.requests.count, 2)

        client.maximumRedirects = 0
        stubs.stub(moved, with: .status(301, headers: ["Location": "/new-name"]))
        do {
            _ = try await client.perform(moved)
            XCTFail("a 301 is not a success code")
        } catch {
            XCTAssertEqual(error.statusCode, 301)
        }
    }

    func testClientSettings() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)

        client.sharedHeaders = ["User-Agent": "MyApp/1.0", "Accept-Language": "de"]
        client.successCodes = [200..<300, 304]
        client.requestSerializer = .formURLEncoded
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        client.jsonDecoder = decoder  // assign a configured decoder; do not mutate client.jsonDecoder in place
        client.errorHandler = EnvelopeErrorHandler()
        client.interceptors = [RequestProcessor { request, _ in request.setValue("1", forHTTPHeaderField: "X-Debug") }]
        client.authenticationProvider = BearerTokenProvider(store: TokenStore())
        client.timeout = 30
        client.maximumRedirects = 5
        client.logLevel = .basic
        client.logRedaction = LogRedaction(headers: ["X-Api-Key"])

        let request = try client.request(for: .createRepo, arguments: [["name": "kit"]])
        XCTAssertEqual(request.timeoutInterval, 30)
        XCTAssertEqual(String(decoding: request.httpBody ?? Data(), as: UTF8.self), "name=kit")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept-Language"), "de")
        XCTAssertNil(request.value(forHTTPHeaderField: "X-Debug"), "request(for:) runs no interceptor")
        XCTAssertTrue(client.successCodes.contains(304))
        XCTAssertTrue(client.logRedaction.redactsHeader("x-api-key"))
    }

    // MARK: Serialization.md

    func testWindows1251RoundTrip() async throws {
        let answer = "Привет, Иван".data(using: .windowsCP1251)!
        let (client, stubs) = stubbedClient(
            .init(headers: ["Content-Type": "text/plain; charset=windows-1251"], body: answer))

        let reply = try await client.perform(.legacyGreeting, "Привет")

        XCTAssertEqual(reply, "Привет, Иван")
        let sent = try XCTUnwrap(stubs.requests.last?.request)
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Content-Type"), "text/plain; charset=windows-1251")
        XCTAssertEqual(sent.httpBody, "Привет".data(using: .windowsCP1251))
        XCTAssertEqual(sent.httpBody?.count, 6)

        let person = #"{"name":"Иван","city":"Москва"}"#.data(using: .windowsCP1251)!
        stubs.stub(
            .legacyPerson,
            with: .init(headers: ["Content-Type": "application/json; charset=windows-1251"], body: person))
        let echoed = try await client.perform(.legacyPerson, Person(name: "Иван", city: "Москва"))
        XCTAssertEqual(echoed, Person(name: "Иван", city: "Москва"))
        let json = try XCTUnwrap(stubs.requests.last?.request)
        XCTAssertEqual(json.value(forHTTPHeaderField: "Content-Type"), "application/json; charset=windows-1251")
        let text = try XCTUnwrap(String(data: json.httpBody ?? Data(), encoding: .windowsCP1251))
        XCTAssertEqual(
            try JSONDecoder().decode(Person.self, from: Data(text.utf8)), Person(name: "Иван", city: "Москва"))
        XCTAssertEqual(json.httpBody?.count, text.count, "one byte per character")

        let latin1 = WebServiceCall<String>(
            method: .post, relativePath: "p", requestSerializer: .text, bodyCharset: .isoLatin1)
        do {
            _ = try await client.perform(latin1, "Привет")
            XCTFail("Cyrillic has no ISO 8859-1 form")
        } catch {
            // could not serialize the request body: argument 0 (String): the text cannot be represented in iso-8859-1
            XCTAssertEqual(
                error.reason.description,
                "could not serialize the request body: argument 0 (String): the text cannot be represented in iso-8859-1"
            )
        }
    }

    func testCharsetLookup() throws {
        XCTAssertEqual(Charset(ianaName: "CP1251"), .windows1251)
        XCTAssertEqual(Charset(ianaName: "latin1"), .isoLatin1)
        XCTAssertNil(Charset(ianaName: "iso-2022-jp"))

        let iso2022JP = Charset(ianaName: "iso-2022-jp", encoding: .iso2022JP)
        let call = WebServiceCall<EmptyResponse>(
            method: .post, relativePath: "jp", requestSerializer: .text, bodyCharset: iso2022JP)

        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
        let request = try client.request(for: call, arguments: ["日本"])
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "text/plain; charset=iso-2022-jp")
        XCTAssertEqual(request.httpBody, "日本".data(using: .iso2022JP))
    }

    func testXMLCoders() throws {
        let data = try XMLValueEncoder().encode(Price(currency: "EUR", amount: 12.5), rootElement: "price")
        // <?xml version="1.0" encoding="UTF-8"?><price currency="EUR">12.5</price>
        let price = try XMLValueDecoder().decode(Price.self, from: data)

        XCTAssertEqual(
            String(decoding: data, as: UTF8.self),
            #"<?xml version="1.0" encoding="UTF-8"?><price currency="EUR">12.5</price>"#)
        XCTAssertEqual(price, Price(currency: "EUR", amount: 12.5))

        var encoder = XMLValueEncoder()
        encoder.includesDeclaration = false
        encoder.prettyPrinted = true
        encoder.dateEncodingStrategy = .secondsSince1970
        let product = Product(id: 1, title: "Lamp", price: Price(currency: "EUR", amount: 12.5))
        let text = String(decoding: try encoder.encode(product), as: UTF8.self)

        XCTAssertEqual(
            text,
            """
            <Product id="1">
                <title>Lamp</title>
                <price currency="EUR">12.5</price>
            </Product>

            """)
    }

    func testXMLCalls() async throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <catalogue>
              <products>
                <product id="1"><title>Lamp</title><price currency="EUR">12.5</price></product>
                <product id="2"><title>Chair</title><price currency="EUR">40</price></product>
              </products>
            </catalogue>
            """
        let (client, stubs) = stubbedClient(.text(xml, contentType: "application/xml"))

        let products = try await client.perform(.catalogue)
        _ = try await client.perform(.putProduct, 1, products[0])

        XCTAssertEqual(products.map(\.title), ["Lamp", "Chair"])
        XCTAssertEqual(products[1].price, Price(currency: "EUR", amount: 40))
        let sent = try XCTUnwrap(stubs.requests.last?.request)
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Content-Type"), "application/xml; charset=utf-8")
        XCTAssertEqual(
            String(decoding: sent.httpBody ?? Data(), as: UTF8.self),
            #"<?xml version="1.0" encoding="utf-8"?><Product id="1"><title>Lamp</title>"#
                + #"<price currency="EUR">12.5</price></Product>"#)
    }

    func testFormEncoding() async throws {
        let (client, stubs) = stubbedClient(.status(204))

        _ = try await client.perform(
            .signup,
            Signup(
                name: "Ann Lee", tags: ["a", "b"], newsletter: true, address: ["city": "Köln"], referrer: nil))
        // address%5Bcity%5D=K%C3%B6ln&name=Ann+Lee&newsletter=true&tags%5B%5D=a&tags%5B%5D=b

        let pairs: [(String, String)] = [("q", "a&b=c"), ("q", "~ *")]
        _ = try await client.perform(.signup, [pairs])
        // q=a%26b%3Dc&q=%7E+*

        let bodies = stubs.requests.map { String(decoding: $0.request.httpBody ?? Data(), as: UTF8.self) }
        XCTAssertEqual(
            bodies,
            [
                "address%5Bcity%5D=K%C3%B6ln&name=Ann+Lee&newsletter=true&tags%5B%5D=a&tags%5B%5D=b",
                "q=a%26b%3Dc&q=%7E+*",
            ])
        XCTAssertEqual(
            stubs.requests.last?.request.value(forHTTPHeaderField: "Content-Type"),
            "application/x-www-form-urlencoded; charset=utf-8")

        let dated = WebServiceCall<EmptyResponse>(
            method: .post, relativePath: "d", requestSerializer: FormURLEncodedRequestSerializer())
        let request = try client.request(for: dated, arguments: [["when": Date(timeIntervalSince1970: 0)]])
        // The form serializer's default encoder writes dates as ISO 8601.
        XCTAssertEqual(String(decoding: request.httpBody ?? Data(), as: UTF8.self), "when=1970-01-01T00%3A00%3A00Z")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let iso = WebServiceCall<EmptyResponse>(
            method: .post, relativePath: "d", requestSerializer: FormURLEncodedRequestSerializer(encoder: encoder))
        let isoRequest = try client.request(for: iso, arguments: [["when": Date(timeIntervalSince1970: 0)]])
        XCTAssertEqual(String(decoding: isoRequest.httpBody ?? Data(), as: UTF8.self), "when=1970-01-01T00%3A00%3A00Z")
    }

    func testResponseSerializers() async throws {
        let (client, stubs) = stubbedClient()
        stubs.stub(.report, with: .text("name,count\nkit,3\n", contentType: "text/csv"))
        stubs.stub(.visitorCount, with: .text("42\n"))

        let rows = try await client.perform(.report)
        let visitors = try await client.perform(.visitorCount)

        XCTAssertEqual(rows, [["name", "count"], ["kit", "3"]])
        XCTAssertEqual(visitors, 42)

        stubs.stub(.report, with: .status(204))
        let empty = try await client.perform(.report)
        XCTAssertEqual(empty, [])

        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Event: Decodable, Sendable { let createdAt: String }
        let events = WebServiceCall(
            relativePath: "events", serializer: JSONResponseSerializer<[Event]>(decoder: decoder))
        stubs.stub(events, with: .text(#"[{"created_at":"2024-01-01"}]"#))
        let decoded = try await client.perform(events)
        XCTAssertEqual(decoded.first?.createdAt, "2024-01-01")

        let legacy = WebServiceCall(
            relativePath: "legacy.txt", serializer: StringResponseSerializer(defaultCharset: .windows1251))
        stubs.stub(legacy, with: .init(body: "Привет".data(using: .windowsCP1251)!))
        let text = try await client.perform(legacy)
        XCTAssertEqual(text, "Привет")
    }

    func testRequestSerializers() throws {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)

        let request = try client.request(for: .sendLines, arguments: [["b": "2", "a": "1"]])

        XCTAssertEqual(String(decoding: request.httpBody ?? Data(), as: UTF8.self), "a: 1\nb: 2")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "text/x-lines; charset=utf-8")

        let markdown = WebServiceCall<EmptyResponse>(
            method: .post, relativePath: "notes", requestSerializer: TextRequestSerializer(mediaType: "text/markdown"))
        let note = try client.request(for: markdown, arguments: ["# Title"])
        XCTAssertEqual(note.value(forHTTPHeaderField: "Content-Type"), "text/markdown; charset=utf-8")

        XCTAssertThrowsError(try client.request(for: .sendLines, arguments: [42])) { error in
            // could not serialize the request body: argument 0 (Int): a lines body must be [String: String]; got Int
            XCTAssertEqual(
                "\(error)",
                "could not serialize the request body: argument 0 (Int): a lines body must be [String: String]; got Int"
            )
        }
    }
}

/// The opening examples of Docs/Metrics.md and Docs/Retries.md, run as written but for the
/// client's transport (a `StubTransport` in place of the network) and the retry policy's waits
/// (recorded, not slept). Both once passed three arguments to `.userRepos`, which has two
/// wildcards, and failed when run.
final class GuideOpeningExamplesTests: XCTestCase {
    private func client(_ stubs: StubTransport) -> WebServiceClient {
        WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
    }

    func testTheMetricsGuideOpening() async throws {
        let stubs = StubTransport()
        stubs.stub(.userRepos, with: .json([Repo(id: 1, name: "kit")]))
        let client = client(stubs)

        let response = try await client.response(for: .userRepos, "octocat", "updated")
        let metrics = response.metrics
        print(metrics.duration, metrics.attempts, metrics.redirects, metrics.source as Any)
        for request in metrics.transactions {
            print(
                request.send, request.reason, request.route as Any, request.connectionReused as Any,
                request.connectDuration as Any, request.timeToFirstByte as Any, request.duration,
                request.bytesSent as Any, request.bytesReceived as Any)
        }
        print(metrics)  // one line for the call, one per request

        XCTAssertEqual(metrics.attempts, 1)
        XCTAssertEqual(metrics.transactions.count, 1)
        XCTAssertEqual(
            stubs.requests.first?.request.url?.absoluteString,
            "https://api.example.com/users/octocat/repos?sort=updated")
    }

    func testTheRetriesGuideOpening() async throws {
        let stubs = StubTransport()
        stubs.stub(.userRepos, with: .status(503), .json([Repo(id: 1, name: "kit")]))
        let client = client(stubs)
        client.retryPolicy = RetryPolicy(maximumAttempts: 3, environment: RecordingRetryEnvironment())

        let response = try await client.response(for: .userRepos, "octocat", "updated")
        print(response.attempts)  // 1, 2 or 3

        XCTAssertEqual(response.attempts, 2)
        XCTAssertEqual(response.value, [Repo(id: 1, name: "kit")])
    }
}
