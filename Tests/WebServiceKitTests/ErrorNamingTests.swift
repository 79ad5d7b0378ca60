import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every error a call delivers names the call: the descriptor's name, the method and the URL
/// (redacted as the log redacts it), first in its description. One row per ``WebServiceError/Reason``
/// case, each made the way a user meets it; the switch in ``testEveryReasonHasARow`` has no
/// `default`, so a new case does not compile until it has a row.
final class ErrorNamingTests: XCTestCase {
    private struct Item: Codable, Sendable { let id: Int }
    private struct APIError: Error, Codable, Sendable { let message: String }
    private struct Refusal: Error, CustomStringConvertible { var description: String { "not today" } }

    private struct Refusing: WebServiceInterceptor {
        func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
            throw Refusal()
        }
    }

    /// One failing call: what it is called, how it is made, and what its error must say.
    private struct Row {
        let reason: String
        let name: String
        let method: String
        let url: String
        let run: @Sendable (WebServiceClient, StubTransport) async -> WebServiceError?
    }

    private static let root = "https://api.example.com/v1/"

    private static func failure(_ work: () async throws -> Void) async -> WebServiceError? {
        do {
            try await work()
            return nil
        } catch {
            return error as? WebServiceError ?? .invalidCall("not a WebServiceError: \(error)")
        }
    }

    private func rows() -> [Row] {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("naming-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: temporary.path, contents: Data("taken".utf8))
        addTeardownBlock { try? FileManager.default.removeItem(at: temporary) }
        return [
            Row(reason: "invalidCall", name: "badTemplate", method: "GET", url: "items/%%x%%") { client, _ in
                await Self.failure {
                    _ = try await client.perform(WebServiceCall<Data>(name: "badTemplate", relativePath: "items/%%x%%"))
                }
            },
            Row(reason: "invalidArguments", name: "item", method: "GET", url: "items/%%0%%") { client, _ in
                await Self.failure {
                    _ = try await client.perform(WebServiceCall<Data>(name: "item", relativePath: "items/%%0%%"))
                }
            },
            Row(reason: "invalidHeader", name: "traced", method: "GET", url: "traced") { client, _ in
                // Refused as the request is built: its URL was not made yet.
                await Self.failure {
                    _ = try await client.perform(
                        WebServiceCall<Data>(name: "traced", relativePath: "traced", headers: ["X-Trace": "%%0%%"]),
                        "a\r\nX-Injected: 1")
                }
            },
            Row(reason: "requestSerialization", name: "latin", method: "POST", url: "latin") { client, _ in
                await Self.failure {
                    _ = try await client.perform(
                        WebServiceCall<Data>(
                            name: "latin", method: .post, relativePath: "latin",
                            requestSerializer: TextRequestSerializer(), bodyCharset: .isoLatin1),
                        "Привет")
                }
            },
            Row(reason: "transport", name: "down", method: "GET", url: Self.root + "down") { client, stubs in
                let call = WebServiceCall<Data>(name: "down", relativePath: "down")
                stubs.stub(call, with: .failure(.cannotConnectToHost))
                return await Self.failure { _ = try await client.perform(call) }
            },
            Row(reason: "unacceptableStatus", name: "missing", method: "DELETE", url: Self.root + "items/7") {
                client, stubs in
                let call = WebServiceCall<Data>(name: "missing", method: .delete, relativePath: "items/%%0%%")
                stubs.stub(call, with: .status(404))
                return await Self.failure { _ = try await client.perform(call, 7) }
            },
            Row(reason: "emptyBody", name: "empty", method: "GET", url: Self.root + "empty") { client, stubs in
                let call = WebServiceCall<Item>(name: "empty", relativePath: "empty")
                stubs.stub(call, with: .status(204))
                return await Self.failure { _ = try await client.perform(call) }
            },
            Row(reason: "decoding", name: "item", method: "GET", url: Self.root + "items?id=3") { client, stubs in
                let call = WebServiceCall<Item>(name: "item", relativePath: "items?id=%%0%%")
                stubs.stub(call, with: .text(#"{"id":"three"}"#))
                return await Self.failure { _ = try await client.perform(call, 3) }
            },
            Row(reason: "application", name: "guarded", method: "GET", url: Self.root + "guarded") { client, stubs in
                let call = WebServiceCall<Data>(
                    name: "guarded", relativePath: "guarded", errorHandler: DecodableErrorHandler(APIError.self))
                stubs.stub(call, with: .text(#"{"message":"no"}"#, statusCode: 403))
                return await Self.failure { _ = try await client.perform(call) }
            },
            Row(reason: "authentication", name: "secret", method: "GET", url: Self.root + "secret") { client, stubs in
                let call = WebServiceCall<Data>(name: "secret", relativePath: "secret")
                stubs.stub(call, with: .status(401, headers: ["WWW-Authenticate": #"Basic realm="api""#]))
                client.authenticationProvider = BasicAuthenticationProvider(user: "user", password: "wrong")
                return await Self.failure { _ = try await client.perform(call) }
            },
            Row(reason: "intercepted", name: "refused", method: "GET", url: Self.root + "refused") { client, _ in
                client.interceptors = [Refusing()]
                return await Self.failure {
                    _ = try await client.perform(WebServiceCall<Data>(name: "refused", relativePath: "refused"))
                }
            },
            Row(reason: "cancelled", name: "slow", method: "GET", url: "slow") { client, stubs in
                // A callback call cancelled by its task: it has not built its URL when it is told.
                let call = WebServiceCall<Data>(name: "slow", relativePath: "slow")
                stubs.stub(call, with: .failure(.timedOut, delay: 30))
                return await withCheckedContinuation { continuation in
                    let task = client.perform(call, [], success: { _ in continuation.resume(returning: nil) }) {
                        continuation.resume(returning: $0)
                    }
                    task.cancel(reason: "enough")
                }
            },
            Row(reason: "download", name: "report", method: "GET", url: Self.root + "report") { client, _ in
                await Self.failure {
                    _ = try await client.perform(
                        WebServiceCall<DownloadedFile>(name: "report", relativePath: "report"),
                        DownloadDestination(temporary))
                }
            },
            Row(reason: "responseTooLarge", name: "blob", method: "GET", url: Self.root + "blob") { client, stubs in
                let call = WebServiceCall<Data>(name: "blob", relativePath: "blob")
                stubs.stub(call, with: .text(String(repeating: "x", count: 100)))
                client.maximumResponseBodySize = 10
                return await Self.failure { _ = try await client.perform(call) }
            },
            Row(reason: "retryAfterTooLong", name: "busy", method: "GET", url: Self.root + "busy") { client, stubs in
                let call = WebServiceCall<Data>(name: "busy", relativePath: "busy")
                stubs.stub(call, with: .status(503, headers: ["Retry-After": "600"]))
                client.retryPolicy = RetryPolicy(maximumAttempts: 3, maximumDelay: 1)
                return await Self.failure { _ = try await client.perform(call) }
            },
            Row(reason: "responseStream", name: "lines", method: "GET", url: Self.root + "lines") { client, stubs in
                let call = WebServiceCall<ResponseStream<String>>(
                    name: "lines", relativePath: "lines", stream: .lines(maximumLength: 4))
                stubs.stub(call, with: .text("a line too long\n"))
                return await Self.failure {
                    for try await _ in try await client.stream(call) {}
                }
            },
        ]
    }

    func testEveryErrorNamesItsCallMethodAndURL() async {
        for row in rows() {
            let stubs = StubTransport(fallback: .status(200))
            let client = WebServiceClient(serviceRoot: URL(string: Self.root)!, transport: stubs)
            guard let error = await row.run(client, stubs) else {
                XCTFail("\(row.reason): the call succeeded")
                continue
            }
            XCTAssertEqual(Self.caseName(error.reason), row.reason, "\(error)")
            XCTAssertEqual(error.call?.name, row.name, row.reason)
            XCTAssertEqual(error.call?.method, row.method, row.reason)
            XCTAssertEqual(error.call?.url, row.url, row.reason)
            let prefix = "\(row.name) (\(row.method) \(row.url)): "
            XCTAssertTrue(error.description.hasPrefix(prefix), "\(row.reason): \(error)")
            XCTAssertEqual(error.description, prefix + error.reason.description, row.reason)
            // What an app shows (`localizedDescription`, also as an `any Error`) says the same.
            XCTAssertEqual(error.localizedDescription, error.description, row.reason)
            XCTAssertEqual((error as any Error).localizedDescription, error.description, row.reason)
        }
    }

    func testEveryReasonHasARow() {
        let named = Set(rows().map(\.reason))
        XCTAssertEqual(named, Set(Self.everyReason))
        XCTAssertEqual(rows().count, Self.everyReason.count)
    }

    /// The refusals made before a call starts name it too: a blocking call inside a task, a
    /// stream of a call made without a stream format.
    func testRefusalsBeforeTheCallNameIt() async {
        let (client, _) = makeStubClient()
        let call = WebServiceCall<Data>(name: "blocking", relativePath: "b")
        let blocked = await Self.failure { _ = try client.performSynchronously(call) }
        XCTAssertEqual(blocked?.call?.name, "blocking")
        XCTAssertTrue(blocked?.description.hasPrefix("blocking (GET b): invalid call descriptor: ") == true)
        let notAStream = WebServiceCall<ResponseStream<String>>(
            name: "notAStream", relativePath: "s", serializer: StreamSerializerStandIn())
        let refused = await Self.failure { _ = try await client.stream(notAStream) }
        XCTAssertEqual(
            refused?.description,
            "notAStream (GET s): invalid call descriptor: the call was not made with a StreamFormat (init(_:stream:))")
    }

    /// A call without a name of its own is named by its method and URL alone.
    func testADescriptorWithoutANameIsItsMethodAndURL() async {
        let (client, stubs) = makeStubClient()
        let call = WebServiceCall<Data>(method: .put, relativePath: "items/%%0%%")
        stubs.stub(call, with: .status(409))
        let error = await Self.failure { _ = try await client.perform(call, "a b") }
        XCTAssertEqual(error?.description, "PUT https://api.example.com/v1/items/a%20b: unacceptable status 409")
        XCTAssertEqual(error?.call?.name, "PUT items/%%0%%")
    }

    /// The URL is redacted as the log redacts it, and a secret the reason's text quotes (a body
    /// that echoes the request) is hidden too, as in the body the error keeps.
    func testSecretsAreRedactedInTheURLAndTheText() async {
        let stubs = StubTransport()
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://user:pa55word@api.example.com/v1/")!, transport: stubs)
        client.logRedaction = LogRedaction(queryParameters: ["api_key"])
        let call = WebServiceCall<Data>(name: "search", relativePath: "search?q=%%0%%&api_key=%%1%%")
        stubs.stub(call, with: .text("you sent api_key=k3y-s3cret-42 and pa55word", statusCode: 400))
        let error = await Self.failure { _ = try await client.perform(call, "books", "k3y-s3cret-42") }
        XCTAssertEqual(
            error?.call?.url, "https://user:[redacted]@api.example.com/v1/search?q=books&api_key=[redacted]")
        let text = error?.description ?? ""
        XCTAssertFalse(text.contains("k3y-s3cret-42"), text)
        XCTAssertFalse(text.contains("pa55word"), text)
        XCTAssertTrue(text.hasSuffix("body starts: you sent api_key=[redacted] and [redacted]"), text)
        guard case .unacceptableStatus(400, _, let body)? = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "you sent api_key=[redacted] and [redacted]")
    }

    /// A reason whose own text quotes a secret (an interceptor's error that prints the URL) is
    /// hidden in the description; the typed reason keeps the interceptor's error as it was.
    func testASecretQuotedByAReasonIsHiddenInTheDescription() async {
        struct Quoting: WebServiceInterceptor {
            struct Quoted: Error, CustomStringConvertible { let description: String }
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                throw Quoted(description: "refused \(request.url?.absoluteString ?? "")")
            }
        }
        let (client, _) = makeStubClient()
        client.logRedaction = LogRedaction(queryParameters: ["api_key"])
        client.interceptors = [Quoting()]
        let call = WebServiceCall<Data>(name: "search", relativePath: "search?api_key=%%0%%")
        let error = await Self.failure { _ = try await client.perform(call, "k3y-s3cret-42") }
        XCTAssertEqual(
            error?.description,
            "search (GET https://api.example.com/v1/search?api_key=[redacted]): an interceptor refused the call: "
                + "refused https://api.example.com/v1/search?api_key=[redacted]")
        XCTAssertEqual(
            error?.reason.description,
            "an interceptor refused the call: refused https://api.example.com/v1/search?api_key=k3y-s3cret-42")
    }

    /// The twin of the redaction test: with nothing to redact, the same values show, so the test
    /// above can fail.
    func testWithoutRedactionTheSameValuesShow() async {
        let (client, stubs) = makeStubClient()
        let call = WebServiceCall<Data>(name: "search", relativePath: "search?q=%%0%%&api_key=%%1%%")
        stubs.stub(call, with: .text("you sent api_key=k3y-s3cret-42", statusCode: 400))
        let error = await Self.failure { _ = try await client.perform(call, "books", "k3y-s3cret-42") }
        XCTAssertEqual(error?.call?.url, "https://api.example.com/v1/search?q=books&api_key=k3y-s3cret-42")
        XCTAssertTrue(error?.description.hasSuffix("you sent api_key=k3y-s3cret-42") == true)
    }

    /// An error made outside a call names none, and one that names a call keeps it when a product
    /// reads the failure further (``WebServiceError/replacingReason(_:)``).
    func testAnErrorOutsideACallAndAReplacedReason() async {
        let bare = WebServiceError.invalidCall("x")
        XCTAssertNil(bare.call)
        XCTAssertEqual(bare.description, "invalid call descriptor: x")
        let (client, stubs) = makeStubClient()
        let call = WebServiceCall<Data>(name: "gone", relativePath: "gone")
        stubs.stub(call, with: .status(410))
        guard let error = await Self.failure({ _ = try await client.perform(call) }) else { return XCTFail() }
        let replaced = error.replacingReason(.application(APIError(message: "gone"), statusCode: 410))
        XCTAssertEqual(replaced.call, error.call)
        XCTAssertEqual(client.failure(bare, of: call.descriptor).call?.url, "gone")
        XCTAssertEqual(client.failure(error, of: WebServiceCall<Data>(relativePath: "x").descriptor).call, error.call)
    }

    /// Every case of ``WebServiceError/Reason``: the switch of ``caseName(_:)`` has no `default`,
    /// so a new case does not compile until it is named there, and here.
    private static let everyReason = [
        "invalidCall", "invalidArguments", "invalidHeader", "requestSerialization", "transport",
        "unacceptableStatus", "emptyBody", "decoding", "application", "authentication", "intercepted", "cancelled",
        "download", "responseTooLarge", "retryAfterTooLong", "responseStream",
    ]

    private static func caseName(_ reason: WebServiceError.Reason) -> String {
        switch reason {
        case .invalidCall: "invalidCall"
        case .invalidArguments: "invalidArguments"
        case .invalidHeader: "invalidHeader"
        case .requestSerialization: "requestSerialization"
        case .transport: "transport"
        case .unacceptableStatus: "unacceptableStatus"
        case .emptyBody: "emptyBody"
        case .decoding: "decoding"
        case .application: "application"
        case .authentication: "authentication"
        case .intercepted: "intercepted"
        case .cancelled: "cancelled"
        case .download: "download"
        case .responseTooLarge: "responseTooLarge"
        case .retryAfterTooLong: "retryAfterTooLong"
        case .responseStream: "responseStream"
        }
    }
}

/// A serializer of `ResponseStream` values that is not the library's stream format.
private struct StreamSerializerStandIn: ResponseSerializer {
    func deserialize(_ body: Data, context: ResponseContext) throws -> ResponseStream<String> {
        throw CancellationError()
    }
}
