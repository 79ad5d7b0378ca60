import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Measures (prints, asserts nothing about sizes) what the kept-alive connection pool holds:
/// descriptors and threads during 300 concurrent GETs to one origin, and descriptors after GETs to
/// 400 origins once the idle timeout passed. Runs only with `WEBSERVICEKIT_POOL_MEASURE=1`; the
/// 400 origins are 127.0.0.2, 127.0.0.3, … on the port of `WEBSERVICEKIT_POOL_MEASURE_URL`, a fault
/// server started by hand bound to every address (`FAULT_SERVER_BIND=0.0.0.0 python3
/// Tests/Servers/fault_server.py PORT`).
final class ConnectionPoolMeasurement: XCTestCase {
    private struct Peer: Decodable, Sendable { let port: Int }
    private static let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer?tag=%%0%%")

    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["WEBSERVICEKIT_POOL_MEASURE"] == "1")
        try XCTSkipUnless(URLSessionTransport.usesDirectHTTP1ByDefault)
    }

    func testThreeHundredConcurrentGETsToOneOrigin() async throws {
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(), transport: URLSessionTransport(configuration: .ephemeral))
        let tag = UUID().uuidString
        let before = (ProcessResources.openDescriptors ?? 0, ProcessResources.threads ?? 0)
        let peak = ResourcePeak()
        let ports = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<300 { group.addTask { try await client.perform(Self.peer, tag).port } }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        let most = peak.stop()
        print(
            "pool-measure: 300 concurrent GETs, one origin: descriptors \(before.0) before, peak \(most.descriptors);"
                + " threads \(before.1) before, peak \(most.threads); connections (distinct ports) \(ports.count)")
    }

    func testFourHundredOriginsAfterTheIdleTimeout() async throws {
        guard let root = ProcessInfo.processInfo.environment["WEBSERVICEKIT_POOL_MEASURE_URL"].flatMap(URL.init)
        else { throw XCTSkip("WEBSERVICEKIT_POOL_MEASURE_URL is not set") }
        let port = root.port ?? 80
        let transport = URLSessionTransport(configuration: .ephemeral)
        let before = ProcessResources.openDescriptors ?? 0
        let tag = UUID().uuidString
        for index in 0..<400 {
            let host = "127.0.\((index + 2) / 256).\((index + 2) % 256)"
            let client = WebServiceClient(serviceRoot: URL(string: "http://\(host):\(port)/")!, transport: transport)
            _ = try await client.perform(Self.peer, tag)
        }
        let after = ProcessResources.openDescriptors ?? 0
        try await Task.sleep(nanoseconds: 35_000_000_000)
        let idle = ProcessResources.openDescriptors ?? 0
        print("pool-measure: 400 origins: descriptors \(before) before, \(after) after the calls, \(idle) 35 s later")
        withExtendedLifetime(transport) {}
    }
}
