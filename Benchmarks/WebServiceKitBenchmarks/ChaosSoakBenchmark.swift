import Foundation
import WebServiceKit
import WebServiceKitChaos

/// The chaos soak's long form (Docs/Reliability.md, "The chaos soak"): rounds of calls of every
/// kind against the chaos server (Tests/Servers/chaos_server.py) at each concurrency, retries off
/// and on; per round the invariants' violations, the inherent races, and what the process holds
/// after it (resident size, descriptors, threads). The goals: no violation; the resident size
/// after each round within 4 MiB of the second round's.
///
/// `--chaos-c N,…` (64,256,1024), `--chaos-calls N` per round (50,000), `--chaos-rounds N` (3) and
/// `--chaos-retries off,on` choose the table's cells; WEBSERVICEKIT_CHAOS_URL names the server
/// (Scripts/bench starts one).
enum ChaosSoakBenchmark {
    static let memoryGoal = 4 << 20

    static func option(_ name: String) -> String? {
        CommandLine.arguments.firstIndex(of: name).flatMap {
            $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
        }
    }

    static func run() {
        guard let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_CHAOS_URL"], let server = URL(string: text)
        else {
            print("chaos soak: WEBSERVICEKIT_CHAOS_URL is not set (Scripts/bench --only chaos starts the server)")
            return
        }
        let concurrencies = (option("--chaos-c") ?? "64,256,1024").split(separator: ",").compactMap { Int($0) }
        let calls = option("--chaos-calls").flatMap(Int.init) ?? 50_000
        let rounds = option("--chaos-rounds").flatMap(Int.init) ?? 3
        let retrySettings = (option("--chaos-retries") ?? "off,on").split(separator: ",").map { $0 == "on" }
        print("chaos soak: \(calls) calls a round, \(rounds) rounds per cell, every kind of call; server \(server)")
        let done = DispatchSemaphore(value: 0)
        Task {
            defer { done.signal() }
            do {
                for concurrency in concurrencies {
                    for retries in retrySettings {
                        try await cell(server, concurrency: concurrency, retries: retries, calls: calls, rounds: rounds)
                    }
                }
            } catch {
                print("chaos soak failed: \(error)")
            }
        }
        done.wait()
    }

    private static func cell(_ server: URL, concurrency: Int, retries: Bool, calls: Int, rounds: Int) async throws {
        let soak = ChaosSoak(server: server, calls: calls, concurrency: concurrency, retries: retries)
        let client = soak.makeClient()
        let run = "bench\(UInt32.random(in: 0...UInt32.max))c\(concurrency)\(retries ? "r" : "n")"
        var resident: [Int] = []
        for round in 1...rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            let report = try await soak.run("\(run)x\(round)", on: client)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let bytes = ProcessFootprint.residentBytes() ?? 0
            resident.append(bytes)
            print(
                "  C = \(concurrency), retries \(retries ? "on" : "off"), round \(round): "
                    + String(format: "%.0f calls/s, ", Double(calls) / seconds)
                    + "resident \((report.residentAfterCalls ?? 0) >> 20) MiB after the calls, \(bytes >> 20) MiB after "
                    + "the check, \(ProcessFootprint.descriptors ?? -1) descriptors, "
                    + "\(ProcessFootprint.threads ?? -1) threads")
            print("    " + report.description.replacingOccurrences(of: "\n", with: "\n    "))
            // Each round as it ends, also into a file or a pipe.
            fflush(nil)
        }
        if resident.count > 2 {
            let second = resident[1]
            let drift = resident.dropFirst(2).map { abs($0 - second) }.max() ?? 0
            print(
                "  C = \(concurrency), retries \(retries ? "on" : "off"): resident after each round "
                    + "\(resident.map { "\($0 >> 20)" }.joined(separator: ", ")) MiB; the largest drift from the "
                    + "second round's \(drift >> 10) KiB (goal: at most \(memoryGoal >> 10) KiB) "
                    + (drift <= memoryGoal ? "met" : "MISSED"))
        }
    }
}
