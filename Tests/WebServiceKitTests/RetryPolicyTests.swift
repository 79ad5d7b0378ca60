import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A retry environment whose sleep waits until its task is cancelled, and says when it starts.
final class BlockingRetryEnvironment: RetryEnvironment, @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var woken = 0
    let sleeping: XCTestExpectation

    init(sleeping: XCTestExpectation) { self.sleeping = sleeping }

    /// How many sleeps ended with their task's cancellation.
    var cancelledSleeps: Int { lock.withLock { woken } }

    func uptime() -> TimeInterval { 0 }
    func now() -> Date { Date(timeIntervalSince1970: 1_700_000_000) }
    func random() -> Double { 1 }
    func sleep(seconds: TimeInterval) async throws {
        let gate = Gate()
        await withTaskCancellationHandler {
            sleeping.fulfill()
            await gate.wait()
        } onCancel: {
            gate.open()
        }
        lock.withLock { woken += 1 }
        throw CancellationError()
    }

    /// Resumes its waiter once opened, whichever comes first.
    private final class Gate: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var isOpen = false
        private var waiter: CheckedContinuation<Void, Never>?

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = lock.withLock {
                    if isOpen { return true }
                    waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let waiter = lock.withLock {
                isOpen = true
                defer { self.waiter = nil }
                return self.waiter
            }
            waiter?.resume()
        }
    }
}

/// The retry policy: its backoff, `Retry-After`, and the retry stage against stubbed answers.
final class RetryPolicyTests: XCTestCase {
    private let root = URL(string: "https://api.example.com/")!

    // MARK: Backoff

    func testBackoffIsFullJitterOfTheDoublingBoundUnderTheCap() {
        let policy = RetryPolicy(maximumAttempts: 10, baseDelay: 0.5, maximumDelay: 3)
        XCTAssertEqual(policy.backoff(beforeRetry: 1, random: 1), 0.5)
        XCTAssertEqual(policy.backoff(beforeRetry: 2, random: 1), 1)
        XCTAssertEqual(policy.backoff(beforeRetry: 3, random: 1), 2)
        // 4 s is over the cap of 3 s.
        XCTAssertEqual(policy.backoff(beforeRetry: 4, random: 1), 3)
        XCTAssertEqual(policy.backoff(beforeRetry: 3, random: 0.25), 0.5)
        XCTAssertEqual(policy.backoff(beforeRetry: 2, random: 0), 0)
    }

    func testBackoffStaysFiniteAndInRangeWhateverItIsGiven() {
        let policy = RetryPolicy(maximumAttempts: 10, baseDelay: 1, maximumDelay: 30)
        XCTAssertEqual(policy.backoff(beforeRetry: Int.max, random: 1), 30)
        XCTAssertEqual(policy.backoff(beforeRetry: Int.min, random: 1), 1)
        XCTAssertEqual(policy.backoff(beforeRetry: 2, random: .nan), 0)
        XCTAssertEqual(policy.backoff(beforeRetry: 2, random: 7), 2)
        XCTAssertEqual(policy.backoff(beforeRetry: 2, random: -1), 0)
        let odd = RetryPolicy(maximumAttempts: 2, baseDelay: -5, maximumDelay: .infinity)
        XCTAssertEqual(odd.backoff(beforeRetry: 1, random: 1), 0)
        let unbounded = RetryPolicy(maximumAttempts: 2, baseDelay: .infinity, maximumDelay: .nan)
        XCTAssertEqual(unbounded.backoff(beforeRetry: 1, random: 1), 0)
    }

    func testMaximumAttemptsIsAtLeastOne() {
        XCTAssertEqual(RetryPolicy(maximumAttempts: 0).maximumAttempts, 1)
        var policy = RetryPolicy()
        policy.maximumAttempts = -3
        XCTAssertEqual(policy.maximumAttempts, 1)
        XCTAssertEqual(RetryPolicy.never.maximumAttempts, 1)
        XCTAssertEqual(RetryPolicy().retriedStatusCodes, [408, 429, 500, 502, 503, 504])
    }

    // MARK: Retry-After (RFC 9110 §10.2.3)

    func testRetryAfterInSeconds() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(RetryAfter.seconds(in: "120", now: now), 120)
        XCTAssertEqual(RetryAfter.seconds(in: " 0 ", now: now), 0)
        XCTAssertEqual(RetryAfter.seconds(in: "99999999999999999999999", now: now), 1e15)
        XCTAssertNil(RetryAfter.seconds(in: "", now: now))
        XCTAssertNil(RetryAfter.seconds(in: "-1", now: now))
        XCTAssertNil(RetryAfter.seconds(in: "+1", now: now))
        XCTAssertNil(RetryAfter.seconds(in: "1.5", now: now))
        XCTAssertNil(RetryAfter.seconds(in: "soon", now: now))
    }

    func testRetryAfterAsAnHTTPDate() {
        // Tue, 14 Nov 2023 22:13:20 GMT
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(RetryAfter.seconds(in: "Tue, 14 Nov 2023 22:13:50 GMT", now: now), 30)
        XCTAssertEqual(RetryAfter.seconds(in: "Tuesday, 14-Nov-23 22:14:20 GMT", now: now), 60)
        XCTAssertEqual(RetryAfter.seconds(in: "Tue Nov 14 22:13:21 2023", now: now), 1)
        // A date already past asks for no wait.
        XCTAssertEqual(RetryAfter.seconds(in: "Sun, 06 Nov 1994 08:49:37 GMT", now: now), 0)
        XCTAssertNil(RetryAfter.seconds(in: "Tue, 31 Nov 2023 22:13:50 GMT", now: now))
    }

    func testRetryAfterIsASingleField() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(RetryAfter.seconds(in: HTTPHeaders(["Retry-After": "3"]), now: now), 3)
        let twice = HTTPHeaders([.init(name: "Retry-After", value: "3"), .init(name: "Retry-After", value: "4")])
        XCTAssertNil(RetryAfter.seconds(in: twice, now: now))
        XCTAssertNil(RetryAfter.seconds(in: HTTPHeaders(), now: now))
    }

    // MARK: The stage

    private func client(_ stubs: StubTransport, _ policy: RetryPolicy) -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: root, transport: stubs)
        client.retryPolicy = policy
        return client
    }

    func testServiceUnavailableTwiceThenSuccessIsRetriedWithTheBackoff() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .status(503), .status(503), .text("done"))
        let environment = RecordingRetryEnvironment(jitter: 0.5)
        let client = client(stubs, RetryPolicy(maximumAttempts: 3, baseDelay: 1, environment: environment))
        let response = try await client.response(for: call)
        XCTAssertEqual(response.value, "done")
        XCTAssertEqual(response.attempts, 3)
        XCTAssertEqual(stubs.requests.count, 3)
        XCTAssertEqual(environment.waits, [0.5, 1])
    }

    func testTheLastAttemptsFailureIsTheCallsError() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .status(502))
        let environment = RecordingRetryEnvironment()
        let client = client(stubs, RetryPolicy(maximumAttempts: 2, environment: environment))
        do {
            _ = try await client.perform(call)
            XCTFail("a 502 every time must fail")
        } catch {
            XCTAssertEqual(error.statusCode, 502)
        }
        XCTAssertEqual(stubs.requests.count, 2)
        XCTAssertEqual(environment.waits.count, 1)
    }

    func testStatusesOutsideThePolicyAreNotRetried() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .status(501), .text("never"))
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        do {
            _ = try await client.perform(call)
            XCTFail("501 is not retried")
        } catch {
            XCTAssertEqual(error.statusCode, 501)
        }
        XCTAssertEqual(stubs.requests.count, 1)
    }

    func testConnectionFailuresAreRetriedAndOthersAreNot() async throws {
        let stubs = StubTransport()
        let refused = WebServiceCall<String>(relativePath: "refused")
        let lost = WebServiceCall<String>(relativePath: "lost")
        let badURL = WebServiceCall<String>(relativePath: "bad")
        stubs.stub(refused, with: .failure(.cannotConnectToHost), .text("in"))
        stubs.stub(lost, with: .failure(.networkConnectionLost), .text("in"))
        stubs.stub(badURL, with: .failure(.secureConnectionFailed), .text("never"))
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        let first = try await client.response(for: refused)
        XCTAssertEqual(first.attempts, 2)
        let second = try await client.response(for: lost)
        XCTAssertEqual(second.attempts, 2)
        do {
            _ = try await client.perform(badURL)
            XCTFail("a TLS failure is not retried")
        } catch {
            guard case .transport(let failure) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.code, .secureConnectionFailed)
        }
        XCTAssertEqual(stubs.requests.count, 5)
    }

    func testPostIsRetriedOnlyWhenItsDescriptorSaysItIsIdempotent() async throws {
        let stubs = StubTransport()
        let plain = WebServiceCall<String>(method: .post, relativePath: "orders")
        var fields = CallFields(method: .post, relativePath: "orders/keyed")
        fields.isIdempotent = true
        let marked = WebServiceCall<String>(fields)
        stubs.stub(plain, with: .status(503), .text("twice"))
        stubs.stub(marked, with: .status(503), .text("twice"))
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        do {
            _ = try await client.perform(plain, Data("{}".utf8))
            XCTFail("a POST is not retried")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        XCTAssertEqual(stubs.requests.count, 1)
        let value = try await client.perform(marked, Data("{}".utf8))
        XCTAssertEqual(value, "twice")
        XCTAssertEqual(stubs.requests.count, 3)
        // The body went out again with the retry.
        XCTAssertEqual(stubs.requests.last?.request.httpBody, Data("{}".utf8))
    }

    func testTheDescriptorsPolicyWinsOverTheClients() async throws {
        let stubs = StubTransport()
        var fields = CallFields(relativePath: "a")
        fields.retryPolicy = .never
        let once = WebServiceCall<String>(fields)
        var more = CallFields(relativePath: "b")
        more.retryPolicy = RetryPolicy(maximumAttempts: 4, environment: RecordingRetryEnvironment())
        let fourTimes = WebServiceCall<String>(more)
        stubs.stub(once, with: .status(503), .text("never"))
        stubs.stub(fourTimes, with: .status(503), .status(503), .status(503), .text("fourth"))
        let client = client(stubs, RetryPolicy(maximumAttempts: 2, environment: RecordingRetryEnvironment()))
        do {
            _ = try await client.perform(once)
            XCTFail("the descriptor never retries")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        let response = try await client.response(for: fourTimes)
        XCTAssertEqual(response.value, "fourth")
        XCTAssertEqual(response.attempts, 4)
    }

    func testRetryAfterIsTheWaitAndALongerOneFailsWithIt() async throws {
        let stubs = StubTransport()
        let short = WebServiceCall<String>(relativePath: "short")
        let long = WebServiceCall<String>(relativePath: "long")
        stubs.stub(short, with: .status(429, headers: ["Retry-After": "7"]), .text("ok"))
        stubs.stub(long, with: .status(503, headers: ["Retry-After": "120"]), .text("never"))
        let environment = RecordingRetryEnvironment()
        let client = client(stubs, RetryPolicy(maximumDelay: 10, environment: environment))
        let value = try await client.perform(short)
        XCTAssertEqual(value, "ok")
        XCTAssertEqual(environment.waits, [7])
        do {
            _ = try await client.perform(long)
            XCTFail("a wait of 120 s is over the 10 s cap")
        } catch {
            guard case .retryAfterTooLong(let refusal) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.retryAfter, 120)
            XCTAssertEqual(refusal.limit, 10)
            XCTAssertEqual(refusal.statusCode, 503)
            XCTAssertEqual(refusal.attempts, 1)
            XCTAssertEqual(error.statusCode, 503)
            XCTAssertEqual(error.category, .http)
        }
        XCTAssertEqual(stubs.requests.count, 3)
        XCTAssertEqual(environment.waits, [7])
    }

    func testTheTotalTimeCapEndsTheRetries() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .status(503))
        let environment = RecordingRetryEnvironment(jitter: 1)
        // Waits of 1, 2 and 4 s: the third would end at 7 s, past the cap of 5 s.
        let client = client(
            stubs,
            RetryPolicy(
                maximumAttempts: 10, baseDelay: 1, maximumDelay: 60, maximumTotalTime: 5, environment: environment))
        do {
            _ = try await client.perform(call)
            XCTFail("503 every time must fail")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        XCTAssertEqual(environment.waits, [1, 2])
        XCTAssertEqual(stubs.requests.count, 3)
    }

    func testAOneShotStreamIsNeverRetriedAndAReplayableOneIsOpenedAgain() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(method: .put, relativePath: "upload")
        stubs.stub(call, with: .status(503), .text("stored"))
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        let oneShot = RequestBody.stream(length: 3, isReplayable: false) { InputStream(data: Data("abc".utf8)) }
        do {
            _ = try await client.perform(call, oneShot)
            XCTFail("a one-shot stream is not retried")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        XCTAssertEqual(stubs.requests.count, 1)

        stubs.stub(call, with: .status(503), .text("stored"))
        let opened = OpenCount()
        let replayable = RequestBody.stream(length: 3) {
            opened.add()
            return InputStream(data: Data("abc".utf8))
        }
        let value = try await client.perform(call, replayable)
        XCTAssertEqual(value, "stored")
        XCTAssertEqual(opened.count, 2)
        XCTAssertEqual(stubs.requests.count, 3)
    }

    /// A download retried after a 503 whose body went to the file: the file holds only the
    /// final answer's body.
    func testARetriedDownloadKeepsOnlyTheLastBody() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<DownloadedFile>(relativePath: "file")
        stubs.stub(
            call, with: .text("the server is busy, a long error body", statusCode: 503), .text("content"))
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        let file = try await client.perform(call)
        defer { try? FileManager.default.removeItem(at: file.url) }
        XCTAssertEqual(try Data(contentsOf: file.url), Data("content".utf8))
        XCTAssertEqual(file.byteCount, 7)
        XCTAssertEqual(stubs.requests.count, 2)
    }

    func testAnAnswerOfTheCacheIsNotRetried() async throws {
        let stubs = StubTransport()
        var fields = CallFields(relativePath: "a")
        fields.cache = .forceCache
        let call = WebServiceCall<String>(fields)
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        client.cache = HTTPCache()
        do {
            _ = try await client.perform(call)
            XCTFail("nothing stored: only-if-cached answers 504")
        } catch {
            XCTAssertEqual(error.statusCode, 504)
        }
        XCTAssertEqual(stubs.requests.count, 0)
    }

    func testEachRetryIsLoggedOnceAndEachSendHasItsOwnNumber() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .status(503), .failure(.networkConnectionLost), .text("done"))
        let client = client(stubs, RetryPolicy(baseDelay: 2, environment: RecordingRetryEnvironment(jitter: 0.5)))
        let recorder = CapturingLogger()
        client.logger = recorder
        client.logLevel = .basic
        _ = try await client.perform(call)
        let retries = recorder.messages.filter { $0.kind == .retry }
        XCTAssertEqual(retries.map { $0.metadata[LogMessage.MetadataKey.attempt] }, ["2", "3"])
        XCTAssertEqual(retries.map { $0.metadata[LogMessage.MetadataKey.retryDelayMilliseconds] }, ["1000", "2000"])
        XCTAssertEqual(retries.map { $0.metadata[LogMessage.MetadataKey.error] }, ["status 503", "connection lost"])
        XCTAssertEqual(
            retries.first?.text,
            "--> RETRY GET https://api.example.com/a (attempt 2 of 3 in 1000 ms, after status 503)")
        let sent = recorder.messages.filter { $0.kind == .request }
        XCTAssertEqual(sent.map { $0.metadata[LogMessage.MetadataKey.attempt] }, ["1", "2", "3"])
    }

    func testARedirectedAttemptIsFollowedAgainFromTheCallsRequest() async throws {
        let stubs = StubTransport()
        stubs.stub(where: { $0.url?.path == "/a" }, with: .status(302, headers: ["Location": "/b"]))
        stubs.stub(where: { $0.url?.path == "/b" }, with: .status(503), .text("landed"))
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        let recorder = CapturingLogger()
        client.logger = recorder
        client.logLevel = .basic
        let response = try await client.response(for: WebServiceCall<String>(relativePath: "a"))
        XCTAssertEqual(response.value, "landed")
        XCTAssertEqual(response.attempts, 2)
        XCTAssertEqual(stubs.requests.map { $0.request.url?.path }, ["/a", "/b", "/a", "/b"])
        // Requests are numbered across the retry; the retry's message names the next one.
        let numbers = recorder.messages.filter { $0.kind != .response }.map {
            "\($0.kind.rawValue) \($0.metadata[LogMessage.MetadataKey.attempt] ?? "")"
        }
        XCTAssertEqual(numbers, ["request 1", "request 2", "retry 3", "request 3", "request 4"])
    }

    /// Each attempt is a new exchange for the provider: it gives credentials again (a fresh
    /// token) and hears of the attempt that got no answer.
    func testEachAttemptGetsCredentialsAgainAndTheProviderHearsOfAFailure() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .failure(.networkConnectionLost), .status(503), .text("in"))
        let provider = CountingProvider()
        let client = client(stubs, RetryPolicy(environment: RecordingRetryEnvironment()))
        client.authenticationProvider = provider
        let value = try await client.perform(call)
        XCTAssertEqual(value, "in")
        XCTAssertEqual(
            stubs.requests.map { $0.request.value(forHTTPHeaderField: "Authorization") },
            ["Bearer t1", "Bearer t2", "Bearer t3"])
        XCTAssertEqual(provider.failures, ["Bearer t1"])
    }

    func testCancellationWakesTheWaitAndTheCallbackSaysCancelledOnce() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .status(503), .text("never"))
        let environment = BlockingRetryEnvironment(sleeping: expectation(description: "waiting to retry"))
        let client = client(stubs, RetryPolicy(environment: environment))
        let failed = expectation(description: "failure")
        let results = Results()
        let task = client.perform(call, [], success: { _ in results.add("success") }) { error in
            results.add("\(error)")
            failed.fulfill()
        }
        await fulfillment(of: [environment.sleeping], timeout: 30)
        task.cancel(reason: "user left")
        await fulfillment(of: [failed], timeout: 30)
        XCTAssertEqual(results.all, ["GET a: cancelled: user left"], "the callback's cancellation names its call")
        XCTAssertEqual(stubs.requests.count, 1)
        // The wait itself ended with the cancellation (the call's task was cancelled).
        let woken = expectation(description: "sleep woken")
        Task {
            while environment.cancelledSleeps == 0 { await Task.yield() }
            woken.fulfill()
        }
        await fulfillment(of: [woken], timeout: 30)
        XCTAssertEqual(results.all.count, 1)
    }

    func testAnAsyncCallCancelledDuringItsWaitThrowsCancelled() async throws {
        let stubs = StubTransport()
        let call = WebServiceCall<String>(relativePath: "a")
        stubs.stub(call, with: .status(503), .text("never"))
        let environment = BlockingRetryEnvironment(sleeping: expectation(description: "waiting to retry"))
        let client = client(stubs, RetryPolicy(environment: environment))
        let work = Task { () -> WebServiceError? in
            do throws(WebServiceError) {
                _ = try await client.perform(call)
                return nil
            } catch {
                return error
            }
        }
        await fulfillment(of: [environment.sleeping], timeout: 30)
        work.cancel()
        let error = await work.value
        XCTAssertEqual(error?.isCancelled, true)
        XCTAssertEqual(environment.cancelledSleeps, 1)
        XCTAssertEqual(stubs.requests.count, 1)
    }
}

private final class OpenCount: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var opened = 0
    var count: Int { lock.withLock { opened } }
    func add() { lock.withLock { opened += 1 } }
}

private final class Results: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var recorded: [String] = []
    var all: [String] { lock.withLock { recorded } }
    func add(_ result: String) { lock.withLock { recorded.append(result) } }
}

/// Gives each request a new token and records the requests that got no answer.
private final class CountingProvider: AuthenticationProvider, @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var issued = 0
    private var failed: [String] = []
    var failures: [String] { lock.withLock { failed } }

    func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> WebServiceRequest {
        let token = lock.withLock {
            issued += 1
            return "t\(issued)"
        }
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    func handle(_ failure: WebServiceError, to request: WebServiceRequest, for call: CallDescriptor) async {
        lock.withLock { failed.append(request.value(forHTTPHeaderField: "Authorization") ?? "") }
    }
}
