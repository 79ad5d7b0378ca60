import Dispatch
import Foundation
import WebServiceKit

// The scaling measure's process runner and its reader of the server's counts.

extension ScalingBenchmark {
    /// What a sampled child printed, and the most threads and descriptors it was seen with.
    struct SampledRun {
        let output: String
        let peakThreads: Int
        let peakDescriptors: Int
        /// The threads' names (`/proc/PID/task/TID/comm`) when the most were seen, counted by name.
        let peakThreadNames: String
    }

    enum SampledResult {
        case success(SampledRun)
        /// Why there are no figures: it could not start, crashed, failed or timed out.
        case failure(String)
    }

    /// Runs `argv` (its first word an absolute path) with its standard output in a pipe, counts
    /// `/proc/PID/task` and `/proc/PID/fd` every ``sampleMilliseconds`` until it prints its result, and kills
    /// it (SIGKILL) after `timeout` seconds. Its standard error goes where this process's goes.
    static func runSampled(_ argv: [String], timeout: Double) -> SampledResult {
        #if os(Linux)
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else { return .failure("FAILED: pipe, errno \(errno)") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
            let words: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
            defer { words.forEach { free($0) } }
            fflush(nil)
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, argv[0], &actions, nil, words, environ)
            close(pipeEnds[1])
            guard spawned == 0 else {
                close(pipeEnds[0])
                return .failure("FAILED: could not start \(argv[0]): \(String(cString: strerror(spawned)))")
            }
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
            var output = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            var readable = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            var killed = false
            var peakThreads = 0
            var peakDescriptors = 0
            var peakThreadNames = ""
            reading: while true {
                // Sampled until the child prints its result, which it does once its calls are
                // done: what its exit starts (releasing its client) is not the calls' cost.
                if output.isEmpty {
                    let threads = countEntries(of: "/proc/\(pid)/task")
                    if threads > peakThreads {
                        peakThreads = threads
                        peakThreadNames = threadNames(of: pid)
                    }
                    peakDescriptors = max(peakDescriptors, countEntries(of: "/proc/\(pid)/fd"))
                }
                if DispatchTime.now().uptimeNanoseconds > deadline {
                    kill(pid, SIGKILL)
                    killed = true
                    break reading
                }
                let ready = poll(&readable, 1, sampleMilliseconds)
                guard ready != 0 else { continue }
                let count = ready > 0 ? read(pipeEnds[0], &buffer, buffer.count) : -1
                switch count {
                case 1...: output.append(contentsOf: buffer[0..<count])
                case 0: break reading
                default: if errno != EINTR { break reading }
                }
            }
            close(pipeEnds[0])
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { return .failure("FAILED: waitpid, errno \(errno)") }
            }
            if killed { return .failure(String(format: "TIMED OUT (killed after %.0f s)", timeout)) }
            let signal = status & 0x7f
            if signal != 0 { return .failure("CRASHED (signal \(signal))") }
            let exitCode = (status >> 8) & 0xff
            let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard exitCode == 0 else {
                return .failure("FAILED: the child exited with \(exitCode); see its message above")
            }
            return .success(
                SampledRun(
                    output: text, peakThreads: peakThreads, peakDescriptors: peakDescriptors,
                    peakThreadNames: peakThreadNames))
        #else
            return .failure("FAILED: the scaling measure runs on Linux only (/proc, posix_spawn)")
        #endif
    }

    /// The names of the threads of process `pid`, counted by name: `wsk-loop-0, 2 × swift-task`.
    static func threadNames(of pid: pid_t) -> String {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return "" }
        var counts: [String: Int] = [:]
        for task in tasks {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/task/\(task)/comm") else { continue }
            let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            counts[name, default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { $0.value == 1 ? $0.key : "\($0.value) × \($0.key)" }
            .joined(separator: ", ")
    }

    /// The server's counts (`/stats`).
    struct ServerStats: Decodable, Sendable {
        /// Connections accepted since the server started, and the most open at once since the
        /// previous read.
        let accepted: Int
        let peak: Int
    }

    /// Reads `/stats` with this library, on a connection the server leaves out of its counts.
    struct StatsReader {
        let client: WebServiceClient

        init(root: URL) { client = WebServiceClient(serviceRoot: root) }

        /// The counts, or `nil` (and a message) when the server did not answer.
        func read() -> ServerStats? {
            let client = self.client
            do {
                return try waitFor { try await client.perform(WebServiceCall<ServerStats>(relativePath: "stats")) }
            } catch {
                print("scaling: the server's /stats failed: \(error)")
                return nil
            }
        }
    }
}
