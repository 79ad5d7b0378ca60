import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A retry environment whose sleep lasts until its task is cancelled, and says when it starts.
private final class WaitsForCancellation: RetryEnvironment, @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var cancelled = false
    let sleeping: XCTestExpectation

    init(sleeping: XCTestExpectation) { self.sleeping = sleeping }

    func uptime() -> TimeInterval { 0 }
    func now() -> Date { Date() }
    func random() -> Double { 1 }
    func sleep(seconds: TimeInterval) async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resume = lock.withLock {
                    if cancelled { return true }
                    self.continuation = continuation
                    return false
                }
                sleeping.fulfill()
                if resume { continuation.resume() }
            }
        } onCancel: {
            let waiting = lock.withLock {
                cancelled = true
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume()
        }
        throw CancellationError()
    }
}

/// Counts the messages of each kind a call logs.
private final class KindCounter: WebServiceLogger, @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var kinds: [LogMessage.Kind] = []
    func count(_ kind: LogMessage.Kind) -> Int { lock.withLock { kinds.filter { $0 == kind }.count } }
    func log(_ message: LogMessage) { lock.withLock { kinds.append(message.kind) } }
}

extension ScriptStep {
    /// `status` with a short text body.
    fileprivate static func status(_ status: Int, _ headers: [[String]] = []) -> ScriptStep {
        ScriptStep(status: status, headers: headers, body: "status \(status)")
    }
    /// The connection reset without an answer.
    fileprivate static let reset = ScriptStep(action: "reset")
    /// A 200 with the text `ok`.
    fileprivate static let ok = ScriptStep(status: 200, headers: [["Content-Type", "text/plain"]], body: "ok")
}

/// The retry policy against the fault server's scripted answers (`/script`), on both routes:
/// the direct HTTP/1.1 transport (GET, streamed bodies) and `URLSession` (a body in memory).
final class RetryIntegrationTests: XCTestCase {
    private typealias Step = ScriptStep

    private func script(_ steps: [Step], tag: String) throws -> String { try FaultScript.path(steps, tag: tag) }

    private func tag() -> String { FaultScript.newTag("retry") }

    private func client(_ policy: RetryPolicy) throws -> WebServiceClient {
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        client.retryPolicy = policy
        return client
    }

    func testServiceUnavailableTwiceThenSuccess() async throws {
        let tag = tag()
        let environment = RecordingRetryEnvironment()
        let client = try client(RetryPolicy(maximumAttempts: 3, baseDelay: 0.25, environment: environment))
        let call = WebServiceCall<String>(relativePath: try script([.status(503), .status(503), .ok], tag: tag))
        let response = try await client.response(for: call)
        XCTAssertEqual(response.value, "ok")
        XCTAssertEqual(response.attempts, 3)
        XCTAssertEqual(environment.waits, [0.25, 0.5])
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 3)
    }

    func testTooManyRequestsWithRetryAfterOneSecond() async throws {
        let tag = tag()
        let environment = RecordingRetryEnvironment()
        let client = try client(RetryPolicy(baseDelay: 5, environment: environment))
        let call = WebServiceCall<String>(
            relativePath: try script([.status(429, [["Retry-After", "1"]]), .ok], tag: tag))
        let response = try await client.response(for: call)
        XCTAssertEqual(response.value, "ok")
        // The server's wait, not the backoff (which would have been 5 s).
        XCTAssertEqual(environment.waits, [1])
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 2)
    }

    func testARetryAfterPastTheCapFailsWithIt() async throws {
        let tag = tag()
        let environment = RecordingRetryEnvironment()
        let client = try client(RetryPolicy(maximumDelay: 10, environment: environment))
        let call = WebServiceCall<String>(
            relativePath: try script([.status(503, [["Retry-After", "3600"]]), .ok], tag: tag))
        do {
            _ = try await client.perform(call)
            XCTFail("an hour is past the cap")
        } catch {
            guard case .retryAfterTooLong(let refusal) = error.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.retryAfter, 3600)
            XCTAssertEqual(refusal.statusCode, 503)
        }
        XCTAssertEqual(environment.waits, [])
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 1)
    }

    func testAResetThenSuccessOnTheDirectRoute() async throws {
        let tag = tag()
        let client = try client(RetryPolicy(environment: RecordingRetryEnvironment()))
        let call = WebServiceCall<String>(relativePath: try script([.reset, .ok], tag: tag))
        let response = try await client.response(for: call)
        XCTAssertEqual(response.value, "ok")
        XCTAssertEqual(response.attempts, 2)
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 2)
    }

    /// A PUT with its body in memory goes through `URLSession` on Linux: its reset is retried too.
    func testAResetThenSuccessOnTheSessionRoute() async throws {
        let tag = tag()
        let client = try client(RetryPolicy(environment: RecordingRetryEnvironment()))
        let call = WebServiceCall<String>(method: .put, relativePath: try script([.reset, .ok], tag: tag))
        let response = try await client.response(for: call, Data("{\"a\":1}".utf8))
        XCTAssertEqual(response.value, "ok")
        XCTAssertEqual(response.attempts, 2)
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 2)
    }

    /// Nothing listens on the port: the connection is refused, on either route, and retried.
    func testARefusedConnectionIsRetriedOnBothRoutes() async throws {
        let port = closedLocalPort()
        let client = WebServiceClient(serviceRoot: URL(string: "http://127.0.0.1:\(port)/")!)
        client.retryPolicy = RetryPolicy(maximumAttempts: 2, environment: RecordingRetryEnvironment())
        let logger = KindCounter()
        client.logger = logger
        client.logLevel = .basic
        for (method, body) in [(HTTPMethod.get, nil), (.put, Data("{}".utf8))] as [(HTTPMethod, Data?)] {
            let call = WebServiceCall<String>(method: method, relativePath: "nothing")
            do {
                _ = try await client.perform(call, body.map { [$0] } ?? [])
                XCTFail("nothing listens on \(port)")
            } catch {
                guard case .transport(let failure) = error.reason else { return XCTFail("\(method): \(error)") }
                XCTAssertEqual(failure.code, .cannotConnectToHost, "\(method)")
            }
        }
        XCTAssertEqual(logger.count(.retry), 2)
        XCTAssertEqual(logger.count(.failure), 4)
    }

    func testAPostIsNotRetried() async throws {
        let tag = tag()
        let client = try client(RetryPolicy(environment: RecordingRetryEnvironment()))
        let call = WebServiceCall<String>(method: .post, relativePath: try script([.status(503), .ok], tag: tag))
        do {
            _ = try await client.perform(call, Data("{}".utf8))
            XCTFail("a POST is sent once")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        let resetTag = self.tag()
        let reset = WebServiceCall<String>(method: .post, relativePath: try script([.reset, .ok], tag: resetTag))
        do {
            _ = try await client.perform(reset, Data("{}".utf8))
            XCTFail("a POST is sent once")
        } catch {
            XCTAssertEqual(error.category, .network)
        }
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 1)
        let resetRecord = try await FaultServer.record(resetTag, at: try FaultServer.url())
        XCTAssertEqual(resetRecord.count, 1)
    }

    func testAPostMarkedIdempotentIsRetried() async throws {
        let tag = tag()
        let client = try client(RetryPolicy(environment: RecordingRetryEnvironment()))
        var fields = CallFields(method: .post, relativePath: try script([.status(503), .reset, .ok], tag: tag))
        fields.isIdempotent = true
        let response = try await client.response(for: WebServiceCall<String>(fields), Data("{}".utf8))
        XCTAssertEqual(response.value, "ok")
        XCTAssertEqual(response.attempts, 3)
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 3)
    }

    func testCancellingDuringTheBackoffEndsTheCallAtOnce() async throws {
        let tag = tag()
        // The script first: without the fault server it skips, before any expectation exists.
        let call = WebServiceCall<String>(relativePath: try script([.status(503), .ok], tag: tag))
        let environment = WaitsForCancellation(sleeping: expectation(description: "waiting to retry"))
        let client = try client(RetryPolicy(environment: environment))
        let failed = expectation(description: "failure")
        let task = client.perform(call, [], success: { _ in XCTFail("cancelled") }) { error in
            XCTAssertEqual(error.isCancelled, true)
            XCTAssertEqual(error.reason.description, "cancelled: stop")
            failed.fulfill()
        }
        await fulfillment(of: [environment.sleeping], timeout: 30)
        task.cancel(reason: "stop")
        await fulfillment(of: [failed], timeout: 30)
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 1)
    }

    func testTheTotalTimeCap() async throws {
        let tag = tag()
        let environment = RecordingRetryEnvironment()
        // Waits of 1, 2 and 4 s (no jitter in this environment): the third would end at 7 s.
        let client = try client(
            RetryPolicy(
                maximumAttempts: 10, baseDelay: 1, maximumDelay: 60, maximumTotalTime: 5, environment: environment))
        let call = WebServiceCall<String>(relativePath: try script([.status(503)], tag: tag))
        do {
            _ = try await client.perform(call)
            XCTFail("503 every time")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        XCTAssertEqual(environment.waits, [1, 2])
        let record = try await FaultServer.record(tag, at: try FaultServer.url())
        XCTAssertEqual(record.count, 3)
    }

    func testAOneShotStreamIsNotRetriedAndAReplayableOneIs() async throws {
        let oneShotTag = tag()
        let client = try client(RetryPolicy(environment: RecordingRetryEnvironment()))
        let oneShot = WebServiceCall<String>(
            method: .put, relativePath: try script([.status(503), .ok], tag: oneShotTag))
        do {
            _ = try await client.perform(
                oneShot, RequestBody.stream(length: 5, isReplayable: false) { InputStream(data: Data("hello".utf8)) })
            XCTFail("a one-shot stream is sent once")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }
        let replayTag = tag()
        let replayable = WebServiceCall<String>(
            method: .put, relativePath: try script([.status(503), .ok], tag: replayTag))
        let response = try await client.response(
            for: replayable, RequestBody.stream(length: 5) { InputStream(data: Data("hello".utf8)) })
        XCTAssertEqual(response.value, "ok")
        XCTAssertEqual(response.attempts, 2)
        let oneShotRecord = try await FaultServer.record(oneShotTag, at: try FaultServer.url())
        XCTAssertEqual(oneShotRecord.count, 1)
        let replayRecord = try await FaultServer.record(replayTag, at: try FaultServer.url())
        XCTAssertEqual(replayRecord.count, 2)
    }

    /// The first answer comes after the call's timeout: no response head arrived, so it is retried.
    func testATimeoutBeforeTheResponseIsRetried() async throws {
        let tag = tag()
        let client = try client(RetryPolicy(environment: RecordingRetryEnvironment()))
        var slow = Step.ok
        slow.delay = 2
        var fields = CallFields(relativePath: try script([slow, .ok], tag: tag))
        fields.timeout = 0.5
        let response = try await client.response(for: WebServiceCall<String>(fields))
        XCTAssertEqual(response.value, "ok")
        XCTAssertEqual(response.attempts, 2)
    }

    /// A timeout after the response head arrived (a body that drips) is not retried, on either
    /// route: the server may have acted on the request, and half an answer is not a refusal.
    func testATimeoutAfterTheResponseHeadIsNotRetried() async throws {
        let client = try client(RetryPolicy(environment: RecordingRetryEnvironment()))
        for method in [HTTPMethod.get, .put] {
            let tag = tag()
            var fields = CallFields(method: method, relativePath: "drip?interval=1&bytes=5&tag=\(tag)")
            fields.timeout = 0.5
            do {
                _ = try await client.perform(WebServiceCall<Data>(fields), method == .put ? [Data("{}".utf8)] : [])
                XCTFail("the body takes 5 s")
            } catch {
                XCTAssertEqual(error.isTimeout, true, "\(method): \(error)")
            }
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertEqual(record.count, 1, "\(method)")
        }
    }
}
