import Dispatch
import Foundation
import WebServiceKit

/// The scaling measure (issue 21): how calls/s, CPU per call, threads, descriptors and memory
/// grow with the number of concurrent calls against a loopback server that answers each small
/// GET after a fixed delay (500 ms by default, `--scaling-delay 50` for 50 ms).
///
/// For C = 1, 4, 16, 64, 256, 1,024 and 4,096 (the last when the hard descriptor limit allows
/// ``descriptorLimit``), each client runs in a child process of its own: C tasks each make
/// ``callsPerTask`` sequential calls (`--scaling-calls N` for another number: over TLS, where each
/// of C new connections begins with a full handshake, more calls per task show the steady state).
/// The clients, in this order at each C:
/// - the reference: `Benchmarks/scaling_server.py client`, one Python asyncio process with a
///   connection per task. It shows what the server itself sustains at that C;
/// - this library with its per-origin cap raised to C (a ``RoutingTransport`` whose
///   `HTTP1Transport.ConnectionLimits` say C per origin; the total cap its default, 6,144 under
///   `ulimit -n 8192`), async calls;
/// - raw `URLSession` with its per-host limit raised to C, `data(for:)` and the same decoding;
/// - this library's default client (per-origin cap 6), only where its predicted time
///   (4·C/6 answers one after another on each of 6 connections) fits ``defaultClientBudget``;
/// - POSTs of the small-call measure's 1 KB JSON body, by this library with its cap at C and by
///   raw `URLSession` with its limit at C, each encoding the body per call (issue 33: POSTs at
///   90 % of ideal at C = 1,024).
///
/// Each child sets its soft `RLIMIT_NOFILE` to 8,192 (at most the hard limit), so every row runs
/// under `ulimit -n 8192`. This process samples the child's `/proc/PID/task` and `/proc/PID/fd`
/// every ``sampleMilliseconds`` for the peaks (no sampling thread in the child); the child
/// reports its own counts before its first call, its CPU time around the calls and its peak RSS
/// (`VmHWM`). The server reports the connections each child opened and the most it held open at
/// once (`/stats`, asked before and after each child).
///
/// It prints a row per (C, client) and then the issue's goals with met or MISSED; it checks
/// nothing else and asserts no time. `Scripts/bench --only scaling` starts the server and sets
/// ``rootVariable`` and ``scriptVariable``.
enum ScalingBenchmark {
    static let childFlag = "--scaling-once"
    /// `--scaling-delay MS`: the server's delay (500 by default).
    static let delayFlag = "--scaling-delay"
    /// `--scaling-c N,…`: the concurrencies to run (every one of ``concurrencies`` by default).
    static let concurrencyFlag = "--scaling-c"
    /// The server's root, `http://127.0.0.1:PORT/`.
    static let rootVariable = "WEBSERVICEKIT_BENCH_SCALING_URL"
    /// The path of `Benchmarks/scaling_server.py`, whose `client` mode is the reference client.
    static let scriptVariable = "WEBSERVICEKIT_BENCH_SCALING_SCRIPT"
    static let callsPerTask = 4
    /// `--scaling-calls N`: the calls each task makes (``callsPerTask`` by default).
    static let callsFlag = "--scaling-calls"
    static let concurrencies = [1, 4, 16, 64, 256, 1_024, 4_096]
    static let defaultDelay = 500
    /// Every child's soft descriptor limit: the issue's `ulimit -n 8192`.
    static let descriptorLimit = 8_192
    /// Seconds: a default-client point predicted to take longer is skipped.
    static let defaultClientBudget = 30.0
    /// Seconds: a child still running then is killed and its row reported as timed out.
    static let childTimeout = 240.0
    static let sampleMilliseconds: Int32 = 20
    /// The goals (issue 21).
    static let idealFraction = 0.9
    static let largestJudgedConcurrency = 1_024
    static let extraThreadsGoal = 4
    /// Descriptors beyond one per open connection that a row may hold.
    static let descriptorConstant = 16

    /// The clients, by the name a child is given.
    enum Client: String, CaseIterable, Sendable {
        case reference
        case libraryRaised = "library-cap-c"
        case urlSession = "urlsession"
        case library
        /// POSTs of the small-call measure's 1 KB JSON body (issue 33's goal for POSTs).
        case libraryPostRaised = "library-post-cap-c"
        case urlSessionPost = "urlsession-post"

        var label: String {
            switch self {
            case .reference: return "reference (Python asyncio, 1 process)"
            case .libraryRaised: return "this library, per-origin cap C"
            case .urlSession: return "raw URLSession, per-host limit C"
            case .library: return "this library, default client (cap 6)"
            case .libraryPostRaised: return "this library, POST of 1 KB JSON, per-origin cap C"
            case .urlSessionPost: return "raw URLSession, POST of 1 KB JSON, per-host limit C"
            }
        }
    }

    /// What one child measured.
    struct Row {
        let concurrency: Int
        let client: Client
        var calls = 0
        var succeeded = 0
        var cpuSeconds = 0.0
        var wallSeconds = 0.0
        var threadsBefore = 0
        var threadsPeak = 0
        var threadNames = ""
        var descriptorsBefore = 0
        var descriptorsPeak = 0
        var rssKiB = 0
        var descriptorLimit = 0
        var failures = "-"
        var connectionsOpened = 0
        var connectionsPeak = 0
        /// Why there are no figures: skipped, timed out, crashed, failed.
        var problem: String?

        var callsPerSecond: Double { wallSeconds > 0 ? Double(succeeded) / wallSeconds : 0 }
        var failed: Int { calls - succeeded }
    }

    static func run(arguments: [String] = CommandLine.arguments) {
        let environment = ProcessInfo.processInfo.environment
        guard let rootText = environment[rootVariable], let root = URL(string: rootText),
            let script = environment[scriptVariable]
        else {
            print(
                "scaling: skipped, \(rootVariable) and \(scriptVariable) are not set (Scripts/bench starts the server)")
            return
        }
        guard let executable = Bundle.main.executablePath else {
            print("scaling: skipped, the path of this executable is unknown")
            return
        }
        var delay = defaultDelay
        if let index = arguments.firstIndex(of: delayFlag), index + 1 < arguments.count,
            let value = Int(arguments[index + 1]),
            value > 0
        {
            delay = value
        }
        var list = concurrencies
        if let index = arguments.firstIndex(of: concurrencyFlag), index + 1 < arguments.count {
            list = arguments[index + 1].split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        }
        var callsPerTask = callsPerTask
        if let index = arguments.firstIndex(of: callsFlag), index + 1 < arguments.count,
            let value = Int(arguments[index + 1]), value > 0
        {
            callsPerTask = value
        }
        let hard = hardDescriptorLimit()
        let seconds = Double(delay) / 1000
        print(
            "scaling: \(delay) ms server delay, \(callsPerTask) sequential calls per task, a child per (client, C);"
                + " soft descriptor limit \(descriptorLimit) in each child (hard limit \(hard < 0 ? "unknown" : grouped(hard)));"
                + " \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print(
            "| C | client | calls/s (ideal) | of ideal | CPU us/call | threads before → peak |"
                + " descriptors before → peak | connections opened, most open | peak RSS MiB | failures |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        fflush(nil)
        let stats = StatsReader(root: root)
        var rows: [Row] = []
        for concurrency in list {
            // A child holds a descriptor per connection and a few more.
            if concurrency + 64 > min(hard, descriptorLimit) {
                print(
                    "| \(grouped(concurrency)) | every client | skipped: the hard descriptor limit is \(hard) | | | | | | | |"
                )
                continue
            }
            for client in Client.allCases {
                var row = Row(concurrency: concurrency, client: client)
                let predicted = Double(callsPerTask * concurrency) / 6 * seconds
                if client == .library, concurrency > 6, predicted > defaultClientBudget {
                    row.problem = String(format: "skipped: would take ~%.0f s at 6 connections", predicted)
                } else {
                    let before = stats.read()
                    let argv: [String] =
                        client == .reference
                        ? [
                            "/usr/bin/env", "python3", script, "client",
                            root.appendingPathComponent("delay/\(delay)").absoluteString, String(concurrency),
                            String(callsPerTask),
                        ]
                        : [
                            executable, childFlag, client.rawValue, String(concurrency), String(delay),
                            root.absoluteString, String(callsPerTask),
                        ]
                    measure(argv, into: &row)
                    let after = stats.read()
                    if let before, let after {
                        row.connectionsOpened = after.accepted - before.accepted
                        row.connectionsPeak = after.peak
                    }
                }
                print(tableLine(row, idealPerSecond: Double(concurrency) / seconds))
                fflush(nil)
                rows.append(row)
            }
        }
        printGoals(rows, delay: delay)
    }

    /// Runs `argv` and fills `row` from its line and from the samples of its `/proc` entries.
    static func measure(_ argv: [String], into row: inout Row) {
        switch runSampled(argv, timeout: childTimeout) {
        case .failure(let problem):
            row.problem = problem
        case .success(let run):
            row.threadsPeak = run.peakThreads
            row.threadNames = run.peakThreadNames
            row.descriptorsPeak = run.peakDescriptors
            var fields: [String: String] = [:]
            for pair in run.output.split(whereSeparator: \.isWhitespace) {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            guard let calls = fields["calls"].flatMap({ Int($0) }), let ok = fields["ok"].flatMap({ Int($0) }),
                let cpu = fields["cpu"].flatMap({ Double($0) }), let wall = fields["wall"].flatMap({ Double($0) })
            else {
                row.problem = "FAILED: the child printed \(run.output.isEmpty ? "nothing" : run.output)"
                return
            }
            row.calls = calls
            row.succeeded = ok
            row.cpuSeconds = cpu
            row.wallSeconds = wall
            row.threadsBefore = fields["threads0"].flatMap { Int($0) } ?? 0
            row.descriptorsBefore = fields["fds0"].flatMap { Int($0) } ?? 0
            row.rssKiB = fields["rss"].flatMap { Int($0) } ?? 0
            row.descriptorLimit = fields["nofile"].flatMap { Int($0) } ?? 0
            row.failures = fields["failures"] ?? "-"
        }
    }

    static func tableLine(_ row: Row, idealPerSecond: Double) -> String {
        let head = "| \(grouped(row.concurrency)) | \(row.client.label) |"
        if let problem = row.problem { return head + " \(problem) | | | | | | | |" }
        let cpuPerCall = row.succeeded > 0 ? row.cpuSeconds / Double(row.succeeded) * 1e6 : 0
        let failures = row.failed == 0 ? "0" : "\(row.failed) (\(row.failures))"
        return head
            + " \(grouped(Int(row.callsPerSecond.rounded()))) (\(grouped(Int(idealPerSecond.rounded())))) |"
            + String(format: " %.0f %% |", row.callsPerSecond / idealPerSecond * 100)
            + " \(grouped(Int(cpuPerCall.rounded()))) | \(row.threadsBefore) → \(row.threadsPeak) |"
            + " \(row.descriptorsBefore) → \(grouped(row.descriptorsPeak)) |"
            + " \(grouped(row.connectionsOpened)), \(grouped(row.connectionsPeak)) |"
            + String(format: " %.0f |", Double(row.rssKiB) / 1024) + " \(failures) |"
    }

    // MARK: Goals

    static func printGoals(_ rows: [Row], delay: Int) {
        let loopThreads = ProcessInfo.processInfo.activeProcessorCount
        let seconds = Double(delay) / 1000
        func fraction(_ row: Row) -> Double { row.callsPerSecond / (Double(row.concurrency) / seconds) }
        func measured(_ client: Client) -> [Row] { rows.filter { $0.client == client && $0.problem == nil } }

        // The server: the reference client's share of the ideal at each C.
        let reference = measured(.reference)
        print(
            "scaling, the server (reference client): "
                + reference.map { "C = \(grouped($0.concurrency)): \(String(format: "%.0f %%", fraction($0) * 100))" }
                .joined(separator: ", ") + " of C / delay")

        for client in [Client.libraryRaised, .library, .urlSession, .libraryPostRaised, .urlSessionPost] {
            let judged = measured(client).filter { $0.concurrency <= largestJudgedConcurrency }
            let short = judged.filter { fraction($0) < idealFraction }
            let broken = rows.filter { $0.client == client && $0.problem.map { !$0.hasPrefix("skipped") } ?? false }
            var verdict: String
            if delay != defaultDelay {
                verdict = "not judged (the goal is at \(defaultDelay) ms)"
            } else if judged.isEmpty {
                verdict = "not measured"
            } else {
                // A row skipped for time (the default client's cap of 6) is not a pass.
                let skipped = rows.filter {
                    $0.client == client && $0.concurrency <= largestJudgedConcurrency
                        && ($0.problem?.hasPrefix("skipped") ?? false)
                }
                verdict =
                    !short.isEmpty || !broken.isEmpty
                    ? "MISSED" : skipped.isEmpty ? "met" : "met where measured, not measured at every C"
                if !skipped.isEmpty {
                    verdict += " (skipped at C = \(skipped.map { grouped($0.concurrency) }.joined(separator: ", ")))"
                }
                if !short.isEmpty {
                    verdict +=
                        " (below at C = "
                        + short.map {
                            // The most connections open at once: a client cap below C shows here.
                            "\(grouped($0.concurrency)): \(String(format: "%.0f %%", fraction($0) * 100)),"
                                + " at most \(grouped($0.connectionsPeak)) connections open"
                        }
                        .joined(separator: "; ") + ")"
                }
            }
            let label =
                [.urlSession, .urlSessionPost].contains(client)
                ? "\(client.label) (the baseline, no goal of its own)" : client.label
            print(
                "scaling goal, \(label): calls/s >= \(Int(idealFraction * 100)) % of C / delay for C <= "
                    + "\(grouped(largestJudgedConcurrency)) at \(defaultDelay) ms: \(verdict)")
        }

        for client in [Client.libraryRaised, .library] {
            let judged = measured(client)
            guard !judged.isEmpty else { continue }
            let extra = judged.map { $0.threadsPeak - $0.threadsBefore }
            let worst = extra.max() ?? 0
            print(
                "scaling goal, \(client.label): threads at most loop threads + \(extraThreadsGoal) "
                    + "(peak - before <= \(loopThreads + extraThreadsGoal)) whatever C: added "
                    + zip(judged, extra).map { "\($1) at C = \(grouped($0.concurrency))" }.joined(separator: ", ")
                    + ": \(worst <= loopThreads + extraThreadsGoal ? "met" : "MISSED")")
            if let most = judged.max(by: { $0.threadsPeak < $1.threadsPeak }) {
                print(
                    "scaling, \(client.label): the threads at the most (\(most.threadsPeak), C = "
                        + "\(grouped(most.concurrency))): \(most.threadNames)")
            }
            let beyond = judged.map { ($0.descriptorsPeak - $0.descriptorsBefore) - $0.connectionsPeak }
            print(
                "scaling goal, \(client.label): descriptors one per connection plus a constant "
                    + "(peak - before - most connections open <= \(descriptorConstant)): "
                    + zip(judged, beyond).map {
                        "\($1) at C = \(grouped($0.concurrency)) (\(grouped($0.descriptorsPeak - $0.descriptorsBefore)) for \(grouped($0.connectionsPeak)))"
                    }.joined(separator: ", ")
                    + ": \((beyond.max() ?? 0) <= descriptorConstant ? "met" : "MISSED")")
        }

        let largest = rows.filter { $0.client == .libraryRaised && $0.concurrency == 4_096 }
        var verdict = "not measured (C = 4,096 did not run)"
        if let row = largest.first {
            if let problem = row.problem {
                verdict = "MISSED (\(problem))"
            } else {
                verdict =
                    row.failed == 0 && row.descriptorLimit == descriptorLimit
                    ? "met (soft limit \(row.descriptorLimit))"
                    : row.failed == 0
                        ? "not judged: the soft limit was \(row.descriptorLimit)"
                        : "MISSED (\(row.failed) failed: \(row.failures))"
            }
        }
        print("scaling goal, \(Client.libraryRaised.label): no failures at C = 4,096 under ulimit -n 8192: \(verdict)")
        let failing = rows.filter { $0.problem == nil && $0.failed > 0 }
        if !failing.isEmpty {
            print(
                "scaling: calls FAILED in "
                    + failing.map { "\($0.client.rawValue) at C = \(grouped($0.concurrency)) (\($0.failures))" }
                    .joined(separator: ", ") + "; see the children's messages above")
        }
    }

    static func grouped(_ value: Int) -> String {
        value < 0 ? "-" + SizeScalingBenchmark.grouped(-value) : SizeScalingBenchmark.grouped(value)
    }
}
