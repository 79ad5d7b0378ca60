import Dispatch
import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// New TLS connections per second (issue 34): the library making one call after the other to a
/// loopback nginx that closes every connection after its answer, so that each call makes a new
/// connection, against `openssl s_time` fetching the same page from the same server
/// (`-www /`, over the same seconds). Two servers: one that gives sessions (tickets), where every
/// connection after the first resumes (the library: the origin's last session; s_time `-reuse`),
/// and one that gives none, where every handshake is full (s_time `-new`). Goal: the library
/// within 1.3× of s_time's rate, that is at least 1/1.3 of it. The library verifies the server
/// (the run's CA is in the system's store) and decodes an HTTP answer; s_time does neither, so
/// the comparison leans against the library.
///
/// `Scripts/bench` starts the servers (`WEBSERVICEKIT_BENCH_HANDSHAKE_RESUME_URL`,
/// `WEBSERVICEKIT_BENCH_HANDSHAKE_FULL_URL`); without them the measure says it skipped.
enum HandshakeBenchmark {
    static let resumeVariable = "WEBSERVICEKIT_BENCH_HANDSHAKE_RESUME_URL"
    static let fullVariable = "WEBSERVICEKIT_BENCH_HANDSHAKE_FULL_URL"
    static let seconds = 5
    static let goal = 1.3

    static func run() {
        let environment = ProcessInfo.processInfo.environment
        guard let resume = environment[resumeVariable].flatMap(URL.init(string:)),
            let full = environment[fullVariable].flatMap(URL.init(string:))
        else {
            print("new TLS connections: skipped, \(resumeVariable) and \(fullVariable) are not set (Scripts/bench)")
            return
        }
        for (label, url, mode) in [("full handshakes", full, "-new"), ("resumed sessions", resume, "-reuse")] {
            let library = libraryRate(url)
            let reference = sTimeRate(url, mode: mode)
            guard let library, let reference, reference > 0 else {
                print(
                    "new TLS connections, \(label): FAILED (library \(String(describing: library)), s_time "
                        + "\(String(describing: reference)))")
                continue
            }
            let ratio = reference / library.rate
            print(
                String(
                    format: "new TLS connections, %@: %.0f/s (%@ of %d resumed) vs openssl s_time %@ %.0f/s -> "
                        + "s_time's rate is %.2fx the library's; goal <= %.2f: %@",
                    label, library.rate, "\(library.resumed)", library.calls, mode, reference, ratio, goal,
                    ratio <= goal ? "met" : "MISSED"))
        }
    }

    /// Calls one after the other for ``seconds``: connections per second, and how many resumed.
    static func libraryRate(_ url: URL) -> (rate: Double, calls: Int, resumed: Int)? {
        let client = WebServiceClient(serviceRoot: url)
        let call = WebServiceCall<String>(relativePath: "")
        var calls = 0
        var resumed = 0
        // Warm-up: the library opened, the first session kept.
        for _ in 0..<20 { _ = try? client.performSynchronously(call, []) }
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds) * 1_000_000_000
        while DispatchTime.now().uptimeNanoseconds < end {
            guard let response = try? client.performSynchronously(call, []) else { return nil }
            calls += 1
            if response.metrics.transactions.last?.tls?.sessionResumed == true { resumed += 1 }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (Double(calls) / elapsed, calls, resumed)
    }

    /// `openssl s_time -connect HOST:PORT MODE -www / -time SECONDS`: its connections per real
    /// second ("N connections in T real seconds").
    static func sTimeRate(_ url: URL, mode: String) -> Double? {
        guard let host = url.host, let port = url.port else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "s_time", "-connect", "\(host):\(port)", mode, "-www", "/", "-time", "\(seconds)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // "1234 connections in 5 real seconds, 1234 bytes read per connection"
        for line in text.split(separator: "\n") where line.contains("real seconds") {
            let words = line.split(separator: " ")
            guard let count = words.first.flatMap({ Double($0) }),
                let index = words.firstIndex(of: "in"), index + 1 < words.count,
                let seconds = Double(words[index + 1]), seconds > 0
            else { continue }
            return count / seconds
        }
        return nil
    }
}
