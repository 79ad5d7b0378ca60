import Foundation
import WebServiceKit
import WebServiceKitChaos
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chaos soak's short form (Docs/Reliability.md, "The chaos soak"): 20,000 calls of every
/// kind (GET, HEAD, POST, POST marked idempotent, SSE streams) from 64 tasks against a server that
/// picks a misbehaviour at random for every request (Tests/Servers/chaos_server.py), half with the
/// retry policy off and half with it on. Every call is checked against what the server wrote down
/// (`ChaosVerdict`): no call gets another request's answer unless an extra response raced its
/// request (which no client can see), no POST goes twice or as a head without its body, no
/// idempotent call fails because a reused connection was stale, every failure is the one the
/// server's behaviour implies, streams deliver exactly the events written whole and end as their
/// framing says. Descriptors come back after the rounds.
///
/// `WEBSERVICEKIT_CHAOS_CALLS` sets the calls per round (10,000), `WEBSERVICEKIT_CHAOS_KINDS` the
/// kinds of call (`get,head,post,post-idem,sse`: one of each; the default mix otherwise).
final class ChaosSoakTests: XCTestCase {
    private static var calls: Int {
        ProcessInfo.processInfo.environment["WEBSERVICEKIT_CHAOS_CALLS"].flatMap { Int($0) } ?? 10_000
    }

    func testNoCallGetsAnotherCallsAnswerOrIsSentTwice() async throws {
        let server = try HTTPBin.serverURL("WEBSERVICEKIT_CHAOS_URL", file: #filePath, line: #line)
        let run = "soak\(UInt32.random(in: 0...UInt32.max))"
        // A short round first: the event loops, the runtime's threads and Foundation's caches
        // start, and the descriptors and threads after it are the baseline the rounds return to.
        var warmUp = soak(server, calls: 500, retries: false)
        warmUp.mix = ChaosKind.allCases
        let warmUpReport = try await warmUp.run("\(run)w", on: warmUp.makeClient())
        XCTAssertEqual(warmUpReport.violationCount, 0, "warm-up: \(warmUpReport)")
        let baseline = (ProcessResources.openDescriptors, ProcessResources.threads)
        for retries in [false, true] {
            let soak = soak(server, calls: Self.calls, retries: retries)
            let report = try await soak.run("\(run)\(retries ? "r" : "n")", on: soak.makeClient())
            print("ChaosSoakTests, retries \(retries ? "on" : "off"): \(report)")
            XCTAssertEqual(report.violationCount, 0, "retries \(retries ? "on" : "off"): \(report)")
            XCTAssertEqual(report.calls, Self.calls)
            // The soak met what it is for: extra responses, resends and failures of every kind.
            XCTAssertGreaterThan(report.extras, 0)
            XCTAssertGreaterThan(report.resends, 0)
            XCTAssertGreaterThan(report.failed, 0)
            XCTAssertGreaterThan(report.succeeded, report.failed)
            // The round's client is gone: its connections close, and the descriptors and threads
            // come back to the baseline.
            if let descriptors = baseline.0, let threads = baseline.1 {
                let back = await ProcessResources.eventually(within: 60) {
                    (ProcessResources.openDescriptors ?? .max) <= descriptors
                        && (ProcessResources.threads ?? .max) <= threads + 2
                }
                XCTAssertTrue(
                    back,
                    "descriptors \(descriptors) and threads \(threads) before the round, "
                        + "\(ProcessResources.openDescriptors ?? -1) and \(ProcessResources.threads ?? -1) after")
            }
        }
    }

    private func soak(_ server: URL, calls: Int, retries: Bool) -> ChaosSoak {
        var soak = ChaosSoak(server: server, calls: calls, concurrency: 64, retries: retries)
        if let kinds = ProcessInfo.processInfo.environment["WEBSERVICEKIT_CHAOS_KINDS"] {
            soak.mix = kinds.split(separator: ",").compactMap { ChaosKind(rawValue: String($0)) }
        }
        return soak
    }
}

/// The soak's checks can fail: the chaos server's modes that break one invariant on purpose are
/// each caught end to end (the server's records fetched, matched by nonce, judged).
final class ChaosSoakTwinTests: XCTestCase {
    private func report(breaking: String, kinds: [ChaosKind]) async throws -> ChaosReport {
        let server = try HTTPBin.serverURL("WEBSERVICEKIT_CHAOS_URL", file: #filePath, line: #line)
        var soak = ChaosSoak(server: server, calls: 200, concurrency: 8, retries: false)
        soak.breaking = breaking
        soak.mix = kinds
        return try await soak.run("twin\(breaking)\(UInt32.random(in: 0...UInt32.max))", on: soak.makeClient())
    }

    /// An extra response before the answer, which no client can tell from it.
    func testAWrongAnswerIsCaught() async throws {
        let report = try await report(breaking: "early-extra", kinds: [.get, .post])
        XCTAssertEqual(report.violations[.wrongAnswer], 200, "\(report)")
    }

    /// The server answers plainly and writes nothing down: every success is one it never
    /// answered.
    func testASuccessTheServerNeverAnsweredIsCaught() async throws {
        let report = try await report(breaking: "forget", kinds: [.get, .head, .postIdempotent])
        XCTAssertEqual(report.violations[.successUnanswered], 200, "\(report)")
    }

    /// One event more written down than sent: every stream is short of one.
    func testAStreamShortOfAnEventIsCaught() async throws {
        let report = try await report(breaking: "miscount", kinds: [.sse])
        XCTAssertEqual(report.violations[.streamEvents], 200, "\(report)")
    }
}
