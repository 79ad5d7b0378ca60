import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Tick: Codable, Equatable, Sendable {
    let n: Int
}

/// `client.stream` and `ResponseStream`: formats, the head checked first, errors, the cache, and a
/// transport that writes its body into the sink as it arrives.
final class ResponseStreamTests: XCTestCase {
    private static let lines = WebServiceCall<ResponseStream<String>>(relativePath: "lines", stream: .lines)
    private static let ticks = WebServiceCall<ResponseStream<Tick>>(
        relativePath: "ticks", stream: .jsonLines(Tick.self))
    private static let events = WebServiceCall<ResponseStream<ServerSentEvent>>(
        relativePath: "events", stream: .serverSentEvents)

    private func collect<Element>(_ stream: ResponseStream<Element>) async throws -> [Element] {
        var elements: [Element] = []
        for try await element in stream { elements.append(element) }
        return elements
    }

    func testLinesSplitAtLFAndCRLFAndKeepALoneCRAndTheLastUnterminatedLine() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.lines, with: .text("one\ntwo\r\nthree\rstill three\n\nlast"))
        let lines = try await collect(try await client.stream(Self.lines))
        XCTAssertEqual(lines, ["one", "two", "three\rstill three", "", "last"])
    }

    func testLinesPastTheirLimitFailWithATypedError() async throws {
        let (client, stubs) = makeStubClient()
        let short = WebServiceCall<ResponseStream<String>>(relativePath: "lines", stream: .lines(maximumLength: 4))
        stubs.stub(short, with: .text("abcd\nabcde\n"))
        let stream = try await client.stream(short)
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first, "abcd", "the line before the one too long comes first")
        let error = await failure { _ = try await iterator.next() }
        XCTAssertEqual(error?.streamFailure, .lineTooLong(limit: 4))
    }

    func testJSONLinesSkipBlankLinesAndReportTheLineThatDoesNotDecode() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.ticks, with: .text("{\"n\":1}\n\n  \r\n{\"n\":2}\r\n{\"n\":\"three\"}\n{\"n\":4}"))
        let stream = try await client.stream(Self.ticks)
        var received: [Tick] = []
        let error = await failure { for try await tick in stream { received.append(tick) } }
        XCTAssertEqual(received, [Tick(n: 1), Tick(n: 2)])
        guard case .decoding(let decoding) = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(decoding.bodyExcerpt.contains("three"), decoding.bodyExcerpt)
        XCTAssertEqual(decoding.statusCode, 200)
    }

    func testServerSentEventsAsTheStandardDispatchesThem() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(
            Self.events,
            with: .text("\u{FEFF}: hello\nevent: add\ndata: 1\ndata: 2\nid: 7\n\ndata:x\n\nretry: 50\ndata: unfinished")
        )
        let events = try await collect(try await client.stream(Self.events))
        XCTAssertEqual(
            events,
            [ServerSentEvent(type: "add", data: "1\n2", id: "7"), ServerSentEvent(type: "message", data: "x", id: "7")])
    }

    func testBytesComeAsTheyWere() async throws {
        let (client, stubs) = makeStubClient()
        let bytes = WebServiceCall<ResponseStream<Data>>(relativePath: "bytes", stream: .bytes)
        let payload = Data((0..<1000).map { UInt8($0 % 251) })
        stubs.stub(bytes, with: StubTransport.Stub(body: payload))
        let chunks = try await collect(try await client.stream(bytes))
        XCTAssertEqual(chunks.reduce(Data(), +), payload)
    }

    func testAnErrorStatusThrowsBeforeAnyElementWithItsBody() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.lines, with: .text("quota exceeded", statusCode: 429))
        let error = await failure { _ = try await client.stream(Self.lines) }
        guard case .unacceptableStatus(let code, _, let body) = error?.reason else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(code, 429)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "quota exceeded")
    }

    func testAStreamIsReadOnTheMainActor() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.lines, with: .text("a\nb\n"))
        let stream = try await client.stream(Self.lines)
        let count = try await countOnMainActor(stream)
        XCTAssertEqual(count, 2)
    }

    func testAStreamIsReadOnce() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.lines, with: .text("a\nb\n"))
        let stream = try await client.stream(Self.lines)
        let first = try await collect(stream)
        XCTAssertEqual(first, ["a", "b"])
        let error = await failure { _ = try await self.collect(stream) }
        guard case .invalidCall = error?.reason else { return XCTFail("\(String(describing: error))") }
    }

    func testPerformReadsAStreamCallWholeAndGivesAStreamOverIt() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.ticks, with: .text("{\"n\":1}\n{\"n\":2}\n"))
        let stream = try await client.perform(Self.ticks)
        let ticks = try await collect(stream)
        XCTAssertEqual(ticks, [Tick(n: 1), Tick(n: 2)])
    }

    func testStreamsAreNeverCachedButAnUnsafeOneStillInvalidates() async throws {
        let stubs = StubTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        stubs.stub(
            Self.lines, with: StubTransport.Stub(headers: ["Cache-Control": "max-age=3600"], body: Data("fresh\n".utf8))
        )
        for _ in 0..<2 { _ = try await collect(try await client.stream(Self.lines)) }
        for _ in 0..<2 { _ = try await collect(try await client.perform(Self.lines)) }
        XCTAssertEqual(stubs.requests.count, 4, "every stream call went to the transport")
        XCTAssertEqual(client.cache?.entryCount(identifiedBy: nil), 0)

        let page = WebServiceCall<String>(relativePath: "lines")
        stubs.stub(page, with: StubTransport.Stub(headers: ["Cache-Control": "max-age=3600"], body: Data("page".utf8)))
        _ = try await client.perform(page)
        XCTAssertEqual(client.cache?.entryCount(identifiedBy: nil), 1)
        let post = WebServiceCall<ResponseStream<String>>(method: .post, relativePath: "lines", stream: .lines)
        stubs.stub(post, with: .text("posted\n"))
        _ = try await collect(try await client.stream(post, ["x": 1]))
        XCTAssertEqual(client.cache?.entryCount(identifiedBy: nil), 0, "RFC 9111 §4.4: the POST invalidated it")
    }

    func testACallNotMadeWithAStreamFormatIsRefused() async throws {
        let (client, _) = makeStubClient()
        let odd = WebServiceCall<ResponseStream<String>>(
            relativePath: "x", serializer: OtherSerializer())
        let error = await failure { _ = try await client.stream(odd) }
        guard case .invalidCall = error?.reason else { return XCTFail("\(String(describing: error))") }
    }

    func testABadBufferSizeIsAnInvalidCall() async throws {
        var fields = CallFields(relativePath: "x")
        fields.streamBufferSize = 0
        let call = WebServiceCall<ResponseStream<Data>>(fields, stream: .bytes)
        XCTAssertThrowsError(try call.validate())
    }

    // MARK: A transport that writes its body as it arrives

    func testTheHeadComesBackBeforeTheBodyAndTheBodyFollowsAsItIsWritten() async throws {
        let transport = PieceTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        let stream = try await client.stream(Self.events)
        // The transport has sent the head and waits: the call returned all the same.
        XCTAssertEqual(stream.statusCode, 200)
        XCTAssertEqual(stream.headers["Content-Type"], "text/event-stream")
        var iterator = stream.makeAsyncIterator()
        transport.send("data: one\n\nda")
        let one = try await iterator.next()
        XCTAssertEqual(one?.data, "one")
        transport.send("ta: two\n\n")
        let two = try await iterator.next()
        XCTAssertEqual(two?.data, "two")
        transport.end()
        let end = try await iterator.next()
        XCTAssertNil(end)
    }

    func testLeavingTheLoopCancelsTheTransport() async throws {
        let transport = PieceTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        do {
            let stream = try await client.stream(Self.events)
            transport.send("data: one\n\n")
            for try await _ in stream { break }
        }
        let cancelled = await transport.cancelled.value()
        XCTAssertTrue(cancelled, "breaking out of the loop reached the transport")
    }

    func testAStreamNeverReadIsCancelledWhenDropped() async throws {
        let transport = PieceTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        _ = try await client.stream(Self.events)
        let cancelled = await transport.cancelled.value()
        XCTAssertTrue(cancelled)
    }

    func testTheNextRequestWaitsForThePreviousResponsesTransport() async throws {
        let transport = LateRedirectTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        let events = try await collect(try await client.stream(Self.events))
        XCTAssertEqual(events.map { $0.data }, ["ok"])
        XCTAssertEqual(
            transport.order.current, ["redirect ended", "target began"],
            "a redirect's transport that writes late must not touch the next response's body")
    }

    func testMetricsEndWithTheBodyAndReachTheMonitorOnce() async throws {
        let transport = PieceTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        let monitored = Locked<[CallMetrics]>([])
        client.metricsMonitor = { metrics in monitored.withLock { $0.append(metrics) } }
        let stream = try await client.stream(Self.events)
        XCTAssertNil(stream.metrics, "the body is still arriving")
        XCTAssertTrue(monitored.current.isEmpty, "the monitor hears of the call at its end, not at its head")
        transport.send("data: one\n\n")
        transport.send("data: two\n\n")
        transport.end()
        _ = try await collect(stream)
        let metrics = try XCTUnwrap(stream.metrics)
        XCTAssertEqual(metrics.transactions.count, 1)
        XCTAssertEqual(metrics.transactions.first?.responseBodyBytes, 22)
        XCTAssertEqual(metrics.transactions.first?.statusCode, 200)
        XCTAssertNil(metrics.error)
        XCTAssertEqual(monitored.current.count, 1)
        XCTAssertEqual(monitored.current.first?.transactions.first?.responseBodyBytes, 22)
    }

    func testACancelledStreamsMetricsSayCancelled() async throws {
        let transport = PieceTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        let stream = try await client.stream(Self.events)
        stream.cancel()
        XCTAssertEqual(stream.metrics?.error?.isCancelled, true)
    }

    func testTheLogShowsTheHeadOfAStreamedResponse() async throws {
        let transport = PieceTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        let recorder = CapturingLogger()
        client.logger = recorder
        client.logLevel = .basic
        let stream = try await client.stream(Self.events)
        transport.end()
        _ = try await collect(stream)
        let response = recorder.messages.first { $0.text.hasPrefix("<-- 200") }
        XCTAssertTrue(response?.text.contains("streamed body") ?? false, "\(recorder.messages.map(\.text))")
    }

    func testProgressCountsTheBodyAsItArrivesAndEndsWithTheStream() async throws {
        let transport = PieceTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "http://example.test/")!, transport: transport)
        let events = Locked<[TransferProgress]>([])
        let stream = try await client.stream(
            Self.events, arguments: [], progress: { progress in events.withLock { $0.append(progress) } })
        transport.send("data: one\n\n")
        transport.end()
        let all = try await collect(stream)
        XCTAssertEqual(all.map { $0.data }, ["one"])
        let finished = OneShot<Void>()
        client.callbackQueue.async { finished.resolve(()) }
        await finished.value()
        let downloads = events.current.filter { $0.direction == .download }
        XCTAssertEqual(downloads.last?.completedBytes, 11, "\(events.current)")
    }
}

/// A stream read from the main actor, as an app's view model would.
@MainActor private func countOnMainActor(_ stream: ResponseStream<String>) async throws -> Int {
    var count = 0
    for try await _ in stream { count += 1 }
    return count
}

/// Answers the first request with a redirect whose transport, once cancelled, still writes into
/// the sink a moment later (as a transport that has not yet seen its cancellation does); answers
/// the redirect's target with one event.
private final class LateRedirectTransport: WebServiceTransport, @unchecked Sendable {
    let order = Locked<[String]>([])

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        let sink = context.responseBody
        guard request.url?.path == "/target" else {
            let head = TransportResponse(statusCode: 302, headers: ["Location": "/target"], url: request.url)
            try sink.begin(statusCode: 302, expectedLength: nil, countsAppendedBytes: true, head: head)
            let stopped = OneShot<Void>()
            await withTaskCancellationHandler {
                await stopped.value()
            } onCancel: {
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { stopped.resolve(()) }
            }
            try? sink.append(Data("late".utf8))
            _ = try? sink.finish(head)
            order.withLock { $0.append("redirect ended") }
            throw CancellationError()
        }
        order.withLock { $0.append("target began") }
        let head = TransportResponse(statusCode: 200, headers: ["Content-Type": "text/event-stream"], url: request.url)
        try sink.begin(statusCode: 200, expectedLength: nil, countsAppendedBytes: true, head: head)
        try sink.append(Data("data: ok\n\n".utf8))
        return try sink.finish(head)
    }
}

private struct OtherSerializer: ResponseSerializer {
    func deserialize(_ body: Data, context: ResponseContext) throws -> ResponseStream<String> {
        throw URLError(.unknown)
    }
}

/// A transport that sends the head of a `text/event-stream` response at once, then the body
/// pieces the test hands it, until told to end; it notes its cancellation.
private final class PieceTransport: WebServiceTransport, @unchecked Sendable {  // guarded by `lock`
    private enum Step: Sendable {
        case piece(Data)
        case end
        case cancelled
    }

    private let lock = NSLock()
    private var steps: [Step] = []
    private var waiter: CheckedContinuation<Step, Never>?
    private var isCancelled = false
    let cancelled = OneShot<Bool>()

    func send(_ text: String) { deliver(.piece(Data(text.utf8))) }
    func end() { deliver(.end) }

    private func deliver(_ step: Step) {
        lock.lock()
        let waiting = waiter
        waiter = nil
        if waiting == nil { steps.append(step) }
        lock.unlock()
        waiting?.resume(returning: step)
    }

    private func nextStep() async -> Step {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Step, Never>) in
                let ready = lock.withLock { () -> Step? in
                    if isCancelled { return .cancelled }
                    if !steps.isEmpty { return steps.removeFirst() }
                    waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    private func cancel() {
        cancelled.resolve(true)
        let waiter = lock.withLock { () -> CheckedContinuation<Step, Never>? in
            isCancelled = true
            defer { self.waiter = nil }
            return self.waiter
        }
        waiter?.resume(returning: .cancelled)
    }

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        let head = TransportResponse(
            statusCode: 200, headers: ["Content-Type": "text/event-stream"], url: request.url)
        try context.responseBody.begin(statusCode: 200, expectedLength: nil, countsAppendedBytes: true, head: head)
        loop: while true {
            switch await nextStep() {
            case .piece(let data): try context.responseBody.append(data)
            case .end: break loop
            case .cancelled: throw CancellationError()
            }
        }
        return try context.responseBody.finish(head)
    }
}
