import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct TypedRepo: Codable, Equatable, Sendable { let name: String }
struct TypedNote: Codable, Equatable, Sendable { let title: String }
enum TypedSort: String, Sendable { case updated, created }

extension TypedCall where Arguments == ArgumentList<String, TypedSort>, Body == NoBody, Response == [TypedRepo] {
    static let typedUserRepos = TypedCall(
        .init(name: "typedUserRepos", relativePath: "users/%%0%%/repos?sort=%%1%%", headers: ["X-User": "%%0%%"]))
}

extension TypedCall where Arguments == ArgumentList<>, Body == NoBody, Response == Data {
    static let typedPing = TypedCall(.init(relativePath: "ping"))
}

extension TypedCall where Arguments == ArgumentList<Int?>, Body == NoBody, Response == Data {
    static let typedPage = TypedCall(.init(relativePath: "items?page=%%0%%"))
}

extension TypedCall where Arguments == ArgumentList<String>, Body == TypedNote, Response == TypedNote {
    static let typedCreateNote = TypedCall(.init(method: .post, relativePath: "users/%%0%%/notes"))
}

extension TypedCall where Arguments == ArgumentList<>, Body == [FormData], Response == Data {
    static let typedUpload = TypedCall(
        .init(method: .post, relativePath: "upload", multipartBoundary: "typed-boundary"))
}

extension TypedCall
where Arguments == ArgumentList<String, DownloadDestination>, Body == NoBody, Response == DownloadedFile {
    static let typedFile = TypedCall(.init(relativePath: "files/%%0%%"))
}

extension TypedCall where Arguments == ArgumentList<String>, Body == NoBody, Response == ResponseStream<String> {
    static let typedLines = TypedCall(.init(relativePath: "lines/%%0%%", stream: .lines))
}

/// ``TypedCall``: every form of the client takes one, sends what the untyped form with the same
/// values sends, and the declaration is checked against its template.
final class TypedCallTests: XCTestCase {
    func testEveryFormSendsTheDeclaredArgumentsWhereTheTemplateSays() async throws {
        let (client, stubs) = makeStubClient(fallback: .json([TypedRepo(name: "r")]))
        let repos = try await client.perform(.typedUserRepos, "octo cat", .updated)
        XCTAssertEqual(repos, [TypedRepo(name: "r")])
        let response = try await client.response(for: .typedUserRepos, "b", .created)
        XCTAssertEqual(response.statusCode, 200)
        let completed = expectation(description: "completion")
        client.perform(.typedUserRepos, "c", .updated) { result in
            XCTAssertEqual(try? result.get().value, [TypedRepo(name: "r")])
            completed.fulfill()
        }
        let succeeded = expectation(description: "success")
        client.perform(
            .typedUserRepos, "d", .created, success: { _ in succeeded.fulfill() },
            failure: { XCTFail("\($0)") })
        await fulfillment(of: [completed, succeeded], timeout: 30)
        let blocking: [TypedRepo] = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try client.performSynchronously(.typedUserRepos, "e", .updated).value })
            }
        }
        XCTAssertEqual(blocking, [TypedRepo(name: "r")])
        let sent = stubs.requests.map(\.request)
        XCTAssertEqual(
            Set(sent.compactMap { $0.url?.absoluteString }),
            [
                "https://api.example.com/v1/users/octo%20cat/repos?sort=updated",
                "https://api.example.com/v1/users/b/repos?sort=created",
                "https://api.example.com/v1/users/c/repos?sort=updated",
                "https://api.example.com/v1/users/d/repos?sort=created",
                "https://api.example.com/v1/users/e/repos?sort=updated",
            ])
        XCTAssertEqual(sent.first?.value(forHTTPHeaderField: "X-User"), "octo cat")
    }

    func testTheTypedFormSendsWhatTheUntypedFormSendsWithTheSameValues() async throws {
        let (client, stubs) = makeStubClient(fallback: .json(TypedNote(title: "back")))
        let note = try await client.perform(.typedCreateNote, "octocat", body: TypedNote(title: "Hi"))
        XCTAssertEqual(note, TypedNote(title: "back"))
        let untyped = WebServiceCall<TypedNote>(method: .post, relativePath: "users/%%0%%/notes")
        _ = try await client.perform(untyped, "octocat", TypedNote(title: "Hi"))
        let (typed, plain) = (stubs.requests[0].request, stubs.requests[1].request)
        XCTAssertEqual(typed.url, plain.url)
        XCTAssertEqual(typed.httpMethod, "POST")
        XCTAssertEqual(typed.httpBody, plain.httpBody)
        XCTAssertEqual(typed.value(forHTTPHeaderField: "Content-Type"), plain.value(forHTTPHeaderField: "Content-Type"))
        XCTAssertEqual(try JSONDecoder().decode(TypedNote.self, from: typed.httpBody ?? Data()), TypedNote(title: "Hi"))
        XCTAssertEqual(TypedCall.typedCreateNote.bodyParameter, 1, "the body is the argument after the declared one")
    }

    func testNoArgumentsAnOptionalThatDropsItsItemAndAMultipartBody() async throws {
        let (client, stubs) = makeStubClient()
        _ = try await client.perform(.typedPing)
        _ = try await client.perform(.typedPage, nil)
        _ = try await client.perform(.typedPage, 3)
        _ = try await client.perform(
            .typedUpload, body: [FormData(name: "a", value: "1"), FormData(name: "b", value: "2")])
        let sent = stubs.requests.map(\.request)
        XCTAssertEqual(
            sent.map { $0.url?.absoluteString ?? "" }.prefix(3),
            [
                "https://api.example.com/v1/ping", "https://api.example.com/v1/items",
                "https://api.example.com/v1/items?page=3",
            ])
        let body = String(decoding: sent[3].httpBody ?? Data(), as: UTF8.self)
        XCTAssertTrue(
            body.contains("--typed-boundary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"), body)
        XCTAssertTrue(body.contains("name=\"b\"\r\n\r\n2\r\n--typed-boundary--"), body)
    }

    func testProgressGoesToTheProgressParameterAndPrepareChangesTheRequest() async throws {
        let (client, stubs) = makeStubClient(fallback: .text(String(repeating: "x", count: 1_000)))
        let events = LockedEvents()
        _ = try await client.perform(
            .typedUpload, body: [FormData(name: "a", value: String(repeating: "y", count: 500))],
            prepare: { request in request.setValue("1", forHTTPHeaderField: "X-Prepared") },
            progress: { progress in events.append(progress.isFinished) })
        XCTAssertEqual(events.all.last, true, "the progress handler saw the transfer finish")
        XCTAssertEqual(stubs.requests.first?.request.value(forHTTPHeaderField: "X-Prepared"), "1")
    }

    func testADownloadDestinationIsADeclaredArgumentThatNoWildcardUses() async throws {
        let (client, stubs) = makeStubClient(fallback: .text("hello, file"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("a.txt")
        let file = try await client.perform(.typedFile, "a", DownloadDestination(destination))
        XCTAssertEqual(file.url.standardizedFileURL, destination.standardizedFileURL)
        XCTAssertEqual(try String(contentsOf: destination, encoding: .utf8), "hello, file")
        XCTAssertEqual(stubs.requests.first?.request.url?.path, "/v1/files/a")
    }

    func testAStreamedCall() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(.typedLines, with: .text("one\ntwo\n"))
        var lines: [String] = []
        for try await line in try await client.stream(.typedLines, "x") { lines.append(line) }
        XCTAssertEqual(lines, ["one", "two"])
        XCTAssertEqual(stubs.requests.first?.request.url?.path, "/v1/lines/x")
    }

    func testAnArgumentThatIsNotProvidedByTheTypeIsImpossibleButAWrongValueStillFailsTyped() async {
        // The compiler checks count and types (CompileFailureTests); a value of a declared type
        // can still be wrong for its place: nil in a path.
        let optionalPath = TypedCall<ArgumentList<String?>, NoBody, Data>(.init(relativePath: "u/%%0%%"))
        let (client, _) = makeStubClient()
        do {
            _ = try await client.perform(optionalPath, nil)
            XCTFail("nil filled a path segment")
        } catch {
            guard case .invalidArguments(0, let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("nil"), reason)
        }
    }
}

/// The declaration check: a ``TypedCall`` whose template does not fit its declared arguments
/// fails every call with a message that says what to change, and `validate()` throws it.
final class TypedCallDeclarationTests: XCTestCase {
    private struct Opaque: Sendable {}

    private func problem<A, B, R>(_ call: TypedCall<A, B, R>) -> String? {
        do {
            try call.validate()
            return nil
        } catch {
            guard case .invalidCall(let reason) = error.reason else { return "unexpected \(error)" }
            return reason
        }
    }

    func testEveryDeclarationTheTestsUseIsValid() throws {
        try TypedCall.typedUserRepos.validate()
        try TypedCall.typedPing.validate()
        try TypedCall.typedPage.validate()
        try TypedCall.typedCreateNote.validate()
        try TypedCall.typedUpload.validate()
        try TypedCall.typedFile.validate()
        try TypedCall.typedLines.validate()
    }

    func testAWildcardBeyondTheDeclaredArguments() {
        let call = TypedCall<ArgumentList<String>, NoBody, Data>(.init(relativePath: "u/%%0%%/r/%%1%%"))
        XCTAssertEqual(
            problem(call),
            "the template uses %%1%% but the call declares 1 argument (ArgumentList<String>); declare one type per "
                + "wildcard, %%0%% first")
        let header = TypedCall<ArgumentList<>, NoBody, Data>(.init(relativePath: "u", headers: ["X": "%%0%%"]))
        XCTAssertNotNil(problem(header)?.range(of: "uses %%0%% but the call declares 0 arguments"))
    }

    func testADeclaredArgumentNoWildcardUses() {
        let call = TypedCall<ArgumentList<String, Int>, NoBody, Data>(.init(relativePath: "u/%%0%%"))
        XCTAssertEqual(
            problem(call),
            "argument 1 of ArgumentList<String, Int> (Int) fills no wildcard: the template has no %%1%%; use it in "
                + "the relative path, a header or the cache identifier, or remove it")
        let cached = TypedCall<ArgumentList<String, Int>, NoBody, Data>(
            .init(relativePath: "u/%%0%%", cacheIdentifier: "u-%%1%%"))
        XCTAssertNil(problem(cached), "the cache identifier uses it")
    }

    func testATypeThatCannotFillAWildcard() {
        let call = TypedCall<ArgumentList<Opaque>, NoBody, Data>(.init(relativePath: "u/%%0%%"))
        XCTAssertEqual(
            problem(call)?.hasPrefix("argument 0 of ArgumentList<Opaque> is a Opaque, which cannot fill %%0%%"), true)
        let nested = TypedCall<ArgumentList<[[Int]]>, NoBody, Data>(.init(relativePath: "u?a=%%0%%"))
        XCTAssertNotNil(problem(nested), "a list of lists has no textual form")
    }

    func testBodyAndProgressParametersAreTheTypedFormsOwn() {
        let progress = TypedCall<ArgumentList<>, NoBody, Data>(.init(relativePath: "u", progressParameter: 0))
        XCTAssertNotNil(problem(progress)?.range(of: "remove progressParameter"))
        let body = TypedCall<ArgumentList<>, TypedNote, Data>(.init(method: .post, relativePath: "u", bodyParameter: 3))
        XCTAssertNotNil(problem(body)?.range(of: "remove bodyParameter"))
        let noBody = TypedCall<ArgumentList<>, NoBody, Data>(.init(method: .post, relativePath: "u", bodyParameter: 0))
        XCTAssertNotNil(problem(noBody)?.range(of: "sends no body"))
    }

    func testEveryCallOfAnInvalidDeclarationFailsWithItsProblemAndSendsNothing() async {
        let call = TypedCall<ArgumentList<String, Int>, NoBody, Data>(.init(relativePath: "u/%%0%%"))
        let (client, stubs) = makeStubClient()
        do {
            _ = try await client.perform(call, "a", 1)
            XCTFail("an invalid declaration was sent")
        } catch {
            guard case .invalidCall(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, problem(call))
        }
        XCTAssertTrue(stubs.requests.isEmpty)
    }
}

/// Progress events, gathered from the callback queue.
private final class LockedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [Bool] = []
    func append(_ event: Bool) { lock.withLock { events.append(event) } }
    var all: [Bool] { lock.withLock { events } }
}
