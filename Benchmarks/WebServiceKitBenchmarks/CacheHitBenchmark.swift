import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache-hit measure: `client.performSynchronously(call)` of a small JSON GET (httpbin's
/// `/cache/3600`, which answers `Cache-Control: public, max-age=3600`) answered by a memory
/// ``HTTPCache`` and by a disk one in a temporary directory, each against the same call sent to
/// the loopback httpbin by a client without cache. Goals: a memory hit at least 20× faster than
/// the round trip, a disk hit at least 5×.
///
/// Each line alternates cached calls and round trips (``Comparison``); "faster by" is round-trip
/// time / hit time, per round. Every call goes through the whole pipeline, JSON decoding
/// included. `Scripts/bench` starts httpbin and sets `WEBSERVICEKIT_HTTPBIN_URL`; without it the
/// measure says it skipped.
enum CacheHitBenchmark {
    static let urlVariable = "WEBSERVICEKIT_HTTPBIN_URL"
    static let memoryGoal = 20.0
    static let diskGoal = 5.0

    /// The part of httpbin's echo the call decodes.
    struct Echo: Decodable, Sendable {
        let url: String
        let headers: [String: String]
    }

    static let call = WebServiceCall<Echo>(relativePath: "cache/3600")

    /// Counts the calls that did not end as expected, so that a failure cannot pass for speed.
    final class Failures {
        var count = 0
        var first: String?

        func perform(_ client: WebServiceClient, expecting source: ResponseSource) {
            do {
                let response = try client.performSynchronously(call)
                blackHole(response)
                if response.source != source { record("\(source) expected, \(response.source) served") }
            } catch {
                record("\(error)")
            }
        }

        func record(_ failure: String) {
            count += 1
            if first == nil { first = failure }
        }
    }

    /// The flag that makes this executable serve the call N times from a memory cache, whose
    /// response came once from a fixed transport, and exit: for `valgrind --tool=callgrind`.
    static let profileFlag = "--profile-cache-hit"

    /// When `arguments` ask for the profiling loop, runs it and returns the exit code.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count == 3, arguments[1] == profileFlag, let count = Int(arguments[2]) else { return nil }
        let body = Data(
            #"{"url": "http://127.0.0.1/cache/3600", "headers": {"Accept": "*/*", "Host": "127.0.0.1"}}"#.utf8)
        let client = WebServiceClient(
            serviceRoot: URL(string: "http://127.0.0.1/")!,
            transport: FixedTransport(
                response: TransportResponse(
                    statusCode: 200,
                    headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"],
                    body: body)))
        client.cache = HTTPCache()
        let failures = Failures()
        failures.perform(client, expecting: .network)
        for _ in 0..<count { failures.perform(client, expecting: .cache) }
        if let first = failures.first { print("FAILED: \(failures.count) calls, first \(first)") }
        return failures.count == 0 ? 0 : 1
    }

    static func run(iterations: Int = 300, rounds: Int = 9) {
        let title = "cache hit of a small JSON GET"
        guard let text = ProcessInfo.processInfo.environment[urlVariable], let root = URL(string: text) else {
            print(
                "\(title) (memory, disk) vs a loopback round trip: skipped, \(urlVariable) is not set"
                    + " (Scripts/bench starts httpbin and sets it)")
            return
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webservicekit-bench-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let network = WebServiceClient(serviceRoot: root)
        let memory = WebServiceClient(serviceRoot: root)
        memory.cache = HTTPCache()
        let disk = WebServiceClient(serviceRoot: root)
        do {
            disk.cache = try HTTPCache(directory: directory)
        } catch {
            print("\(title): FAILED, the disk cache could not be created: \(error)")
            return
        }
        // The first call of each cached client stores the response; every later one is a hit.
        let failures = Failures()
        failures.perform(memory, expecting: .network)
        failures.perform(disk, expecting: .network)
        failures.perform(network, expecting: .network)
        guard failures.count == 0 else {
            print("\(title): FAILED, \(failures.first ?? "")")
            return
        }
        for (client, cache, goal) in [(memory, "memory", memoryGoal), (disk, "disk", diskGoal)] {
            let comparison = Comparison(
                name: "\(cache)-cache hit of a small JSON GET", unit: "ns/op", maximumRatio: 1 / goal,
                maximumValue: nil, rounds: rounds, iterations: iterations,
                library: { failures.perform(client, expecting: .cache) },
                baseline: { failures.perform(network, expecting: .network) })
            let result = comparison.run()
            guard failures.count == 0 else {
                print("\(comparison.name): FAILED, \(failures.count) calls, first: \(failures.first ?? "")")
                return
            }
            report(comparison, result, goal: goal)
        }
    }

    /// One line in the suite's style, with the ratio the other way round: round-trip time / hit
    /// time, higher is better.
    static func report(_ comparison: Comparison, _ result: Comparison.Result, goal: Double) {
        let speedups = result.ratios.map { 1 / $0 }
        let speedup = median(speedups)
        print(
            String(
                format:
                    "%@: %.1f us vs baseline %.1f us (same call, loopback httpbin, no cache) -> faster by %.1f"
                    + " (spread %.1f-%.1f over %d rounds); goal >= %.0f: %@",
                comparison.name, result.libraryMedian / 1000, result.baselineMedian / 1000, speedup,
                speedups.min() ?? 0, speedups.max() ?? 0, comparison.rounds, goal, speedup >= goal ? "met" : "MISSED"))
    }
}
