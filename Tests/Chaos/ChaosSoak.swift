import Dispatch
import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chaos soak: many calls through the library's public API against a server that misbehaves
/// at random (`Tests/Servers/chaos_server.py`), each checked against the server's records
/// (``ChaosVerdict``). `ChaosSoakTests` runs a short form; `webservice-bench --only chaos` the
/// long one (Docs/Reliability.md).
public struct ChaosSoak: Sendable {
    /// The chaos server's root, `http://127.0.0.1:PORT/`.
    public var server: URL
    /// Calls in the round, and how many run at once (each in a task of its own lane).
    public var calls: Int
    public var concurrency: Int
    /// Whether the client retries (three attempts, short waits) or not at all.
    public var retries: Bool
    /// The calls' timeout: it ends the server's stalls, and bounds nothing else.
    public var timeout: TimeInterval = 10
    /// A call running this long is cancelled and counted as a hang.
    public var hangLimit: TimeInterval = 120
    /// A mode of the server's that breaks the soak on purpose (`early-extra`, `forget`,
    /// `miscount`: see the server), for the tests that show the checks can fail.
    public var breaking: String? = nil
    /// The kinds of call, each as often as it is listed.
    public var mix: [ChaosKind] = [
        .get, .get, .get, .head, .post, .post, .post, .postIdempotent, .postIdempotent, .sse, .sse,
    ]

    public init(server: URL, calls: Int, concurrency: Int, retries: Bool) {
        self.server = server
        self.calls = calls
        self.concurrency = concurrency
        self.retries = retries
    }

    /// A client as a user would make one for this load: a connection per call in flight.
    public func makeClient() -> WebServiceClient {
        let transport = RoutingTransport(connectionLimits: .init(perOrigin: concurrency))
        let client = WebServiceClient(serviceRoot: server, transport: transport)
        client.retryPolicy = retries ? RetryPolicy(maximumAttempts: 3, baseDelay: 0.005, maximumDelay: 0.05) : .never
        return client
    }

    /// Runs one round on `client` under the run name `run` (the nonces' prefix, unique per round
    /// on one server) and judges it.
    public func run(_ run: String, on client: WebServiceClient) async throws -> ChaosReport {
        let outcomes = Locked<[ChaosOutcome]>([])
        await perform(run, on: client) { outcome in outcomes.withLock { $0.append(outcome) } }
        return try await judge(outcomes.current, run: run)
    }

    /// Judges the outcomes of round `run` against the server's records of it.
    public func judge(_ outcomes: [ChaosOutcome], run: String) async throws -> ChaosReport {
        ChaosVerdict.judge(outcomes, log: try await ChaosServerLog(lines: records(of: run)))
    }

    /// Makes the calls of round `run` on `client` and hands each outcome to `each` as it ends
    /// (from the lanes' tasks, at once): what keeps them decides what the round holds.
    public func perform(_ run: String, on client: WebServiceClient, each: @escaping @Sendable (ChaosOutcome) -> Void)
        async
    {
        let next = Counter()
        let watchdog = Watchdog(limit: hangLimit, lanes: concurrency)
        let soak = self
        let calls = ChaosCalls(timeout: timeout, breaking: breaking)
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<concurrency {
                group.addTask {
                    while let index = next.take(below: soak.calls) {
                        let kind = soak.mix[(index &* 7_919) % soak.mix.count]
                        let nonce = "\(run)-\(index)"
                        let call = Task {
                            await calls.perform(kind, nonce: nonce, pad: index % 2_000, on: client)
                        }
                        watchdog.watch(lane: lane) { call.cancel() }
                        var result = await call.value
                        if watchdog.done(lane: lane) { result = .failed(.hung, echo: nil) }
                        each(ChaosOutcome(nonce: nonce, kind: kind, result: result))
                        // A pause after one call in four, as a user's code would make: the
                        // connection waits in the pool meanwhile, where a late extra response
                        // or the server's close finds it idle.
                        if index % 4 == 3 {
                            try? await Task.sleep(nanoseconds: UInt64(1 + index % 10) * 1_000_000)
                        }
                    }
                    watchdog.laneEnded()
                }
            }
            group.addTask { await watchdog.run() }
        }
    }

    /// The server's records of `run`.
    private func records(of run: String) async throws -> Data {
        let log = WebServiceCall<Data>(relativePath: "_log?run=%%0%%", timeout: 60)
        return try await WebServiceClient(serviceRoot: server).perform(log, run)
    }
}

/// The next call's index, shared by the lanes.
private final class Counter: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var next = 0

    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard next < limit else { return nil }
            defer { next += 1 }
            return next
        }
    }
}

/// Cancels a lane's call once it has run for the limit: a hang ends the round with a count,
/// not a test that never returns.
private final class Watchdog: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private let limit: UInt64
    private var running: [Int: (start: UInt64, cancel: @Sendable () -> Void)] = [:]
    private var hung: Set<Int> = []
    private var lanesLeft: Int

    init(limit: TimeInterval, lanes: Int) {
        self.limit = UInt64(limit * 1e9)
        lanesLeft = lanes
    }

    /// A lane has no call left to make.
    func laneEnded() { lock.withLock { lanesLeft -= 1 } }

    func watch(lane: Int, cancel: @escaping @Sendable () -> Void) {
        lock.withLock { running[lane] = (DispatchTime.now().uptimeNanoseconds, cancel) }
    }

    /// Ends the lane's call; whether the watchdog had cancelled it.
    func done(lane: Int) -> Bool {
        lock.withLock {
            running[lane] = nil
            return hung.remove(lane) != nil
        }
    }

    /// Looks at the running calls every half second until every lane ended.
    func run() async {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (overdue, ended) = lock.withLock { () -> ([@Sendable () -> Void], Bool) in
                var overdue: [@Sendable () -> Void] = []
                for (lane, call) in running where now > call.start && now - call.start > limit && !hung.contains(lane) {
                    hung.insert(lane)
                    overdue.append(call.cancel)
                }
                return (overdue, lanesLeft == 0)
            }
            for cancel in overdue { cancel() }
            if ended { return }
            try? await Task.sleep(nanoseconds: 500_000_000)
        }
    }
}
