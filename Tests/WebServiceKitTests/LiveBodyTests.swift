import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bounded buffer between a streamed call's transport and its consumer.
final class LiveBodyTests: XCTestCase {
    func testPushAsksToPauseAtTheBufferSizeAndDrainingResumesBelowHalf() async throws {
        let body = LiveBody(bufferSize: 100)
        XCTAssertTrue(try body.push(Data(count: 60)))
        XCTAssertFalse(try body.push(Data(count: 40)), "100 bytes wait: the transport should stop reading")
        XCTAssertTrue(body.isBackedUp)
        let resumed = Locked(0)
        body.whenDrained { resumed.withLock { $0 += 1 } }
        XCTAssertEqual(resumed.current, 0, "nothing was consumed yet")
        let first = try await body.next()
        XCTAssertEqual(first?.count, 60)
        XCTAssertEqual(resumed.current, 1, "40 bytes wait now, under half of 100")
        XCTAssertFalse(body.isBackedUp)
        // Already drained: told at once.
        body.whenDrained { resumed.withLock { $0 += 1 } }
        XCTAssertEqual(resumed.current, 2)
    }

    func testBytesBeforeTheEndComeFirstThenTheEnd() async throws {
        let body = LiveBody(bufferSize: 1 << 20)
        try body.push(Data("a".utf8))
        try body.push(Data("b".utf8))
        body.finish(nil)
        body.finish(.cancelled(reason: "too late"))  // the first end counts
        let a = try await body.next()
        let b = try await body.next()
        let end = try await body.next()
        XCTAssertEqual(a, Data("a".utf8))
        XCTAssertEqual(b, Data("b".utf8))
        XCTAssertNil(end)
    }

    func testAnErrorComesAfterTheBytesBeforeIt() async throws {
        let body = LiveBody(bufferSize: 1 << 20)
        try body.push(Data("a".utf8))
        body.finish(.transport(URLError(.networkConnectionLost)))
        let a = try await body.next()
        XCTAssertEqual(a, Data("a".utf8))
        let error = await failure { _ = try await body.next() }
        guard case .transport(let urlError) = error?.reason else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(urlError.code, .networkConnectionLost)
    }

    func testAWaitingConsumerGetsAPiecePushedLater() async throws {
        let body = LiveBody(bufferSize: 1 << 20)
        async let piece = body.next()
        // Whichever runs first, the consumer gets the piece: buffered, or handed to it waiting.
        try body.push(Data("late".utf8))
        let received = try await piece
        XCTAssertEqual(received, Data("late".utf8))
    }

    func testATransportThatCannotPauseFailsTheBodyPastTheHardLimit() async throws {
        let body = LiveBody(bufferSize: 1024)
        XCTAssertEqual(body.hardLimit, 16 << 20)
        let piece = Data(count: 1 << 20)
        for _ in 0..<16 { _ = try body.push(piece) }
        XCTAssertThrowsError(try body.push(Data(count: 1))) { error in
            XCTAssertEqual((error as? WebServiceError)?.streamFailure, .consumerTooSlow(limit: 16 << 20))
        }
        // Nothing is kept past the failure, and the consumer learns of it.
        let error = await failure { _ = try await body.next() }
        XCTAssertEqual(error?.streamFailure, .consumerTooSlow(limit: 16 << 20))
    }

    func testCancellingStopsTheTransportOnceAndRefusesLaterBytes() async throws {
        let body = LiveBody(bufferSize: 1 << 20)
        let stops = Locked(0)
        body.onCancel { stops.withLock { $0 += 1 } }
        body.cancel("enough")
        body.cancel("again")
        XCTAssertEqual(stops.current, 1)
        XCTAssertThrowsError(try body.push(Data("x".utf8))) { error in
            guard case .cancelled(let reason) = (error as? WebServiceError)?.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "enough")
        }
        // A handler set after the cancellation runs at once.
        body.onCancel { stops.withLock { $0 += 1 } }
        XCTAssertEqual(stops.current, 2)
    }

    func testCancellingTheWaitingTaskCancelsTheBody() async throws {
        let body = LiveBody(bufferSize: 1 << 20)
        let stopped = OneShot<Bool>()
        body.onCancel { stopped.resolve(true) }
        let consumer = Task { await failure { _ = try await body.next() } }
        consumer.cancel()
        let error = await consumer.value
        XCTAssertEqual(error?.isCancelled, true)
        let didStop = await stopped.value()
        XCTAssertTrue(didStop)
    }

    func testTheIdleDeadlineEndsABodyWithoutBytesWhileTheConsumerWaits() async throws {
        let body = LiveBody(bufferSize: 1 << 20)
        let stopped = OneShot<Bool>()
        body.onCancel { stopped.resolve(true) }
        body.startIdleDeadline(0.05)
        let error = await failure { _ = try await body.next() }
        XCTAssertEqual(error?.isTimeout, true, "\(String(describing: error))")
        let didStop = await stopped.value()
        XCTAssertTrue(didStop, "the transport is stopped when the idle deadline passes")
    }

    func testCollectKeepsTheFirstBytesOfAnErrorBodyAndStopsTheRest() async throws {
        let body = LiveBody(bufferSize: 1 << 20)
        let stopped = OneShot<Bool>()
        body.onCancel { stopped.resolve(true) }
        try body.push(Data(repeating: 0x61, count: 70))
        try body.push(Data(repeating: 0x62, count: 70))
        let kept = await body.collect(upTo: 100)
        XCTAssertEqual(kept, Data(repeating: 0x61, count: 70) + Data(repeating: 0x62, count: 30))
        let didStop = await stopped.value()
        XCTAssertTrue(didStop, "the rest of an error body is not read")
    }
}

extension WebServiceError {
    /// The stream failure this error is, if it is one.
    var streamFailure: ResponseStreamError? {
        if case .responseStream(let failure) = self.reason { return failure }
        return nil
    }
}
