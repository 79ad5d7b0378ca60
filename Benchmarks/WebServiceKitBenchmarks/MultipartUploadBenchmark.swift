import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The multipart upload measure: a 1 GiB file part streamed by the library to a loopback nginx
/// that reads the whole body before it answers, against `curl -F` uploading the same file.
/// Goals: peak RSS ≤ 64 MiB, throughput ≥ 0.8× curl.
///
/// Every upload runs in a child process, so that its peak RSS is that of exactly one upload:
/// this executable with `--upload-once URL FILE` for the library, and curl. An identical child
/// that sends a 1-byte part instead of the file is the RSS baseline: Foundation, URLSession and
/// libcurl loaded, nothing streamed. Peak RSS is the kernel's `VmHWM` of the child, read from
/// `/proc/PID/status` while it runs (and by the library child itself just before it exits):
/// `ru_maxrss` from `wait4` cannot be used, because a child started by `posix_spawn` (a vfork)
/// inherits the parent's high-water mark at `exec`.
///
/// Throughput is timed inside each process, around the transfer (`performSynchronously`,
/// curl's `%{time_total}`), so process start-up counts for neither; library and curl uploads
/// alternate, as in ``Comparison``. `Scripts/bench` starts nginx and makes the file; without
/// them the measure says it skipped.
///
/// Two more uploads per round show what the other paths cost, without changing the goal:
/// ``RawURLSessionUpload`` (the same bytes through `URLSession` alone, which on Linux sends them
/// chunked) and `curl -F` with `Transfer-Encoding: chunked`. `Scripts/bench` keeps nginx's
/// temporary body files in memory (`/dev/shm`) when it can, so the server's disk does not decide
/// the figures.
enum MultipartUploadBenchmark {
    static let urlVariable = "WEBSERVICEKIT_BENCH_UPLOAD_URL"
    static let fileVariable = "WEBSERVICEKIT_BENCH_UPLOAD_FILE"
    /// The argument that turns this executable into the child that uploads once.
    static let childFlag = "--upload-once"
    static let minimumRatio = 0.8
    static let maximumPeakRSS = 64.0  // MiB

    // MARK: Child process

    /// When `arguments` ask for the child mode, uploads once and returns the exit code.
    ///
    /// `--upload-once URL FILE` posts FILE as the part "file" of a `multipart/form-data` body;
    /// `--upload-once URL` posts a 1-byte part instead. Prints `<nanoseconds> <status> <VmHWM in
    /// KiB> <first line of the response body>`.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count >= 2, arguments[1] == childFlag else { return nil }
        let rest = Array(arguments.dropFirst(2))
        guard (1...2).contains(rest.count), let url = URL(string: rest[0]), !url.lastPathComponent.isEmpty else {
            FileHandle.standardError.write(Data("usage: webservice-bench \(childFlag) URL [FILE]\n".utf8))
            return 2
        }
        let part =
            rest.count == 2
            ? FormData(name: "file", fileURL: URL(fileURLWithPath: rest[1]))
            : FormData(name: "file", data: Data([0x2A]), fileName: "one-byte.bin")
        let client = WebServiceClient(serviceRoot: url.deletingLastPathComponent())
        // Every status is an answer here: the parent decides what it means.
        let upload = WebServiceCall<Data>(
            method: .post, relativePath: url.lastPathComponent, successCodes: [100...599],
            overridesClientSuccessCodes: true, timeout: 600)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            let response = try client.performSynchronously(upload, [part])
            let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
            let body = String(decoding: response.body.prefix(200), as: UTF8.self)
            let firstLine = body.split(whereSeparator: \.isNewline).first ?? ""
            print("\(nanoseconds) \(response.statusCode) \(highWaterMark(of: "self") ?? 0) \(firstLine)")
            return 0
        } catch {
            FileHandle.standardError.write(Data("webservice-bench \(childFlag): \(error)\n".utf8))
            return 1
        }
    }

    // MARK: Measure

    static func run() {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment[urlVariable], !url.isEmpty, let path = environment[fileVariable], !path.isEmpty
        else {
            print(
                "multipart upload of a 1 GiB file to loopback nginx: skipped, \(urlVariable) and \(fileVariable)"
                    + " are not set (Scripts/bench starts nginx, makes the file and sets them)")
            return
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value, size > 0
        else {
            print("multipart upload to loopback nginx: skipped, \(fileVariable)=\(path) is not a readable file")
            return
        }
        let title = String(format: "multipart upload of a %.0f MiB file to loopback nginx", mebibytes(size))
        guard let executable = Bundle.main.executablePath else {
            print("\(title): skipped, the path of this executable is unknown")
            return
        }
        let library = LibraryUpload(executable: executable, url: url, path: path, size: size)
        let rounds: Int
        do {
            // Warm-up: page cache and nginx worker, and a check that both sides really upload.
            let first = try library.run()
            _ = try curl(url, path, size)
            // Three rounds at least, more when uploads are fast: the whole measure stays within
            // about three minutes, and a noisy machine gets more samples when it can.
            rounds = first.wallSeconds < 5 ? 9 : first.wallSeconds < 15 ? 5 : 3
        } catch {
            print("\(title): FAILED, \(error)")
            return
        }
        var baseline = library
        baseline.path = nil
        var raw = library
        raw.flag = RawURLSessionUpload.childFlag
        var libraryRuns: [Upload] = []
        var curlRuns: [Upload] = []
        var baselineRuns: [Upload] = []
        var rawRuns: [Upload] = []
        var chunkedCurlRuns: [Upload] = []
        do {
            for _ in 0..<rounds {
                libraryRuns.append(try library.run())
                curlRuns.append(try curl(url, path, size))
                baselineRuns.append(try baseline.run())
                rawRuns.append(try raw.run())
                chunkedCurlRuns.append(try curl(url, path, size, chunked: true))
            }
        } catch {
            print("\(title): FAILED, \(error)")
            return
        }
        // The goal is judged against plain `curl -F`, which sends a Content-Length as the library
        // does (on Linux through its own HTTP/1.1 path). Chunked curl and raw URLSession locate
        // what Foundation's path would cost (see Docs/Performance.md).
        report(title: title, size: size, library: libraryRuns, curl: curlRuns, baseline: baselineRuns)
        reportGap(size: size, library: libraryRuns, raw: rawRuns, chunkedCurl: chunkedCurlRuns)
    }

    /// MiB per second of one upload.
    static func throughput(_ run: Upload, size: Int64) -> Double { mebibytes(size) / run.transferSeconds }

    /// Round by round, the throughput of `a` over that of `b`.
    static func ratios(_ a: [Upload], _ b: [Upload], size: Int64) -> [Double] {
        zip(a, b).map { throughput($0, size: size) / throughput($1, size: size) }
    }

    static func report(title: String, size: Int64, library: [Upload], curl: [Upload], baseline: [Upload]) {
        func throughput(_ run: Upload) -> Double { Self.throughput(run, size: size) }
        let ratios = ratios(library, curl, size: size)
        let ratio = median(ratios)
        print(
            String(
                format:
                    "%@: %.0f MiB/s vs baseline %.0f MiB/s (curl -F) -> ratio %.2f (spread %.2f-%.2f over %d rounds);"
                    + " goal >= %.2f: %@",
                title, median(library.map(throughput)), median(curl.map(throughput)), ratio, ratios.min() ?? 0,
                ratios.max() ?? 0, ratios.count, minimumRatio, ratio >= minimumRatio ? "met" : "MISSED"))
        let peak = library.map(\.peakRSS).max() ?? 0
        let basePeak = baseline.map(\.peakRSS).max() ?? 0
        print(
            String(
                format:
                    "%@, peak RSS: %.1f MiB vs baseline %.1f MiB (same child, 1-byte part) -> ratio %.2f"
                    + " (max over %d rounds); curl %.1f MiB; goal <= %.0f MiB: %@",
                title, peak, basePeak, peak / basePeak, library.count, curl.map(\.peakRSS).max() ?? 0,
                maximumPeakRSS, peak <= maximumPeakRSS ? "met" : "MISSED"))
        // CPU time hardly depends on what else the machine runs, unlike the throughput ratio.
        let libraryCPU = median(library.map(\.cpuSeconds))
        let curlCPU = median(curl.map(\.cpuSeconds))
        print(
            String(
                format:
                    "    per upload, medians: CPU (user+sys) library %.2f s vs curl %.2f s (%.1fx);"
                    + " wall with process start library %.2f s, curl %.2f s",
                libraryCPU, curlCPU, libraryCPU / curlCPU, median(library.map(\.wallSeconds)),
                median(curl.map(\.wallSeconds))))
    }

    /// What the other paths cost: `URLSession` alone sending the same bytes (chunked, as
    /// Foundation on Linux sends every stream), and `curl -F` sending them chunked. Information
    /// only; the goal stays the one above.
    static func reportGap(size: Int64, library: [Upload], raw: [Upload], chunkedCurl: [Upload]) {
        func line(_ name: String, _ runs: [Upload]) -> String {
            let each = runs.map { String(format: "%.0f", throughput($0, size: size)) }.joined(separator: " ")
            return String(
                format: "%@ %.0f MiB/s (%@), CPU %.2f s", name, median(runs.map { throughput($0, size: size) }), each,
                median(runs.map(\.cpuSeconds)))
        }
        func ratio(_ name: String, _ a: [Upload], _ b: [Upload]) -> String {
            let values = ratios(a, b, size: size)
            return String(format: "%@ %.2f (%.2f-%.2f)", name, median(values), values.min() ?? 0, values.max() ?? 0)
        }
        print("    other paths, medians over \(library.count) rounds (each round's figure in parentheses):")
        print("      " + line("library", library))
        print("      " + line("raw URLSession, same bytes (chunked)", raw))
        print("      " + line("curl -F chunked", chunkedCurl))
        print(
            "      ratios: " + ratio("library/raw URLSession", library, raw) + ", "
                + ratio("library/curl chunked", library, chunkedCurl) + ", "
                + ratio("raw URLSession/curl chunked", raw, chunkedCurl))
    }

    // MARK: Uploads

    /// One upload by one child process.
    struct Upload {
        /// The transfer, as timed inside the child.
        let transferSeconds: Double
        /// The child's `VmHWM`.
        let peakRSS: Double  // MiB
        let cpuSeconds: Double
        /// From spawn to exit.
        let wallSeconds: Double
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The library uploads `path` (or, when `nil`, a 1-byte part) in a child process; with
    /// `flag` set to ``RawURLSessionUpload/childFlag``, `URLSession` alone uploads it.
    struct LibraryUpload {
        let executable: String
        let url: String
        var path: String?
        let size: Int64
        var flag = childFlag

        func run() throws -> Upload {
            let run = try spawn([executable, flag, url] + (path.map { [$0] } ?? []))
            let fields = run.output.split(separator: " ", maxSplits: 3).map(String.init)
            guard run.exitCode == 0, fields.count >= 3, let nanoseconds = Double(fields[0]),
                let ownPeak = Double(fields[2])
            else {
                throw Failure(description: "the \(flag) child exited with \(run.exitCode): \(run.output)")
            }
            let body = fields.count == 4 ? fields[3] : ""
            guard fields[1] == "200" else {
                throw Failure(description: "nginx answered the \(flag) upload with HTTP \(fields[1])")
            }
            // The benchmark's nginx answers with `$request_length`: the whole body must have arrived.
            if path != nil, let received = Int64(body), received < size {
                throw Failure(description: "nginx received only \(received) bytes of the \(flag) upload")
            }
            return Upload(
                transferSeconds: nanoseconds / 1e9, peakRSS: max(run.peakRSS, ownPeak / 1024),
                cpuSeconds: run.cpuSeconds, wallSeconds: run.wallSeconds)
        }
    }

    /// `curl -s -o /dev/null -F file=@PATH URL`, with `-w` to report its own timing; `chunked`
    /// adds `-H "Transfer-Encoding: chunked"`.
    static func curl(_ url: String, _ path: String, _ size: Int64, chunked: Bool = false) throws -> Upload {
        let run = try spawn(
            ["curl", "-s", "-o", "/dev/null", "-w", "%{time_total} %{http_code} %{size_upload}"]
                + (chunked ? ["-H", "Transfer-Encoding: chunked"] : []) + ["-F", "file=@\(path)", url])
        let fields = run.output.split(separator: " ").map(String.init)
        guard run.exitCode == 0, fields.count == 3, let seconds = Double(fields[0]), let sent = Double(fields[2])
        else {
            throw Failure(description: "curl exited with \(run.exitCode): \(run.output)")
        }
        guard fields[1] == "200", sent >= Double(size) else {
            throw Failure(description: "curl got HTTP \(fields[1]) after sending \(fields[2]) bytes")
        }
        return Upload(
            transferSeconds: seconds, peakRSS: run.peakRSS, cpuSeconds: run.cpuSeconds, wallSeconds: run.wallSeconds)
    }

    struct ChildRun {
        let exitCode: Int32
        let output: String
        /// The highest `VmHWM` seen while the child ran.
        let peakRSS: Double  // MiB
        let cpuSeconds: Double
        let wallSeconds: Double
    }

    /// Runs `arguments` (the first one looked up in `PATH`), collects its standard output while
    /// sampling its `VmHWM` every 20 ms, and reaps it with `wait4` for its CPU time.
    static func spawn(_ arguments: [String]) throws -> ChildRun {
        #if os(Linux)
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
            let argv = arguments.map { strdup($0) } + [nil]
            let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + environment).forEach { free($0) } }
            // What this process printed so far goes out before anything the child prints.
            fflush(nil)
            var pid: pid_t = 0
            let start = DispatchTime.now().uptimeNanoseconds
            let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environment)
            close(pipeEnds[1])
            guard spawned == 0 else {
                close(pipeEnds[0])
                let reason = String(cString: strerror(spawned))
                throw Failure(description: "\(arguments[0]) could not be started: \(reason)")
            }
            var output = Data()
            var peakKiB = 0
            var buffer = [UInt8](repeating: 0, count: 4096)
            var readable = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            reading: while true {
                peakKiB = max(peakKiB, highWaterMark(of: "\(pid)") ?? 0)
                let ready = poll(&readable, 1, 20)
                guard ready != 0 else { continue }
                let count = ready > 0 ? read(pipeEnds[0], &buffer, buffer.count) : -1
                switch count {
                case 1...: output.append(contentsOf: buffer[0..<count])
                case 0: break reading  // end of file: the child exits
                default: if errno != EINTR { break reading }
                }
            }
            close(pipeEnds[0])
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) < 0 {
                guard errno == EINTR else { throw Failure(description: "wait4 failed: errno \(errno)") }
            }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            // WIFEXITED and WEXITSTATUS, which Swift does not import; a signal shows as its negative.
            let exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return ChildRun(
                exitCode: exitCode,
                output: String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                peakRSS: Double(peakKiB) / 1024, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
                wallSeconds: wall)
        #else
            throw Failure(description: "the upload measure runs on Linux only (posix_spawn, /proc/PID/status)")
        #endif
    }

    /// `VmHWM` of `/proc/<process>/status` in KiB: the peak resident set size of the process's
    /// memory since its last `exec`. `nil` once it has exited, or where there is no `/proc`.
    static func highWaterMark(of process: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }

    static func mebibytes(_ bytes: Int64) -> Double { Double(bytes) / 1_048_576 }
}
