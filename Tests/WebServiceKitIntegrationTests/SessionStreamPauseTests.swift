import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A streamed call over ``URLSessionTransport`` goes on across pauses in its body. Its request
/// reaches the transport without a deadline (the call's timeout is kept above it, as a bound
/// between pieces of the body); Foundation on Linux took that `timeoutInterval` of 0 as no time
/// at all and failed the body with `.timedOut` at its first pause.
final class SessionStreamPauseTests: XCTestCase {
    func testAStreamWithPausesBetweenEventsGoesOnOverTheSessionRoute() async throws {
        let root = try HTTPBin.serverURL("WEBSERVICEKIT_STREAM_URL", file: #filePath, line: #line)
        let client = WebServiceClient(
            serviceRoot: root, transport: URLSessionTransport(sessionConfiguration: .ephemeral))
        // The stream server's /endless sends one event every 50 ms until the client goes away.
        let call = WebServiceCall<ResponseStream<ServerSentEvent>>(
            relativePath: "endless?tag=session-pause&interval=50", timeout: 30, stream: .serverSentEvents)
        var events: [ServerSentEvent] = []
        for try await event in try await client.stream(call) {
            events.append(event)
            if events.count == 4 { break }
        }
        XCTAssertEqual(events.map(\.id), ["1", "2", "3", "4"])
        XCTAssertEqual(events.map(\.data), (1...4).map { "{\"n\":\($0)}" })
    }
}
