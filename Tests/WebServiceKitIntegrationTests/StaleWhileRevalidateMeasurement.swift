import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Measures (prints, asserts no time) how long a call for a stale stored
/// response takes with `stale-while-revalidate` (served at once, validated in the background)
/// and without it (the call waits for the server's 304), against the fault server's `/script`,
/// on the direct HTTP/1.1 route, with the server answering at once and 50 ms late.
///
/// Runs only with `WEBSERVICEKIT_SWR_MEASURE=1`, against the fault server of
/// `WEBSERVICEKIT_FAULT_URL`.
final class StaleWhileRevalidateMeasurement: XCTestCase {
    private typealias Step = ScriptStep

    override func setUp() async throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["WEBSERVICEKIT_SWR_MEASURE"] == "1")
    }

    private func call(_ steps: [Step], tag: String) throws -> WebServiceCall<String> {
        WebServiceCall<String>(relativePath: try FaultScript.path(steps, tag: tag))
    }

    /// The median and 90th percentile, in milliseconds, of the stale call over `rounds` rounds;
    /// each round stores a response stale at once (`Age: 20`, `max-age=10`) under a new tag.
    private func staleCall(window: Bool, delay: Double, rounds: Int) async throws -> (median: Double, p90: Double) {
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(),
            transport: RoutingTransport(configuration: .ephemeral, usesDirectHTTP1: true))
        let cache = HTTPCache()
        client.cache = cache
        let cacheControl = "max-age=10" + (window ? ", stale-while-revalidate=100" : "")
        var times: [Double] = []
        for _ in 0..<rounds {
            let call = try call(
                [
                    Step(headers: [["Cache-Control", cacheControl], ["Age", "20"], ["ETag", "\"v1\""]], body: "v1"),
                    Step(
                        status: 304, headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=3600"]], delay: delay),
                ],
                tag: "swr-measure-" + UUID().uuidString.lowercased())
            _ = try await client.response(for: call)
            let start = ContinuousClock.now
            let stale = try await client.response(for: call)
            let elapsed = ContinuousClock.now - start
            XCTAssertEqual(stale.source, window ? .staleCache : .revalidatedCache)
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
            await cache.backgroundRevalidationsFinished()
        }
        times.sort()
        return (times[times.count / 2], times[times.count * 9 / 10])
    }

    func testTheStaleCallDoesNotWaitForTheServer() async throws {
        for delay in [0, 0.05] {
            let rounds = delay == 0 ? 300 : 60
            let waiting = try await staleCall(window: false, delay: delay, rounds: rounds)
            let served = try await staleCall(window: true, delay: delay, rounds: rounds)
            print(
                String(
                    format: "stale call, server delay %.0f ms, %d rounds: waits for the 304 %.3f ms (p90 %.3f), "
                        + "stale-while-revalidate %.3f ms (p90 %.3f)",
                    delay * 1000, rounds, waiting.median, waiting.p90, served.median, served.p90))
        }
    }
}
