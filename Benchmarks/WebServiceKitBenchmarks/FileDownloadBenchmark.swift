import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The file download measure: a 100 MiB static file from a loopback nginx written to a file by
/// the library (`WebServiceCall<DownloadedFile>` with a ``DownloadDestination`` and a progress
/// handler), against `URLSession` alone downloading the same file (a download task, its file
/// moved to the same destination). Goals: peak RSS at most 1 MiB over the same child downloading
/// a 1-byte file; throughput ≥ 0.95× raw `URLSession`.
///
/// Every download runs in a child process (``MultipartUploadBenchmark/spawn(_:)``, which
/// samples `VmHWM`); library, raw and baseline children alternate over 9 rounds. Throughput is
/// timed inside each child around the transfer. `Scripts/bench` serves the files; without it the
/// measure says it skipped.
///
/// The same over `https` (issue 34) when `Scripts/bench` serves the files over TLS too
/// (`WEBSERVICEKIT_BENCH_DOWNLOAD_HTTPS_URL`, the run's CA in the system's store): goal ≥ 1.2×
/// raw `URLSession`'s throughput.
enum FileDownloadBenchmark {
    static let urlVariable = "WEBSERVICEKIT_BENCH_DOWNLOAD_URL"
    static let smallURLVariable = "WEBSERVICEKIT_BENCH_DOWNLOAD_SMALL_URL"
    static let childFlag = "--download-once"
    static let rawChildFlag = "--raw-download-once"
    static let minimumRatio = 0.95
    static let httpsURLVariable = "WEBSERVICEKIT_BENCH_DOWNLOAD_HTTPS_URL"
    static let httpsSmallURLVariable = "WEBSERVICEKIT_BENCH_DOWNLOAD_HTTPS_SMALL_URL"
    static let httpsMinimumRatio = 1.2
    static let maximumExtraRSS = 1.0  // MiB
    static let rounds = 9

    // MARK: Child processes

    /// `--download-once URL DEST` (the library) or `--raw-download-once URL DEST` (URLSession
    /// alone) downloads URL to DEST and prints `<nanoseconds> <status> <VmHWM in KiB> <bytes>`.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count >= 2, arguments[1] == childFlag || arguments[1] == rawChildFlag else { return nil }
        guard arguments.count == 4, let url = URL(string: arguments[2]), !url.lastPathComponent.isEmpty else {
            FileHandle.standardError.write(Data("usage: webservice-bench \(arguments[1]) URL DEST\n".utf8))
            return 2
        }
        let destination = URL(fileURLWithPath: arguments[3])
        let start = DispatchTime.now().uptimeNanoseconds
        let outcome = arguments[1] == childFlag ? library(url, to: destination) : raw(url, to: destination)
        switch outcome {
        case .success(let (status, bytes)):
            let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
            let peak = MultipartUploadBenchmark.highWaterMark(of: "self") ?? 0
            print("\(nanoseconds) \(status) \(peak) \(bytes)")
            return 0
        case .failure(let error):
            FileHandle.standardError.write(Data("webservice-bench \(arguments[1]): \(error)\n".utf8))
            return 1
        }
    }

    private static func library(_ url: URL, to destination: URL) -> Result<(Int, Int64), any Error> {
        let client = WebServiceClient(serviceRoot: url.deletingLastPathComponent())
        let call = WebServiceCall<DownloadedFile>(
            relativePath: url.lastPathComponent, timeout: 600, progressParameter: 0)
        let progress: TransferProgressHandler = { blackHole($0) }
        do {
            let response = try client.performSynchronously(
                call, [progress, DownloadDestination(destination, existingFile: .replace)])
            return .success((response.statusCode, response.value.byteCount))
        } catch {
            return .failure(error)
        }
    }

    private static func raw(_ url: URL, to destination: URL) -> Result<(Int, Int64), any Error> {
        let session = URLSession(configuration: .default)
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<(Int, Int64), any Error>>(.failure(URLError(.unknown)))
        let task = session.downloadTask(with: URLRequest(url: url, timeoutInterval: 600)) { file, response, error in
            defer { done.signal() }
            guard let file, let response = response as? HTTPURLResponse else {
                outcome.set(.failure(error ?? URLError(.badServerResponse)))
                return
            }
            do {
                // The download task's file is deleted after this handler: move it now.
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.moveItem(at: file, to: destination)
                let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber
                outcome.set(.success((response.statusCode, size?.int64Value ?? 0)))
            } catch {
                outcome.set(.failure(error))
            }
        }
        task.resume()
        done.wait()
        session.finishTasksAndInvalidate()
        return outcome.get()
    }

    /// A value shared with the download task's handler.
    final class Locked<Value>: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var value: Value
        init(_ value: Value) { self.value = value }
        func set(_ newValue: Value) { lock.withLock { value = newValue } }
        func get() -> Value { lock.withLock { value } }
    }

    // MARK: Measure

    struct Download {
        let seconds: Double
        let peakRSS: Double  // MiB
        let bytes: Int64
        let cpuSeconds: Double
    }

    static func run() {
        measure(
            title: "file download of a 100 MiB file from loopback nginx", urlVariable: urlVariable,
            smallURLVariable: smallURLVariable, goal: minimumRatio)
        guard ProcessInfo.processInfo.environment[httpsURLVariable] != nil else { return }
        measure(
            title: "file download of a 100 MiB file from loopback nginx over https", urlVariable: httpsURLVariable,
            smallURLVariable: httpsSmallURLVariable, goal: httpsMinimumRatio)
    }

    static func measure(title: String, urlVariable: String, smallURLVariable: String, goal: Double) {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment[urlVariable], !url.isEmpty, let small = environment[smallURLVariable],
            !small.isEmpty
        else {
            print("\(title): skipped, \(urlVariable) and \(smallURLVariable) are not set (Scripts/bench sets them)")
            return
        }
        guard let executable = Bundle.main.executablePath else {
            print("\(title): skipped, the path of this executable is unknown")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webservicekit-bench-download-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            print("\(title): FAILED, \(error)")
            return
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        func download(_ flag: String, _ url: String) throws -> Download {
            let destination = directory.appendingPathComponent("download-\(flag.dropFirst(2))")
            defer { try? FileManager.default.removeItem(at: destination) }
            let run = try MultipartUploadBenchmark.spawn([executable, flag, url, destination.path])
            let fields = run.output.split(separator: " ").map(String.init)
            guard run.exitCode == 0, fields.count == 4, let nanoseconds = Double(fields[0]),
                let ownPeak = Double(fields[2]), let bytes = Int64(fields[3])
            else {
                throw MultipartUploadBenchmark.Failure(
                    description: "the \(flag) child exited with \(run.exitCode): \(run.output)")
            }
            guard fields[1] == "200" else {
                throw MultipartUploadBenchmark.Failure(description: "nginx answered \(flag) with HTTP \(fields[1])")
            }
            return Download(
                seconds: nanoseconds / 1e9, peakRSS: max(run.peakRSS, ownPeak / 1024), bytes: bytes,
                cpuSeconds: run.cpuSeconds)
        }
        var library: [Download] = []
        var raw: [Download] = []
        var baseline: [Download] = []
        do {
            // Warm-up: page cache, nginx, and a check that both children download the whole file.
            let first = try download(childFlag, url)
            let firstRaw = try download(rawChildFlag, url)
            guard first.bytes == firstRaw.bytes, first.bytes > 0 else {
                throw MultipartUploadBenchmark.Failure(
                    description: "the library got \(first.bytes) bytes, URLSession \(firstRaw.bytes)")
            }
            for _ in 0..<rounds {
                library.append(try download(childFlag, url))
                raw.append(try download(rawChildFlag, url))
                baseline.append(try download(childFlag, small))
            }
        } catch {
            print("\(title): FAILED, \(error)")
            return
        }
        report(title: title, library: library, raw: raw, baseline: baseline, goal: goal)
    }

    static func report(title: String, library: [Download], raw: [Download], baseline: [Download], goal: Double) {
        func throughput(_ run: Download) -> Double { MultipartUploadBenchmark.mebibytes(run.bytes) / run.seconds }
        let ratios = zip(library, raw).map { throughput($0) / throughput($1) }
        let ratio = median(ratios)
        print(
            String(
                format:
                    "%@: %.0f MiB/s vs baseline %.0f MiB/s (raw URLSession download task) -> ratio %.2f"
                    + " (spread %.2f-%.2f over %d rounds); goal >= %.2f: %@",
                title, median(library.map(throughput)), median(raw.map(throughput)), ratio, ratios.min() ?? 0,
                ratios.max() ?? 0, ratios.count, goal, ratio >= goal ? "met" : "MISSED"))
        let peak = library.map(\.peakRSS).max() ?? 0
        let basePeak = baseline.map(\.peakRSS).max() ?? 0
        let extras = zip(library, baseline).map { $0.peakRSS - $1.peakRSS }
        print(
            String(
                format:
                    "%@, peak RSS: %.1f MiB vs baseline %.1f MiB (same child, 1-byte file) -> %+.1f MiB"
                    + " (max over %d rounds; per round %+.1f to %+.1f); raw URLSession %.1f MiB; goal <= %+.0f MiB: %@",
                title, peak, basePeak, peak - basePeak, library.count, extras.min() ?? 0, extras.max() ?? 0,
                raw.map(\.peakRSS).max() ?? 0, maximumExtraRSS, peak - basePeak <= maximumExtraRSS ? "met" : "MISSED"))
        print(
            String(
                format: "    per download, medians: CPU (user+sys) library %.2f s vs raw URLSession %.2f s (%.2fx)",
                median(library.map(\.cpuSeconds)), median(raw.map(\.cpuSeconds)),
                median(library.map(\.cpuSeconds)) / median(raw.map(\.cpuSeconds))))
    }
}
