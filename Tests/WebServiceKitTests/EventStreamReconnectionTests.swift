import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stream of Server-Sent Events that reconnects as `EventSource` does (WHATWG HTML §9.2.3).
final class EventStreamReconnectionTests: XCTestCase {
    private func feed(_ reconnection: EventStreamReconnection) -> WebServiceCall<ResponseStream<ServerSentEvent>> {
        WebServiceCall(relativePath: "feed", stream: .serverSentEvents(reconnection: reconnection))
    }

    private static func events(of stream: ResponseStream<ServerSentEvent>) async -> ([String], WebServiceError?) {
        await readEvents(stream)
    }

    private func lastEventIDs(_ stubs: StubTransport) -> [String?] {
        stubs.requests.map { $0.request.value(forHTTPHeaderField: "Last-Event-ID") }
    }

    func testItReconnectsWithTheLastEventIDAfterTheServersRetryUntilA204() async throws {
        let (client, stubs) = makeStubClient()
        let clock = RecordingRetryEnvironment()
        let call = feed(EventStreamReconnection(delay: 3, environment: clock))
        stubs.stub(
            call,
            with: .text("retry: 250\nid: 1\ndata: a\n\ndata: cut sho"),
            .text("data: b\n\nid: 2\ndata: c\n\n"),
            .text("data: d\n\n"),
            .status(204))
        let (data, error) = await Self.events(of: try await client.stream(call))
        XCTAssertNil(error)
        XCTAssertEqual(data, ["a", "b", "c", "d"], "an event the connection cut is dropped")
        XCTAssertEqual(lastEventIDs(stubs), [nil, "1", "2", "2"])
        XCTAssertEqual(clock.waits, [0.25, 0.25, 0.25], "the server's retry, in milliseconds")
    }

    func testWithoutAnIDNoLastEventIDIsSentAndTheDefaultDelayApplies() async throws {
        let (client, stubs) = makeStubClient()
        let clock = RecordingRetryEnvironment()
        let call = feed(EventStreamReconnection(delay: 1.5, environment: clock))
        stubs.stub(call, with: .text("data: a\n\n"), .status(204))
        let (data, _) = await Self.events(of: try await client.stream(call))
        XCTAssertEqual(data, ["a"])
        XCTAssertEqual(lastEventIDs(stubs), [nil, nil])
        XCTAssertEqual(clock.waits, [1.5])
    }

    func testFailedReconnectionsBackOffAndGiveUpAfterTheLimit() async throws {
        let (client, stubs) = makeStubClient()
        let clock = RecordingRetryEnvironment()
        let call = feed(
            EventStreamReconnection(delay: 1, maximumDelay: 3, maximumFailedAttempts: 3, environment: clock))
        stubs.stub(call, with: .text("id: 9\ndata: a\n\n"), .failure(.cannotConnectToHost))
        let (data, error) = await Self.events(of: try await client.stream(call))
        XCTAssertEqual(data, ["a"])
        XCTAssertEqual(error?.isTimeout, false)
        guard case .transport(let urlError) = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(urlError.code, .cannotConnectToHost)
        XCTAssertEqual(clock.waits, [1, 2, 3], "doubled after each failure, within the maximum")
        XCTAssertEqual(lastEventIDs(stubs), [nil, "9", "9", "9"])
    }

    func testAFailedReconnectionIsFollowedByASuccessfulOne() async throws {
        let (client, stubs) = makeStubClient()
        let clock = RecordingRetryEnvironment()
        let call = feed(EventStreamReconnection(delay: 1, environment: clock))
        stubs.stub(
            call, with: .text("data: a\n\n"), .failure(.networkConnectionLost), .text("data: b\n\n"), .status(204))
        let (data, error) = await Self.events(of: try await client.stream(call))
        XCTAssertNil(error)
        XCTAssertEqual(data, ["a", "b"])
        XCTAssertEqual(clock.waits, [1, 2, 1], "the backoff starts over after a connection was accepted")
    }

    func testAStatusTheCallDoesNotAcceptEndsTheStream() async throws {
        let (client, stubs) = makeStubClient()
        let call = feed(EventStreamReconnection(environment: RecordingRetryEnvironment()))
        stubs.stub(call, with: .text("data: a\n\n"), .text("gone", statusCode: 410))
        let (data, error) = await Self.events(of: try await client.stream(call))
        XCTAssertEqual(data, ["a"])
        XCTAssertEqual(error?.statusCode, 410)
        XCTAssertEqual(stubs.requests.count, 2, "no reconnection after a refusal")
    }

    func testAFailureThatIsNotTheConnectionsDoesNotReconnect() async throws {
        let (client, stubs) = makeStubClient()
        let call = WebServiceCall<ResponseStream<ServerSentEvent>>(
            relativePath: "feed",
            stream: .serverSentEvents(
                maximumEventSize: 4, reconnection: EventStreamReconnection(environment: RecordingRetryEnvironment())))
        stubs.stub(call, with: .text("data: a\n\ndata: too long\n\n"))
        let (data, error) = await Self.events(of: try await client.stream(call))
        XCTAssertEqual(data, ["a"])
        XCTAssertEqual(error?.streamFailure, .eventTooLarge(limit: 4))
        XCTAssertEqual(stubs.requests.count, 1)
    }

    func testCancellingDuringTheWaitEndsItAtOnce() async throws {
        // Both ways to stop: the stream's cancel(), and the iterating task's cancellation.
        for byTask in [false, true] {
            let (client, stubs) = makeStubClient()
            let waiting = WaitSignal()
            let call = feed(EventStreamReconnection(delay: 3600, environment: waiting))
            stubs.stub(call, with: .text("data: a\n\n"))
            let stream = try await client.stream(call)
            let reader = Task { [stream] in await readEvents(stream) }
            await waiting.started.value()
            if byTask { reader.cancel() } else { stream.cancel() }
            let (data, error) = await reader.value
            XCTAssertEqual(data, ["a"])
            XCTAssertEqual(error?.isCancelled, true, "\(String(describing: error))")
            XCTAssertEqual(stubs.requests.count, 1, "no reconnection after the cancellation")
        }
    }

    func testTheWaitIsTheServersRetryOrTheDelayDoubledWithinTheMaximum() {
        let policy = EventStreamReconnection(delay: 2, maximumDelay: 10)
        XCTAssertEqual(policy.wait(serverRetry: nil, failures: 0), 2)
        XCTAssertEqual(policy.wait(serverRetry: 500, failures: 0), 0.5)
        XCTAssertEqual(policy.wait(serverRetry: nil, failures: 2), 8)
        XCTAssertEqual(policy.wait(serverRetry: nil, failures: 10), 10)
        // A server that asks for more than the maximum is waited for, without doubling.
        XCTAssertEqual(policy.wait(serverRetry: 60_000, failures: 3), 60)
        XCTAssertEqual(policy.wait(serverRetry: Int.max, failures: 70), 86_400)
    }
}

/// A clock whose sleep tells the test it began, then waits until cancelled.
private final class WaitSignal: RetryEnvironment, @unchecked Sendable {
    let started = OneShot<Void>()
    func uptime() -> TimeInterval { 0 }
    func now() -> Date { Date() }
    func random() -> Double { 0.5 }
    func sleep(seconds: TimeInterval) async throws {
        started.resolve(())
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    }
}

/// The data of every event of `stream`, and the error that ended it.
private func readEvents(_ stream: ResponseStream<ServerSentEvent>) async -> ([String], WebServiceError?) {
    var data: [String] = []
    do {
        for try await event in stream { data.append(event.data) }
        return (data, nil)
    } catch {
        return (data, error)
    }
}
