import Dispatch
import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class ClientBehaviourTests: XCTestCase {
    private struct APIError: Error, Decodable, Equatable { let code: Int; let message: String }

    func testCallSuccessCodesAddToOrReplaceTheClients() async throws {
        let (client, stubs) = makeStubClient()
        let adding = WebServiceCall<Data>(relativePath: "a", successCodes: [404])
        let replacing = WebServiceCall<Data>(relativePath: "b", successCodes: [404], overridesClientSuccessCodes: true)
        stubs.stub(adding, with: .status(404))
        _ = try await client.perform(adding)
        stubs.stub(adding, with: .status(200))
        _ = try await client.perform(adding)
        stubs.stub(replacing, with: .status(404))
        _ = try await client.perform(replacing)
        stubs.stub(replacing, with: .status(200))
        do {
            _ = try await client.perform(replacing)
            XCTFail("200 is not accepted when the call overrides the client's codes")
        } catch {
            guard case .unacceptableStatus(200, _, _) = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testClientLevelSuccessCodesAreHonoured() async throws {
        let (client, stubs) = makeStubClient()
        let call = WebServiceCall<Data>(relativePath: "a")
        stubs.stub(call, with: .text("moved", statusCode: 302))
        do {
            _ = try await client.perform(call)
            XCTFail("302 is not a success by default")
        } catch {
            guard case .unacceptableStatus(302, _, let body) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "moved")
        }
        client.successCodes = [200..<400]
        let body = try await client.perform(call)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "moved")
    }

    func testApplicationErrorIsDecodedFromTheErrorBody() async {
        let call = WebServiceCall<Data>(relativePath: "a", errorHandler: DecodableErrorHandler(APIError.self))
        let (client, stubs) = makeStubClient()
        stubs.stub(
            call, with: .json(["code": "7"], statusCode: 422), .text(#"{"code":7,"message":"nope"}"#, statusCode: 422))
        do {
            _ = try await client.perform(call)
            XCTFail("422 must fail")
        } catch {
            guard case .unacceptableStatus(422, _, _) = error.reason else {
                return XCTFail("undecodable error body: \(error)")
            }
        }
        do {
            _ = try await client.perform(call)
            XCTFail("422 must fail")
        } catch {
            guard case .application(let appError as APIError, 422) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(appError, APIError(code: 7, message: "nope"))
        }
    }

    func testClientErrorHandlerSeesAcceptedResponsesToo() async {
        struct Envelope: ResponseErrorHandler {
            func error(for response: ResponseContext, body: Data, statusAccepted: Bool) -> (any Error)? {
                String(decoding: body, as: UTF8.self).contains("\"error\"") ? APIError(code: 1, message: "in 200") : nil
            }
        }
        let (client, _) = makeStubClient(fallback: .text(#"{"error":true}"#))
        client.errorHandler = Envelope()
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
            XCTFail("the handler's error wins")
        } catch {
            guard case .application(_, 200) = error.reason else { return XCTFail("\(error)") }
        }
    }

    func testInterceptorChainOrderShortCircuitAndRefusal() async throws {
        let order = LockedLog()
        struct Tagging: WebServiceInterceptor {
            let tag: String
            let log: LockedLog
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                log.append("out \(tag)")
                var request = request
                request.setValue(tag, forHTTPHeaderField: "X-\(tag)")
                return .proceed(request)
            }
            func intercept(_ response: TransportResponse, for request: WebServiceRequest, call: CallDescriptor)
                async throws
                -> TransportResponse
            {
                log.append("back \(tag)")
                return response
            }
        }
        let (client, stubs) = makeStubClient(fallback: .text("network"))
        client.interceptors = [Tagging(tag: "A", log: order), Tagging(tag: "B", log: order)]
        let text = try await client.perform(
            WebServiceCall<String>(relativePath: "x"), arguments: [],
            prepare: { $0.setValue("yes", forHTTPHeaderField: "X-Prepared") })
        XCTAssertEqual(text, "network")
        XCTAssertEqual(order.entries, ["out A", "out B", "back B", "back A"])
        let sent = try XCTUnwrap(stubs.requests.last?.request)
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-A"), "A")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-B"), "B")
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-Prepared"), "yes")

        struct Canned: WebServiceInterceptor {
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                .respond(TransportResponse(statusCode: 200, body: Data("canned".utf8)))
            }
        }
        order.clear()
        client.interceptors = [Tagging(tag: "A", log: order), Canned(), Tagging(tag: "C", log: order)]
        let canned = try await client.perform(WebServiceCall<String>(relativePath: "x"))
        XCTAssertEqual(canned, "canned")
        XCTAssertEqual(order.entries, ["out A", "back A"])
        XCTAssertEqual(stubs.requests.count, 1, "the short-circuited call sent nothing")

        struct Refusing: Error {}
        client.interceptors = [ResponseProcessor { _, _, _ in throw Refusing() }]
        do {
            _ = try await client.perform(WebServiceCall<String>(relativePath: "x"))
            XCTFail("the response processor refused")
        } catch {
            guard case .intercepted(let underlying) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(underlying is Refusing)
        }
    }

    func testAuthenticationProviderRetriesOnceThenFails() async throws {
        final class TokenProvider: AuthenticationProvider, @unchecked Sendable {
            let lock = NSLock()
            var token = "old"
            var refreshes = 0
            func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest
            {
                var request = request
                request.setValue("Bearer \(lock.withLock { token })", forHTTPHeaderField: "Authorization")
                return request
            }
            func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor)
                async throws
                -> AuthenticationDecision
            {
                guard response.statusCode == 401 else { return .proceed }
                lock.withLock {
                    refreshes += 1
                    token = "new\(refreshes)"
                }
                return .retry
            }
        }
        let provider = TokenProvider()
        let (client, stubs) = makeStubClient()
        client.authenticationProvider = provider
        let call = WebServiceCall<String>(relativePath: "me")
        stubs.stub(call, with: .status(401), .text("hello"))
        let text = try await client.perform(call)
        XCTAssertEqual(text, "hello")
        XCTAssertEqual(
            stubs.requests.map { $0.request.value(forHTTPHeaderField: "Authorization") }, ["Bearer old", "Bearer new1"])

        stubs.stub(call, with: .status(401))
        do {
            _ = try await client.perform(call)
            XCTFail("a provider that always retries must not loop")
        } catch {
            guard case .authentication(let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("3 retries"), reason)
        }
        XCTAssertEqual(stubs.requests.count, 2 + 4, "the first try and three retries, no more")
    }

    func testCallbacksRunOnTheCallbackQueueExactlyOnce() {
        let queue = DispatchQueue(label: "test.callbacks")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let stubs = StubTransport(fallback: .text("ok"))
        let client = WebServiceClient(
            serviceRoot: URL(string: "https://x.test/")!, transport: stubs, callbackQueue: queue)
        let done = expectation(description: "callback")
        client.perform(
            WebServiceCall<String>(relativePath: "a"),
            success: { value in
                XCTAssertEqual(value, "ok")
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), 42)
                done.fulfill()
            },
            failure: { XCTFail("\($0)") })
        wait(for: [done], timeout: 10)
    }

    func testCancelRaceDeliversExactlyOneCallbackPerCall() {
        let stubs = StubTransport(fallback: .init(body: Data("ok".utf8), delay: 0.002))
        let client = WebServiceClient(serviceRoot: URL(string: "https://x.test/")!, transport: stubs)
        let count = 300
        let deliveries = LockedLog()
        let all = expectation(description: "all delivered")
        all.expectedFulfillmentCount = count
        for index in 0..<count {
            let task = client.perform(
                WebServiceCall<String>(relativePath: "a"),
                success: { _ in
                    deliveries.append("\(index)")
                    all.fulfill()
                },
                failure: { error in
                    XCTAssertTrue(error.isCancelled, "\(error)")
                    deliveries.append("\(index)")
                    all.fulfill()
                })
            if index % 3 != 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...3000))) {
                    task.cancel(reason: "race \(index)")
                    task.cancel()
                }
            }
        }
        wait(for: [all], timeout: 60)
        // Give stray second deliveries a chance to show up before counting.
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(deliveries.entries.count, count)
        XCTAssertEqual(Set(deliveries.entries).count, count)
    }

    func testCancelWithReasonIsDelivered() {
        let stubs = StubTransport(fallback: .init(delay: 5))
        let client = WebServiceClient(serviceRoot: URL(string: "https://x.test/")!, transport: stubs)
        let done = expectation(description: "cancelled")
        let task = client.perform(
            WebServiceCall<Data>(relativePath: "slow"), success: { _ in XCTFail("must not succeed") },
            failure: { error in
                guard case .cancelled(let reason) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(reason, "user left")
                done.fulfill()
            })
        task.cancel(reason: "user left")
        XCTAssertTrue(task.isCancelled)
        wait(for: [done], timeout: 5)
    }

    func testAsyncTaskCancellationCancelsTheCall() async {
        let stubs = StubTransport(fallback: .init(delay: 10))
        let client = WebServiceClient(serviceRoot: URL(string: "https://x.test/")!, transport: stubs)
        let task = Task { () async throws(WebServiceError) -> Data in
            try await client.perform(WebServiceCall<Data>(relativePath: "slow"))
        }
        try? await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let started = Date()
        let result = await task.result
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        guard case .failure(let error as WebServiceError) = result, error.isCancelled else {
            return XCTFail("\(result)")
        }
    }

    func testPerformSynchronouslyReturnsTheWholeResponse() throws {
        let stubs = StubTransport(fallback: .text("body!", statusCode: 201))
        let client = WebServiceClient(serviceRoot: URL(string: "https://x.test/")!, transport: stubs)
        let response = try client.performSynchronously(WebServiceCall<String>(relativePath: "s/%%0%%"), ["x"])
        XCTAssertEqual(response.value, "body!")
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(response.body, Data("body!".utf8))
        XCTAssertEqual(response.headers["content-type"], "text/plain; charset=utf-8")
        XCTAssertEqual(response.request.url?.absoluteString, "https://x.test/s/x")
    }

    func testPerformSynchronouslyRefusesToDeadlock() {
        let client = WebServiceClient(serviceRoot: URL(string: "https://x.test/")!, transport: StubTransport())
        let checked = expectation(description: "checked")
        client.callbackQueue.async {
            defer { checked.fulfill() }
            do throws(WebServiceError) {
                _ = try client.performSynchronously(WebServiceCall<Data>(relativePath: "a"))
                XCTFail("must refuse")
            } catch {
                guard case .invalidCall(let reason) = error.reason else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("deadlock"))
            }
        }
        wait(for: [checked], timeout: 5)
    }

    func testCallTimeoutFailsWithATimeout() async {
        let (client, _) = makeStubClient(fallback: .init(delay: 3))
        let started = Date()
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "slow", timeout: 0.1))
            XCTFail("must time out")
        } catch {
            XCTAssertTrue(error.isTimeout, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        client.timeout = 0.1
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "slow"))
            XCTFail("the client's timeout applies to calls without one")
        } catch {
            XCTAssertTrue(error.isTimeout, "\(error)")
        }
    }

    func testTransportFailureKeepsTheURLError() async {
        let (client, _) = makeStubClient(fallback: .failure(.cannotConnectToHost))
        do {
            _ = try await client.perform(WebServiceCall<Data>(relativePath: "a"))
            XCTFail("must fail")
        } catch {
            guard case .transport(let urlError) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(urlError.code, .cannotConnectToHost)
        }
    }

    func testEveryErrorHasADescription() {
        let errors: [WebServiceError] = [
            .invalidCall("x"), .invalidArguments(index: 2, reason: "y"), .invalidHeader(name: "A", reason: "z"),
            .requestSerialization("s"), .transport(URLError(.timedOut)),
            .unacceptableStatus(code: 500, headers: [:], body: Data("oops".utf8)), .emptyBody(statusCode: 204),
            .application(APIError(code: 1, message: "m"), statusCode: 400), .authentication("a"),
            .intercepted(APIError(code: 2, message: "n")), .cancelled(reason: "r"), .cancelled(reason: nil),
        ]
        for error in errors {
            XCTAssertFalse(error.description.isEmpty)
        }
        XCTAssertTrue(
            WebServiceError.unacceptableStatus(code: 500, headers: [:], body: Data("oops".utf8)).description.contains(
                "oops"))
        XCTAssertTrue(WebServiceError.transport(URLError(.timedOut)).isTimeout)
        XCTAssertEqual(WebServiceError.emptyBody(statusCode: 204).statusCode, 204)
    }
}

/// A thread-safe list of strings for tests.
final class LockedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ entry: String) {
        lock.lock()
        storage.append(entry)
        lock.unlock()
    }
    func clear() {
        lock.lock()
        storage.removeAll()
        lock.unlock()
    }
    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
