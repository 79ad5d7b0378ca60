import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Methods the JSON-RPC unit tests call besides those of Docs/JSONRPC.md
// (JSONRPCGuideExamplesTests.swift).
extension CharacterCount: Equatable {
    static func == (lhs: CharacterCount, rhs: CharacterCount) -> Bool { lhs.text == rhs.text && lhs.count == rhs.count }
}

extension JSONRPCMethod where Params == [String], Result == JSONRPCValue {
    static let recordPositional = JSONRPCMethod("record")
}

/// The body a stub transport received, as text.
func sentBody(_ stubs: StubTransport, _ index: Int = 0) -> String? {
    guard stubs.requests.indices.contains(index), let body = stubs.requests[index].request.httpBody else { return nil }
    return String(decoding: body, as: UTF8.self)
}

/// A JSON stub from JSON text.
func jsonStub(_ json: String, statusCode: Int = 200) -> StubTransport.Stub {
    StubTransport.Stub(statusCode: statusCode, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
}

/// Single calls and notifications: the request objects on the wire, and every kind of answer,
/// over a stub transport.
final class JSONRPCCallTests: XCTestCase {
    private func client(answering stub: StubTransport.Stub) -> (WebServiceClient, StubTransport) {
        makeStubClient(fallback: stub)
    }

    private func failure(
        _ stub: StubTransport.Stub, endpoint: JSONRPCEndpoint = JSONRPCEndpoint(relativePath: "rpc"),
        file: StaticString = #filePath, line: UInt = #line
    ) async -> WebServiceError? {
        let (client, _) = client(answering: stub)
        do {
            let value = try await client.perform(endpoint, .subtract, [42, 23])
            XCTFail("expected a failure, got \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Requests on the wire

    func testPositionalRequestIsExactlyTheSpecificationsEnvelope() async throws {
        let (client, stubs) = client(answering: jsonStub(#"{"jsonrpc":"2.0","result":19,"id":1}"#))
        let rpc = JSONRPCEndpoint(relativePath: "rpc")
        let difference = try await client.perform(rpc, .subtract, [42, 23])
        XCTAssertEqual(difference, 19)
        XCTAssertEqual(sentBody(stubs), #"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#)
        let request = try XCTUnwrap(stubs.requests.first?.request)
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/rpc")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json")
        XCTAssertEqual(stubs.requests.first?.call.id, rpc.call.descriptor.id, "sent as the endpoint's call")
    }

    func testNamedParamsNoParamsStringIDsAndEscapedNames() async throws {
        let (client, stubs) = makeStubClient()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let rpc = JSONRPCEndpoint(relativePath: "rpc", ids: .strings(prefix: "req-"), encoder: encoder)
        stubs.stub(rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","result":19,"id":"req-1"}"#))
        let difference = try await client.perform(rpc, .subtractNamed, Subtraction(minuend: 42, subtrahend: 23))
        XCTAssertEqual(difference, 19)
        XCTAssertEqual(
            sentBody(stubs),
            #"{"jsonrpc":"2.0","method":"subtract","params":{"minuend":42,"subtrahend":23},"id":"req-1"}"#)

        stubs.stub(rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","result":["a","b"],"id":"req-2"}"#))
        let names = try await client.perform(rpc, .listMethods)
        XCTAssertEqual(names, ["a", "b"])
        XCTAssertEqual(sentBody(stubs, 1), #"{"jsonrpc":"2.0","method":"system.listMethods","id":"req-2"}"#)

        let odd = JSONRPCMethod<[Int], Int>("say \"hé\"\\\n")
        stubs.stub(rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","result":0,"id":"req-3"}"#))
        _ = try await client.perform(rpc, odd, [])
        XCTAssertEqual(sentBody(stubs, 2), #"{"jsonrpc":"2.0","method":"say \"hé\"\\\n","params":[],"id":"req-3"}"#)
        let decoded = try JSONSerialization.jsonObject(with: try XCTUnwrap(stubs.requests[2].request.httpBody))
        XCTAssertEqual((decoded as? [String: Any])?["method"] as? String, odd.name, "the escaped name is valid JSON")
    }

    func testParamsThatAreNotAnArrayOrObjectAreRefusedBeforeSending() async {
        let (client, stubs) = makeStubClient()
        let scalar = JSONRPCMethod<String, Int>("scalar")
        do {
            _ = try await client.perform(JSONRPCEndpoint(relativePath: "rpc"), scalar, "hello")
            XCTFail("a string is not JSON-RPC params")
        } catch {
            guard case .requestSerialization(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("array or an object"), reason)
        }
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testWildcardsTakeTheArgumentsBeforeTheBody() async throws {
        let (client, stubs) = client(answering: jsonStub(#"{"jsonrpc":"2.0","result":1,"id":1}"#))
        let rpc = JSONRPCEndpoint(relativePath: "tenants/%%0%%/rpc", headers: ["X-Trace": "%%1%%"])
        XCTAssertEqual(rpc.argumentCount, 2)
        _ = try await client.perform(rpc, .subtract, [2, 1], arguments: ["acme", "t-1"])
        let request = try XCTUnwrap(stubs.requests.first?.request)
        XCTAssertEqual(request.url?.path, "/v1/tenants/acme/rpc")
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-Trace"), "t-1")
        XCTAssertEqual(sentBody(stubs), #"{"jsonrpc":"2.0","method":"subtract","params":[2,1],"id":1}"#)
        do {
            _ = try await client.perform(rpc, .subtract, [2, 1], arguments: ["acme"])
            XCTFail("one wildcard argument is missing")
        } catch {
            guard case .invalidArguments = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(stubs.requests.count, 1)
    }

    func testTheBodyComesAfterTheLargestWildcardOfThePathTheHeadersAndTheCacheIdentifier() {
        let cases: [(JSONRPCEndpoint, Int)] = [
            (JSONRPCEndpoint(relativePath: "rpc"), 0),
            (JSONRPCEndpoint(relativePath: "a%20b/%%0%%/rpc?v=%%0%%"), 1),
            (JSONRPCEndpoint(relativePath: "rpc?tenant=%%3%%", headers: ["X-Trace": "t-%%1%%"]), 4),
            (JSONRPCEndpoint(relativePath: "%%0%%", headers: ["X-Trace": "%%1%%"], cacheIdentifier: "rpc-%%5%%"), 6),
            // A malformed template: the endpoint takes no wildcard arguments (its calls fail anyway).
            (JSONRPCEndpoint(relativePath: "rpc/%%x%%"), 0),
        ]
        for (endpoint, count) in cases {
            XCTAssertEqual(endpoint.argumentCount, count, endpoint.call.relativePath)
            XCTAssertEqual(endpoint.call.bodyParameter, count, endpoint.call.relativePath)
        }
    }

    /// An endpoint made from a call's fields takes every field a call has; the method is POST and
    /// the body follows the wildcards whatever the fields said.
    func testAnEndpointFromCallFieldsKeepsItsFields() async throws {
        var fields = CallFields(method: .get, relativePath: "tenants/%%0%%/rpc")
        fields.name = "tenantRPC"
        fields.timeout = 7
        fields.bodyParameter = 9
        fields.headers = ["Accept": "application/json-rpc"]
        let rpc = JSONRPCEndpoint(fields)
        XCTAssertEqual(rpc.argumentCount, 1)
        XCTAssertEqual(rpc.call.bodyParameter, 1)
        XCTAssertEqual(rpc.call.method, .post)
        XCTAssertEqual(rpc.call.timeout, 7)
        XCTAssertEqual(rpc.call.name, "tenantRPC")
        let (client, stubs) = client(answering: jsonStub(#"{"jsonrpc":"2.0","result":1,"id":1}"#))
        _ = try await client.perform(rpc, .subtract, [2, 1], arguments: ["acme"])
        let request = try XCTUnwrap(stubs.requests.first?.request)
        XCTAssertEqual(request.url?.path, "/v1/tenants/acme/rpc")
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertEqual(request.timeoutInterval, 7)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json-rpc")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    // MARK: Answers

    func testStructResultsNullResultsAndTheClientsDecoder() async throws {
        let (client, stubs) = makeStubClient()
        let rpc = JSONRPCEndpoint(relativePath: "rpc")
        stubs.stub(rpc.call, with: jsonStub(#"{"id":1,"result":{"text":"héllo","count":5},"jsonrpc":"2.0"}"#))
        let count = try await client.perform(rpc, .countCharacters, ["text": "héllo"])
        XCTAssertEqual(count, CharacterCount(text: "héllo", count: 5))

        let optional = JSONRPCMethod<[Int], Int?>("maybe")
        stubs.stub(rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","result":null,"id":2}"#))
        let nothing = try await client.perform(rpc, optional, [])
        XCTAssertNil(nothing)

        // The client's key strategy applies to results, never to the envelope or an error's data.
        struct Snake: Decodable, Sendable { let itemCount: Int }
        client.jsonDecoder.keyDecodingStrategy = .convertFromSnakeCase
        let snake = JSONRPCMethod<[Int], Snake>("snake")
        stubs.stub(rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","result":{"item_count":3},"id":3}"#))
        let value = try await client.perform(rpc, snake, [])
        XCTAssertEqual(value.itemCount, 3)
        stubs.stub(
            rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","error":{"code":1,"message":"m","data":{"a_b":1}},"id":4}"#))
        do {
            _ = try await client.perform(rpc, snake, [])
            XCTFail("an error object")
        } catch {
            XCTAssertEqual(error.jsonRPCError?.data, ["a_b": 1])
        }
    }

    func testErrorObjectWithDataIsATypedApplicationError() async throws {
        struct Detail: Decodable, Equatable { let field: String; let limits: [Int] }
        let error = await failure(
            jsonStub(
                #"{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":{"field":"subtrahend","limits":[0,9]}},"id":1}"#
            ))
        guard case .application(let underlying, let status) = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(status, 200)
        let rpcError = try XCTUnwrap(underlying as? JSONRPCError)
        XCTAssertEqual(rpcError, error?.jsonRPCError)
        XCTAssertEqual(rpcError.code, .invalidParams)
        XCTAssertEqual(rpcError.code.rawValue, -32602)
        XCTAssertEqual(rpcError.message, "Invalid params")
        XCTAssertEqual(rpcError.data?["field"], "subtrahend")
        XCTAssertEqual(try rpcError.decodeData(Detail.self), Detail(field: "subtrahend", limits: [0, 9]))
        XCTAssertEqual(
            error?.description,
            #"POST https://api.example.com/v1/rpc: service error (status 200): JSON-RPC error -32602 (invalid params): Invalid params; data: {"field":"subtrahend","limits":[0,9]}"#
        )
        XCTAssertEqual(error?.statusCode, 200)
    }

    func testErrorWithoutIDAnswersTheRequestItCouldNotRead() async {
        let error = await failure(
            jsonStub(#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#))
        XCTAssertEqual(error?.jsonRPCError?.code, .parseError)
        XCTAssertNil(error?.jsonRPCError?.data)
    }

    func testErrorObjectsRefusedByStatusBecomeJSONRPCErrors() async {
        let error = await failure(
            jsonStub(#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":1}"#, statusCode: 500))
        XCTAssertEqual(error?.jsonRPCError?.code, .internalError)
        XCTAssertEqual(error?.statusCode, 500)
        let other = await failure(.text("<html>Bad gateway</html>", statusCode: 502, contentType: "text/html"))
        guard case .unacceptableStatus(let code, _, _) = other?.reason else {
            return XCTFail("\(String(describing: other))")
        }
        XCTAssertEqual(code, 502)
    }

    func testResponsesThatAreNotJSONRPCAreTypedDecodingFailures() async {
        let cases: [(String, JSONRPCResponseError?)] = [
            (#"{"result":19,"id":1}"#, .unsupportedVersion(nil)),
            (#"{"jsonrpc":"1.0","result":19,"id":1}"#, .unsupportedVersion("1.0")),
            (#"{"jsonrpc":"2.0","result":19,"error":{"code":1,"message":"m"},"id":1}"#, .resultAndError(id: 1)),
            (#"{"jsonrpc":"2.0","id":1}"#, .neitherResultNorError(id: 1)),
            (#"{"jsonrpc":"2.0","result":19,"id":2}"#, .idMismatch(expected: 1, received: 2)),
            (#"{"jsonrpc":"2.0","result":19,"id":"1"}"#, .idMismatch(expected: 1, received: "1")),
            (#"{"jsonrpc":"2.0","result":19,"id":null}"#, .idMismatch(expected: 1, received: nil)),
            (
                #"[{"jsonrpc":"2.0","result":19,"id":1}]"#,
                .unexpectedShape("an array of responses answered a single request")
            ),
            (#""hello""#, .notAResponse("the body is not a JSON object or array")),
            (#"{"jsonrpc":"2.0","result":"nineteen","id":1}"#, nil),
            (#"{"jsonrpc":"2.0","result":19,"id":1.5}"#, nil),
            (#"{"jsonrpc":"2.0","result":19,"#, nil),
        ]
        for (body, expected) in cases {
            let error = await failure(jsonStub(body))
            guard case .decoding(let failure) = error?.reason else {
                XCTFail("\(body): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(error?.jsonRPCResponseError, expected, body)
            XCTAssertEqual(failure.statusCode, 200)
            XCTAssertFalse(failure.bodyExcerpt.isEmpty, body)
        }
        let empty = await failure(.status(204))
        guard case .emptyBody(204) = empty?.reason else { return XCTFail("\(String(describing: empty))") }
    }

    // MARK: Notifications

    func testNotificationsHaveNoIDAndExpectNoAnswer() async throws {
        let (client, stubs) = makeStubClient(fallback: .status(204))
        let rpc = JSONRPCEndpoint(relativePath: "rpc")
        try await client.notify(rpc, .recordPositional, ["audit", "hello"])
        XCTAssertEqual(sentBody(stubs), #"{"jsonrpc":"2.0","method":"record","params":["audit","hello"]}"#)
        // A 200 with a body that is not an error is ignored too.
        stubs.stub(rpc.call, with: jsonStub(#"{"unexpected":true}"#))
        try await client.notify(rpc, .recordPositional, ["audit", "again"])
        // The server refusing the whole request is reported.
        stubs.stub(
            rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#))
        do {
            try await client.notify(rpc, .recordPositional, ["audit", "broken"])
            XCTFail("the server refused the notification")
        } catch {
            XCTAssertEqual(error.jsonRPCError?.code, .parseError)
        }
        // The next request gets id 1: notifications take no id.
        stubs.stub(rpc.call, with: jsonStub(#"{"jsonrpc":"2.0","result":1,"id":1}"#))
        let value = try await client.perform(rpc, .subtract, [2, 1])
        XCTAssertEqual(value, 1)
    }

    // MARK: Callbacks and the pipeline

    func testCallbackFormsDeliverOnTheCallbackQueue() async throws {
        let queue = DispatchQueue(label: "jsonrpc.callbacks")
        let stubs = StubTransport(fallback: jsonStub(#"{"jsonrpc":"2.0","result":19,"id":1}"#))
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs, callbackQueue: queue)
        let rpc = JSONRPCEndpoint(relativePath: "rpc")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let result = await withCheckedContinuation { continuation in
            client.perform(rpc, .subtract, [42, 23]) { result in
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), true)
                continuation.resume(returning: result)
            }
        }
        XCTAssertEqual(try result.get(), 19)
        let notified = await withCheckedContinuation { continuation in
            client.notify(rpc, .recordPositional, ["a", "b"]) { continuation.resume(returning: $0) }
        }
        XCTAssertNoThrow(try notified.get())
        let refused = await withCheckedContinuation { continuation in
            client.perform(rpc, JSONRPCMethod<String, Int>("scalar"), "x") { continuation.resume(returning: $0) }
        }
        guard case .requestSerialization = refused.failure?.reason else { return XCTFail("\(refused)") }
        XCTAssertEqual(stubs.requests.count, 2, "refused params send nothing")
    }

    func testCallsRunThroughInterceptorsAuthenticationAndLogging() async throws {
        struct Stamp: WebServiceInterceptor {
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                var request = request
                request.setValue("stamped", forHTTPHeaderField: "X-Stamp")
                return .proceed(request)
            }
        }
        struct Token: AuthenticationProvider {
            func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest
            {
                var request = request
                request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
                return request
            }
        }
        final class Lines: WebServiceLogger, @unchecked Sendable {
            private let lock = NSLock()
            private var messages: [LogMessage] = []
            func log(_ message: LogMessage) { lock.withLock { messages.append(message) } }
            var all: [LogMessage] { lock.withLock { messages } }
        }
        let (client, stubs) = client(answering: jsonStub(#"{"jsonrpc":"2.0","result":19,"id":1}"#))
        let lines = Lines()
        client.interceptors = [Stamp()]
        client.authenticationProvider = Token()
        client.logger = lines
        client.logLevel = .body
        _ = try await client.perform(JSONRPCEndpoint(relativePath: "rpc"), .subtract, [42, 23])
        let request = try XCTUnwrap(stubs.requests.first?.request)
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-Stamp"), "stamped")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer t")
        XCTAssertEqual(lines.all.map(\.kind), [.request, .response])
        XCTAssertTrue(lines.all[0].text.contains(#""method":"subtract""#), lines.all[0].text)
        XCTAssertFalse(lines.all[0].text.contains("Bearer t"), "the log redacts credentials")
    }

    func testCancellationAndTimeouts() async throws {
        let (client, _) = client(
            answering: StubTransport.Stub(
                headers: ["Content-Type": "application/json"], body: Data(#"{"jsonrpc":"2.0","result":1,"id":1}"#.utf8),
                delay: 5))
        let rpc = JSONRPCEndpoint(relativePath: "rpc", timeout: 0.2)
        do {
            _ = try await client.perform(rpc, .subtract, [1, 0])
            XCTFail("timed out")
        } catch {
            XCTAssertTrue(error.isTimeout, "\(error)")
        }
        let task = Task { try await client.perform(JSONRPCEndpoint(relativePath: "rpc"), .subtract, [1, 0]) }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let result = await task.result
        XCTAssertEqual((result.failure as? WebServiceError)?.isCancelled, true, "\(result)")
    }
}
