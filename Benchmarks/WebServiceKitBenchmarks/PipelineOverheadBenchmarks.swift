import Dispatch
import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers every request with the same response at once: the pipeline's own
/// cost, without a network.
struct FixedTransport: WebServiceTransport {
    let response: TransportResponse

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse { response }
}

/// Decode overhead (issue 8, measure 4): `try await client.perform(call)` over a transport that
/// returns 2 KB of JSON at once, against a bare `JSONDecoder` decoding the same bytes into the
/// same type, alternating rounds in one task. Goal: at most 2 µs extra per call.
enum DecodeOverheadBenchmark {
    static let goal = 2.0  // µs

    struct Item: Decodable, Sendable {
        let id: Int
        let name: String
        let price: Double
        let tags: [String]
    }

    /// About 2 KB: 20 items.
    static let body = Data(
        ("["
            + (0..<20).map { #"{"id":\#($0),"name":"item number \#($0)","price":\#($0).5,"tags":["a","bc"]}"# }
            .joined(separator: ",") + "]").utf8)

    /// The flag that makes this executable call `perform` over the fixed response N times (or,
    /// with `bare` after N, decode the bytes N times; with `both`, each in turn) and exit, for
    /// `valgrind --tool=callgrind`: instruction counts are repeatable here, time is not. `both`
    /// compares the two in one process, where the runtime's caches are in the same state; `data`
    /// performs a `WebServiceCall<Data>`, the pipeline without decoding; `data-nometrics` the same
    /// on a client that collects no metrics (``WebServiceClient/collectsMetrics``), whose
    /// difference from `data` is the cost of collecting them.
    static let profileFlag = "--profile-decode"

    /// When `arguments` ask for the profiling loop, runs it and returns the exit code.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard (3...4).contains(arguments.count), arguments[1] == profileFlag, let count = Int(arguments[2]) else {
            return nil
        }
        let mode = arguments.count == 4 ? arguments[3] : "library"
        guard ["library", "bare", "both", "data", "data-nometrics"].contains(mode) else { return nil }
        let (client, call) = makeClient()
        if mode == "data-nometrics" { client.collectsMetrics = false }
        let dataCall = WebServiceCall<Data>(relativePath: "items")
        let decoder = JSONDecoder()
        let done = DispatchSemaphore(value: 0)
        // Decided once: a string comparison in the loop would be counted with every call.
        let pipelineOnly = mode.hasPrefix("data")
        Task {
            for _ in 0..<count {
                if pipelineOnly {
                    blackHole(try? await client.perform(dataCall))
                    continue
                }
                if mode != "library" { blackHole(try? decoder.decode([Item].self, from: body)) }
                if mode != "bare" { blackHole(try? await client.perform(call)) }
            }
            done.signal()
        }
        done.wait()
        return 0
    }

    static func makeClient() -> (WebServiceClient, WebServiceCall<[Item]>) {
        let client = WebServiceClient(
            serviceRoot: URL(string: "http://127.0.0.1/")!,
            transport: FixedTransport(
                response: TransportResponse(
                    statusCode: 200, headers: ["Content-Type": "application/json"], body: body)))
        return (client, WebServiceCall<[Item]>(relativePath: "items"))
    }

    static func run(iterations: Int = 5000, rounds: Int = 9) {
        let (client, call) = makeClient()
        let failures = SmallGetBenchmark.Failures()
        let library: @Sendable () async -> Void = {
            do { blackHole(try await client.perform(call)) } catch { failures.record("\(error)") }
        }
        let decoder = JSONDecoder()
        let bare: @Sendable () async -> Void = {
            do { blackHole(try decoder.decode([Item].self, from: body)) } catch { failures.record("\(error)") }
        }
        _ = SmallGetBenchmark.measureAsync(iterations / 10, library)
        _ = SmallGetBenchmark.measureAsync(iterations / 10, bare)
        let pairs = (0..<rounds).map { _ in
            (
                SmallGetBenchmark.measureAsync(iterations, library).wallNanoseconds,
                SmallGetBenchmark.measureAsync(iterations, bare).wallNanoseconds
            )
        }
        let name = "decode overhead: perform over a fixed 2 KB JSON response"
        if let summary = failures.summary {
            print("\(name): FAILED, \(summary)")
            return
        }
        let extras = pairs.map { ($0.0 - $0.1) / 1000 }
        let extra = median(extras)
        print(
            String(
                format: "%@: %.1f us/call vs baseline %.1f us/call (bare JSONDecoder) -> extra %.1f us"
                    + " (spread %.1f-%.1f over %d rounds); goal <= %.1f us extra: %@",
                name, median(pairs.map(\.0)) / 1000, median(pairs.map(\.1)) / 1000, extra, extras.min() ?? 0,
                extras.max() ?? 0, rounds, goal, extra <= goal ? "met" : "MISSED"))
    }
}

/// Digest round trips (issue 8, measure 8): calls to httpbin's digest endpoint through
/// ``DigestAuthenticationProvider``, counting the requests that reach the transport. Goal: after
/// the first call (challenge and answer), one round trip per call.
enum DigestRoundTripBenchmark {
    /// Counts requests on their way to the real transport.
    final class CountingTransport: WebServiceTransport, @unchecked Sendable {  // guarded by `lock`
        let base: any WebServiceTransport
        private let lock = NSLock()
        private var sent = 0

        init(base: any WebServiceTransport) { self.base = base }

        var count: Int { lock.withLock { sent } }

        func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
            lock.withLock { sent += 1 }
            return try await base.send(request, context: context)
        }
    }

    struct Authenticated: Decodable, Sendable {
        let authenticated: Bool
    }

    static func run(calls: Int = 50) {
        let name = "digest-authenticated calls, round trips per call after the first"
        guard let text = ProcessInfo.processInfo.environment[CacheHitBenchmark.urlVariable],
            let root = URL(string: text)
        else {
            print("\(name): skipped, \(CacheHitBenchmark.urlVariable) is not set (Scripts/bench starts httpbin)")
            return
        }
        let transport = CountingTransport(base: RoutingTransport())
        let client = WebServiceClient(serviceRoot: root, transport: transport)
        client.authenticationProvider = DigestAuthenticationProvider(user: "user", password: "passwd")
        let call = WebServiceCall<Authenticated>(relativePath: "digest-auth/auth/user/passwd/SHA-256/never")
        do {
            _ = try client.performSynchronously(call)
            let first = transport.count
            for _ in 0..<calls {
                guard try client.performSynchronously(call).value.authenticated else {
                    print("\(name): FAILED, httpbin did not authenticate a call")
                    return
                }
            }
            let perCall = Double(transport.count - first) / Double(calls)
            print(
                String(
                    format: "%@: %.2f (first call %d; %d calls after it, %d requests) vs goal 1: %@", name, perCall,
                    first, calls, transport.count - first, perCall <= 1 ? "met" : "MISSED"))
        } catch {
            print("\(name): FAILED, \(error)")
        }
    }
}
