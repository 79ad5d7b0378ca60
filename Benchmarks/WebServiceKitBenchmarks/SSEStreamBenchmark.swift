import Dispatch
import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The streaming measure (issue 24): 100,000 small Server-Sent Events from the loopback stream
/// server (`Tests/Servers/stream_server.py`, `/sse?count=100000&interval=0&framing=chunked`: about
/// 4.8 MB in chunks of about 64 KiB, written as fast as the socket takes them), read to the end.
/// Figures: events per second (wall time) and CPU time per event (`getrusage` of this process,
/// user + system, before and after: the server is another process), the median of 5 rounds.
///
/// The baseline is raw `URLSession` without WebServiceKit: a data-task delegate that splits the
/// bytes into lines at LF itself and counts the events (a blank line after at least one `data`
/// line). It decodes no UTF-8 and makes no `String`: the floor that Foundation's transport and a
/// line scan set. A library form (``libraryForm``) is measured in the same rounds, alternating
/// with the baseline, and its ratios are computed against the baseline of the same run.
///
/// `Scripts/bench --only sse` starts the stream server and sets `WEBSERVICEKIT_STREAM_URL`;
/// without it the measure says it skipped.
enum SSEStreamBenchmark {
    static let urlVariable = "WEBSERVICEKIT_STREAM_URL"
    static let eventCount = 100_000
    static let rounds = 5
    static let title = "SSE stream of \(eventCount) small events"

    /// One way of reading the event stream: reads the stream at the URL to its end and returns
    /// how many events it saw (a count other than ``eventCount`` fails the measure).
    struct Form: Sendable {
        let name: String
        let read: @Sendable (URL) async throws -> Int
    }

    /// The baseline: raw `URLSession`, a data-task delegate splitting lines itself.
    static let baseline = Form(name: "raw URLSession, data-task delegate splitting LF lines") { url in
        try await RawSSECounter.countEvents(at: url)
    }

    /// The stream's path and query under the server's root.
    static let relativePath = "sse?count=\(eventCount)&interval=0&framing=chunked"

    /// The call the library forms make: the same resource, read as Server-Sent Events.
    static let call = WebServiceCall<ResponseStream<ServerSentEvent>>(
        name: "sse-bench", relativePath: relativePath, timeout: 120, stream: .serverSentEvents)

    /// The library's forms, measured against the baseline in the same run (empty: the baseline
    /// alone), each with a client made once for the whole run:
    ///
    /// - `client.stream, default transport`: the default client (``RoutingTransport``: on Linux,
    ///   plain `http` goes over ``HTTP1Transport``);
    /// - `client.stream, URLSessionTransport`: a client whose transport is
    ///   `URLSessionTransport(sessionConfiguration: .ephemeral)`, the session route, the same
    ///   Foundation transport as the baseline.
    ///
    /// Each counts the events `client.stream(.call)` hands out (`for try await`).
    static func libraryForms(root: URL) -> [Form] {
        [
            libraryForm(
                name: "WebServiceKit client.stream, default transport", client: WebServiceClient(serviceRoot: root)),
            libraryForm(
                name: "WebServiceKit client.stream, URLSessionTransport",
                client: WebServiceClient(
                    serviceRoot: root, transport: URLSessionTransport(sessionConfiguration: .ephemeral))),
        ]
    }

    /// A form that reads the stream with `client.stream(.call)` and counts its events.
    static func libraryForm(name: String, client: WebServiceClient) -> Form {
        Form(name: name) { _ in try await countEvents(client) }
    }

    /// Reads the stream with `client` to its end; the number of events.
    static func countEvents(
        _ client: WebServiceClient, call: WebServiceCall<ResponseStream<ServerSentEvent>> = call
    ) async throws -> Int {
        var count = 0
        for try await _ in try await client.stream(call) { count += 1 }
        return count
    }

    static let profileFlag = "--profile-sse"

    /// `webservice-bench --profile-sse ROOT N FORM`: reads one stream of N events from the stream
    /// server at ROOT one way and exits, for `valgrind --tool=callgrind` (instruction counts are
    /// repeatable, time is not). FORM is `default` (the default client), `session` (a client over
    /// `URLSessionTransport`) or `raw` (the baseline).
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count == 5, arguments[1] == profileFlag, let root = URL(string: arguments[2]),
            let count = Int(arguments[3]), count >= 0
        else { return nil }
        let path = "sse?count=\(count)&interval=0&framing=chunked"
        let call = WebServiceCall<ResponseStream<ServerSentEvent>>(
            name: "sse-profile", relativePath: path, timeout: 120, stream: .serverSentEvents)
        let read: @Sendable () async throws -> Int
        switch arguments[4] {
        case "default":
            let client = WebServiceClient(serviceRoot: root)
            read = { try await countEvents(client, call: call) }
        case "session":
            let client = WebServiceClient(
                serviceRoot: root, transport: URLSessionTransport(sessionConfiguration: .ephemeral))
            read = { try await countEvents(client, call: call) }
        case "raw":
            guard let url = URL(string: path, relativeTo: root) else { return 2 }
            read = { try await RawSSECounter.countEvents(at: url) }
        default:
            print("unknown form \(arguments[4]): default, session or raw")
            return 2
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { outcome.set(.success(try await read())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        switch outcome.get() {
        case .success(let events) where events == count:
            return 0
        case .success(let events):
            print("counted \(events) events, not \(count)")
            return 1
        case .failure(let error):
            print("failed: \(error)")
            return 1
        }
    }

    /// One timed read of the whole stream.
    struct Sample {
        let seconds: Double
        let cpuMicroseconds: Double
        var eventsPerSecond: Double { Double(eventCount) / seconds }
        var cpuMicrosecondsPerEvent: Double { cpuMicroseconds / Double(eventCount) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The measure main.swift runs: the baseline and ``libraryForms(root:)``.
    static func run() {
        guard let text = ProcessInfo.processInfo.environment[urlVariable], let root = URL(string: text) else {
            print("\(title): skipped, \(urlVariable) is not set (Scripts/bench starts the stream server and sets it)")
            return
        }
        run(root: root, libraries: libraryForms(root: root))
    }

    /// Measures `libraries` and the baseline in alternating rounds (the order turning each round)
    /// after one warm-up read each, and prints one line per form; each library line carries its
    /// ratios to the baseline of the same rounds.
    static func run(root: URL, libraries: [Form]) {
        guard let url = URL(string: relativePath, relativeTo: root) else {
            print("\(title): skipped, \(root) is not a URL")
            return
        }
        let forms = [baseline] + libraries
        var samples = Array(repeating: [Sample](), count: forms.count)
        do {
            for form in forms { _ = try sample(form, url: url) }  // warm-up, and a check of the count
            for round in 0..<rounds {
                let order = round.isMultiple(of: 2) ? Array(forms.indices) : Array(forms.indices.reversed())
                for index in order { samples[index].append(try sample(forms[index], url: url)) }
            }
        } catch {
            print("\(title): FAILED, \(error)")
            return
        }
        let base = samples[0]
        report(forms[0].name, base, against: nil)
        for index in forms.indices.dropFirst() {
            report(forms[index].name, samples[index], against: base)
        }
    }

    /// Reads the stream once with `form`, timed.
    static func sample(_ form: Form, url: URL) throws -> Sample {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let cpuBefore = SmallGetBenchmark.processCPUMicroseconds()
        let start = DispatchTime.now().uptimeNanoseconds
        Task {
            do { outcome.set(.success(try await form.read(url))) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = SmallGetBenchmark.processCPUMicroseconds() - cpuBefore
        let events = try outcome.get().get()
        guard events == eventCount else {
            throw Failure(description: "\(form.name) counted \(events) events, not \(eventCount)")
        }
        return Sample(seconds: seconds, cpuMicroseconds: cpu)
    }

    static func report(_ name: String, _ samples: [Sample], against baseline: [Sample]?) {
        let rate = median(samples.map(\.eventsPerSecond))
        let cpu = median(samples.map(\.cpuMicrosecondsPerEvent))
        let rates = samples.map(\.eventsPerSecond)
        var line = String(
            format: "%@, %@: %.0f events/s (spread %.0f-%.0f over %d rounds), %.2f us CPU/event",
            title, name, rate, rates.min() ?? 0, rates.max() ?? 0, samples.count, cpu)
        if let baseline {
            // Per round: the time ratio (library/baseline, lower is better) and the CPU ratio.
            let timeRatios = zip(samples, baseline).map { $0.seconds / $1.seconds }
            let cpuRatios = zip(samples, baseline).map { $0.cpuMicroseconds / $1.cpuMicroseconds }
            line += String(
                format: " -> time ratio %.2f (spread %.2f-%.2f), CPU ratio %.2f against the baseline",
                median(timeRatios), timeRatios.min() ?? 0, timeRatios.max() ?? 0, median(cpuRatios))
        } else {
            line += " (the baseline)"
        }
        print(line)
    }

    /// The result of one read, handed from its task to the measuring thread.
    final class Outcome: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var result: Result<Int, any Error> = .failure(Failure(description: "no result"))

        func set(_ value: Result<Int, any Error>) { lock.withLock { result = value } }
        func get() -> Result<Int, any Error> { lock.withLock { result } }
    }
}

/// The baseline's reader: a `URLSession` data task whose delegate splits the body into lines at
/// LF and counts the events, as WHATWG HTML's event-stream interpretation dispatches them: a
/// blank line ends an event when at least one `data` line came before it. (The stream server
/// sends LF line ends on this path, so CR is not looked for.)
final class RawSSECounter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // The parsing state is touched only on the session's delegate queue (serial), and read after
    // the task completed; `lock` guards the continuation.
    private var partialLine: [UInt8] = []
    private var dataLines = 0
    private var events = 0
    private var status = 0
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Int, any Error>?

    /// Reads the stream at `url` to its end; the number of events.
    static func countEvents(at url: URL) async throws -> Int {
        let counter = RawSSECounter()
        let session = URLSession(configuration: .ephemeral, delegate: counter, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, timeoutInterval: 120)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        return try await withCheckedThrowingContinuation { continuation in
            counter.lock.withLock { counter.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        status = (response as? HTTPURLResponse)?.statusCode ?? 0
        completionHandler(status == 200 ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count,
                let found = memchr(base + start, 0x0A, bytes.count - start)
            {
                let end = base.distance(to: UnsafeRawPointer(found))
                let run = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                if partialLine.isEmpty {
                    line(run)
                } else {
                    partialLine.append(contentsOf: run)
                    partialLine.withUnsafeBytes { line($0) }
                    partialLine.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            if start < bytes.count {
                partialLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
            }
        }
    }

    /// One line, without its LF.
    private func line(_ bytes: UnsafeRawBufferPointer) {
        if bytes.isEmpty {
            if dataLines > 0 { events += 1 }
            dataLines = 0
        } else if bytes.count >= 4, bytes[0] == 0x64, bytes[1] == 0x61, bytes[2] == 0x74, bytes[3] == 0x61,
            bytes.count == 4 || bytes[4] == 0x3A
        {
            // `data` or `data:…`
            dataLines += 1
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        if let error {
            continuation?.resume(throwing: error)
        } else if status != 200 {
            continuation?.resume(throwing: SSEStreamBenchmark.Failure(description: "status \(status)"))
        } else {
            continuation?.resume(returning: events)
        }
    }
}
