import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One line of the stream server's `/jsonl`.
private struct Item: Decodable, Equatable, Sendable {
    let n: Int
    let name: String
}

/// The JSON body of a streamed `POST` (the server reads it and records its length).
private struct Subscription: Encodable, Sendable {
    let topic: String
    let since: Int
    /// Past `HTTP1Transport.keptAliveBodyLimit`: a body that takes a connection of its own.
    var padding = String(repeating: "p", count: 70_000)
}

/// How a streamed call reaches the server: the three ways the library carries one.
private enum StreamRoute: String, CaseIterable, Sendable {
    /// The default client, a `GET`: ``HTTP1Transport`` on a kept-alive connection
    /// (`HTTP1Exchange` on Linux).
    case keptAlive
    /// The default client, a `POST` with a JSON body of 70 KB (over the 64 KiB that go with the
    /// head): ``HTTP1Transport``, the body in pieces after the head (`HTTP1Exchange` on Linux, on
    /// the same pooled connections as a GET).
    case ownConnection
    /// A client whose transport is `URLSessionTransport(sessionConfiguration: .ephemeral)`: the
    /// session's data delegate.
    case session

    /// The method the server must see.
    var method: String { self == .ownConnection ? "POST" : "GET" }
}

/// The streamed calls of these tests, on each route.
private enum StreamCalls {
    static func client(_ route: StreamRoute, root: URL) -> WebServiceClient {
        switch route {
        case .keptAlive, .ownConnection:
            return WebServiceClient(serviceRoot: root)
        case .session:
            return WebServiceClient(
                serviceRoot: root, transport: URLSessionTransport(sessionConfiguration: .ephemeral))
        }
    }

    /// A streamed call of `path` (relative, with its query) as `route` sends it, with its
    /// arguments: `arguments` first, then, for a `POST`, its JSON body.
    static func call<Element>(
        _ path: String, _ route: StreamRoute, _ format: StreamFormat<Element>, arguments: [any Sendable] = [],
        _ configure: (inout CallFields) -> Void = { _ in }
    ) -> (WebServiceCall<ResponseStream<Element>>, [any Sendable]) {
        var fields = CallFields(method: route == .ownConnection ? .post : .get, relativePath: path)
        var arguments = arguments
        if route == .ownConnection {
            fields.bodyParameter = arguments.count
            arguments.append(Subscription(topic: "ticks", since: 0))
        }
        configure(&fields)
        return (WebServiceCall(fields, stream: format), arguments)
    }

    /// Starts the stream of `path` on `route`: returns once its head is accepted.
    static func open<Element>(
        _ client: WebServiceClient, _ path: String, _ route: StreamRoute, _ format: StreamFormat<Element>,
        _ configure: (inout CallFields) -> Void = { _ in }
    ) async throws -> ResponseStream<Element> {
        let (call, arguments) = Self.call(path, route, format, configure)
        return try await client.stream(call, arguments: arguments)
    }

    static func collect<Element>(_ stream: ResponseStream<Element>) async throws -> [Element] {
        var elements: [Element] = []
        for try await element in stream { elements.append(element) }
        return elements
    }
}

/// Streamed responses (issue 24) against the stream server on 127.0.0.1 (Tests/Servers/
/// stream_server.py), each on the three routes where it makes sense: Server-Sent Events and JSON
/// lines cut at awkward places, a 2 MB event, 1,000 events 10 ms apart, cancellation that leaves
/// no socket or thread behind, back-pressure, error statuses, the idle timeout, a redirect before
/// the stream, progress and the streamed size limit.
///
/// Nothing here sleeps to synchronise: the server's `/log?wait=closed` (it saw the client leave)
/// and `/stalled` (its writes stopped making progress) are what the tests wait on. The only
/// timing is that of the idle-timeout test, with a 6x margin (0.5 s against 3 s), and of the
/// 1,000-event test, whose 5 s timeout is 500 times the 10 ms between events.
final class StreamingIntegrationTests: XCTestCase {
    // MARK: Helpers

    private func client(_ route: StreamRoute) throws -> WebServiceClient {
        StreamCalls.client(route, root: try StreamServer.url())
    }

    /// The error `body` throws, as a `WebServiceError`; `nil` when it throws none.
    private func failure(_ body: () async throws -> Void) async -> WebServiceError? {
        do {
            try await body()
            return nil
        } catch let error as WebServiceError {
            return error
        } catch {
            return .invalidCall("not a WebServiceError: \(error)")
        }
    }

    /// Runs `work` for each of `items`, at most `width` at a time; the results in the items' order.
    private func concurrently<Item: Sendable, Result: Sendable>(
        _ items: [Item], width: Int, _ work: @escaping @Sendable (Item) async -> Result
    ) async -> [Result] {
        await withTaskGroup(of: (Int, Result).self) { group in
            var results: [Result?] = Array(repeating: nil, count: items.count)
            var next = 0
            func addNext() {
                guard next < items.count else { return }
                let index = next
                let item = items[index]
                next += 1
                group.addTask { (index, await work(item)) }
            }
            for _ in 0..<min(width, items.count) { addNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                addNext()
            }
            return results.compactMap { $0 }
        }
    }

    /// Checks that the server saw every request of `tag` come by `route`'s method, with a body
    /// for a `POST` and none otherwise.
    private func assertRoute(
        _ log: StreamServer.Log, _ route: StreamRoute, requests: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(log.requests, requests, "\(route)", file: file, line: line)
        XCTAssertEqual(Set(log.methods), [route.method], "\(route)", file: file, line: line)
        if route == .ownConnection {
            XCTAssertTrue(log.requestBodies.allSatisfy { $0 > 0 }, "\(log.requestBodies)", file: file, line: line)
        } else {
            XCTAssertEqual(Set(log.requestBodies), [0], "\(route)", file: file, line: line)
        }
    }

    // MARK: 1. Server-Sent Events cut at awkward places

    /// Every combination of framing (chunked, to the close, Content-Length), line ends (LF, CRLF,
    /// CR, mixed), a BOM, comments, IDs and a retry field, each event cut between a CR and its LF,
    /// inside multi-byte characters, between a field name and its colon and before the blank
    /// line: the events are those the server wrote, IDs and retry included, on every route.
    func testServerSentEventsCutAtAwkwardPlacesOnEveryRoute() async throws {
        let root = try StreamServer.url()
        struct Case: Sendable {
            let route: StreamRoute
            let query: String
            let expected: [ServerSentEvent]
        }
        var tags: [StreamRoute: String] = [:]
        var cases: [Case] = []
        for route in StreamRoute.allCases {
            let tag = StreamServer.uniqueTag("sse-awkward-\(route)")
            tags[route] = tag
            for framing in ["chunked", "close", "length"] {
                for lineEnd in ["lf", "crlf", "cr", "mixed"] {
                    for bom in [false, true] {
                        for comment in [false, true] {
                            for ids in [false, true] {
                                for retry in [nil, 2_500] {
                                    var query =
                                        "sse?count=6&interval=0&split=awkward&framing=\(framing)&crlf=\(lineEnd)&tag=\(tag)"
                                    if bom { query += "&bom=1" }
                                    if comment { query += "&comment=1" }
                                    if ids { query += "&id=1" }
                                    if let retry { query += "&retry=\(retry)" }
                                    cases.append(
                                        Case(
                                            route: route, query: query,
                                            expected: StreamServer.expectedEvents(count: 6, ids: ids, retry: retry)))
                                }
                            }
                        }
                    }
                }
            }
        }
        let clients = Dictionary(
            uniqueKeysWithValues: StreamRoute.allCases.map { ($0, StreamCalls.client($0, root: root)) })
        let outcomes = await concurrently(cases, width: 8) { item -> Result<[ServerSentEvent], WebServiceError> in
            guard let client = clients[item.route] else { return .failure(.invalidCall("no client")) }
            do {
                let stream = try await StreamCalls.open(client, item.query, item.route, .serverSentEvents)
                return .success(try await StreamCalls.collect(stream))
            } catch let error as WebServiceError {
                return .failure(error)
            } catch {
                return .failure(.invalidCall("\(error)"))
            }
        }
        var mismatches = 0
        for (item, outcome) in zip(cases, outcomes) {
            switch outcome {
            case .success(let events) where events == item.expected:
                continue
            case .success(let events):
                mismatches += 1
                if mismatches <= 5 { XCTFail("\(item.route) \(item.query): \(events) instead of \(item.expected)") }
            case .failure(let error):
                mismatches += 1
                if mismatches <= 5 { XCTFail("\(item.route) \(item.query): \(error)") }
            }
        }
        XCTAssertEqual(mismatches, 0, "of \(cases.count) streams")
        XCTAssertEqual(cases.count, 3 * 192)
        for route in StreamRoute.allCases {
            let log = try await StreamServer.log(tags[route] ?? "")
            assertRoute(log, route, requests: 192)
            XCTAssertEqual(log.streams, 192)
            XCTAssertTrue(log.closed)
        }
    }

    // MARK: 2. A 2 MB event

    /// One event whose data line is 2,000,000 bytes, sent in writes of 7,001 bytes, and the small
    /// one after it. A format whose line limit is above 2 MB is needed: the default (1 MiB) refuses
    /// the line with `lineTooLong`, which is checked too.
    func testATwoMegabyteEventAndTheSmallOneAfterIt() async throws {
        let big = String(repeating: "x", count: 2_000_000)
        for route in StreamRoute.allCases {
            let client = try client(route)
            let stream = try await StreamCalls.open(
                client, "sse-big?bytes=2000000", route, .serverSentEvents(maximumLineLength: 4 << 20))
            let events = try await StreamCalls.collect(stream)
            XCTAssertEqual(events.count, 2, "\(route)")
            XCTAssertEqual(events.first?.data.utf8.count, 2_000_000, "\(route)")
            XCTAssertTrue(events.first?.data == big, "\(route): the big event's data is all x")
            XCTAssertEqual(events.first?.type, "message", "\(route)")
            XCTAssertEqual(events.dropFirst().first, ServerSentEvent(data: "after"), "\(route)")

            let tag = StreamServer.uniqueTag("sse-big-default-\(route)")
            let refused = try await StreamCalls.open(
                client, "sse-big?bytes=2000000&tag=\(tag)", route, .serverSentEvents)
            let error = await failure { _ = try await StreamCalls.collect(refused) }
            XCTAssertEqual(error?.streamFailure, .lineTooLong(limit: 1 << 20), "\(route): \(String(describing: error))")
            let log = try await StreamServer.log(tag)
            XCTAssertTrue(log.closed, "\(route): the refused stream's connection closed")
        }
    }

    // MARK: 3. An event every 10 ms for 10 s

    /// 1,000 events 10 ms apart, on the three routes at once, with a call timeout of 5 s (so that
    /// an idle deadline that did not restart with each piece would show): all of them, in order.
    func testAnEventEveryTenMillisecondsForTenSeconds() async throws {
        let root = try StreamServer.url()
        let expected = StreamServer.expectedEvents(count: 1000, ids: true, retry: nil)
        let outcomes = await concurrently(StreamRoute.allCases, width: 3) {
            route -> Result<[ServerSentEvent], WebServiceError> in
            let client = StreamCalls.client(route, root: root)
            do {
                let stream = try await StreamCalls.open(
                    client, "sse?count=1000&interval=10&id=1", route, .serverSentEvents
                ) {
                    $0.timeout = 5
                }
                return .success(try await StreamCalls.collect(stream))
            } catch let error as WebServiceError {
                return .failure(error)
            } catch {
                return .failure(.invalidCall("\(error)"))
            }
        }
        for (route, outcome) in zip(StreamRoute.allCases, outcomes) {
            switch outcome {
            case .success(let events):
                XCTAssertEqual(events.count, 1000, "\(route)")
                XCTAssertEqual(events.map(\.id), expected.map(\.id), "\(route): in order")
                XCTAssertTrue(events == expected, "\(route): every event as the server wrote it")
            case .failure(let error):
                XCTFail("\(route): \(error)")
            }
        }
    }

    // MARK: 4. JSON lines

    /// JSON lines cut after `{"n":`, inside `item` and right before the LF, in each framing,
    /// decoded one by one into a `Decodable` struct.
    func testJSONLinesCutAtAwkwardPlacesDecodeIntoAStruct() async throws {
        let expected = (1...12).map { Item(n: $0, name: "item \($0)") }
        for route in StreamRoute.allCases {
            let client = try client(route)
            for framing in ["chunked", "close", "length"] {
                let stream = try await StreamCalls.open(
                    client, "jsonl?count=12&interval=0&split=awkward&framing=\(framing)", route, .jsonLines(Item.self))
                let items = try await StreamCalls.collect(stream)
                XCTAssertEqual(items, expected, "\(route), \(framing)")
            }
        }
    }

    // MARK: 5. Cancellation leaves nothing behind

    /// How a consumer leaves an endless stream.
    private enum Leaving: CaseIterable {
        /// `break` out of the `for try await` loop after three events.
        case breakingOut
        /// Cancels the task that iterates, after three events.
        case cancellingTheTask
        /// Calls `stream.cancel()` after three events.
        case cancellingTheStream
        /// Drops the stream without reading it.
        case droppingTheStream
    }

    /// An endless stream (an event every 10 ms) left in each of four ways on each route: each
    /// time the server sees the connection closed, and once it has, the process holds no more
    /// descriptors and no more threads than before the stream began ("before" is measured after
    /// a warm-up stream on the same client, which starts the event loops and the session).
    func testLeavingAnEndlessStreamClosesItsConnectionAndLeavesNoDescriptorOrThread() async throws {
        guard ProcessResources.openDescriptors != nil else { throw XCTSkip("needs /proc") }
        for route in StreamRoute.allCases {
            let client = try client(route)
            // The warm-up: the same scenario once, unmeasured.
            try await leave(.breakingOut, route: route, client: client, measured: false)
            for leaving in Leaving.allCases {
                try await leave(leaving, route: route, client: client, measured: true)
            }
        }
    }

    private func leave(_ leaving: Leaving, route: StreamRoute, client: WebServiceClient, measured: Bool)
        async throws
    {
        let label = "\(route), \(leaving)"
        let tag = StreamServer.uniqueTag("endless-\(route)")
        let descriptorsBefore = ProcessResources.openDescriptors ?? 0
        let threadsBefore = ThreadCensus.take()
        let path = "endless?tag=\(tag)&interval=10"
        switch leaving {
        case .breakingOut:
            let stream = try await StreamCalls.open(client, path, route, .serverSentEvents)
            var seen: [String] = []
            for try await event in stream {
                seen.append(event.id)
                if seen.count == 3 { break }
            }
            XCTAssertEqual(seen, ["1", "2", "3"], label)
        case .cancellingTheTask:
            let stream = try await StreamCalls.open(client, path, route, .serverSentEvents)
            let (third, signal) = AsyncStream<Void>.makeStream()
            let reader = Task { () async -> (count: Int, error: WebServiceError?) in
                var count = 0
                do {
                    for try await _ in stream {
                        count += 1
                        if count == 3 { signal.yield() }
                    }
                    return (count, nil)
                } catch let error as WebServiceError {
                    return (count, error)
                } catch {
                    return (count, .invalidCall("\(error)"))
                }
            }
            var waiting = third.makeAsyncIterator()
            _ = await waiting.next()
            reader.cancel()
            let (count, error) = await reader.value
            XCTAssertGreaterThanOrEqual(count, 3, label)
            XCTAssertEqual(error?.isCancelled, true, "\(label): \(String(describing: error))")
        case .cancellingTheStream:
            let stream = try await StreamCalls.open(client, path, route, .serverSentEvents)
            var iterator = stream.makeAsyncIterator()
            for expected in ["1", "2", "3"] {
                let event = try await iterator.next()
                XCTAssertEqual(event?.id, expected, label)
            }
            stream.cancel()
            let error = await failure {
                // Events decoded from the last piece read may come first; then the cancellation.
                while try await iterator.next() != nil {}
            }
            XCTAssertEqual(error?.isCancelled, true, "\(label): \(String(describing: error))")
        case .droppingTheStream:
            _ = try await StreamCalls.open(client, path, route, .serverSentEvents)
        }
        let log = try await StreamServer.log(tag)
        XCTAssertTrue(log.closed, "\(label): the server saw the connection closed")
        XCTAssertEqual(log.streams, 1, label)
        guard measured else { return }
        let descriptorsAfter = ProcessResources.openDescriptors ?? 0
        let threadsAfter = ThreadCensus.take()
        XCTAssertLessThanOrEqual(
            descriptorsAfter, descriptorsBefore, "\(label): descriptors \(ProcessResources.descriptorTargets)")
        XCTAssertLessThanOrEqual(
            threadsAfter.own, threadsBefore.own, "\(label): threads \(threadsBefore.names) -> \(threadsAfter.names)")
        print(
            "StreamingIntegrationTests: \(label): descriptors \(descriptorsBefore) -> \(descriptorsAfter), "
                + "threads \(threadsBefore.own) -> \(threadsAfter.own) "
                + "(and libdispatch's workers \(threadsBefore.pool) -> \(threadsAfter.pool))")
    }

    // MARK: 6. Back-pressure

    /// A 64 MiB firehose whose consumer reads one event and stops: the direct transport stops
    /// reading, so the server's writes stall with well under 64 MiB sent; cancelling then closes
    /// the connection. (`URLSession` on Linux cannot pause: see the next test.)
    func testASlowConsumerHoldsTheServerBackOnTheDirectRoutes() async throws {
        for route in [StreamRoute.keptAlive, .ownConnection] {
            let client = try client(route)
            let tag = StreamServer.uniqueTag("firehose-\(route)")
            let stream = try await StreamCalls.open(client, "firehose?tag=\(tag)", route, .serverSentEvents)
            var iterator = stream.makeAsyncIterator()
            let first = try await iterator.next()
            XCTAssertEqual(first?.data.hasPrefix(#"{"n":1,"#), true, "\(route)")
            let stall = try await StreamServer.stalled(tag)
            XCTAssertTrue(stall.stalled, "\(route): the server's writes stopped")
            XCTAssertLessThan(stall.bytesSent, 32 << 20, "\(route)")
            print("StreamingIntegrationTests: \(route) stalled after \(stall.bytesSent) bytes of 64 MiB")
            stream.cancel()
            let log = try await StreamServer.log(tag)
            XCTAssertTrue(log.closed, "\(route)")
            XCTAssertLessThan(log.bytesSent, 32 << 20, "\(route)")
        }
    }

    /// The same firehose through `URLSession`: where the session cannot stop reading (Linux), the
    /// body fails with `consumerTooSlow` once 16 MiB wait, the library cancels the task (the
    /// server sees the connection closed), and the consumer's next read throws.
    /// Where it can pause (Apple platforms), the server stalls as on the direct routes.
    func testASlowConsumerOfASessionThatCannotPauseFailsWithConsumerTooSlow() async throws {
        let client = try client(.session)
        let tag = StreamServer.uniqueTag("firehose-session")
        let peakBefore = Self.peakResidentKilobytes
        let stream = try await StreamCalls.open(client, "firehose?tag=\(tag)", .session, .serverSentEvents)
        var iterator = stream.makeAsyncIterator()
        #if canImport(FoundationNetworking)
            // One event (or, if the session raced 16 MiB past before the first read, the failure).
            var delivered = 0
            let firstError = await failure {
                if try await iterator.next() != nil { delivered = 1 }
            }
            let log = try await StreamServer.log(tag)
            // Whether the server saw the cancellation before it sent all 64 MiB depends on how far
            // Foundation's delegate queue is behind its reads (it queues them without bound: under
            // ThreadSanitizer the whole body passes before the cancellation does); not asserted.
            XCTAssertTrue(log.closed, "the library cancelled the task")
            XCTAssertGreaterThanOrEqual(log.bytesSent, 16 << 20, "the limit passed")
            print(
                "StreamingIntegrationTests: session failed; the server sent \(log.bytesSent) bytes of 64 MiB; "
                    + "peak resident size \(Self.peakResidentKilobytes.map { "\($0 >> 10) MiB" } ?? "?") "
                    + "(\(peakBefore.map { "\($0 >> 10) MiB" } ?? "?") before)")
            // Events decoded from the piece already taken come first.
            var error = firstError
            if error == nil {
                error = await failure {
                    while try await iterator.next() != nil {
                        delivered += 1
                        if delivered > 10_000 { break }
                    }
                }
            }
            XCTAssertEqual(error?.streamFailure, .consumerTooSlow(limit: 16 << 20), "\(String(describing: error))")
            XCTAssertLessThan(delivered, 2_000, "the buffered events were dropped, not delivered")
            if firstError != nil { print("StreamingIntegrationTests: the session passed 16 MiB before the first read") }
        #else
            _ = try await iterator.next()
            let stall = try await StreamServer.stalled(tag)
            XCTAssertTrue(stall.stalled)
            XCTAssertLessThan(stall.bytesSent, 32 << 20)
            stream.cancel()
            let log = try await StreamServer.log(tag)
            XCTAssertTrue(log.closed)
        #endif
    }

    /// The process's peak resident size so far (`VmHWM` in `/proc/self/status`), in KiB; a figure
    /// printed, not asserted.
    private static var peakResidentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }

    // MARK: 7. Error statuses

    /// A 503 throws `unacceptableStatus` with its body before any element; a 204 is an empty
    /// stream.
    func testAnErrorStatusThrowsWithItsBodyAndA204IsAnEmptyStream() async throws {
        for route in StreamRoute.allCases {
            let client = try client(route)
            let error = await failure {
                _ = try await StreamCalls.open(client, "status?code=503", route, .serverSentEvents)
            }
            guard case .unacceptableStatus(let code, _, let body) = error?.reason else {
                XCTFail("\(route): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(code, 503, "\(route)")
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "error body 503", "\(route)")

            let empty = try await StreamCalls.open(client, "status?code=204", route, .serverSentEvents)
            XCTAssertEqual(empty.statusCode, 204, "\(route)")
            let events = try await StreamCalls.collect(empty)
            XCTAssertEqual(events, [], "\(route)")
        }
    }

    // MARK: 8. Idle timeout

    /// Events 3 s apart with a call timeout of 0.5 s (a 6x margin): the head and the first event
    /// arrive, the next read throws a timeout, and the server sees the connection closed.
    func testAStreamIdleLongerThanTheCallTimeoutFailsAndCloses() async throws {
        let expected = StreamServer.expectedEvents(count: 1, ids: false, retry: nil)
        for route in StreamRoute.allCases {
            let client = try client(route)
            let tag = StreamServer.uniqueTag("idle-\(route)")
            let started = DispatchTime.now().uptimeNanoseconds
            let stream = try await StreamCalls.open(
                client, "sse?count=3&interval=3000&tag=\(tag)", route, .serverSentEvents
            ) {
                $0.timeout = 0.5
            }
            XCTAssertEqual(stream.statusCode, 200, "\(route)")
            var iterator = stream.makeAsyncIterator()
            let first = try await iterator.next()
            XCTAssertEqual(first, expected.first, "\(route)")
            let error = await failure { _ = try await iterator.next() }
            XCTAssertEqual(error?.isTimeout, true, "\(route): \(String(describing: error))")
            // A lower bound only: the idle deadline counts from the first event, which came after
            // `started`; a timeout sooner than the call's would be another watchdog's.
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            XCTAssertGreaterThanOrEqual(elapsed, 0.5, "\(route): not before the call's timeout")
            let log = try await StreamServer.log(tag)
            XCTAssertTrue(log.closed, "\(route)")
        }
    }

    // MARK: 9. A redirect before the stream

    /// The fault server's 302 to the stream server: the stream works after it.
    func testAStreamAfterARedirect() async throws {
        let faultRoot = try FaultServer.url()
        let streamRoot = try StreamServer.url()
        let expected = StreamServer.expectedEvents(count: 4, ids: true, retry: nil)
        for route in StreamRoute.allCases {
            let client = StreamCalls.client(route, root: faultRoot)
            let tag = StreamServer.uniqueTag("redirect-\(route)")
            let target = streamRoot.absoluteString + "sse?count=4&interval=5&id=1&tag=\(tag)"
            let (call, arguments) = StreamCalls.call(
                "redirect-to?url=%%0%%", route, .serverSentEvents, arguments: [target])
            let stream = try await client.stream(call, arguments: arguments)
            XCTAssertEqual(stream.url?.port, streamRoot.port, "\(route): the stream's URL is the redirect's target")
            let events = try await StreamCalls.collect(stream)
            XCTAssertEqual(events, expected, "\(route)")
            let log = try await StreamServer.log(tag)
            XCTAssertEqual(log.requests, 1, "\(route)")
            print(
                "StreamingIntegrationTests: \(route) after a 302: \(log.methods), request bodies \(log.requestBodies)")
        }
    }

    // MARK: 10. Progress

    /// A progress handler sees the download bytes grow while a 2 MB event arrives (a chunked
    /// body: an event per 64 KiB, and no transport reads more than 64 KiB at once, so there are
    /// several whatever the timing), then one final event with the body's total once the stream
    /// ends.
    func testProgressCountsTheBodyAsItArrivesAndEndsWithItsTotal() async throws {
        for route in StreamRoute.allCases {
            let client = try client(route)
            let tag = StreamServer.uniqueTag("progress-\(route)")
            let events = Locked<[TransferProgress]>([])
            let finished = expectation(description: "the final progress event, \(route)")
            let (call, arguments) = StreamCalls.call(
                "sse-big?bytes=2000000&tag=\(tag)", route, .serverSentEvents(maximumLineLength: 4 << 20))
            let stream = try await client.stream(
                call, arguments: arguments,
                progress: { progress in
                    events.withLock { $0.append(progress) }
                    if progress.isFinished { finished.fulfill() }
                })
            let received = try await StreamCalls.collect(stream)
            XCTAssertEqual(received.count, 2, "\(route)")
            await fulfillment(of: [finished], timeout: 30)
            let log = try await StreamServer.log(tag)
            let all = events.withLock { $0 }
            let downloads = all.filter { $0.direction == .download && !$0.isFinished }.map(\.completedBytes)
            XCTAssertGreaterThanOrEqual(downloads.filter { $0 > 0 }.count, 10, "\(route): \(all)")
            XCTAssertEqual(downloads, downloads.sorted(), "\(route): the count only grows")
            XCTAssertEqual(Set(downloads).count, downloads.count, "\(route): each event a new count")
            XCTAssertLessThanOrEqual(downloads.last ?? .max, Int64(log.bytesSent), "\(route): within the body")
            XCTAssertEqual(all.filter(\.isFinished).count, 1, "\(route): \(all)")
            let final = all.last
            XCTAssertEqual(final?.isFinished, true, "\(route): the final event comes last")
            if route == .ownConnection {
                // A call that sends a body follows its upload (Docs/Progress.md): the final event
                // is the upload's, with the request body's length.
                XCTAssertEqual(final?.direction, .upload, "\(route)")
                XCTAssertEqual(final?.completedBytes, log.requestBodies.first.map(Int64.init), "\(route)")
            } else {
                XCTAssertEqual(final?.direction, .download, "\(route)")
                XCTAssertEqual(final?.completedBytes, Int64(log.bytesSent), "\(route): the body's total")
            }
        }
    }

    // MARK: 11. The streamed size limit

    /// `maximumStreamedBodySize` of 1 MB against a 2 MB event: `responseTooLarge`, before any
    /// element, and the connection closes.
    func testTheStreamedBodySizeLimitRefusesATwoMegabyteEvent() async throws {
        for route in StreamRoute.allCases {
            let client = try client(route)
            let tag = StreamServer.uniqueTag("limit-\(route)")
            let stream = try await StreamCalls.open(
                client, "sse-big?bytes=2000000&tag=\(tag)", route, .serverSentEvents(maximumLineLength: 4 << 20)
            ) { $0.maximumStreamedBodySize = 1_000_000 }
            var delivered = 0
            let error = await failure {
                for try await _ in stream { delivered += 1 }
            }
            guard case .responseTooLarge(let limit, let statusCode) = error?.reason else {
                XCTFail("\(route): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(limit, 1_000_000, "\(route)")
            XCTAssertEqual(statusCode, 200, "\(route)")
            XCTAssertEqual(delivered, 0, "\(route)")
            let log = try await StreamServer.log(tag)
            XCTAssertTrue(log.closed, "\(route)")
        }
    }
}

/// The process's threads (`/proc/self/task`), told apart: libdispatch's worker pool, which grows
/// while queues are busy and lets a worker go after some seconds idle (its threads are named
/// after the root queues: `com.apple.root.default-qos.overcommit`, cut to the last 15
/// characters), and every other thread (the test's, the event loops', any a transport starts).
/// A thread the library left behind is one of the latter, or a worker blocked for good; the
/// pool's own growth is not the library's, and a count that included it would depend on
/// scheduling.
private struct ThreadCensus {
    /// Threads outside libdispatch's worker pool.
    var own = 0
    /// libdispatch's workers.
    var pool = 0
    /// Every thread's name, for a failure's message.
    var names: [String] = []

    static func take() -> ThreadCensus {
        var census = ThreadCensus()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            let name =
                (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            census.names.append(name)
            if name.hasSuffix("-qos") || name.hasSuffix(".overcommit") {
                census.pool += 1
            } else {
                census.own += 1
            }
        }
        census.names.sort()
        return census
    }
}

/// A value behind a lock, for a handler that runs on another queue.
private final class Locked<Value>: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }
}

extension WebServiceError {
    /// The stream's own failure, if that is what this is.
    fileprivate var streamFailure: ResponseStreamError? {
        if case .responseStream(let failure) = self.reason { return failure }
        return nil
    }
}
