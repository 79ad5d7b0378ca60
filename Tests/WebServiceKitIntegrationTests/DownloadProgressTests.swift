import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Download progress against the local httpbin: `/drip` (Content-Length, bytes over time),
/// `/stream-bytes` (chunked, unknown length) and `/bytes`.
final class DownloadProgressTests: XCTestCase {
    /// `drip?numbytes=N&duration=S&delay=0`: argument 2 is the progress handler.
    private static let drip = WebServiceCall<Data>(
        relativePath: "drip?numbytes=%%0%%&duration=%%1%%&delay=0", timeout: 30, progressParameter: 2)
    private static let streamBytes = WebServiceCall<Data>(
        relativePath: "stream-bytes/%%0%%?seed=7&chunk_size=%%1%%", progressParameter: 2)

    func testDripProgressIsCumulativeAndEndsOnceAtOneBeforeTheSuccessCallback() async throws {
        let client = try HTTPBin.client()
        let log = ProgressLog()
        let done = expectation(description: "done")
        client.perform(
            Self.drip, [20_000, 1, log.simple],
            success: { data in
                XCTAssertEqual(data.count, 20_000)
                log.markCompletion()
                done.fulfill()
            }, failure: { XCTFail("\($0)") })
        await fulfillment(of: [done], timeout: 30)
        try await Task.sleep(nanoseconds: 200_000_000)
        log.assertCompleteRun(total: 20_000)
        XCTAssertTrue(log.endsWithCompletion, "nothing after the completion callback")
    }

    func testTheAsyncFormReturnsAfterEveryProgressEvent() async throws {
        let client = try HTTPBin.client()
        let log = ProgressLog()
        let data = try await client.perform(Self.drip, [20_000, 1, log.simple])
        log.markCompletion()
        XCTAssertEqual(data.count, 20_000)
        try await Task.sleep(nanoseconds: 200_000_000)
        log.assertCompleteRun(total: 20_000)
        XCTAssertTrue(log.endsWithCompletion, "nothing after the call returned")
    }

    func testBytesReportsTheLengthTheServerSent() async throws {
        let client = try HTTPBin.client()
        let log = ProgressLog()
        let call = WebServiceCall<Data>(relativePath: "bytes/%%0%%", progressParameter: 1)
        let data = try await client.perform(call, [100_000, log.simple])
        XCTAssertEqual(data.count, 100_000)
        XCTAssertEqual(log.simpleEvents.first?.fraction, 0)
        XCTAssertEqual(log.simpleEvents.last?.fraction, 1)
        XCTAssertEqual(log.simpleEvents.last?.expected, 100_000)
        XCTAssertEqual(log.simpleEvents.filter { $0.fraction == 1 }.count, 1)
        XCTAssertTrue(log.simpleEvents.dropFirst().dropLast().allSatisfy { $0.expected == 100_000 })
    }

    func testAChunkedBodyReportsBytesButNoFractionUntilItEnds() async throws {
        let client = try HTTPBin.client()
        let simple = ProgressLog()
        let rich = ProgressLog()
        // httpbin sends at most 100 KiB here, in 1 KiB chunks: one event at 64 KiB between start and end.
        let data = try await client.perform(
            Self.streamBytes, arguments: [102_400, 1024, simple.simple], progress: rich.rich)
        XCTAssertEqual(data.count, 102_400)
        XCTAssertEqual(simple.simpleEvents.map(\.fraction), [0, 1])
        XCTAssertEqual(simple.simpleEvents.map(\.expected), [-1, 102_400])
        let events = rich.richEvents
        XCTAssertEqual(events.count, 3, "\(events)")
        XCTAssertEqual(events.first?.fraction, 0)
        XCTAssertEqual(events.first?.expectedBytes, nil)
        let middle = events[1]
        XCTAssertEqual(middle.direction, .download)
        XCTAssertEqual(middle.expectedBytes, nil)
        XCTAssertEqual(middle.fraction, 0)
        XCTAssertTrue((65_536..<102_400).contains(middle.completedBytes), "\(middle)")
        XCTAssertEqual(
            events.last,
            TransferProgress(direction: .download, completedBytes: 102_400, expectedBytes: 102_400, fraction: 1))
    }

    func testACancelledDownloadNeverReachesOneAndReportsNothingAfterItsFailureCallback() async throws {
        let client = try HTTPBin.client()
        let started = expectation(description: "first progress")
        let log = ProgressLog(onFirstProgress: { started.fulfill() })
        let cancelled = expectation(description: "cancelled")
        let task = client.perform(
            Self.drip, [10_000, 4, log.simple], success: { _ in XCTFail("cancelled") },
            failure: { error in
                XCTAssertTrue(error.isCancelled, "\(error)")
                log.markCompletion()
                cancelled.fulfill()
            })
        await fulfillment(of: [started], timeout: 10)
        task.cancel()
        await fulfillment(of: [cancelled], timeout: 10)
        try await Task.sleep(nanoseconds: 500_000_000)
        XCTAssertFalse(log.simpleEvents.contains { $0.fraction == 1 })
        XCTAssertTrue(log.endsWithCompletion)

        // The async form: cancelling the surrounding task.
        let again = ProgressLog()
        let handler = again.simple
        let call = Task { await DownloadProgressTests.slowDripError(client, handler) }
        try await Task.sleep(nanoseconds: 800_000_000)
        call.cancel()
        let error = await call.value
        XCTAssertTrue(error?.isCancelled == true, "\(String(describing: error))")
        XCTAssertFalse(again.simpleEvents.contains { $0.fraction == 1 })
    }
}

extension DownloadProgressTests {
    /// The error of a 4-second drip, or `nil` when it succeeds.
    fileprivate static func slowDripError(_ client: WebServiceClient, _ handler: @escaping ProgressHandler) async
        -> WebServiceError?
    {
        do {
            _ = try await client.perform(drip, [10_000, 4, handler])
            return nil
        } catch {
            return error
        }
    }
}

/// Progress events and the completion, in the order they ran.
typealias ProgressLog = ProgressRecorder

extension ProgressRecorder {
    /// `(0, total)`, cumulative fractions of `total` at most once per 1 %, one `(1, total)`.
    func assertCompleteRun(total: Int64, file: StaticString = #filePath, line: UInt = #line) {
        let events = simpleEvents
        XCTAssertEqual(events.first?.fraction, 0, file: file, line: line)
        XCTAssertEqual(events.first?.expected, total, "the start knows the total", file: file, line: line)
        XCTAssertEqual(events.last?.fraction, 1, file: file, line: line)
        XCTAssertEqual(events.last?.expected, total, file: file, line: line)
        XCTAssertEqual(events.filter { $0.fraction == 1 }.count, 1, "exactly one 1.0", file: file, line: line)
        let middle = events.dropFirst().dropLast()
        XCTAssertGreaterThan(middle.count, 3, "intermediate progress was reported", file: file, line: line)
        XCTAssertLessThanOrEqual(middle.count, 99, "coalesced to one call per 1 %", file: file, line: line)
        XCTAssertTrue(middle.allSatisfy { $0.expected == total }, file: file, line: line)
        let fractions = events.map(\.fraction)
        XCTAssertEqual(fractions, fractions.sorted(), "cumulative and monotonic", file: file, line: line)
    }
}
