import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Measures (prints, asserts only what the caps promise) what the kept-alive connection pool
/// holds: sockets, descriptors and threads during 1,000 concurrent GETs to one origin, and
/// descriptors after GETs to 400 origins until the idle timeout passed.
///
/// Runs only with `WEBSERVICEKIT_POOL_MEASURE=1`, against the fault server of
/// `WEBSERVICEKIT_FAULT_URL`; the 400 origins are 127.0.0.2, 127.0.0.3, … on its port, so that
/// server must listen on every address (`FAULT_SERVER_BIND=0.0.0.0 python3
/// Tests/Servers/fault_server.py PORT`). Run it under `ulimit -n 256` too: with the total cap,
/// calls to new origins close the longest idle connection instead of failing with EMFILE.
final class ConnectionPoolMeasurement: XCTestCase {
    private struct Peer: Decodable, Sendable { let port: Int }
    private static let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer?tag=%%0%%")

    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["WEBSERVICEKIT_POOL_MEASURE"] == "1")
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
    }

    func testAThousandConcurrentGETsToOneOrigin() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(), transport: RoutingTransport(configuration: configuration))
        let tag = UUID().uuidString
        let before = (
            ProcessResources.openDescriptors ?? 0, ProcessResources.openSockets ?? 0, ProcessResources.threads ?? 0
        )
        let peak = ResourcePeak()
        let start = DispatchTime.now()
        let ports = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 { group.addTask { try await client.perform(Self.peer, tag).port } }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let most = peak.stop()
        print(
            "pool-measure: 1,000 concurrent GETs, one origin, cap \(configuration.httpMaximumConnectionsPerHost):"
                + " \(String(format: "%.2f", seconds)) s; sockets \(before.1) before, peak \(most.sockets);"
                + " descriptors \(before.0) before, peak \(most.descriptors); threads \(before.2) before,"
                + " peak \(most.threads); connections (distinct ports) \(ports.count)")
        XCTAssertLessThanOrEqual(ports.count, configuration.httpMaximumConnectionsPerHost)
        // The sampler's own readings of /proc may add a descriptor; the fault server is another
        // process, so every socket counted here is the client's.
        XCTAssertLessThanOrEqual(most.sockets - before.1, configuration.httpMaximumConnectionsPerHost)
    }

    /// The same against a fast server (the small-GET file of `Scripts/bench`'s nginx, from
    /// `WEBSERVICEKIT_BENCH_SMALL_URL`), so that the time is the client's, and raw `URLSession`
    /// for comparison (libcurl caps it at the same 6 connections).
    func testAThousandConcurrentGETsOfASmallFile() async throws {
        guard let url = ProcessInfo.processInfo.environment["WEBSERVICEKIT_BENCH_SMALL_URL"].flatMap(URL.init)
        else { throw XCTSkip("WEBSERVICEKIT_BENCH_SMALL_URL is not set") }
        let root = url.deletingLastPathComponent()
        let client = WebServiceClient(
            serviceRoot: root, transport: RoutingTransport(configuration: .ephemeral))
        let call = WebServiceCall<Data>(relativePath: url.lastPathComponent)
        let session = URLSession(configuration: .ephemeral)
        for round in 1...2 {
            let library = try await Self.measure {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<1_000 { group.addTask { try await client.perform(call).count } }
                    return try await group.reduce(0, +)
                }
            }
            let raw = try await Self.measure {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<1_000 { group.addTask { try await session.data(from: url).0.count } }
                    return try await group.reduce(0, +)
                }
            }
            for (name, figures) in [("library", library), ("raw URLSession", raw)] {
                print(
                    "pool-measure: round \(round), 1,000 concurrent GETs of \(url.lastPathComponent), \(name):"
                        + " \(String(format: "%.3f", figures.seconds)) s; sockets \(figures.sockets.before) before,"
                        + " peak \(figures.sockets.peak); threads \(figures.threads.before) before,"
                        + " peak \(figures.threads.peak)")
            }
            XCTAssertLessThanOrEqual(library.sockets.peak - library.sockets.before, 6)
        }
    }

    private struct Figures {
        let seconds: Double
        let sockets: (before: Int, peak: Int)
        let threads: (before: Int, peak: Int)
    }

    private static func measure(_ work: () async throws -> Int) async throws -> Figures {
        let sockets = ProcessResources.openSockets ?? 0
        let threads = ProcessResources.threads ?? 0
        let peak = ResourcePeak()
        let start = DispatchTime.now()
        let bytes = try await work()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let most = peak.stop()
        XCTAssertGreaterThan(bytes, 0)
        return Figures(seconds: seconds, sockets: (sockets, most.sockets), threads: (threads, most.threads))
    }

    func testFourHundredOriginsAfterTheIdleTimeout() async throws {
        let port = try FaultServer.url().port ?? 80
        let tag = UUID().uuidString
        // A first call, on a transport that goes away, opens what the process keeps for good
        // (the deadline timer, the session's own descriptors): the baseline is taken after it.
        do {
            let warmUp = RoutingTransport(configuration: .ephemeral)
            _ = try await WebServiceClient(serviceRoot: try FaultServer.url(), transport: warmUp).perform(
                Self.peer, tag)
        }
        let transport = RoutingTransport(configuration: .ephemeral)
        let before = ProcessResources.openDescriptors ?? 0
        let targetsBefore = ProcessResources.descriptorTargets
        for index in 0..<400 {
            let host = "127.0.\((index + 2) / 256).\((index + 2) % 256)"
            let root = try XCTUnwrap(URL(string: "http://\(host):\(port)/"))
            _ = try await WebServiceClient(serviceRoot: root, transport: transport).perform(Self.peer, tag)
        }
        let after = ProcessResources.openDescriptors ?? 0
        let idleSince = DispatchTime.now()
        // The default idle timeout is 30 s; the timer runs at most a second late.
        let back = await ProcessResources.eventually(within: 40) { (ProcessResources.openDescriptors ?? 0) <= before }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - idleSince.uptimeNanoseconds) / 1e9
        let idle = ProcessResources.openDescriptors ?? 0
        print(
            "pool-measure: 400 origins: descriptors \(before) before, \(after) after the calls, \(idle)"
                + " \(String(format: "%.1f", seconds)) s later, without another call")
        XCTAssertTrue(back, "new: \(ProcessResources.descriptorTargets.filter { !targetsBefore.contains($0) })")
        withExtendedLifetime(transport) {}
    }
}

/// The hostile suite's scenario of issue 33, measured: 300 concurrent POSTs to one origin whose
/// every answer takes 2 s (the fault server's `/script` with a delay), the default cap of 6
/// connections per origin, a 10 s timeout. Prints how many calls succeeded and how many requests
/// reached the server; asserts what the pool promises: no
/// request of a call is written once its deadline passed, so the server sees at most the
/// successful requests plus one in flight per connection (it saw 99 requests more, written
/// 10.04–10.11 s after the start, and 25–140 connections, before waiting calls past their
/// deadline stopped being granted connections).
///
/// Runs only with `WEBSERVICEKIT_POOL_MEASURE=1` (about 12 s).
final class DeadlineMeasurement: XCTestCase {
    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["WEBSERVICEKIT_POOL_MEASURE"] == "1")
        try XCTSkipUnless(RoutingTransport.usesDirectHTTP1ByDefault)
    }

    func testThreeHundredSlowPOSTsWithATenSecondTimeout() async throws {
        let root = try FaultServer.url()
        let client = WebServiceClient(serviceRoot: root)
        let tag = UUID().uuidString
        let steps = Data(#"[{"status": 200, "body": "late", "delay": 2}]"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let call = WebServiceCall<Data>(
            method: .post, relativePath: "script?tag=\(tag)&steps=\(steps)", bodyParameter: 0, timeout: 10)
        let start = DispatchTime.now()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<300 {
                group.addTask { (try? await client.perform(call, ["n": "\(index)"])) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let succeeded = outcomes.filter { $0 }.count
        let record = try await FaultServer.record(tag, at: root)
        print(
            "deadline measure: \(succeeded) of 300 succeeded in \(String(format: "%.2f", elapsed)) s; "
                + "the server saw \(record.count) requests")
        XCTAssertLessThanOrEqual(record.count, succeeded + 6, "requests written after their call's deadline")
    }
}
