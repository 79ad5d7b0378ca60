import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 22, item 7, through the cache stage: the stale answer served at once and its
/// revalidation in the background (RFC 5861 §3), and `stale-if-error` after a failure
/// (RFC 5861 §4). The transport holds the background request until the test lets it go, so that
/// every step happens in an order the test decides; the test then waits for the background work
/// with ``HTTPCache/backgroundRevalidationsFinished()``, never with a sleep.
final class StaleWhileRevalidateStageTests: XCTestCase {
    /// A transport that answers the n-th request with the n-th scripted outcome (the last one
    /// repeats) and holds the requests whose numbers are in `held` until ``release()``.
    private final class ScriptedTransport: WebServiceTransport {
        enum Outcome: Sendable {
            case response(TransportResponse)
            case failure(URLError.Code)
            case cancellation
        }

        struct Seen: Sendable {
            let request: WebServiceRequest
            let reportsProgress: Bool
            let downloadsToFile: Bool
        }

        actor State {
            var seen: [Seen] = []
            var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
            var released = false
            var heldRequests: [CheckedContinuation<Void, Never>] = []

            func arrive(_ seen: Seen) -> Int {
                self.seen.append(seen)
                let count = self.seen.count
                let ready = arrivalWaiters.filter { $0.count <= count }
                arrivalWaiters.removeAll { $0.count <= count }
                for waiter in ready { waiter.continuation.resume() }
                return count
            }

            func hold() async {
                guard !released else { return }
                await withCheckedContinuation { heldRequests.append($0) }
            }

            func release() {
                released = true
                for request in heldRequests { request.resume() }
                heldRequests = []
            }

            /// Waits until `count` requests have arrived (held ones included).
            func waitForRequests(_ count: Int) async {
                guard seen.count < count else { return }
                await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
            }
        }

        let state = State()
        private let outcomes: [Outcome]
        private let held: Set<Int>

        init(_ outcomes: [Outcome], holding held: Set<Int> = []) {
            self.outcomes = outcomes
            self.held = held
        }

        func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
            let number = await state.arrive(
                Seen(
                    request: request, reportsProgress: context.reportsProgress, downloadsToFile: context.download != nil
                ))
            if held.contains(number) { await state.hold() }
            switch outcomes[min(number, outcomes.count) - 1] {
            case .response(var response):
                response.url = request.url
                return response
            case .failure(let code): throw URLError(code)
            case .cancellation: throw CancellationError()
            }
        }
    }

    /// Records the `If-None-Match` of every request the network interceptors see.
    private final class RecordingInterceptor: WebServiceInterceptor {
        private let seen = Locked([String?]())
        func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
            seen.withLock { $0.append(request.value(forHTTPHeaderField: "If-None-Match")) }
            return .proceed(request)
        }
        var ifNoneMatch: [String?] { seen.current }
    }

    private static let call = WebServiceCall<String>(relativePath: "item")

    /// Stale by 10 s (lifetime 10, `Age: 20`), inside a 100 s `stale-while-revalidate` window.
    private static let staleWithinTheWindow = ScriptedTransport.Outcome.response(
        TransportResponse(
            statusCode: 200,
            headers: [
                "Cache-Control": "max-age=10, stale-while-revalidate=100", "Age": "20", "ETag": "\"v1\"",
                "Content-Type": "text/plain",
            ],
            body: Data("v1".utf8)))

    private static let notModified = ScriptedTransport.Outcome.response(
        TransportResponse(statusCode: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=3600"]))

    private func client(_ transport: ScriptedTransport) throws -> (WebServiceClient, HTTPCache) {
        let client = WebServiceClient(
            serviceRoot: try XCTUnwrap(URL(string: "https://api.example.com/")), transport: transport)
        let cache = HTTPCache()
        client.cache = cache
        return (client, cache)
    }

    func testTheStaleAnswerComesAtOnceAndTheBackgroundRevalidationFreshensIt() async throws {
        let transport = ScriptedTransport([Self.staleWithinTheWindow, Self.notModified], holding: [2])
        let (client, cache) = try client(transport)
        let interceptor = RecordingInterceptor()
        client.networkInterceptors = [interceptor]

        let first = try await client.response(for: Self.call)
        XCTAssertEqual(first.source, .network)
        // The revalidation is held by the transport: the call ends without it.
        let second = try await client.response(for: Self.call)
        XCTAssertEqual(second.source, .staleCache)
        XCTAssertEqual(second.value, "v1")
        XCTAssertGreaterThanOrEqual(Int(second.headers["Age"] ?? "") ?? -1, 20)
        await transport.state.waitForRequests(2)
        XCTAssertEqual(cache.revalidations.count, 1)

        // One background revalidation per stored response: a third call meanwhile is served stale
        // and starts none.
        let third = try await client.response(for: Self.call)
        XCTAssertEqual(third.source, .staleCache)
        XCTAssertEqual(cache.revalidations.count, 1)

        await transport.state.release()
        await cache.backgroundRevalidationsFinished()
        XCTAssertEqual(cache.revalidations.count, 0)
        let fourth = try await client.response(for: Self.call)
        XCTAssertEqual(fourth.source, .cache, "the 304 freshened the stored response")
        XCTAssertEqual(fourth.value, "v1")

        let seen = await transport.state.seen
        XCTAssertEqual(seen.count, 2)
        // The background request is the validation a foreground one would send, through the
        // network interceptors, with no progress of the ended call.
        XCTAssertEqual(seen.last?.request.value(forHTTPHeaderField: "If-None-Match"), "\"v1\"")
        XCTAssertEqual(seen.last?.reportsProgress, false)
        XCTAssertEqual(seen.last?.downloadsToFile, false)
        XCTAssertEqual(interceptor.ifNoneMatch, [nil, "\"v1\""])
    }

    func testANewAnswerReplacesTheStoredOne() async throws {
        let replacement = ScriptedTransport.Outcome.response(
            TransportResponse(
                statusCode: 200, headers: ["Cache-Control": "max-age=3600", "ETag": "\"v2\""], body: Data("v2".utf8)))
        let transport = ScriptedTransport([Self.staleWithinTheWindow, replacement])
        let (client, cache) = try client(transport)
        _ = try await client.response(for: Self.call)
        let stale = try await client.response(for: Self.call)
        XCTAssertEqual(stale.value, "v1")
        XCTAssertEqual(stale.source, .staleCache)
        await cache.backgroundRevalidationsFinished()
        let fresh = try await client.response(for: Self.call)
        XCTAssertEqual(fresh.source, .cache)
        XCTAssertEqual(fresh.value, "v2")
    }

    /// A range asked for within the window is cut from the stale answer (RangeServing); the
    /// background validation asks for the whole stored response, without `Range` or `If-Range`, so
    /// that its answer (a full 200 here) can replace it.
    func testARangeIsCutFromTheStaleAnswerAndTheValidationAsksForTheWhole() async throws {
        let stale = ScriptedTransport.Outcome.response(
            TransportResponse(
                statusCode: 200,
                headers: [
                    "Cache-Control": "max-age=10, stale-while-revalidate=100", "Age": "20", "ETag": "\"v1\"",
                    "Content-Length": "4", "Content-Type": "text/plain",
                ],
                body: Data("abcd".utf8)))
        let replacement = ScriptedTransport.Outcome.response(
            TransportResponse(
                statusCode: 200, headers: ["Cache-Control": "max-age=3600", "ETag": "\"v2\""], body: Data("wxyz".utf8)))
        let transport = ScriptedTransport([stale, replacement])
        let (client, cache) = try client(transport)
        _ = try await client.response(for: Self.call)
        let ranged = WebServiceCall<String>(
            relativePath: "item", headers: ["Range": "bytes=1-2", "If-Range": "\"v1\""])
        let part = try await client.response(for: ranged)
        XCTAssertEqual(part.statusCode, 206)
        XCTAssertEqual(part.source, .staleCache)
        XCTAssertEqual(part.value, "bc")
        XCTAssertEqual(part.headers["Content-Range"], "bytes 1-2/4")
        await cache.backgroundRevalidationsFinished()

        let seen = await transport.state.seen
        XCTAssertEqual(seen.count, 2)
        XCTAssertNil(seen.last?.request.value(forHTTPHeaderField: "Range"))
        XCTAssertNil(seen.last?.request.value(forHTTPHeaderField: "If-Range"))
        XCTAssertEqual(seen.last?.request.value(forHTTPHeaderField: "If-None-Match"), "\"v1\"")
        let whole = try await client.response(for: Self.call)
        XCTAssertEqual(whole.source, .cache)
        XCTAssertEqual(whole.value, "wxyz", "the full answer replaced the stored response")
    }

    /// The callback form: the completion runs once, with the stale answer; cancelling the task
    /// after it neither cancels nor breaks the revalidation, and the call's progress handler
    /// hears nothing of it.
    func testCancellingTheEndedCallLeavesTheRevalidationAlone() async throws {
        let transport = ScriptedTransport([Self.staleWithinTheWindow, Self.notModified], holding: [2])
        let (client, cache) = try client(transport)
        _ = try await client.response(for: Self.call)

        let completions = Counter()
        let progressEvents = Counter()
        let delivered = expectation(description: "the stale answer")
        let task = client.perform(Self.call, progress: { _ in progressEvents.add() }) { result in
            XCTAssertEqual(try? result.get().source, .staleCache)
            completions.add()
            delivered.fulfill()
        }
        await fulfillment(of: [delivered], timeout: 30)
        let eventsAtTheEnd = progressEvents.value
        await transport.state.waitForRequests(2)
        task.cancel()
        await transport.state.release()
        await cache.backgroundRevalidationsFinished()

        let after = try await client.response(for: Self.call)
        XCTAssertEqual(after.source, .cache, "the cancelled call's revalidation still freshened the store")
        // Whatever was queued for the ended call has run once the queue drains.
        await withCheckedContinuation { continuation in client.callbackQueue.async { continuation.resume() } }
        XCTAssertEqual(completions.value, 1)
        XCTAssertEqual(progressEvents.value, eventsAtTheEnd)
        let seen = await transport.state.seen
        XCTAssertEqual(seen.count, 2)
        XCTAssertEqual(seen.last?.reportsProgress, false)
    }

    /// A background revalidation that fails is logged like any request and leaves the stored
    /// response as it was; the next call serves it stale again and revalidates again.
    func testAFailedRevalidationIsLoggedAndChangesNothing() async throws {
        let transport = ScriptedTransport([
            Self.staleWithinTheWindow, .failure(.networkConnectionLost), Self.notModified,
        ])
        let (client, cache) = try client(transport)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .basic
        _ = try await client.response(for: Self.call)
        let stale = try await client.response(for: Self.call)
        XCTAssertEqual(stale.source, .staleCache)
        await cache.backgroundRevalidationsFinished()
        XCTAssertEqual(logger.messages.filter { $0.kind == .failure }.count, 1)

        let again = try await client.response(for: Self.call)
        XCTAssertEqual(again.source, .staleCache)
        XCTAssertEqual(again.value, "v1")
        await cache.backgroundRevalidationsFinished()
        let fresh = try await client.response(for: Self.call)
        XCTAssertEqual(fresh.source, .cache)
        let seen = await transport.state.seen
        XCTAssertEqual(seen.count, 3)
        // Each background request went to the log as it went on the wire: three requests sent,
        // three answers from the cache (the two stale ones and the fresh one), and the second
        // revalidation's 304 as it came.
        let messages = logger.messages
        XCTAssertEqual(messages.filter { $0.kind == .request }.count, 6)
        XCTAssertEqual(
            messages.filter { $0.kind == .response && $0.metadata[LogMessage.MetadataKey.status] == "304" }.count, 1)
    }

    /// The background answer passes the response check like any other: a 200 whose field value
    /// holds a CR (RFC 9110 §5.5) is refused, logged as a failure, and never stored.
    func testARefusedBackgroundAnswerIsNotStored() async throws {
        let refused = ScriptedTransport.Outcome.response(
            TransportResponse(
                statusCode: 200, headers: ["Cache-Control": "max-age=3600", "X-Note": "a\rb"],
                body: Data("v2".utf8)))
        let transport = ScriptedTransport([Self.staleWithinTheWindow, refused, Self.notModified])
        let (client, cache) = try client(transport)
        let logger = CapturingLogger()
        client.logger = logger
        client.logLevel = .basic
        _ = try await client.response(for: Self.call)
        _ = try await client.response(for: Self.call)
        await cache.backgroundRevalidationsFinished()
        XCTAssertEqual(logger.messages.filter { $0.kind == .failure }.count, 1)
        let again = try await client.response(for: Self.call)
        XCTAssertEqual(again.source, .staleCache)
        XCTAssertEqual(again.value, "v1")
    }

    /// Past the window, the call waits for the validation as usual.
    func testPastTheWindowTheCallWaitsForTheServer() async throws {
        let tooStale = ScriptedTransport.Outcome.response(
            TransportResponse(
                statusCode: 200,
                headers: ["Cache-Control": "max-age=10, stale-while-revalidate=100", "Age": "200", "ETag": "\"v1\""],
                body: Data("v1".utf8)))
        let transport = ScriptedTransport([tooStale, Self.notModified])
        let (client, cache) = try client(transport)
        _ = try await client.response(for: Self.call)
        let second = try await client.response(for: Self.call)
        XCTAssertEqual(second.source, .revalidatedCache)
        XCTAssertEqual(cache.revalidations.count, 0)
    }

    // MARK: - stale-if-error

    /// A connection lost or refused serves the stale answer under `stale-if-error`; a
    /// cancellation or a request the transport cannot send (the caller's error) does not.
    func testStaleIfErrorStandsInOnlyForTheServersFailures() async throws {
        let stored = ScriptedTransport.Outcome.response(
            TransportResponse(
                statusCode: 200, headers: ["Cache-Control": "max-age=10, stale-if-error=100", "Age": "20"],
                body: Data("v1".utf8)))
        let cases: [(ScriptedTransport.Outcome, servesStale: Bool)] = [
            (.failure(.networkConnectionLost), true),
            (.failure(.cannotConnectToHost), true),
            (.failure(.timedOut), true),
            (.failure(.badServerResponse), true),
            (.failure(.badURL), false),
            (.failure(.unsupportedURL), false),
            (.cancellation, false),
        ]
        for (failure, servesStale) in cases {
            let (client, _) = try client(ScriptedTransport([stored, failure]))
            _ = try await client.response(for: Self.call)
            do {
                let response = try await client.response(for: Self.call)
                XCTAssertTrue(servesStale, "\(failure)")
                XCTAssertEqual(response.source, .staleCache, "\(failure)")
                XCTAssertEqual(response.value, "v1", "\(failure)")
            } catch {
                XCTAssertFalse(servesStale, "\(failure): \(error)")
                if case .cancellation = failure { XCTAssertTrue(error.isCancelled, "\(error)") }
            }
        }
    }
}

/// A thread-safe count.
private final class Counter: Sendable {
    private let count = Locked(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.current }
}
