import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bridge stage against httpbin, which echoes what arrived: the request a network interceptor
/// (and so the log and the cache) sees is the request the server gets, on each route, but for the
/// few fields the connection itself owns.
final class BridgeIntegrationTests: XCTestCase {
    /// Records the last request it saw, as network interceptors (and the log) see it.
    private final class Recorder: WebServiceInterceptor, @unchecked Sendable {
        private let lock = NSLock()
        private var seen: WebServiceRequest?
        var request: WebServiceRequest? { lock.withLock { seen } }

        func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
            lock.withLock { seen = request }
            return .proceed(request)
        }
    }

    private static let anything = WebServiceCall<Echo>(method: .post, relativePath: "anything")
    private static let get = WebServiceCall<Echo>(relativePath: "anything?q=1")

    /// The transports, each alone in its client, and the fields each may add below the stages.
    private func routes() -> [(name: String, transport: any WebServiceTransport, owns: Set<String>)] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["X-Session": "from the configuration"]
        // libcurl adds Accept-Language on Linux; neither adds anything else.
        return [
            ("HTTP/1.1", HTTP1Transport(configuration: configuration), ["host", "connection"]),
            (
                "session", URLSessionTransport(sessionConfiguration: configuration),
                ["host", "connection", "accept-language"]
            ),
        ]
    }

    func testTheNetworkInterceptorsSeeWhatTheServerGets() async throws {
        for route in routes() {
            let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: route.transport)
            let recorder = Recorder()
            client.networkInterceptors = [recorder]
            let calls: [(WebServiceCall<Echo>, RequestBody?)] = [
                (Self.get, nil), (Self.anything, RequestBody.data(Data("{\"a\":1}".utf8))),
            ]
            for (call, body) in calls {
                let echo: Echo
                if let body {
                    echo = try await client.perform(call, body)
                } else {
                    echo = try await client.perform(call)
                }
                let seen = try XCTUnwrap(recorder.request?.allHTTPHeaderFields, route.name)
                var arrived: [String: String] = [:]
                for (name, value) in echo.headers { arrived[name.lowercased()] = value }
                for (name, value) in seen {
                    XCTAssertEqual(arrived[name.lowercased()], value, "\(route.name): \(name)")
                }
                let seenNames = Set(seen.keys.map { $0.lowercased() })
                let added = Set(arrived.keys).subtracting(seenNames).subtracting(route.owns)
                XCTAssertEqual(added, [], "\(route.name): fields the stages never saw")
                XCTAssertEqual(seen["User-Agent"], RequestBridge.userAgent, route.name)
                XCTAssertEqual(seen["Accept-Encoding"], "gzip, deflate", route.name)
                XCTAssertEqual(seen["X-Session"], "from the configuration", route.name)
                if body != nil {
                    XCTAssertEqual(echo.data, "{\"a\":1}", route.name)
                    XCTAssertEqual(seen["Content-Length"], "7", route.name)
                    XCTAssertEqual(seen["Content-Type"], "application/octet-stream", route.name)
                }
            }
        }
    }

    /// A gzip body the bridge asked for arrives decoded on each route, without its
    /// `Content-Encoding`.
    func testAGzipAnswerArrivesDecodedOnEachRoute() async throws {
        struct Gzipped: Decodable, Sendable { let gzipped: Bool }
        for route in routes() {
            let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: route.transport)
            let response = try await client.response(for: WebServiceCall<Gzipped>(relativePath: "gzip"))
            XCTAssertTrue(response.value.gzipped, route.name)
            XCTAssertNil(response.headers["Content-Encoding"], route.name)
        }
    }

    /// A network interceptor that changes the body in memory must change `Content-Length` with it:
    /// the session would send the old length as it stands. The check refuses the call, typed; its
    /// twin, which sets the new length, goes through.
    func testABodyChangedBelowTheBridgeNeedsItsLength() async throws {
        struct Rewrite: WebServiceInterceptor {
            let setsLength: Bool
            func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
                var request = request
                request.httpBody = Data("longer body".utf8)
                if setsLength { request.setValue("11", forHTTPHeaderField: "Content-Length") }
                return .proceed(request)
            }
        }
        for route in routes() {
            let client = WebServiceClient(serviceRoot: try HTTPBin.url(), transport: route.transport)
            client.networkInterceptors = [Rewrite(setsLength: false)]
            do {
                _ = try await client.perform(Self.anything, RequestBody.data(Data("short".utf8)))
                XCTFail("\(route.name): sent with a stale Content-Length")
            } catch {
                guard case .invalidHeader(let name, let reason) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(name, "Content-Length", route.name)
                XCTAssertTrue(reason.contains("11 bytes"), reason)
            }
            client.networkInterceptors = [Rewrite(setsLength: true)]
            let echo = try await client.perform(Self.anything, RequestBody.data(Data("short".utf8)))
            XCTAssertEqual(echo.data, "longer body", route.name)
        }
    }
}
