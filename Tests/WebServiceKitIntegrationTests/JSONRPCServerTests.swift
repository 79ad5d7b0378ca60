import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// JSON-RPC 2.0 against a real server: PyPI `json-rpc`'s response manager
/// (Tests/Servers/jsonrpc_server.py), which answers batches in reverse order.
final class JSONRPCServerTests: XCTestCase {
    struct Subtraction: Encodable, Sendable {
        let minuend: Int
        let subtrahend: Int
    }

    struct CharacterCount: Decodable, Sendable, Equatable {
        let text: String
        let count: Int
    }

    struct Recording: Encodable, Sendable {
        let channel: String
        let message: String
    }

    /// What the server puts in the `data` of an exception's error.
    struct ExceptionData: Decodable, Sendable, Equatable {
        let type: String
        let message: String
    }

    enum Methods {
        static let subtract = JSONRPCMethod<[Int], Int>("subtract")
        static let subtractNamed = JSONRPCMethod<Subtraction, Int>("subtract")
        static let countCharacters = JSONRPCMethod<[String: String], CharacterCount>("count_characters")
        static let echo = JSONRPCMethod<JSONRPCValue, JSONRPCValue>("echo")
        static let record = JSONRPCMethod<Recording, JSONRPCValue>("record")
        static let recorded = JSONRPCMethod<[String], [String]>("recorded")
        static let fail = JSONRPCMethod<[String], Int>("fail")
        static let reject = JSONRPCMethod<JSONRPCValue, Int>("reject")
        static let sleep = JSONRPCMethod<[Double], Double>("sleep")
        static let missing = JSONRPCMethod<[Int], Int>("no_such_method")
    }

    private let rpc = JSONRPCEndpoint(relativePath: "rpc")

    private func client() throws -> WebServiceClient { WebServiceClient(serviceRoot: try HTTPBin.jsonRPCURL()) }

    /// The error `body` throws.
    private func error<T>(
        _ body: () async throws(WebServiceError) -> T, file: StaticString = #filePath, line: UInt = #line
    )
        async -> WebServiceError?
    {
        do {
            let value = try await body()
            XCTFail("expected an error, got \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testPositionalAndNamedParams() async throws {
        let client = try client()
        let positional = try await client.perform(rpc, Methods.subtract, [42, 23])
        XCTAssertEqual(positional, 19)
        let reversed = try await client.perform(rpc, Methods.subtract, [23, 42])
        XCTAssertEqual(reversed, -19)
        let named = try await client.perform(rpc, Methods.subtractNamed, Subtraction(minuend: 42, subtrahend: 23))
        XCTAssertEqual(named, 19)
        let count = try await client.perform(rpc, Methods.countCharacters, ["text": "héllo wörld"])
        XCTAssertEqual(count, CharacterCount(text: "héllo wörld", count: 11))
        let echoed = try await client.perform(rpc, Methods.echo, ["a": [1, 2.5, nil], "b": "x"])
        XCTAssertEqual(echoed, ["a": [1, 2.5, nil], "b": "x"])
    }

    func testSpecificationErrors() async throws {
        let client = try client()
        let notFound = await error { () async throws(WebServiceError) in
            try await client.perform(rpc, Methods.missing, [1])
        }
        XCTAssertEqual(notFound?.jsonRPCError?.code, .methodNotFound)
        XCTAssertEqual(notFound?.jsonRPCError?.message, "Method not found")
        XCTAssertEqual(notFound?.statusCode, 200)

        let invalidParams = await error { () async throws(WebServiceError) in
            try await client.perform(rpc, Methods.subtract, [1])
        }
        XCTAssertEqual(invalidParams?.jsonRPCError?.code, .invalidParams)

        let raised = await error { () async throws(WebServiceError) in
            try await client.perform(rpc, Methods.fail, ["boom"])
        }
        let serverError = try XCTUnwrap(raised?.jsonRPCError)
        XCTAssertTrue(serverError.code.isServerError, "\(serverError)")
        XCTAssertEqual(
            try serverError.decodeData(ExceptionData.self), ExceptionData(type: "ValueError", message: "boom"))

        let rejected = await error { () async throws(WebServiceError) in
            try await client.perform(
                rpc, Methods.reject, [-32042, "quota exceeded", ["remaining": 0, "window": "1h"]])
        }
        XCTAssertEqual(
            rejected?.jsonRPCError,
            JSONRPCError(code: -32042, message: "quota exceeded", data: ["remaining": 0, "window": "1h"]))
    }

    /// A request processor that breaks the body: the server answers with an error object whose
    /// id is null, and the call fails with it.
    func testParseErrorAndInvalidRequestFromTheServer() async throws {
        struct Rewrite: WebServiceInterceptor {
            let body: String
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                var request = request
                request.httpBody = Data(body.utf8)
                return .proceed(request)
            }
        }
        let client = try client()
        client.interceptors = [Rewrite(body: #"{"jsonrpc":"2.0","method":"subtract","params":[1,"#)]
        let parse = await error { () async throws(WebServiceError) in
            try await client.perform(rpc, Methods.subtract, [2, 1])
        }
        XCTAssertEqual(parse?.jsonRPCError?.code, .parseError)

        var batch = JSONRPCBatch()
        _ = batch.add(Methods.subtract, [2, 1])
        _ = batch.add(Methods.subtract, [3, 1])
        let batchParse = await error { () async throws(WebServiceError) in try await client.perform(rpc, batch) }
        XCTAssertEqual(batchParse?.jsonRPCError?.code, .parseError, "one error object fails the whole batch")

        client.interceptors = [Rewrite(body: #"{"jsonrpc":"2.0","method":1,"id":1}"#)]
        let invalid = await error { () async throws(WebServiceError) in
            try await client.perform(rpc, Methods.subtract, [2, 1])
        }
        XCTAssertEqual(invalid?.jsonRPCError?.code, .invalidRequest)

        client.interceptors = [Rewrite(body: "[]")]
        let emptyArray = await error { () async throws(WebServiceError) in try await client.perform(rpc, batch) }
        XCTAssertEqual(emptyArray?.jsonRPCError?.code, .invalidRequest, "the server's own answer to an empty batch")
    }

    func testBatchWithMixedOutcomesAnsweredOutOfOrder() async throws {
        let client = try client()
        let channel = "batch-\(UUID().uuidString)"
        var batch = JSONRPCBatch()
        let difference = batch.add(Methods.subtract, [42, 23])
        let named = batch.add(Methods.subtractNamed, Subtraction(minuend: 23, subtrahend: 42))
        batch.notify(Methods.record, Recording(channel: channel, message: "from a batch"))
        let count = batch.add(Methods.countCharacters, ["text": "hello"])
        let missing = batch.add(Methods.missing, [])
        let invalid = batch.add(Methods.subtract, [1])
        let raised = batch.add(Methods.fail, ["bad input"])
        let response = try await client.perform(rpc, batch)
        XCTAssertEqual(try response.value(for: difference), 19)
        XCTAssertEqual(try response.value(for: named), -19)
        XCTAssertEqual(try response.value(for: count), CharacterCount(text: "hello", count: 5))
        XCTAssertEqual(response.result(for: missing).failure?.jsonRPCError?.code, .methodNotFound)
        XCTAssertEqual(response.result(for: invalid).failure?.jsonRPCError?.code, .invalidParams)
        let serverError = try XCTUnwrap(response.result(for: raised).failure?.jsonRPCError)
        XCTAssertTrue(serverError.code.isServerError)
        XCTAssertEqual(serverError.data?["message"], "bad input")
        XCTAssertEqual(Set(response.errors.keys), [4, 5, 6])
        // The server answered backwards: the first response in the body is for the last request.
        let body = try await client.perform(rpc, Methods.recorded, [channel])
        XCTAssertEqual(body, ["from a batch"], "the batch's notification arrived")
    }

    func testNotificationsArrive() async throws {
        let client = try client()
        let channel = "notify-\(UUID().uuidString)"
        try await client.notify(rpc, Methods.record, Recording(channel: channel, message: "one"))
        var batch = JSONRPCBatch()
        batch.notify(Methods.record, Recording(channel: channel, message: "two"))
        batch.notify(Methods.record, Recording(channel: channel, message: "three"))
        let onlyNotifications = try await client.perform(rpc, batch)
        XCTAssertEqual(onlyNotifications.statusCode, 204)
        let recorded = try await client.perform(rpc, Methods.recorded, [channel])
        XCTAssertEqual(recorded, ["one", "two", "three"])
        // A notification of a method that fails is still a success: the server answers nothing.
        try await client.notify(rpc, Methods.fail, ["ignored"])
    }

    func testStringIDs() async throws {
        let client = try client()
        let named = JSONRPCEndpoint(relativePath: "rpc", ids: .strings(prefix: "kit-"))
        var batch = JSONRPCBatch()
        let first = batch.add(Methods.subtract, [10, 1])
        let second = batch.add(Methods.subtract, [10, 2])
        let response = try await client.perform(named, batch)
        XCTAssertEqual(response.id(for: first), "kit-1")
        XCTAssertEqual(response.id(for: second), "kit-2")
        XCTAssertEqual(try response.value(for: first), 9)
        XCTAssertEqual(try response.value(for: second), 8)
        let single = try await client.perform(named, Methods.subtract, [10, 3])
        XCTAssertEqual(single, 7)
        let uuids = JSONRPCEndpoint(relativePath: "rpc", ids: .uuids)
        let value = try await client.perform(uuids, Methods.subtract, [10, 4])
        XCTAssertEqual(value, 6)
    }

    func testEmptyBatchSendsNothing() async throws {
        let transport = CountingTransport()
        let client = WebServiceClient(serviceRoot: try HTTPBin.jsonRPCURL(), transport: transport)
        let refused = await error { () async throws(WebServiceError) in try await client.perform(rpc, JSONRPCBatch()) }
        guard case .invalidArguments = refused?.reason else { return XCTFail("\(String(describing: refused))") }
        XCTAssertEqual(transport.requests, 0)
        _ = try await client.perform(rpc, Methods.subtract, [1, 1])
        XCTAssertEqual(transport.requests, 1)
    }

    /// Credentials, logging and progress come from the client's pipeline.
    func testAuthenticationLoggingAndProgressApply() async throws {
        struct Bearer: AuthenticationProvider {
            func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest
            {
                var request = request
                request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
                return request
            }
        }
        final class Messages: WebServiceLogger, @unchecked Sendable {
            private let lock = NSLock()
            private var messages: [LogMessage] = []
            func log(_ message: LogMessage) { lock.withLock { messages.append(message) } }
            var all: [LogMessage] { lock.withLock { messages } }
        }
        let client = try client()
        let secure = JSONRPCEndpoint(relativePath: "secure/rpc")
        let refused = await error { () async throws(WebServiceError) in
            try await client.perform(secure, Methods.subtract, [5, 3])
        }
        guard case .unacceptableStatus(401, _, _) = refused?.reason else {
            return XCTFail("\(String(describing: refused))")
        }

        let messages = Messages()
        client.authenticationProvider = Bearer()
        client.logger = messages
        client.logLevel = .body
        let recorder = ProgressRecorder()
        let value = try await client.perform(secure, Methods.subtract, [5, 3], progress: recorder.rich)
        XCTAssertEqual(value, 2)
        let envelope = #"{"jsonrpc":"2.0","method":"subtract","params":[5,3],"id":2}"#
        let request = try XCTUnwrap(messages.all.first { $0.kind == .request })
        XCTAssertTrue(request.text.contains(envelope), request.text)
        XCTAssertFalse(request.text.contains("secret-token"), "credentials are redacted")
        let response = try XCTUnwrap(messages.all.first { $0.kind == .response })
        XCTAssertTrue(response.text.contains(#""result": 2"#), response.text)
        // The call sends a body, so its progress ends with the whole envelope uploaded.
        let last = try XCTUnwrap(recorder.richEvents.last)
        XCTAssertEqual(last.direction, .upload)
        XCTAssertEqual(last.fraction, 1)
        XCTAssertEqual(last.completedBytes, Int64(envelope.utf8.count))
    }

    func testCallbacksAndCancellation() async throws {
        let client = try client()
        let result = await withCheckedContinuation { continuation in
            client.perform(rpc, Methods.subtract, [100, 1]) { continuation.resume(returning: $0) }
        }
        XCTAssertEqual(try result.get(), 99)
        let started = Date()
        let cancelled = await withCheckedContinuation { continuation in
            let task = client.perform(rpc, Methods.sleep, [5]) { continuation.resume(returning: $0) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { task.cancel() }
        }
        guard case .failure(let error) = cancelled, error.isCancelled else { return XCTFail("\(cancelled)") }
        XCTAssertLessThan(Date().timeIntervalSince(started), 4)
    }
}

extension Result {
    /// The error, when the result is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
