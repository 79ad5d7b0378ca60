import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP/1.1 transport's connection caps: the default total from the descriptor limit, the
/// public setting, and the error of a connection that finds no descriptor left. No server.
final class ConnectionLimitsTests: XCTestCase {
    func testTheLoopsDefaultTotalLeavesAQuarterOfTheDescriptorsToTheRestOfTheProcess() {
        // One descriptor per connection on the event loop; the figures of the `///` comment.
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: 1_024), 768)
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: 8_192), 6_144)
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: 256), 192, "a reserve of 64 at least")
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: 200), 136)
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: 1_048_576), 65_536)
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: .max), 65_536, "no limit")
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: 64), 16, "never below 16")
        XCTAssertEqual(ConnectionPool.loopTotal(softDescriptorLimit: 0), 16)
        XCTAssertEqual(ConnectionPool.defaultTotal(softDescriptorLimit: nil), 64, "an unknown limit")
    }

    func testTheDefaultTotalFollowsThePlatformsRule() throws {
        let limit = try XCTUnwrap(ConnectionPool.softDescriptorLimit())
        #if os(Linux) && canImport(CWebServiceKitSystem)
            XCTAssertEqual(UInt64(ConnectionPool.defaultTotal), ConnectionPool.loopTotal(softDescriptorLimit: limit))
            // A connection holds one descriptor: the cap never takes more than three quarters.
            XCTAssertLessThanOrEqual(UInt64(ConnectionPool.defaultTotal), max(16, limit / 4 * 3 + 1))
        #else
            // The blocking path keeps its rule: three descriptors and a thread per connection.
            XCTAssertEqual(ConnectionPool.defaultTotal, Int(min(256, max(4, limit / 12))))
        #endif
        XCTAssertEqual(HTTP1Transport.ConnectionLimits.defaultTotal, ConnectionPool.defaultTotal)
    }

    func testACapLeftUnsetKeepsItsDefault() {
        let configuration = URLSessionConfiguration.ephemeral
        let transport = HTTP1Transport(configuration: configuration)
        XCTAssertEqual(
            transport.connectionLimits,
            .init(perOrigin: configuration.httpMaximumConnectionsPerHost, total: ConnectionPool.defaultTotal))
        XCTAssertEqual(transport.connectionLimits.perOrigin, 6, "Foundation's default for .ephemeral")
        let totalOnly = HTTP1Transport(configuration: configuration, connectionLimits: .init(total: 10))
        XCTAssertEqual(totalOnly.connectionLimits, .init(perOrigin: 6, total: 10))
        let perOriginOnly = HTTP1Transport(configuration: configuration, connectionLimits: .init(perOrigin: 1_000))
        XCTAssertEqual(perOriginOnly.connectionLimits, .init(perOrigin: 1_000, total: ConnectionPool.defaultTotal))
    }

    /// One set of caps for every route: a routing transport's per-origin cap is its session's
    /// per-host cap too (for the requests a proxy or a missing OpenSSL sends there), and the
    /// caller's configuration is left as it was; without one, the session keeps the configuration's.
    func testTheSessionsPerHostCapFollowsThePerOriginCap() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 3
        let capped = RoutingTransport.peers(
            for: configuration, usesDirectHTTP1: true, connectionLimits: .init(perOrigin: 1_024))
        XCTAssertEqual(capped.session.session.configuration.httpMaximumConnectionsPerHost, 1_024)
        XCTAssertEqual(capped.http1?.connectionLimits.perOrigin, 1_024)
        XCTAssertEqual(configuration.httpMaximumConnectionsPerHost, 3, "the caller's configuration is untouched")
        let uncapped = RoutingTransport.peers(for: configuration, usesDirectHTTP1: true)
        XCTAssertEqual(uncapped.session.session.configuration.httpMaximumConnectionsPerHost, 3)
    }

    func testTheSetCapsReplaceTheConfigurationsAndReachThePool() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 3
        let transport = HTTP1Transport(
            configuration: configuration, connectionLimits: .init(perOrigin: 4_096, total: 5_000))
        XCTAssertEqual(transport.connectionLimits, .init(perOrigin: 4_096, total: 5_000))
        XCTAssertEqual(transport.pool.limits.perOrigin, 4_096)
        XCTAssertEqual(transport.pool.limits.total, 5_000)
        XCTAssertEqual(transport.pool.limits.idleTimeout, ConnectionPool.defaultIdleTimeout)
        // A cap below 1 counts as 1.
        let tiny = HTTP1Transport(configuration: configuration, connectionLimits: .init(perOrigin: 0, total: -5))
        XCTAssertEqual(tiny.connectionLimits, .init(perOrigin: 1, total: 1))
    }

    func testTheRoutingTransportPassesItsCapsToItsHTTP1Peer() throws {
        let peers = RoutingTransport.peers(
            for: .ephemeral, usesDirectHTTP1: true, connectionLimits: .init(perOrigin: 1_024, total: 2_048))
        let http1 = try XCTUnwrap(peers.http1)
        XCTAssertEqual(http1.connectionLimits, .init(perOrigin: 1_024, total: 2_048))
        let defaults = try XCTUnwrap(RoutingTransport.peers(for: .ephemeral, usesDirectHTTP1: true).http1)
        XCTAssertEqual(defaults.connectionLimits, .init(perOrigin: 6, total: ConnectionPool.defaultTotal))
        // The public initializer takes them too.
        _ = RoutingTransport(configuration: .ephemeral, connectionLimits: .init(perOrigin: 64))
    }

    func testAConnectionWithoutADescriptorFailsSayingTooManyOpenFiles() throws {
        let error = SocketOperations.connectionFailure(.init(code: EMFILE), name: "127.0.0.1:8080")
        XCTAssertEqual(error.code, .cannotConnectToHost)
        XCTAssertTrue(error.localizedDescription.contains("too many open files"), error.localizedDescription)
        XCTAssertTrue(error.localizedDescription.contains("127.0.0.1:8080"), error.localizedDescription)
        let underlying = try XCTUnwrap(error.userInfo[NSUnderlyingErrorKey] as? POSIXError)
        XCTAssertEqual(underlying.code, .EMFILE)
        XCTAssertTrue(SocketOperations.isOutOfDescriptors(.init(code: EMFILE)))

        let system = SocketOperations.connectionFailure(.init(code: ENFILE), name: "h:80")
        XCTAssertEqual(system.code, .cannotConnectToHost)
        XCTAssertTrue(system.localizedDescription.contains("too many open files"), system.localizedDescription)
        XCTAssertEqual((system.userInfo[NSUnderlyingErrorKey] as? POSIXError)?.code, .ENFILE)
        XCTAssertTrue(SocketOperations.isOutOfDescriptors(.init(code: ENFILE)))

        // Any other failure keeps its own words, and its code underneath.
        let refused = SocketOperations.connectionFailure(.init(code: ECONNREFUSED), name: "h:80")
        XCTAssertEqual(refused.code, .cannotConnectToHost)
        XCTAssertFalse(refused.localizedDescription.contains("too many open files"))
        XCTAssertEqual((refused.userInfo[NSUnderlyingErrorKey] as? POSIXError)?.code, .ECONNREFUSED)
        XCTAssertFalse(SocketOperations.isOutOfDescriptors(.init(code: ECONNREFUSED)))
    }

    func testAWrappedFailureSaysTooManyOpenFiles() {
        // What a caller of the client prints.
        let error = WebServiceError.transport(SocketOperations.connectionFailure(.init(code: EMFILE), name: "h:80"))
        XCTAssertTrue(error.description.contains("too many open files"), error.description)
    }
}
