import Dispatch
import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Many calls at once over one shared client against the local httpbin, with cancellation at
/// random moments: every call ends exactly once, with its own response or its own cancellation.
///
/// `WEBSERVICEKIT_STRESS_CALLS` sets the number of calls (10,000 by default; the ThreadSanitizer
/// run of `Scripts/test` uses fewer), `WEBSERVICEKIT_STRESS_SEED` replays the random choices of an
/// earlier run (each run prints its seed).
final class ConcurrencyStressTests: XCTestCase {
    /// What a call does about cancellation.
    enum Plan: Sendable, CaseIterable {
        /// Nothing: the call must succeed.
        case untouched
        /// Callbacks: cancelled on the calling thread as soon as `perform` returns, which (where
        /// `Task.immediate` exists, as on Linux with Swift 6.3) is once the request waits for the
        /// transport. Async: the calling task is cancelled before `perform`, which must end
        /// cancelled, never with a response.
        case beforeStart
        /// Cancelled from another thread (or the parent task) at once, racing the call.
        case concurrently
        /// Cancelled after a random delay of up to 3 ms, mid-flight.
        case afterDelay
        /// Cancelled only after its callback ran: it must not get a second one (callbacks only).
        case afterCompletion
    }

    /// How one call ended.
    enum Outcome: Sendable, Equatable {
        case echoed(String)
        case cancelled(reason: String?)
        case failed(String)
    }

    /// What httpbin's `/get` and `/cache/N` echo back: the query.
    struct Arguments: Decodable, Sendable {
        let args: [String: Echo.OneOrMany]
    }

    private static let echo = WebServiceCall<Arguments>(relativePath: "get?n=%%0%%")
    /// Cached by the client for 60 s: repeated `n` values are cache hits.
    private static let cached = WebServiceCall<Arguments>(relativePath: "cache/60?n=%%0%%")

    func testCallsFromEightThreadsAndEightTasksEachEndOnceWithTheirOwnOutcome() async throws {
        let root = try HTTPBin.url()
        let environment = ProcessInfo.processInfo.environment
        let total = environment["WEBSERVICEKIT_STRESS_CALLS"].flatMap { Int($0) } ?? 10_000
        let seed = environment["WEBSERVICEKIT_STRESS_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
        print("ConcurrencyStressTests: \(total) calls, seed \(seed) (WEBSERVICEKIT_STRESS_SEED=\(seed) replays it)")
        let started = Date()

        let client = WebServiceClient(serviceRoot: root)
        client.cache = HTTPCache()
        var random = SplitMix64(seed: seed)
        // Half the calls go through callbacks from threads, half through async from tasks; every
        // 10th call asks for a cacheable URL whose `n` repeats, so later ones are cache hits.
        let plans = (0..<total).map { id -> CallPlan in
            let threaded = id % 2 == 0
            let roll = Int.random(in: 0..<100, using: &random)
            let plan: Plan
            switch roll {
            case 0..<55: plan = .untouched
            case 55..<65: plan = .beforeStart
            case 65..<77: plan = .concurrently
            case 77..<90: plan = .afterDelay
            default: plan = threaded ? .afterCompletion : .untouched
            }
            let delay = Int.random(in: 0...3_000, using: &random)
            return CallPlan(
                id: id, threaded: threaded, cached: id % 10 == 3, plan: plan, delayMicroseconds: delay)
        }
        let ledger = Ledger(count: total)
        let threadCalls = plans.filter(\.threaded)
        let taskCalls = plans.filter { !$0.threaded }

        let threadsDone = DispatchGroup()
        let lateCancellations = LateCancellations()
        for lane in 0..<Self.lanes {
            let mine = threadCalls.enumerated().filter { $0.offset % Self.lanes == lane }.map(\.element)
            threadsDone.enter()
            let thread = Thread {
                Self.runCallbacks(mine, client: client, ledger: ledger, late: lateCancellations)
                threadsDone.leave()
            }
            thread.name = "stress-\(lane)"
            thread.start()
        }
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<Self.lanes {
                let mine = taskCalls.enumerated().filter { $0.offset % Self.lanes == lane }.map(\.element)
                group.addTask { await Self.runAsync(mine, client: client, ledger: ledger) }
            }
        }
        let threadsFinished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // A safety net, not a measurement: a lost callback would otherwise hang the run.
                continuation.resume(returning: threadsDone.wait(timeout: .now() + 600) == .success)
            }
        }
        XCTAssertTrue(threadsFinished, "the threads' calls did not all call back")

        // Cancelling a call whose callback already ran must not deliver a second one.
        lateCancellations.cancelAll()
        // Late duplicates: let anything still queued run, then look again.
        try await Task.sleep(nanoseconds: 500_000_000)
        client.callbackQueue.sync {}

        let report = ledger.check(plans)
        for problem in report.problems.prefix(20) { XCTFail("seed \(seed): \(problem)") }
        if report.problems.count > 20 { XCTFail("seed \(seed): \(report.problems.count - 20) more problems") }
        XCTAssertEqual(report.echoed + report.cancelled, total, "every call ended with its response or a cancellation")
        print(
            "ConcurrencyStressTests: \(report.echoed) echoed, \(report.cancelled) cancelled, "
                + "\(lateCancellations.count) cancelled after their callback, "
                + String(format: "%.1f s", Date().timeIntervalSince(started)))
    }

    /// Threads and tasks; each thread keeps up to 4 calls in flight, each task one: enough to
    /// overlap, few enough that no call waits behind thousands of others for a connection.
    private static let lanes = 8
    private static let inFlightPerThread = 4

    private static func call(for plan: CallPlan) -> WebServiceCall<Arguments> { plan.cached ? cached : echo }

    /// The `n` a call's echo must carry.
    private static func expectedArgument(for plan: CallPlan) -> String {
        plan.cached ? "c\(plan.id % 16)" : "\(plan.id)"
    }

    private static func runCallbacks(
        _ plans: [CallPlan], client: WebServiceClient, ledger: Ledger, late: LateCancellations
    ) {
        let slots = DispatchSemaphore(value: inFlightPerThread)
        for plan in plans {
            // A safety net: a call that never calls back frees its slot after 120 s, and the
            // ledger reports it.
            _ = slots.wait(timeout: .now() + 120)
            let reason = "stress \(plan.id)"
            let task = client.perform(
                call(for: plan), [expectedArgument(for: plan)],
                completion: { result in
                    switch result {
                    case .success(let response):
                        ledger.record(plan.id, .echoed(response.value.args["n"].map(describe) ?? "none"))
                    case .failure(let error):
                        if case .cancelled(let reason) = error.reason {
                            ledger.record(plan.id, .cancelled(reason: reason))
                        } else {
                            ledger.record(plan.id, .failed("\(error)"))
                        }
                    }
                    slots.signal()
                })
            switch plan.plan {
            case .untouched: break
            case .beforeStart: task.cancel(reason: reason)
            case .concurrently: DispatchQueue.global().async { task.cancel(reason: reason) }
            case .afterDelay:
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(plan.delayMicroseconds)) {
                    task.cancel(reason: reason)
                }
            case .afterCompletion: late.add(task, reason: reason)
            }
        }
        for _ in 0..<inFlightPerThread { _ = slots.wait(timeout: .now() + 120) }
        // Back to its initial value: libdispatch traps when a semaphore that is below it is freed,
        // and the tasks kept for late cancellation hold this one through their callbacks.
        for _ in 0..<inFlightPerThread { slots.signal() }
    }

    private static func runAsync(_ plans: [CallPlan], client: WebServiceClient, ledger: Ledger) async {
        for plan in plans {
            let call = call(for: plan)
            let argument = expectedArgument(for: plan)
            let work = Task {
                if plan.plan == .beforeStart { withUnsafeCurrentTask { $0?.cancel() } }
                do throws(WebServiceError) {
                    let echo = try await client.perform(call, [argument])
                    ledger.record(plan.id, .echoed(echo.args["n"].map(describe) ?? "none"))
                } catch {
                    if case .cancelled(let reason) = error.reason {
                        ledger.record(plan.id, .cancelled(reason: reason))
                    } else {
                        ledger.record(plan.id, .failed("\(error)"))
                    }
                }
            }
            switch plan.plan {
            case .untouched, .beforeStart, .afterCompletion: break
            case .concurrently: work.cancel()
            case .afterDelay:
                try? await Task.sleep(nanoseconds: UInt64(plan.delayMicroseconds) * 1_000)
                work.cancel()
            }
            await work.value
        }
    }

    private static func describe(_ value: Echo.OneOrMany) -> String {
        switch value {
        case .one(let text): return text
        case .many(let texts): return texts.joined(separator: ",")
        }
    }

    struct CallPlan: Sendable {
        let id: Int
        let threaded: Bool
        let cached: Bool
        let plan: Plan
        let delayMicroseconds: Int
    }

    /// Every outcome of every call, counted, under a lock.
    final class Ledger: @unchecked Sendable {  // every field is guarded by `lock`
        private let lock = NSLock()
        private var outcomes: [[Outcome]]

        init(count: Int) { outcomes = Array(repeating: [], count: count) }

        func record(_ id: Int, _ outcome: Outcome) {
            lock.lock()
            defer { lock.unlock() }
            outcomes[id].append(outcome)
        }

        /// Every call ended exactly once; a success carries the call's own `n`; a cancellation
        /// came only to a call that was cancelled before its outcome, with its own reason; no
        /// call failed otherwise.
        func check(_ plans: [CallPlan]) -> (problems: [String], echoed: Int, cancelled: Int) {
            lock.lock()
            defer { lock.unlock() }
            var problems: [String] = []
            var echoed = 0
            var cancelled = 0
            for plan in plans {
                let ends = outcomes[plan.id]
                guard ends.count == 1, let end = ends.first else {
                    problems.append("call \(plan.id) (\(plan.plan)) ended \(ends.count) times: \(ends)")
                    continue
                }
                switch end {
                case .echoed(let n):
                    echoed += 1
                    if n != expectedArgument(for: plan) {
                        problems.append("call \(plan.id) got the response for n=\(n)")
                    }
                    if plan.plan == .beforeStart, !plan.threaded {
                        problems.append("call \(plan.id) ran although its task was cancelled before it started")
                    }
                case .cancelled(let reason):
                    cancelled += 1
                    if plan.plan == .untouched || plan.plan == .afterCompletion {
                        problems.append("call \(plan.id) (\(plan.plan)) reported a cancellation")
                    } else if plan.threaded, reason != "stress \(plan.id)" {
                        problems.append("call \(plan.id) got the cancellation reason \(reason ?? "nil")")
                    }
                case .failed(let error):
                    problems.append("call \(plan.id) (\(plan.plan)) failed: \(error)")
                }
            }
            return (problems, echoed, cancelled)
        }
    }

    /// Tasks to cancel once their callbacks ran.
    final class LateCancellations: @unchecked Sendable {  // every field is guarded by `lock`
        private let lock = NSLock()
        private var tasks: [(WebServiceTask, String)] = []

        func add(_ task: WebServiceTask, reason: String) {
            lock.lock()
            defer { lock.unlock() }
            tasks.append((task, reason))
        }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return tasks.count
        }

        func cancelAll() {
            lock.lock()
            let tasks = self.tasks
            lock.unlock()
            DispatchQueue.concurrentPerform(iterations: tasks.count) { tasks[$0].0.cancel(reason: tasks[$0].1) }
        }
    }
}

/// A small seeded generator (SplitMix64), so that a run's random choices can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
