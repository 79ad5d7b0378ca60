import Dispatch
import Foundation
import WebServiceKit
import XCTest

/// The public pieces the format products (OData, JSON-RPC, XML) build on, tested on their own:
/// a task that fails before its call starts, and a decoding failure made after the call.
final class AdapterAPITests: XCTestCase {
    private struct Refused: Error {}

    func testFailedTaskDeliversItsErrorOnTheCallbackQueueNeverBeforeItReturns() async {
        let queue = DispatchQueue(label: "adapter.failed")
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, callbackQueue: queue)
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Int, WebServiceError>, Never>) in
            // Held: had the failure been delivered synchronously, the task could not be inspected first.
            queue.suspend()
            let task = client.failedTask(.invalidArguments(index: 2, reason: "no id")) {
                (result: Result<Int, WebServiceError>) in
                continuation.resume(returning: result)
            }
            XCTAssertFalse(task.isFinished)
            queue.resume()
        }
        guard case .invalidArguments(index: 2, let reason)? = outcome.failure?.reason else {
            return XCTFail("\(outcome)")
        }
        XCTAssertEqual(reason, "no id")
    }

    func testCancellingAFailedTaskFirstDeliversTheCancellationOnly() async {
        let queue = DispatchQueue(label: "adapter.cancelled")
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, callbackQueue: queue)
        let deliveries = LockedCount()
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Int, WebServiceError>, Never>) in
            queue.suspend()
            let task = client.failedTask(.invalidArguments(index: nil, reason: "empty")) {
                (result: Result<Int, WebServiceError>) in
                deliveries.increment()
                continuation.resume(returning: result)
            }
            task.cancel(reason: "changed my mind")
            XCTAssertTrue(task.isCancelled)
            queue.resume()
        }
        guard case .cancelled("changed my mind")? = outcome.failure?.reason else { return XCTFail("\(outcome)") }
        // The refused delivery was queued behind the cancellation: once it has run, still one call.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
        XCTAssertEqual(deliveries.value, 1)
    }

    func testDecodingFailureMadeFromABodyKeepsTheClientsExcerpt() {
        let short = WebServiceError.DecodingFailure(underlying: Refused(), body: Data("not json".utf8), statusCode: 200)
        XCTAssertEqual(short.bodyExcerpt, "not json")
        XCTAssertEqual(short.statusCode, 200)
        XCTAssertTrue(short.underlying is Refused)
        let long = WebServiceError.DecodingFailure(
            underlying: Refused(), body: Data(String(repeating: "é", count: 300).utf8), statusCode: 502)
        XCTAssertEqual(long.bodyExcerpt, String(repeating: "é", count: 256) + "…")
    }
}

/// A counter that callbacks on another queue may bump.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
