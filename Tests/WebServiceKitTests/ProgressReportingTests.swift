import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The progress rules, driven by a transport that reports scripted byte counts: start, 1 %
/// coalescing, 64 KiB steps for unknown lengths, the direction rule, exactly one 1.0 on
/// success, none after a failure or a cancellation, nothing after the completion callback.
final class ProgressReportingTests: XCTestCase {
    private static let download = WebServiceCall<Data>(relativePath: "d", progressParameter: 0)
    private static let upload = WebServiceCall<Data>(
        method: .post, relativePath: "u", bodyParameter: 0, progressParameter: 1)

    private func client(
        queue: DispatchQueue? = nil,
        _ script: @escaping @Sendable (WebServiceRequest, TransportContext) async throws -> TransportResponse
    ) -> WebServiceClient {
        WebServiceClient(
            serviceRoot: URL(string: "https://api.example.com/")!, transport: ScriptedTransport(script: script),
            callbackQueue: queue)
    }

    func testAKnownLengthIsReportedCumulativelyAtMostOncePerPercentAndEndsOnceAtOne() async throws {
        let total: Int64 = 1_000_000
        let client = client { _, context in
            for received in stride(from: Int64(0), through: total, by: 997) {
                context.reportDownloadProgress(received: received, expected: total)
            }
            context.reportDownloadProgress(received: total, expected: total)
            return TransportResponse(statusCode: 200, body: Data(count: Int(total)))
        }
        let recorder = ProgressRecorder()
        _ = try await client.perform(Self.download, [recorder.simple])
        // The async form returns after every event ran: the log is complete here.
        let events = recorder.simpleEvents
        XCTAssertEqual(events.first?.fraction, 0)
        XCTAssertEqual(events.first?.expected, total, "the start carries the total once the first figures came")
        XCTAssertEqual(events.filter { $0.fraction == 0 }.count, 1, "one start")
        XCTAssertEqual(events.last?.fraction, 1)
        XCTAssertEqual(events.last?.expected, total)
        XCTAssertEqual(events.filter { $0.fraction == 1 }.count, 1)
        let middle = events.dropFirst().dropLast()
        XCTAssertTrue((90...99).contains(middle.count), "\(middle.count) events between start and finish")
        XCTAssertTrue(middle.allSatisfy { $0.expected == total && $0.fraction < 1 })
        for (previous, next) in zip(middle, middle.dropFirst()) {
            XCTAssertGreaterThanOrEqual(next.fraction - previous.fraction, 0.01 - 1e-12)
        }
    }

    func testAnUnknownLengthReportsBytesEvery64KiBToTheTransferHandlerOnly() async throws {
        let total: Int64 = 1_000_000
        let client = client { _, context in
            for received in stride(from: Int64(10_000), through: total, by: 10_000) {
                context.reportDownloadProgress(received: received, expected: -1)
            }
            return TransportResponse(statusCode: 200, body: Data(count: Int(total)))
        }
        let simple = ProgressRecorder()
        let rich = ProgressRecorder()
        let call = WebServiceCall<Data>(relativePath: "d", progressParameter: 0)
        _ = try await client.perform(call, arguments: [simple.simple], progress: rich.rich)
        XCTAssertEqual(simple.simpleEvents.map(\.fraction), [0, 1], "a fraction cannot be told: start and end only")
        XCTAssertEqual(simple.simpleEvents.map(\.expected), [-1, total])
        let events = rich.richEvents
        XCTAssertEqual(
            events.first,
            TransferProgress(direction: .download, completedBytes: 0, expectedBytes: nil, fraction: 0))
        XCTAssertEqual(
            events.last,
            TransferProgress(direction: .download, completedBytes: total, expectedBytes: total, fraction: 1))
        let middle = Array(events.dropFirst().dropLast())
        XCTAssertEqual(middle.count, 14, "one event per 64 KiB of 1,000,000 bytes")
        XCTAssertTrue(middle.allSatisfy { $0.fraction == 0 && $0.expectedBytes == nil && $0.direction == .download })
        for (previous, next) in zip([events[0]] + middle, middle) {
            XCTAssertGreaterThanOrEqual(next.completedBytes - previous.completedBytes, 64 * 1024)
        }
    }

    func testACallWithABodyReportsTheUploadToTheSimpleHandlerAndBothDirectionsToTheTransferHandler() async throws {
        let body = Data(count: 500_000)
        let client = client { _, context in
            XCTAssertEqual(context.uploadLength, 500_000)
            for sent in stride(from: Int64(50_000), through: 500_000, by: 50_000) {
                context.reportUploadProgress(sent: sent, expected: -1)  // chunked: falls back to uploadLength
            }
            for received in stride(from: Int64(100), through: 1000, by: 100) {
                context.reportDownloadProgress(received: received, expected: 1000)
            }
            return TransportResponse(statusCode: 200, body: Data(count: 1000))
        }
        let recorder = ProgressRecorder()
        let rich = ProgressRecorder()
        _ = try await client.response(for: Self.upload, arguments: [body, recorder.simple], progress: rich.rich)
        XCTAssertEqual(
            recorder.simpleEvents.map(\.fraction), [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
            "the upload, 1.0 excluded until the call succeeds")
        XCTAssertEqual(recorder.simpleEvents.last?.expected, 500_000)
        let directions = rich.richEvents.map(\.direction)
        XCTAssertEqual(directions.first, .upload)
        XCTAssertEqual(directions.filter { $0 == .download }.count, 9, "the download's 10 %…90 %")
        XCTAssertEqual(
            rich.richEvents.last,
            TransferProgress(direction: .upload, completedBytes: 500_000, expectedBytes: 500_000, fraction: 1))
        XCTAssertEqual(rich.richEvents.filter(\.isFinished).count, 1)
    }

    func testAFailureNeverReachesOneAndNothingFollowsTheFailureCallback() async throws {
        let client = client { _, context in
            context.reportDownloadProgress(received: 500, expected: 1000)
            throw URLError(.networkConnectionLost)
        }
        let recorder = ProgressRecorder()
        let done = expectation(description: "failure")
        client.perform(
            Self.download, [recorder.simple], success: { _ in XCTFail("must fail") },
            failure: { _ in
                recorder.markCompletion()
                done.fulfill()
            })
        await fulfillment(of: [done], timeout: 5)
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(recorder.simpleEvents.map(\.fraction), [0, 0.5])
        XCTAssertTrue(recorder.endsWithCompletion)
        // The async form: the error comes after the events, and no 1.0 either.
        let again = ProgressRecorder()
        do {
            _ = try await client.perform(Self.download, [again.simple])
            XCTFail("must fail")
        } catch {
            XCTAssertEqual(again.simpleEvents.map(\.fraction), [0, 0.5])
        }
    }

    func testACancelledCallGetsNoMoreEventsAfterItsFailureCallbackAndNoOne() async throws {
        let started = expectation(description: "first event")
        let transportDone = expectation(description: "transport returned")
        let client = client { _, context in
            defer { transportDone.fulfill() }
            var received: Int64 = 0
            while received < 1000 {
                received += 10
                context.reportDownloadProgress(received: received, expected: 1000)
                // Keeps reporting for a while after the cancellation, as a slow transport would.
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            return TransportResponse(statusCode: 200, body: Data(count: 1000))
        }
        let recorder = ProgressRecorder(onFirstProgress: { started.fulfill() })
        let cancelled = expectation(description: "cancelled")
        let task = client.perform(
            Self.download, [recorder.simple], success: { _ in XCTFail("cancelled") },
            failure: { error in
                XCTAssertTrue(error.isCancelled)
                recorder.markCompletion()
                cancelled.fulfill()
            })
        await fulfillment(of: [started], timeout: 5)
        task.cancel()
        await fulfillment(of: [cancelled, transportDone], timeout: 15)
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertTrue(recorder.endsWithCompletion, "nothing after the failure callback")
        XCTAssertFalse(recorder.simpleEvents.contains { $0.fraction == 1 })
    }

    func testOrderHoldsOnAConcurrentCallbackQueue() async throws {
        let queue = DispatchQueue(label: "concurrent-callbacks", attributes: .concurrent)
        let total: Int64 = 100_000
        let client = client(queue: queue) { _, context in
            for received in stride(from: Int64(0), to: total, by: 500) {
                context.reportDownloadProgress(received: received, expected: total)
            }
            return TransportResponse(statusCode: 200, body: Data(count: Int(total)))
        }
        let recorder = ProgressRecorder(delay: 200)
        let done = expectation(description: "done")
        client.perform(
            Self.download, [recorder.simple],
            success: { _ in
                recorder.markCompletion()
                done.fulfill()
            }, failure: { XCTFail("\($0)") })
        await fulfillment(of: [done], timeout: 10)
        let fractions = recorder.simpleEvents.map(\.fraction)
        XCTAssertEqual(fractions, fractions.sorted())
        XCTAssertEqual(fractions.last, 1)
        XCTAssertTrue(recorder.endsWithCompletion)
    }

    func testACacheHitReportsStartAndFinish() async throws {
        let stubs = StubTransport(
            fallback: StubTransport.Stub(headers: ["Cache-Control": "max-age=60"], body: Data(count: 10)))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.cache = HTTPCache()
        _ = try await client.perform(Self.download, [ProgressRecorder().simple])
        let recorder = ProgressRecorder()
        let response = try await client.response(for: Self.download, [recorder.simple])
        XCTAssertEqual(response.source, .cache)
        XCTAssertEqual(stubs.requests.count, 1)
        XCTAssertEqual(recorder.simpleEvents.map(\.fraction), [0, 1])
        XCTAssertEqual(recorder.simpleEvents.map(\.expected), [10, 10], "the start knows the total the cache has")
    }

    /// The start event carries the total as soon as it is known (issue 35): at once for a body
    /// going out of known length; for a download, with its first figures; `-1` for a download
    /// that fails before any, and still exactly one start, before anything else.
    func testTheStartCarriesTheTotalWhenThereIsOne() async throws {
        let upload = client { _, context in
            context.reportUploadProgress(sent: 500, expected: 1_000)
            context.reportUploadProgress(sent: 1_000, expected: 1_000)
            return TransportResponse(statusCode: 200, body: Data("ok".utf8))
        }
        let sent = ProgressRecorder()
        let post = WebServiceCall<Data>(method: .post, relativePath: "up", bodyParameter: 0, progressParameter: 1)
        _ = try await upload.perform(post, [Data(count: 1_000), sent.simple])
        XCTAssertEqual(sent.simpleEvents.first?.fraction, 0)
        XCTAssertEqual(sent.simpleEvents.first?.expected, 1_000, "an upload's length is known at the start")
        XCTAssertEqual(sent.simpleEvents.map(\.fraction), [0, 0.5, 1])

        let unknown = client { _, context in
            context.reportDownloadProgress(received: 100_000, expected: -1)
            return TransportResponse(statusCode: 200, body: Data(count: 100_000))
        }
        let chunked = ProgressRecorder()
        _ = try await unknown.perform(Self.download, [chunked.simple])
        XCTAssertEqual(chunked.simpleEvents.map(\.expected), [-1, 100_000], "no total known: -1 at the start")

        let failing = client { _, _ in throw URLError(.networkConnectionLost) }
        let failed = ProgressRecorder()
        do {
            _ = try await failing.perform(Self.download, [failed.simple])
            XCTFail("the call fails")
        } catch {
            XCTAssertEqual(failed.simpleEvents.map(\.fraction), [0], "one start, nothing more")
            XCTAssertEqual(failed.simpleEvents.map(\.expected), [-1])
        }
    }

    func testTheProgressParameterTakesEitherHandlerAndPerformTakesOneToo() async throws {
        let client = client { _, context in
            context.reportDownloadProgress(received: 5, expected: 10)
            return TransportResponse(statusCode: 200, body: Data(count: 10))
        }
        let argument = ProgressRecorder()
        let parameter = ProgressRecorder()
        let done = expectation(description: "done")
        client.perform(
            Self.download, [argument.rich], progress: parameter.rich,
            success: { _ in
                argument.markCompletion()
                parameter.markCompletion()
                done.fulfill()
            }, failure: { XCTFail("\($0)") })
        await fulfillment(of: [done], timeout: 5)
        for recorder in [argument, parameter] {
            XCTAssertEqual(recorder.richEvents.map(\.fraction), [0, 0.5, 1])
            XCTAssertTrue(recorder.endsWithCompletion)
        }
    }
}

/// A transport that runs a script.
struct ScriptedTransport: WebServiceTransport {
    let script: @Sendable (WebServiceRequest, TransportContext) async throws -> TransportResponse

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        try await script(request, context)
    }
}
