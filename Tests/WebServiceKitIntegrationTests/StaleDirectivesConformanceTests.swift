import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 22, item 7, against a real server on 127.0.0.1: `stale-while-revalidate` and
/// `stale-if-error` (RFC 5861) and `immutable` (RFC 8246). The fault server's `/script` plays a
/// scripted answer per request (a stored answer made stale at once by its `Age`, a 304, a
/// connection dropped before the response or mid-body) and `/script-log` shows what each
/// request carried. Each test runs on both routes: the direct HTTP/1.1 transport and the
/// session.
final class StaleDirectivesConformanceTests: XCTestCase {
    private typealias Step = ScriptStep

    private static let routes = [true, false]

    /// A client with an empty cache, on the fault server, over the direct HTTP/1.1 transport or
    /// the session.
    private func client(direct: Bool) throws -> (WebServiceClient, HTTPCache) {
        let client = WebServiceClient(
            serviceRoot: try FaultServer.url(),
            transport: RoutingTransport(configuration: .ephemeral, usesDirectHTTP1: direct))
        let cache = HTTPCache()
        client.cache = cache
        return (client, cache)
    }

    private func call(_ steps: [Step], tag: String, headers: [String: String] = [:], cache: CachePolicy = .automatic)
        throws -> WebServiceCall<String>
    {
        WebServiceCall<String>(relativePath: try FaultScript.path(steps, tag: tag), headers: headers, cache: cache)
    }

    /// Stored at age 20 with a lifetime of 10: stale at once, inside a 100 s window.
    private static let staleWithinTheWindow = Step(
        headers: [
            ["Cache-Control", "max-age=10, stale-while-revalidate=100"], ["Age", "20"], ["ETag", "\"v1\""],
        ],
        body: "v1")

    // MARK: - stale-while-revalidate (RFC 5861 §3)

    /// The stale answer at once, the validation in the background; its 304 freshens the store.
    func testStaleWhileRevalidateServesStaleAndFreshensInTheBackground() async throws {
        for direct in Self.routes {
            let tag = FaultScript.newTag("stale")
            let (client, cache) = try client(direct: direct)
            let call = try call(
                [
                    Self.staleWithinTheWindow,
                    Step(status: 304, headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=3600"]]),
                ],
                tag: tag)
            let first = try await client.response(for: call)
            XCTAssertEqual(first.source, .network, "direct: \(direct)")
            let second = try await client.response(for: call)
            XCTAssertEqual(second.source, .staleCache, "direct: \(direct)")
            XCTAssertEqual(second.value, "v1", "direct: \(direct)")
            XCTAssertGreaterThanOrEqual(Int(second.headers["Age"] ?? "") ?? -1, 20, "direct: \(direct)")
            await cache.backgroundRevalidationsFinished()
            let sent = try await FaultScript.requests(tag)
            XCTAssertEqual(sent.count, 2, "direct: \(direct)")
            XCTAssertEqual(sent.last?["if-none-match"], "\"v1\"", "direct: \(direct)")
            let third = try await client.response(for: call)
            XCTAssertEqual(third.source, .cache, "direct: \(direct)")
            XCTAssertEqual(third.value, "v1", "direct: \(direct)")
            let after = try await FaultScript.requests(tag).count
            XCTAssertEqual(after, 2, "direct: \(direct)")
        }
    }

    /// A full answer to the background validation replaces the stored response.
    func testStaleWhileRevalidateStoresTheNewAnswer() async throws {
        for direct in Self.routes {
            let tag = FaultScript.newTag("stale")
            let (client, cache) = try client(direct: direct)
            let call = try call(
                [
                    Self.staleWithinTheWindow,
                    Step(headers: [["Cache-Control", "max-age=3600"], ["ETag", "\"v2\""]], body: "v2"),
                ],
                tag: tag)
            _ = try await client.response(for: call)
            let stale = try await client.response(for: call)
            XCTAssertEqual(stale.value, "v1", "direct: \(direct)")
            await cache.backgroundRevalidationsFinished()
            let fresh = try await client.response(for: call)
            XCTAssertEqual(fresh.source, .cache, "direct: \(direct)")
            XCTAssertEqual(fresh.value, "v2", "direct: \(direct)")
        }
    }

    /// A background validation whose connection drops leaves the stored response as it was: the
    /// next call is served stale again and validates again.
    func testAFailedBackgroundValidationLeavesTheStoredResponse() async throws {
        for direct in Self.routes {
            for drop in ["before-headers", "mid-body"] {
                let tag = FaultScript.newTag("stale")
                let (client, cache) = try client(direct: direct)
                let call = try call(
                    [
                        Self.staleWithinTheWindow,
                        Step(headers: [["Cache-Control", "max-age=3600"]], body: "cut", drop: drop),
                        Step(status: 304, headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=3600"]]),
                    ],
                    tag: tag)
                _ = try await client.response(for: call)
                _ = try await client.response(for: call)
                await cache.backgroundRevalidationsFinished()
                let again = try await client.response(for: call)
                XCTAssertEqual(again.source, .staleCache, "\(drop), direct: \(direct)")
                XCTAssertEqual(again.value, "v1", "\(drop), direct: \(direct)")
                await cache.backgroundRevalidationsFinished()
                let fresh = try await client.response(for: call)
                XCTAssertEqual(fresh.source, .cache, "\(drop), direct: \(direct)")
                let sent = try await FaultScript.requests(tag).count
                XCTAssertEqual(sent, 3, "\(drop), direct: \(direct)")
            }
        }
    }

    /// Past the window, the call waits for the validation.
    func testPastTheWindowTheCallWaits() async throws {
        for direct in Self.routes {
            let tag = FaultScript.newTag("stale")
            let (client, _) = try client(direct: direct)
            let call = try call(
                [
                    Step(
                        headers: [
                            ["Cache-Control", "max-age=10, stale-while-revalidate=100"], ["Age", "200"],
                            ["ETag", "\"v1\""],
                        ],
                        body: "v1"),
                    Step(status: 304, headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=3600"]]),
                ],
                tag: tag)
            _ = try await client.response(for: call)
            let second = try await client.response(for: call)
            XCTAssertEqual(second.source, .revalidatedCache, "direct: \(direct)")
        }
    }

    // MARK: - stale-if-error on a dropped connection (RFC 5861 §4)

    /// A connection dropped before the response or in the middle of its body fails with
    /// `.transport(URLError(.networkConnectionLost))` on both routes; `stale-if-error` serves the
    /// stale answer for it, and without the directive the call fails with that error.
    func testStaleIfErrorServesStaleWhenTheConnectionDrops() async throws {
        for direct in Self.routes {
            for drop in ["before-headers", "mid-body"] {
                for staleIfError in [true, false] {
                    let tag = FaultScript.newTag("stale")
                    let (client, _) = try client(direct: direct)
                    let cacheControl = "max-age=10" + (staleIfError ? ", stale-if-error=100" : "")
                    let call = try call(
                        [
                            Step(headers: [["Cache-Control", cacheControl], ["Age", "20"]], body: "v1"),
                            Step(headers: [["Cache-Control", "max-age=3600"]], body: "cut short", drop: drop),
                        ],
                        tag: tag)
                    let label = "\(drop), direct: \(direct), stale-if-error: \(staleIfError)"
                    _ = try await client.response(for: call)
                    do {
                        let second = try await client.response(for: call)
                        XCTAssertTrue(staleIfError, label)
                        XCTAssertEqual(second.source, .staleCache, label)
                        XCTAssertEqual(second.value, "v1", label)
                    } catch {
                        XCTAssertFalse(staleIfError, "\(label): \(error)")
                        guard case .transport(let underlying) = error.reason else {
                            XCTFail("\(label): \(error)")
                            continue
                        }
                        XCTAssertEqual(underlying.code, .networkConnectionLost, label)
                    }
                    let sent = try await FaultScript.requests(tag).count
                    XCTAssertEqual(sent, 2, label)
                }
            }
        }
    }

    // MARK: - immutable (RFC 8246)

    /// A reload does not revalidate a fresh immutable response; `.forceNetwork` (the force
    /// reload) goes to the server. Without `immutable`, the reload validates.
    func testImmutableSparesReloadsWhileFresh() async throws {
        for direct in Self.routes {
            for immutable in [true, false] {
                let tag = FaultScript.newTag("stale")
                let (client, _) = try client(direct: direct)
                let label = "immutable: \(immutable), direct: \(direct)"
                // The reloads of a response that is not immutable get 304s; the force reload a
                // new answer.
                let notModified = Step(status: 304, headers: [["ETag", "\"v1\""], ["Cache-Control", "max-age=3600"]])
                let steps =
                    [
                        Step(
                            headers: [
                                ["Cache-Control", "max-age=3600" + (immutable ? ", immutable" : "")],
                                ["ETag", "\"v1\""],
                            ],
                            body: "v1")
                    ] + (immutable ? [] : [notModified, notModified, notModified])
                    + [Step(headers: [["Cache-Control", "max-age=3600"]], body: "v2")]
                _ = try await client.response(for: try call(steps, tag: tag))
                let reloads: [[String: String]] = [
                    ["Cache-Control": "no-cache"], ["Cache-Control": "max-age=0"], ["Pragma": "no-cache"],
                ]
                for headers in reloads {
                    let reload = try await client.response(for: try call(steps, tag: tag, headers: headers))
                    XCTAssertEqual(reload.source, immutable ? .cache : .revalidatedCache, "\(label), \(headers)")
                    XCTAssertEqual(reload.value, "v1", "\(label), \(headers)")
                }
                let sent = try await FaultScript.requests(tag)
                XCTAssertEqual(sent.count, immutable ? 1 : 4, label)
                let forced = try await client.response(for: try call(steps, tag: tag, cache: .forceNetwork))
                XCTAssertEqual(forced.source, .network, label)
                XCTAssertEqual(forced.value, "v2", label)
                let afterForce = try await FaultScript.requests(tag)
                XCTAssertEqual(afterForce.count, immutable ? 2 : 5, label)
                XCTAssertNil(afterForce.last?["if-none-match"], label)
            }
        }
    }
}
