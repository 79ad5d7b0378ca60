import Dispatch
import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The small-GET measures: a 109-byte JSON file from the loopback nginx, decoded into a small
/// `Decodable`, by the library and by raw `URLSession` (a `dataTask` or `data(for:)` and the same
/// `JSONDecoder` call) in the same process, alternating rounds. Goals (issue 8): sequential, with
/// callbacks and with async/await, library time ≤ 1.05× raw and at most 25 µs more client CPU per
/// call (`getrusage`); 8 concurrent lanes ≤ 1.03×.
///
/// `Scripts/bench` serves the file from the upload measure's nginx and sets
/// `WEBSERVICEKIT_BENCH_SMALL_URL`; without it the measures say they skipped.
///
/// The `post` form (issue 33) sends a 1 KB JSON body by POST to the same nginx's `/upload`
/// (`WEBSERVICEKIT_BENCH_UPLOAD_URL`), which reads it whole and answers 200 with its length, one
/// call at a time: goal ≤ 0.4× raw `URLSession`'s time and CPU per call.
enum SmallGetBenchmark {
    static let urlVariable = "WEBSERVICEKIT_BENCH_SMALL_URL"
    static let sequentialGoal = 1.05
    static let lanesGoal = 1.03
    static let extraCPUGoal = 25.0  // µs per call
    static let lanes = 8

    /// The file's content, as the library and the baseline decode it.
    struct Small: Decodable, Sendable {
        let id: Int
        let name: String
        let tags: [String]
        let active: Bool
    }

    /// One timed loop: wall and CPU time per call.
    struct Sample {
        let wallNanoseconds: Double
        let cpuMicroseconds: Double
    }

    /// Counts calls that did not decode, so that a failure cannot pass for speed.
    final class Failures: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var count = 0
        private var first: String?

        func record(_ failure: String) {
            lock.withLock {
                count += 1
                if first == nil { first = failure }
            }
        }

        var summary: String? { lock.withLock { count == 0 ? nil : "\(count) calls failed, first: \(first ?? "")" } }
    }

    /// The four ways of making one call that the measures compare.
    struct Bodies {
        let libraryCallback: @Sendable () -> Void
        let rawCallback: @Sendable () -> Void
        let libraryAsync: @Sendable () async -> Void
        let rawAsync: @Sendable () async -> Void
    }

    /// A library call with callbacks, waited for on the calling thread; a failure is recorded.
    static func waitingCallback<Response: Sendable>(
        _ client: WebServiceClient, _ call: WebServiceCall<Response>, _ arguments: [any Sendable], _ failures: Failures
    ) -> @Sendable () -> Void {
        {
            let done = DispatchSemaphore(value: 0)
            client.perform(
                call, arguments,
                success: { value in
                    blackHole(value)
                    done.signal()
                },
                failure: { error in
                    failures.record("\(error)")
                    done.signal()
                })
            done.wait()
        }
    }

    /// The body of the `post` form: 16 records of a name and a number, about 1 KB of JSON.
    struct PostBody: Encodable, Sendable {
        struct Item: Encodable, Sendable {
            let name: String
            let value: Int
        }
        let items: [Item]
    }

    static let postBody = PostBody(
        items: (0..<16).map { PostBody.Item(name: "item number \($0) of the post measure", value: $0 * 1_000_003) })

    /// The four bodies of the `post` form: a POST of ``postBody`` as JSON, the answer read as text.
    /// Each side encodes the body for every call, as an app does (the raw side with one
    /// `JSONEncoder`, as the library's JSON serializer).
    static func postBodies(for url: URL, failures: Failures) -> Bodies {
        let client = WebServiceClient(serviceRoot: url.deletingLastPathComponent())
        let call = WebServiceCall<String>(
            method: .post, relativePath: url.lastPathComponent, serializer: StringResponseSerializer())
        let session = URLSession(configuration: .default)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let template = request
        let encoder = JSONEncoder()
        let sent: @Sendable () -> URLRequest = {
            var request = template
            request.httpBody = try? encoder.encode(postBody)
            return request
        }
        let check: @Sendable (Data?, URLResponse?) -> Bool = { data, response in
            (response as? HTTPURLResponse)?.statusCode == 200 && !(data ?? Data()).isEmpty
        }
        return Bodies(
            libraryCallback: waitingCallback(client, call, [postBody], failures),
            rawCallback: {
                let done = DispatchSemaphore(value: 0)
                session.dataTask(with: sent()) { data, response, error in
                    if check(data, response), let data {
                        blackHole(String(decoding: data, as: UTF8.self))
                    } else {
                        failures.record("raw: \(String(describing: error))")
                    }
                    done.signal()
                }.resume()
                done.wait()
            },
            libraryAsync: {
                do { blackHole(try await client.perform(call, postBody)) } catch { failures.record("\(error)") }
            },
            rawAsync: {
                do {
                    let (data, response) = try await session.data(for: sent())
                    guard check(data, response) else { return failures.record("raw: not 200") }
                    blackHole(String(decoding: data, as: UTF8.self))
                } catch {
                    failures.record("raw: \(error)")
                }
            })
    }

    /// An async small GET whose path is one `%%0%%` wildcard filled with the file's name, made
    /// through a ``TypedCall`` or the ``WebServiceCall`` with the same fields.
    static func wildcardBody(for url: URL, typed: Bool, _ failures: Failures) -> @Sendable () async -> Void {
        let client = WebServiceClient(serviceRoot: url.deletingLastPathComponent())
        let name = url.lastPathComponent
        let untypedCall = WebServiceCall<Small>(relativePath: "%%0%%")
        let typedCall = TypedCall<ArgumentList<String>, NoBody, Small>(.init(relativePath: "%%0%%"))
        if typed {
            return {
                do { blackHole(try await client.perform(typedCall, name)) } catch { failures.record("\(error)") }
            }
        }
        return {
            do { blackHole(try await client.perform(untypedCall, name)) } catch { failures.record("\(error)") }
        }
    }

    /// The four bodies; `collectsMetrics` is the library client's ``WebServiceClient/collectsMetrics``.
    static func bodies(for url: URL, failures: Failures, collectsMetrics: Bool = true) -> Bodies {
        let client = WebServiceClient(serviceRoot: url.deletingLastPathComponent())
        client.collectsMetrics = collectsMetrics
        let call = WebServiceCall<Small>(relativePath: url.lastPathComponent)
        let session = URLSession(configuration: .default)
        let decoder = JSONDecoder()
        return Bodies(
            libraryCallback: waitingCallback(client, call, [], failures),
            rawCallback: {
                let done = DispatchSemaphore(value: 0)
                session.dataTask(with: URLRequest(url: url)) { data, response, error in
                    if let data, (response as? HTTPURLResponse)?.statusCode == 200,
                        let value = try? decoder.decode(Small.self, from: data)
                    {
                        blackHole(value)
                    } else {
                        failures.record("raw: \(String(describing: error))")
                    }
                    done.signal()
                }.resume()
                done.wait()
            },
            libraryAsync: {
                do { blackHole(try await client.perform(call)) } catch { failures.record("\(error)") }
            },
            rawAsync: {
                do {
                    let (data, _) = try await session.data(for: URLRequest(url: url))
                    blackHole(try JSONDecoder().decode(Small.self, from: data))
                } catch {
                    failures.record("raw: \(error)")
                }
            })
    }

    static let profileFlag = "--profile-small-get"

    /// `webservice-bench --profile-small-get URL N FORM`: makes N calls one way, for
    /// `valgrind --tool=callgrind`. FORM is callbacks, raw-callbacks, async, raw-async, lanes,
    /// raw-lanes, callbacks-nometrics (the library with ``WebServiceClient/collectsMetrics``
    /// off), post and post-raw (the `post` form's POST to the URL of nginx's `/upload`), or typed
    /// and untyped (async, the file's name filling a `%%0%%` path wildcard, declared as a
    /// ``TypedCall`` and as a ``WebServiceCall``: issue 35's goal, the typed form within 1 % of the
    /// untyped form's instructions).
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count == 5, arguments[1] == profileFlag, let url = URL(string: arguments[2]),
            let count = Int(arguments[3])
        else { return nil }
        let failures = Failures()
        let bodies =
            arguments[4].hasPrefix("post")
            ? postBodies(for: url, failures: failures)
            : bodies(for: url, failures: failures, collectsMetrics: arguments[4] != "callbacks-nometrics")
        switch arguments[4] {
        case "typed", "untyped":
            _ = measureAsync(count, wildcardBody(for: url, typed: arguments[4] == "typed", failures))
        case "post": _ = measure(count, bodies.libraryCallback)
        case "post-raw": _ = measure(count, bodies.rawCallback)
        case "callbacks", "callbacks-nometrics": _ = measure(count, bodies.libraryCallback)
        case "raw-callbacks": _ = measure(count, bodies.rawCallback)
        case "async": _ = measureAsync(count, bodies.libraryAsync)
        case "raw-async": _ = measureAsync(count, bodies.rawAsync)
        case "lanes": _ = measureLanes(count, bodies.libraryCallback)
        case "raw-lanes": _ = measureLanes(count, bodies.rawCallback)
        default:
            print("unknown form \(arguments[4])")
            return 2
        }
        if let summary = failures.summary {
            print(summary)
            return 1
        }
        return 0
    }

    /// 31 rounds, not 9: single rounds with 8 lanes spread over ±15 % on this 2-core machine, and
    /// the median of 9 moved between 0.98 and 1.07 from one run to the next.
    /// The three forms, each measured in a child process of its own (``formFlag``).
    static let forms = ["callbacks", "async", "lanes", "metrics", "post", "https", "https-lanes"]
    /// The same file over TLS from the same nginx (`WEBSERVICEKIT_BENCH_SMALL_HTTPS_URL`), its CA in
    /// the system's store so that both sides verify by default (issue 34): goal ≤ 0.4× raw
    /// `URLSession`'s time one call at a time and in 8 lanes, and its CPU one at a time.
    static let httpsVariable = "WEBSERVICEKIT_BENCH_SMALL_HTTPS_URL"
    static let httpsGoal = 0.4
    /// The `post` form's goal: time and CPU per call at most this fraction of raw `URLSession`'s.
    static let postGoal = 0.4
    /// The `metrics` form's goals: collecting the metrics of a call costs at most 3 % of a small
    /// GET and 3 µs of CPU.
    static let metricsGoal = 1.03
    static let metricsCPUGoal = 3.0  // µs per call
    /// `webservice-bench --small-get-form FORM`: the child that measures one form.
    static let formFlag = "--small-get-form"

    /// Runs each form in a fresh process, one after the other. In one process, a form's figure
    /// depended on the forms measured before it (the threads, connections and heap the earlier
    /// rounds left behind): with the same build, the async ratio came out 0.20–0.23 after the
    /// callbacks form and 0.25–0.30 before it, more than the difference between two versions of
    /// the library that the measure is meant to show.
    static func run() {
        let title = "small GET of a 109-byte JSON"
        guard ProcessInfo.processInfo.environment[urlVariable] != nil else {
            print("\(title): skipped, \(urlVariable) is not set (Scripts/bench starts nginx and sets it)")
            return
        }
        guard let executable = Bundle.main.executablePath else {
            print("\(title): skipped, the path of this executable is unknown")
            return
        }
        for form in forms {
            // What this process printed so far goes out before the child's line.
            fflush(nil)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = [formFlag, form]
            do {
                try child.run()
                child.waitUntilExit()
                if child.terminationStatus != 0 {
                    print("\(title), \(form): the child failed (status \(child.terminationStatus))")
                }
            } catch {
                print("\(title), \(form): the child could not be started: \(error)")
            }
        }
    }

    /// The child of ``run()``: `webservice-bench --small-get-form FORM` measures one form (31
    /// alternating rounds of 500 calls each side) and prints its line.
    static func formExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count == 3, arguments[1] == formFlag else { return nil }
        return runForm(arguments[2]) ? 0 : 1
    }

    static func runForm(_ form: String, iterations: Int = 500, rounds: Int = 31) -> Bool {
        if form == "post" { return runPost(iterations: iterations, rounds: rounds) }
        let secure = form.hasPrefix("https")
        let title = secure ? "small GET of a 109-byte JSON over https" : "small GET of a 109-byte JSON"
        let variable = secure ? httpsVariable : urlVariable
        guard let text = ProcessInfo.processInfo.environment[variable], let url = URL(string: text) else {
            print("\(title): skipped, \(variable) is not set (Scripts/bench starts nginx and sets it)")
            return true
        }
        let failures = Failures()
        let bodies = bodies(for: url, failures: failures)
        let withoutMetrics = Self.bodies(for: url, failures: failures, collectsMetrics: false)

        // Warm-up, and a check that both sides really get the file.
        for _ in 0..<50 {
            bodies.libraryCallback()
            bodies.rawCallback()
            if form == "metrics" { withoutMetrics.libraryCallback() }
        }
        if let summary = failures.summary {
            print("\(title): FAILED, \(summary)")
            return false
        }
        // The form's label, its two loops and its goal.
        let measures: (label: String, library: () -> Sample, raw: () -> Sample, goal: Double, withCPU: Bool)
        var baseline = "raw URLSession"
        var cpuGoal = extraCPUGoal
        var cpuRatioGoal: Double?
        switch form {
        case "https":
            measures = (
                "sequential, callbacks", { measure(iterations, bodies.libraryCallback) },
                { measure(iterations, bodies.rawCallback) }, httpsGoal, true
            )
            cpuRatioGoal = httpsGoal
        case "https-lanes":
            measures = (
                "\(lanes) concurrent lanes", { measureLanes(iterations, bodies.libraryCallback) },
                { measureLanes(iterations, bodies.rawCallback) }, httpsGoal, false
            )
        case "callbacks":
            measures = (
                "sequential, callbacks", { measure(iterations, bodies.libraryCallback) },
                { measure(iterations, bodies.rawCallback) }, sequentialGoal, true
            )
        case "async":
            measures = (
                "sequential, async/await", { measureAsync(iterations, bodies.libraryAsync) },
                { measureAsync(iterations, bodies.rawAsync) }, sequentialGoal, true
            )
        case "lanes":
            measures = (
                "\(lanes) concurrent lanes", { measureLanes(iterations, bodies.libraryCallback) },
                { measureLanes(iterations, bodies.rawCallback) }, lanesGoal, false
            )
        case "metrics":
            // The library against itself with `collectsMetrics` off: what collecting costs.
            measures = (
                "sequential, callbacks, metrics collected", { measure(iterations, bodies.libraryCallback) },
                { measure(iterations, withoutMetrics.libraryCallback) }, metricsGoal, true
            )
            baseline = "the library without metrics"
            cpuGoal = metricsCPUGoal
        default:
            print("\(title): unknown form \(form)")
            return false
        }
        report(
            "\(title), \(measures.label)", compare(rounds: rounds, library: measures.library, raw: measures.raw),
            goal: measures.goal, withCPU: measures.withCPU, baseline: baseline, cpuGoal: cpuGoal,
            cpuRatioGoal: cpuRatioGoal)
        if let summary = failures.summary {
            print("\(title): FAILED, \(summary)")
            return false
        }
        return true
    }

    /// The `post` form: a 1 KB JSON POST one call at a time with callbacks, against raw
    /// `URLSession` sending the same bytes; the goal bounds the time ratio and the CPU ratio.
    static func runPost(iterations: Int, rounds: Int) -> Bool {
        let title = "small POST of a 1 KB JSON"
        let variable = MultipartUploadBenchmark.urlVariable
        guard let text = ProcessInfo.processInfo.environment[variable], let url = URL(string: text) else {
            print("\(title): skipped, \(variable) is not set (Scripts/bench starts nginx and sets it)")
            return true
        }
        let failures = Failures()
        let bodies = postBodies(for: url, failures: failures)
        for _ in 0..<50 {
            bodies.libraryCallback()
            bodies.rawCallback()
        }
        if let summary = failures.summary {
            print("\(title): FAILED, \(summary)")
            return false
        }
        let pairs = compare(
            rounds: rounds, library: { measure(iterations, bodies.libraryCallback) },
            raw: { measure(iterations, bodies.rawCallback) })
        report("\(title), sequential, callbacks", pairs, goal: postGoal, withCPU: true, cpuRatioGoal: postGoal)
        if let summary = failures.summary {
            print("\(title): FAILED, \(summary)")
            return false
        }
        return true
    }

    /// Alternating rounds, the side that goes first alternating too (library, raw, raw, library…),
    /// so that neither always runs right after the other.
    static func compare(rounds: Int, library: () -> Sample, raw: () -> Sample) -> [(Sample, Sample)] {
        (0..<rounds).map { round in
            if round.isMultiple(of: 2) { return (library(), raw()) }
            let rawSample = raw()
            return (library(), rawSample)
        }
    }

    /// `body` called `iterations` times in a row on this thread.
    static func measure(_ iterations: Int, _ body: () -> Void) -> Sample {
        timed(iterations) { for _ in 0..<iterations { body() } }
    }

    /// `body` awaited `iterations` times in a row in one task.
    static func measureAsync(_ iterations: Int, _ body: @escaping @Sendable () async -> Void) -> Sample {
        timed(iterations) {
            let done = DispatchSemaphore(value: 0)
            Task {
                for _ in 0..<iterations { await body() }
                done.signal()
            }
            done.wait()
        }
    }

    /// `iterations` calls spread over ``lanes`` threads of their own, each making its share in a
    /// row. (`DispatchQueue.concurrentPerform` would run only as many lanes at once as there are
    /// cores: its blocked iterations hold their worker thread.)
    static func measureLanes(_ iterations: Int, _ body: @escaping @Sendable () -> Void) -> Sample {
        timed(iterations) {
            let finished = DispatchGroup()
            for _ in 0..<lanes {
                finished.enter()
                Thread {
                    for _ in 0..<(iterations / lanes) { body() }
                    finished.leave()
                }.start()
            }
            finished.wait()
        }
    }

    static func timed(_ iterations: Int, _ body: () -> Void) -> Sample {
        let cpuBefore = processCPUMicroseconds()
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start)
        let cpu = processCPUMicroseconds() - cpuBefore
        return Sample(wallNanoseconds: wall / Double(iterations), cpuMicroseconds: cpu / Double(iterations))
    }

    /// User and system CPU time of this process so far.
    static func processCPUMicroseconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return microseconds(usage.ru_utime) + microseconds(usage.ru_stime)
    }

    /// Prints a measure's line. CPU is judged by the extra microseconds per call (`cpuGoal`), or
    /// with `cpuRatioGoal` by the ratio of the library's CPU per call to the baseline's.
    static func report(
        _ name: String, _ pairs: [(Sample, Sample)], goal: Double, withCPU: Bool, baseline: String = "raw URLSession",
        cpuGoal: Double = extraCPUGoal, cpuRatioGoal: Double? = nil
    ) {
        let ratios = pairs.map { $0.0.wallNanoseconds / $0.1.wallNanoseconds }
        let ratio = median(ratios)
        let extraCPU = median(pairs.map { $0.0.cpuMicroseconds - $0.1.cpuMicroseconds })
        let cpuRatio = median(pairs.map { $0.0.cpuMicroseconds / max($0.1.cpuMicroseconds, 0.001) })
        let cpuMet = !withCPU || (cpuRatioGoal.map { cpuRatio <= $0 } ?? (extraCPU <= cpuGoal))
        let cpuGoalText = cpuRatioGoal.map { String(format: "CPU ratio %.2f, goal <= %.2f", cpuRatio, $0) }
        let cpuText =
            withCPU
            ? String(
                format: "; extra CPU %.1f us/call (library %.0f, baseline %.0f; %@)", extraCPU,
                median(pairs.map(\.0.cpuMicroseconds)), median(pairs.map(\.1.cpuMicroseconds)),
                cpuGoalText ?? String(format: "goal <= %.0f", cpuGoal)) : ""
        print(
            String(
                format: "%@: %.0f us/call vs baseline %.0f us/call (%@) -> ratio %.2f"
                    + " (spread %.2f-%.2f over %d rounds)%@; goal <= %.2f: %@",
                name, median(pairs.map(\.0.wallNanoseconds)) / 1000, median(pairs.map(\.1.wallNanoseconds)) / 1000,
                baseline, ratio, ratios.min() ?? 0, ratios.max() ?? 0, pairs.count, cpuText, goal,
                ratio <= goal && cpuMet ? "met" : "MISSED"))
    }
}
