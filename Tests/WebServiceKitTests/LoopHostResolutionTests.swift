import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if os(Linux) && canImport(CWebServiceKitSystem) && canImport(Glibc)
    import Glibc

    /// Where a kept-alive exchange on the event loop resolves its host: a numeric address on the
    /// loop (no resolver thread), a name on ``HostResolver``. Against a listening socket of the
    /// test's own on 127.0.0.1 that answers each connection's request once.
    final class LoopHostResolutionTests: XCTestCase {
        private var loop: EventLoop!

        override func setUp() async throws { loop = try EventLoop(name: "test-resolve") }

        override func tearDown() async throws { loop.shutdown() }

        /// A listening socket on 127.0.0.1 and its port.
        private func listener() throws -> (fd: Int32, port: Int) { try loopbackListener() }

        /// Accepts `count` connections one after another; on each, reads the request head and
        /// answers `200` with the body `ok`, then closes.
        private func serve(_ listening: Int32, connections count: Int) {
            Thread {
                for _ in 0..<count {
                    let peer = accept(listening, nil, nil)
                    guard peer >= 0 else { return }
                    var request: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 1024)
                    while !request.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
                        let got = buffer.withUnsafeMutableBytes { read(peer, $0.baseAddress, $0.count) }
                        if got <= 0 { break }
                        request += buffer[..<got]
                    }
                    let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                    _ = answer.withCString { write(peer, $0, strlen($0)) }
                    close(peer)
                }
            }.start()
        }

        private func get(_ url: URL, resolver: HostResolver) async throws -> TransportResponse {
            let context = TransportContext(
                call: CallDescriptor(CallFields(relativePath: "x"), supportsSerializationRoot: false),
                uploadLength: nil, progress: nil,
                responseBody: ResponseBodySink(maximumSize: nil, download: nil, progress: nil))
            let connection = LoopConnection(loop: loop)
            defer { connection.close() }
            let outcome = try await HTTP1Exchange.run(
                WebServiceRequest(url: url), url: url, on: connection, deadline: nil, context: context,
                resolver: resolver)
            return outcome.response
        }

        func testANumericHostIsResolvedWithoutTheResolverAndANameWithIt() async throws {
            let (listening, port) = try listener()
            defer { close(listening) }
            serve(listening, connections: 2)
            let resolver = HostResolver(width: 1)
            let numeric = try await get(try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/x")), resolver: resolver)
            XCTAssertEqual(numeric.statusCode, 200)
            XCTAssertEqual(numeric.body, Data("ok".utf8))
            XCTAssertEqual(resolver.lookups, 0, "a numeric host needs no lookup")
            // A name (every address it has is tried: ::1 may come first and be refused).
            let named = try await get(try XCTUnwrap(URL(string: "http://localhost:\(port)/x")), resolver: resolver)
            XCTAssertEqual(named.statusCode, 200)
            XCTAssertEqual(resolver.lookups, 1)
        }
    }
#endif
