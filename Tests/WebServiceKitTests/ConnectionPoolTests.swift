import Dispatch
import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pool around its state: waiting calls that are cancelled or reach their deadline, and the
/// idle timer on a scheduler. No server: the pool hands out connections it has not opened (a
/// connection opens its socket when its first exchange runs).
final class ConnectionPoolTests: XCTestCase {
    private func pool(perOrigin: Int = 1, total: Int = 8, idleTimeout: UInt64 = 60_000_000_000) -> ConnectionPool {
        ConnectionPool(limits: .init(perOrigin: perOrigin, total: total, idleTimeout: idleTimeout))
    }

    /// Polls `condition` until it holds; a generous limit only bounds a failing test.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<2_000 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition()
    }

    func testAWaitingCallThatIsCancelledFailsAsCancelledAndNeverTakesAConnection() async throws {
        let pool = pool()
        let held = try await pool.connection(to: "a:80", deadline: nil)
        let waiter = Task { try await pool.connection(to: "a:80", deadline: nil) }
        let waits = await eventually { pool.counts.waiting == 1 }
        XCTAssertTrue(waits)
        waiter.cancel()
        do {
            let connection = try await waiter.value
            XCTFail("a cancelled waiting call got \(connection)")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .cancelled)
        }
        XCTAssertEqual(pool.counts.waiting, 0)
        XCTAssertEqual(pool.counts.open, 1, "only the held connection")
        // The held connection, given back, goes to the next call: the cancelled one took no place.
        pool.release(held, to: "a:80", reusable: false)
        XCTAssertEqual(pool.counts.open, 0)
        let next = try await pool.connection(to: "a:80", deadline: nil)
        pool.release(next, to: "a:80", reusable: false)
    }

    func testACallCancelledBeforeItAsksWaitsForNothing() async throws {
        let pool = pool()
        let held = try await pool.connection(to: "a:80", deadline: nil)
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.connection(to: "a:80", deadline: nil)
        }
        do {
            _ = try await waiter.value
            XCTFail("a cancelled call got a connection")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .cancelled)
        }
        XCTAssertEqual(pool.counts.waiting, 0)
        pool.release(held, to: "a:80", reusable: false)
        XCTAssertEqual(pool.counts.open, 0)
    }

    func testWaitingCallsGetTheConnectionInTheOrderTheyAsked() async throws {
        let pool = pool()
        let held = try await pool.connection(to: "a:80", deadline: nil)
        let order = Locked<[Int]>([])
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<5 {
            tasks.append(
                Task {
                    let connection = try await pool.connection(to: "a:80", deadline: nil)
                    order.withLock { $0.append(index) }
                    pool.release(connection, to: "a:80", reusable: true)
                })
            // Each call is in the queue before the next one asks.
            let queued = await eventually { pool.counts.waiting == index + 1 }
            XCTAssertTrue(queued)
        }
        pool.release(held, to: "a:80", reusable: true)
        for task in tasks { try await task.value }
        XCTAssertEqual(order.current, [0, 1, 2, 3, 4])
        XCTAssertEqual(pool.counts.open, 1, "one connection served them all")
    }

    func testAWaitingCallFailsAtItsDeadline() async throws {
        let pool = pool()
        let held = try await pool.connection(to: "a:80", deadline: nil)
        do {
            _ = try await pool.connection(to: "a:80", deadline: .now() + .milliseconds(20))
            XCTFail("no connection came free, yet the call got one")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .timedOut)
        }
        XCTAssertEqual(pool.counts.waiting, 0)
        pool.release(held, to: "a:80", reusable: false)
    }

    func testTheIdleTimerClosesIdleConnectionsWithoutAnotherCall() async throws {
        let pool = pool(perOrigin: 4, idleTimeout: 20_000_000)
        var connections: [KeptAliveConnection] = []
        for origin in ["a:80", "b:80", "c:80"] {
            let connection = try await pool.connection(to: origin, deadline: nil)
            connections.append(connection)
            pool.release(connection, to: origin, reusable: true)
        }
        // No count of idle connections here: with a 20 ms timeout on a busy machine the timer may
        // already have closed some of them, which is what this test waits for anyway.
        let closed = await eventually { pool.counts.open == 0 }
        XCTAssertTrue(closed, "\(pool.counts)")
        // Closed, not only forgotten: their descriptors are released. A loop connection closes on
        // its own loop, after the pool has forgotten it, so this too is waited for.
        let released = await eventually { connections.allSatisfy(\.isClosed) }
        XCTAssertTrue(released)
    }

    func testTheCapsFollowTheSessionConfiguration() {
        let configuration = URLSessionConfiguration.ephemeral
        XCTAssertEqual(ConnectionPool.limits(for: configuration).perOrigin, configuration.httpMaximumConnectionsPerHost)
        configuration.httpMaximumConnectionsPerHost = 3
        XCTAssertEqual(ConnectionPool.limits(for: configuration).perOrigin, 3)
        configuration.httpMaximumConnectionsPerHost = 0
        XCTAssertEqual(ConnectionPool.limits(for: configuration).perOrigin, .max, "0: no cap per origin, as libcurl")
        // Across origins: from the descriptor limit (ConnectionLimitsTests has the figures).
        XCTAssertEqual(ConnectionPool.limits(for: configuration).total, ConnectionPool.defaultTotal)
        XCTAssertGreaterThanOrEqual(ConnectionPool.limits(for: configuration).total, 4)
    }
}
