import Dispatch
import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The child process of the scaling measure (``ScalingBenchmark``): one client at one concurrency.

extension ScalingBenchmark {
    /// The failures of one child, by kind, with the first message of each kind.
    struct FailureTally: Sendable {
        var counts: [String: Int] = [:]
        var examples: [String: String] = [:]

        mutating func add(_ kind: String, _ message: String) {
            counts[kind, default: 0] += 1
            if examples[kind] == nil { examples[kind] = message }
        }

        mutating func merge(_ other: FailureTally) {
            for (kind, count) in other.counts { counts[kind, default: 0] += count }
            for (kind, message) in other.examples where examples[kind] == nil { examples[kind] = message }
        }

        /// `kind:count,kind:count`, or `-` when there are none.
        var field: String {
            counts.isEmpty
                ? "-" : counts.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        }
    }

    /// `webservice-bench --scaling-once CLIENT C DELAY_MS ROOT [CALLS]`: sets the soft descriptor limit to
    /// ``descriptorLimit`` (at most the hard one), counts its threads and descriptors, makes one
    /// warm-up call (`ROOT/delay/0`), then C tasks each make ``callsPerTask`` sequential calls of
    /// `ROOT/delay/DELAY_MS`, and prints one line of `key=value` fields (the Python reference
    /// client prints the same): calls, successes, CPU seconds of the work (every thread),
    /// wall seconds, threads and descriptors before the first call, peak RSS (KiB), the soft
    /// descriptor limit, failures by kind. Each kind's first message goes to standard error.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count >= 2, arguments[1] == childFlag else { return nil }
        guard arguments.count == 6 || arguments.count == 7, let client = Client(rawValue: arguments[2]),
            client != .reference,
            let concurrency = Int(arguments[3]), concurrency > 0, let delay = Int(arguments[4]), delay >= 0,
            let root = URL(string: arguments[5]),
            let callsPerTask = arguments.count == 7 ? Int(arguments[6]) : callsPerTask, callsPerTask > 0
        else {
            let names = Client.allCases.filter { $0 != .reference }.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(
                Data("usage: webservice-bench \(childFlag) CLIENT C DELAY_MS ROOT [CALLS] (CLIENT: \(names))\n".utf8))
            return 2
        }
        let limit = setDescriptorLimit(descriptorLimit)
        // Before the client exists: its loops' and sessions' descriptors and threads count as
        // the constant the goals allow.
        let threads0 = countEntries(of: "/proc/self/task")
        let fds0 = countEntries(of: "/proc/self/fd") - 1  // the listing's own descriptor
        let calls = makeCalls(client, concurrency: concurrency, delay: delay, root: root)
        do {
            try waitFor { try await calls.warmUp() }
        } catch {
            FileHandle.standardError.write(
                Data("scaling \(client.rawValue) C=\(concurrency): warm-up failed: \(error)\n".utf8))
            return 1
        }
        let measured = calls.measured
        let cpuStart = processCPUSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        let tally: FailureTally
        do {
            tally = try waitFor {
                await withTaskGroup(of: FailureTally.self) { group in
                    for _ in 0..<concurrency {
                        group.addTask {
                            var failures = FailureTally()
                            for _ in 0..<callsPerTask {
                                do {
                                    try await measured()
                                } catch {
                                    failures.add(kind(of: error), "\(error)")
                                }
                            }
                            return failures
                        }
                    }
                    var all = FailureTally()
                    for await failures in group { all.merge(failures) }
                    return all
                }
            }
        } catch {
            FileHandle.standardError.write(Data("scaling \(client.rawValue) C=\(concurrency): \(error)\n".utf8))
            return 1
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = processCPUSeconds() - cpuStart
        let total = concurrency * callsPerTask
        let failed = tally.counts.values.reduce(0, +)
        for (kind, message) in tally.examples.sorted(by: { $0.key < $1.key }) {
            FileHandle.standardError.write(
                Data("scaling \(client.rawValue) C=\(concurrency): \(kind), first: \(message)\n".utf8))
        }
        print(
            "calls=\(total) ok=\(total - failed) cpu=\(cpu) wall=\(wall) threads0=\(threads0) fds0=\(fds0)"
                + " rss=\(ownPeakRSSKiB()) nofile=\(limit) failures=\(tally.field)")
        fflush(nil)
        return 0
    }

    /// The warm-up call and the measured call of one client.
    struct Calls: Sendable {
        let warmUp: @Sendable () async throws -> Void
        let measured: @Sendable () async throws -> Void
    }

    static func makeCalls(_ client: Client, concurrency: Int, delay: Int, root: URL) -> Calls {
        switch client {
        case .library, .libraryRaised:
            var transport: (any WebServiceTransport)?
            if client == .libraryRaised {
                // The total cap stays the default, from the descriptor limit set above.
                transport = RoutingTransport(connectionLimits: .init(perOrigin: concurrency))
            }
            let webClient = WebServiceClient(serviceRoot: root, transport: transport)
            let warm = WebServiceCall<SmallGetBenchmark.Small>(relativePath: "delay/0")
            let call = WebServiceCall<SmallGetBenchmark.Small>(relativePath: "delay/\(delay)")
            return Calls(
                warmUp: { blackHole(try await webClient.perform(warm)) },
                measured: { blackHole(try await webClient.perform(call)) })
        case .libraryPostRaised:
            let transport = RoutingTransport(connectionLimits: .init(perOrigin: concurrency))
            let webClient = WebServiceClient(serviceRoot: root, transport: transport)
            let warm = WebServiceCall<SmallGetBenchmark.Small>(method: .post, relativePath: "delay/0")
            let call = WebServiceCall<SmallGetBenchmark.Small>(method: .post, relativePath: "delay/\(delay)")
            let body = SmallGetBenchmark.postBody
            return Calls(
                warmUp: { blackHole(try await webClient.perform(warm, body)) },
                measured: { blackHole(try await webClient.perform(call, body)) })
        case .urlSession, .urlSessionPost, .reference:
            let configuration = URLSessionConfiguration.default
            configuration.httpMaximumConnectionsPerHost = concurrency
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            let session = URLSession(configuration: configuration)
            let warm = root.appendingPathComponent("delay/0")
            let url = root.appendingPathComponent("delay/\(delay)")
            let encoder = JSONEncoder()
            let posts = client == .urlSessionPost
            @Sendable func get(_ url: URL) async throws {
                var request = URLRequest(url: url)
                if posts {
                    // As the library's POST: the body encoded per call, labelled JSON.
                    request.httpMethod = "POST"
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                    request.httpBody = try encoder.encode(SmallGetBenchmark.postBody)
                }
                let (data, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 200 else { throw ScalingStatusError(statusCode: status) }
                blackHole(try JSONDecoder().decode(SmallGetBenchmark.Small.self, from: data))
            }
            return Calls(warmUp: { try await get(warm) }, measured: { try await get(url) })
        }
    }

    /// A raw URLSession call answered with another status than 200.
    struct ScalingStatusError: Error, CustomStringConvertible {
        let statusCode: Int
        var description: String { "status \(statusCode)" }
    }

    /// The kind a failure is counted under: the library's error case (with the `URLError` code
    /// of a transport failure), a `URLError`'s code, or the error's type.
    static func kind(of error: any Error) -> String {
        if let failure = error as? WebServiceError {
            if case .transport(let urlError) = failure.reason { return "transport(\(name(of: urlError.code)))" }
            return Mirror(reflecting: failure.reason).children.first?.label ?? "\(failure)"
        }
        if let urlError = error as? URLError { return "URLError(\(name(of: urlError.code)))" }
        if error is ScalingStatusError { return "status" }
        return String(describing: type(of: error))
    }

    static func name(of code: URLError.Code) -> String {
        switch code {
        case .timedOut: return "timedOut"
        case .cannotConnectToHost: return "cannotConnectToHost"
        case .networkConnectionLost: return "networkConnectionLost"
        case .cancelled: return "cancelled"
        case .badServerResponse: return "badServerResponse"
        case .resourceUnavailable: return "resourceUnavailable"
        case .cannotFindHost: return "cannotFindHost"
        case .notConnectedToInternet: return "notConnectedToInternet"
        default: return "\(code.rawValue)"
        }
    }

    /// Sets this process's soft `RLIMIT_NOFILE` to `wanted` (up or down), never above the hard
    /// limit, and returns the soft limit it has then.
    static func setDescriptorLimit(_ wanted: Int) -> Int {
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return -1 }
        let target = min(limit.rlim_max, rlim_t(wanted))
        if limit.rlim_cur != target {
            limit.rlim_cur = target
            _ = setrlimit(resource, &limit)
        }
        guard getrlimit(resource, &limit) == 0 else { return -1 }
        return Int(clamping: limit.rlim_cur)
    }

    /// The hard `RLIMIT_NOFILE` of this process (children inherit it).
    static func hardDescriptorLimit() -> Int {
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return -1 }
        return Int(clamping: limit.rlim_max)
    }

    /// The entries of a directory (`.` and `..` left out), or -1 when it cannot be read (a
    /// process that has exited).
    static func countEntries(of path: String) -> Int {
        guard let directory = opendir(path) else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == UInt8(ascii: ".") && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
            }
            if !isDot { count += 1 }
        }
        return count
    }
}
