import Dispatch
import Foundation
import WebServiceKit
import WebServiceKitChaos

/// The chaos soak's long form (Docs/Reliability.md, "The chaos soak"): rounds of calls of every
/// kind against the chaos server (Tests/Servers/chaos_server.py) at each concurrency, retries off
/// and on; per round the invariants' violations, the inherent races, and what the calls' process
/// holds after it (resident size, descriptors, threads). The goals: no violation; the resident
/// size after each round within 4 MiB of the second round's.
///
/// The calls run in a child process of their own (`--chaos-child`), one client for all its
/// rounds, which writes each outcome to a file as it ends and keeps none: its resident size is
/// the library's and the calls' loop, not the checks'. This process reads each round's file and
/// the server's records and judges them.
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
        guard let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_CHAOS_URL"], let server = URL(string: text),
            let executable = Bundle.main.executablePath
        else {
            print("chaos soak: WEBSERVICEKIT_CHAOS_URL is not set (Scripts/bench --only chaos starts the server)")
            return
        }
        let concurrencies = (option("--chaos-c") ?? "64,256,1024").split(separator: ",").compactMap { Int($0) }
        let calls = option("--chaos-calls").flatMap(Int.init) ?? 50_000
        let rounds = option("--chaos-rounds").flatMap(Int.init) ?? 3
        let retrySettings = (option("--chaos-retries") ?? "off,on").split(separator: ",").map { $0 == "on" }
        print("chaos soak: \(calls) calls a round, \(rounds) rounds per cell, every kind of call; server \(server)")
        for concurrency in concurrencies {
            for retries in retrySettings {
                let soak = ChaosSoak(server: server, calls: calls, concurrency: concurrency, retries: retries)
                cell(soak, rounds: rounds, executable: executable)
            }
        }
    }

    /// One cell: the child's rounds, each judged here as the child reports it.
    private static func cell(_ soak: ChaosSoak, rounds: Int, executable: String) {
        let label = "C = \(soak.concurrency), retries \(soak.retries ? "on" : "off")"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = "bench\(UInt32.random(in: 0...UInt32.max))c\(soak.concurrency)\(soak.retries ? "r" : "n")"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = [
            "--chaos-child", soak.server.absoluteString, "\(soak.concurrency)", soak.retries ? "on" : "off",
            "\(soak.calls)", "\(rounds)", run, directory.path,
        ]
        let pipe = Pipe()
        child.standardOutput = pipe
        do { try child.run() } catch {
            print("  \(label): the child did not start: \(error)")
            return
        }
        var resident: [Int] = []
        var pending = Data()
        while true {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            pending += data
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard let figures = RoundFigures(line) else { continue }
                resident.append(figures.resident)
                report(figures, of: soak, run: run, directory: directory, label: label)
            }
        }
        child.waitUntilExit()
        if child.terminationStatus != 0 { print("  \(label): the child ended with status \(child.terminationStatus)") }
        if resident.count > 2 {
            let second = resident[1]
            let drift = resident.dropFirst(2).map { abs($0 - second) }.max() ?? 0
            print(
                "  \(label): the calls' process, resident after each round "
                    + "\(resident.map { String(format: "%.1f", Double($0) / 1_048_576) }.joined(separator: ", ")) MiB; "
                    + "the largest drift from the second round's \(drift >> 10) KiB "
                    + "(goal: at most \(memoryGoal >> 10) KiB) \(drift <= memoryGoal ? "met" : "MISSED")")
        }
    }

    /// Judges a round the child reported and prints it.
    private static func report(_ figures: RoundFigures, of soak: ChaosSoak, run: String, directory: URL, label: String)
    {
        let file = directory.appendingPathComponent("round-\(figures.round).jsonl")
        let outcomes = ((try? Data(contentsOf: file)) ?? Data()).split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONDecoder().decode(ChaosOutcome.self, from: Data($0))
        }
        try? FileManager.default.removeItem(at: file)
        let done = DispatchSemaphore(value: 0)
        let verdict = Locked<Result<ChaosReport, any Error>?>(nil)
        Task {
            let result: Result<ChaosReport, any Error>
            do { result = .success(try await soak.judge(outcomes, run: "\(run)x\(figures.round)")) } catch {
                result = .failure(error)
            }
            verdict.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        print(
            "  \(label), round \(figures.round): "
                + String(format: "%.0f calls/s, ", Double(soak.calls) / figures.seconds)
                + "the calls' process: resident \(String(format: "%.1f", Double(figures.resident) / 1_048_576)) MiB, "
                + "\(figures.descriptors) descriptors, \(figures.threads) threads")
        switch verdict.current {
        case .success(let report)?: print("    " + report.description.replacingOccurrences(of: "\n", with: "\n    "))
        case .failure(let error)?: print("    not judged: \(error)")
        case nil: break
        }
        fflush(nil)
    }

    /// What the child prints after each round: `round K SECONDS RESIDENT DESCRIPTORS THREADS`.
    private struct RoundFigures {
        var round: Int
        var seconds: Double
        var resident: Int
        var descriptors: Int
        var threads: Int

        init?(_ line: String) {
            let fields = line.split(separator: " ")
            guard fields.count == 6, fields[0] == "round", let round = Int(fields[1]),
                let seconds = Double(fields[2]), let resident = Int(fields[3]), let descriptors = Int(fields[4]),
                let threads = Int(fields[5])
            else { return nil }
            (self.round, self.seconds, self.resident, self.descriptors, self.threads) =
                (round, seconds, resident, descriptors, threads)
        }
    }

    /// `--chaos-child ROOT C on|off CALLS ROUNDS RUN DIRECTORY`: the calls of every round on one
    /// client, each outcome written to DIRECTORY/round-K.jsonl as it ends, and after each round
    /// `round K SECONDS RESIDENT DESCRIPTORS THREADS` on standard output.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard let index = arguments.firstIndex(of: "--chaos-child") else { return nil }
        let values = Array(arguments.dropFirst(index + 1))
        guard values.count == 7, let server = URL(string: values[0]), let concurrency = Int(values[1]),
            let calls = Int(values[3]), let rounds = Int(values[4])
        else { return 2 }
        let soak = ChaosSoak(server: server, calls: calls, concurrency: concurrency, retries: values[2] == "on")
        let (run, directory) = (values[5], URL(fileURLWithPath: values[6]))
        let done = DispatchSemaphore(value: 0)
        Task {
            let client = soak.makeClient()
            for round in 1...max(1, rounds) {
                let file = directory.appendingPathComponent("round-\(round).jsonl")
                guard FileManager.default.createFile(atPath: file.path, contents: nil),
                    let handle = try? FileHandle(forWritingTo: file)
                else { break }
                let writer = Locked(handle)
                let start = DispatchTime.now().uptimeNanoseconds
                await soak.perform("\(run)x\(round)", on: client) { outcome in
                    guard var line = try? JSONEncoder().encode(outcome) else { return }
                    line.append(UInt8(ascii: "\n"))
                    writer.withLock { $0.write(line) }
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                try? handle.close()
                print(
                    "round \(round) \(seconds) \(ProcessFootprint.residentBytes() ?? 0) "
                        + "\(ProcessFootprint.descriptors ?? 0) \(ProcessFootprint.threads ?? 0)")
                fflush(nil)
            }
            done.signal()
        }
        done.wait()
        return 0
    }
}
