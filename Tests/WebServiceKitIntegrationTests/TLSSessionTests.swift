import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The TLS layer (Transport/TLS): the system's OpenSSL opened at run time, and a TLS session over
/// memory buffers, against an in-process server session with the certificates `Scripts/test`
/// made with openssl (`make_tls_certificates`), and over a socket against the TLS nginx, with
/// curl as the oracle for every verdict.
final class TLSSessionTests: XCTestCase {
    private func library() throws -> OpenSSLLibrary {
        #if os(Linux)
            return try OpenSSLLibrary.shared.get()
        #else
            throw XCTSkip("OpenSSL is used on Linux only")
        #endif
    }

    private func path(_ name: String) throws -> String { try TLSServer.file(name).path }

    /// A client context trusting only the tests' CA (or verifying nothing, for a twin).
    private func clientContext(skipsVerification: Bool = false) throws -> TLSContext {
        try TLSContext.client(
            trust: .init(
                policy: .onlyCertificateAuthorities([
                    try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
                ]),
                testOnlySkipsVerification: skipsVerification),
            library: try library())
    }

    /// A server context with the certificate `name` (`leaf`, `expired`…) and its chain.
    private func serverContext(_ name: String) throws -> TLSContext {
        let chain = name == "self-signed" ? "self-signed.pem" : "\(name)-chain.pem"
        return try TLSContext.server(
            chainFile: try path(chain), keyFile: try path("\(name).key"), library: try library())
    }

    /// Runs the handshake of `client` and `server` in memory: the client's failure, if any.
    private func handshake(_ client: TLSSession, _ server: TLSSession) throws -> TLSFailure? {
        for _ in 0..<20 {
            let clientDone: Bool
            do {
                clientDone = try client.handshake()
            } catch {
                return error
            }
            let toServer = client.takeOutput()
            toServer.withUnsafeBytes { server.receive($0) }
            let serverDone = (try? server.handshake()) ?? false
            let toClient = server.takeOutput()
            toClient.withUnsafeBytes { client.receive($0) }
            if clientDone, serverDone, !client.hasOutput, !server.hasOutput { return nil }
        }
        XCTFail("the handshake did not finish in 20 rounds")
        return nil
    }

    /// Everything `session` can decrypt now.
    private func readAll(_ session: TLSSession) throws -> (bytes: [UInt8], result: TLSSession.ReadResult) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let result = try buffer.withUnsafeMutableBytes { try session.read(into: $0) }
            guard case .bytes(let count) = result else { return (bytes, result) }
            bytes += buffer[..<count]
        }
    }

    // MARK: - Loading

    /// The library opened is the system's: its version is the one the `openssl` command (the
    /// same library's front end) reports.
    func testTheSystemsOpenSSLLoadsAtRunTime() throws {
        let library = try library()
        XCTAssertGreaterThanOrEqual(library.versionNumber, 0x1010_1000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("OpenSSL \(library.version)"), "\(text) against \(library.version)")
    }

    /// A library that is not there is a typed failure that says which, never a crash.
    func testAMissingLibraryIsATypedFailure() {
        guard case .failure(let failure) = OpenSSLLibrary.load(names: ["libssl-not-there.so.9"]) else {
            return XCTFail("a missing library loaded")
        }
        XCTAssertEqual(failure.kind, .unavailable)
        XCTAssertTrue(failure.message.contains("libssl-not-there.so.9"), failure.message)
        XCTAssertEqual(failure.urlError.code, .unsupportedURL)
    }

    // MARK: - In memory

    /// A handshake with a server whose chain ends in the trusted CA, by IP address and by name;
    /// then a request and an answer each way, and `close_notify` read as the end.
    func testAHandshakeAndAnExchangeInMemory() throws {
        for host in ["127.0.0.1", "localhost"] {
            let client = try TLSSession(context: try clientContext(), role: .client(host: host))
            let server = try TLSSession(context: try serverContext("leaf"), role: .server)
            XCTAssertNil(try handshake(client, server), host)
            XCTAssertTrue(client.isEstablished)
            XCTAssertEqual(client.protocolVersion, "TLSv1.3")
            try Array("GET / HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { try client.write($0) }
            client.takeOutput().withUnsafeBytes { server.receive($0) }
            XCTAssertEqual(try readAll(server).bytes, Array("GET / HTTP/1.1\r\n\r\n".utf8))
            let answer = [UInt8](repeating: 0x61, count: 100_000)
            try answer.withUnsafeBytes { try server.write($0) }
            server.close()
            server.takeOutput().withUnsafeBytes { client.receive($0) }
            let (bytes, end) = try readAll(client)
            XCTAssertEqual(bytes, answer)
            XCTAssertEqual(end, .closed, "close_notify ends the data")
        }
    }

    /// A second connection of the same context to the same peer resumes the session the server
    /// gave on the first (a TLS 1.3 ticket, read with the first answer); one to another peer, or
    /// without a peer key, makes a full handshake. The server's side says so too. Each connection
    /// ends with `close_notify` both ways, as the transport's do: OpenSSL marks the session of a
    /// connection freed without it as not resumable.
    func testASecondConnectionToAPeerResumesItsSession() throws {
        let clientContext = try clientContext()
        let serverContext = try serverContext("leaf")
        /// One connection: handshake, an answer read; whether both sides say it resumed.
        func connect(peer: String?) throws -> (client: Bool, server: Bool) {
            let client = try TLSSession(context: clientContext, role: .client(host: "127.0.0.1"), peer: peer)
            let server = try TLSSession(context: serverContext, role: .server)
            XCTAssertNil(try handshake(client, server))
            try Array("answer".utf8).withUnsafeBytes { try server.write($0) }
            server.takeOutput().withUnsafeBytes { client.receive($0) }
            XCTAssertEqual(try readAll(client).bytes, Array("answer".utf8))
            client.close()
            client.takeOutput().withUnsafeBytes { server.receive($0) }
            _ = try readAll(server)
            server.close()
            return (client.isResumed, server.isResumed)
        }
        XCTAssertTrue(clientContext.resumesSessions)
        XCTAssertEqual(try connect(peer: "localhost:443").client, false, "the first is a full handshake")
        let second = try connect(peer: "localhost:443")
        XCTAssertEqual([second.client, second.server], [true, true])
        XCTAssertEqual(try connect(peer: "localhost:8443").client, false, "another peer's session is not offered")
        XCTAssertEqual(try connect(peer: nil).client, false, "without a key nothing is resumed")
        XCTAssertEqual(try connect(peer: "localhost:443").client, true, "the second connection's ticket")
    }

    /// Over TLS 1.2 the server gives its session during the handshake, before the pin check: it is
    /// kept only once the server passed. With the leaf's pin the second connection resumes (and is
    /// not checked again: it was, when made); with a wrong pin every connection is refused and
    /// none resumes, so a refused server's session is never offered.
    func testOverTLS12OnlyAPinnedServersSessionIsResumed() throws {
        let library = try library()
        let serverContext = try serverContext("leaf")
        // SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION).
        XCTAssertEqual(library.api.SSL_CTX_ctrl(serverContext.pointer, 124, 0x0303, nil), 1)
        let authority = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
        func pinned(_ pin: String) throws -> TLSContext {
            try TLSContext.client(
                trust: .init(
                    policy: .pinning(
                        [PublicKeyPin(base64: pin)], backup: [PublicKeyPin(sha256: Data(repeating: 7, count: 32))],
                        additionalCertificateAuthorities: [authority])),
                library: library)
        }
        /// One connection: whether it was refused, and whether it resumed.
        func connect(_ clientContext: TLSContext) throws -> (refused: Bool, resumed: Bool) {
            let client = try TLSSession(context: clientContext, role: .client(host: "localhost"), peer: "localhost:443")
            let server = try TLSSession(context: serverContext, role: .server)
            let failure = try handshake(client, server)
            if failure == nil {
                XCTAssertEqual(client.protocolVersion, "TLSv1.2")
                client.close()
                client.takeOutput().withUnsafeBytes { server.receive($0) }
                _ = try readAll(server)
                server.close()
            }
            return (failure != nil, client.isResumed)
        }
        let right = try pinned(TLSServer.opensslPin("WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256"))
        let first = try connect(right)
        let second = try connect(right)
        XCTAssertEqual([first.refused, first.resumed, second.refused, second.resumed], [false, false, false, true])
        let wrong = try pinned(Data(repeating: 1, count: 32).base64EncodedString())
        let refusals = try (0..<2).map { _ in try connect(wrong) }
        XCTAssertEqual(refusals.map(\.refused), [true, true])
        XCTAssertEqual(refusals.map(\.resumed), [false, false])
    }

    /// Records that arrive one byte at a time are read the same.
    func testRecordsCutAnywhereReadTheSame() throws {
        let client = try TLSSession(context: try clientContext(), role: .client(host: "localhost"))
        let server = try TLSSession(context: try serverContext("leaf"), role: .server)
        XCTAssertNil(try handshake(client, server))
        let answer = (0..<5_000).map { UInt8(truncatingIfNeeded: $0) }
        try answer.withUnsafeBytes { try server.write($0) }
        var received: [UInt8] = []
        for byte in server.takeOutput() {
            [byte].withUnsafeBytes { client.receive($0) }
            received += try readAll(client).bytes
        }
        XCTAssertEqual(received, answer)
    }

    /// A connection that ends without `close_notify` is a typed truncation error, never a short
    /// success.
    func testAnEndWithoutCloseNotifyIsATruncation() throws {
        let client = try TLSSession(context: try clientContext(), role: .client(host: "localhost"))
        let server = try TLSSession(context: try serverContext("leaf"), role: .server)
        XCTAssertNil(try handshake(client, server))
        try Array("partial".utf8).withUnsafeBytes { try server.write($0) }
        server.takeOutput().withUnsafeBytes { client.receive($0) }
        XCTAssertEqual(try readAll(client).bytes, Array("partial".utf8))
        client.receiveEnd()
        var buffer = [UInt8](repeating: 0, count: 16)
        XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try client.read(into: $0) }) { error in
            XCTAssertEqual((error as? TLSFailure)?.kind, .broken)
        }
    }

    /// After a fatal error (a damaged record) the session is not shut down: `close()` queues no
    /// `close_notify` (OpenSSL must not be asked to); on a healthy session it does.
    func testNoCloseNotifyAfterAFatalError() throws {
        let client = try TLSSession(context: try clientContext(), role: .client(host: "localhost"))
        let server = try TLSSession(context: try serverContext("leaf"), role: .server)
        XCTAssertNil(try handshake(client, server))
        try Array("data".utf8).withUnsafeBytes { try server.write($0) }
        var records = server.takeOutput()
        records[records.count - 1] ^= 0x01
        records.withUnsafeBytes { client.receive($0) }
        XCTAssertThrowsError(try readAll(client)) { error in
            XCTAssertEqual((error as? TLSFailure)?.kind, .broken)
        }
        // The fatal alert that says why, if OpenSSL wrote one, goes first.
        _ = client.takeOutput()
        client.close()
        XCTAssertFalse(client.hasOutput, "close_notify after a fatal error")
        server.close()
        XCTAssertTrue(server.hasOutput, "a healthy session says close_notify")
    }

    /// Each refused certificate, by its typed failure and its `URLError` code (the codes Apple's
    /// URLSession and the libcurl route give).
    static let refusals: [(certificate: String, host: String, kind: TLSFailure.Kind, code: URLError.Code)] = [
        ("self-signed", "localhost", .untrusted, .serverCertificateUntrusted),
        ("expired", "localhost", .expired, .serverCertificateHasBadDate),
        ("not-yet-valid", "localhost", .notYetValid, .serverCertificateNotYetValid),
        ("wrong-host", "localhost", .hostMismatch, .serverCertificateUntrusted),
        ("leaf", "example.com", .hostMismatch, .serverCertificateUntrusted),
        ("leaf", "127.0.0.2", .hostMismatch, .serverCertificateUntrusted),
    ]

    func testEachRefusedCertificateHasItsTypedFailure() throws {
        for refusal in Self.refusals {
            let client = try TLSSession(context: try clientContext(), role: .client(host: refusal.host))
            let server = try TLSSession(context: try serverContext(refusal.certificate), role: .server)
            let failure = try XCTUnwrap(try handshake(client, server), "\(refusal.certificate) for \(refusal.host)")
            XCTAssertEqual(failure.kind, refusal.kind, "\(refusal.certificate): \(failure)")
            XCTAssertEqual(failure.urlError.code, refusal.code, "\(refusal.certificate)")
            XCTAssertFalse(client.isEstablished)
        }
    }

    /// The twin of the test above: with verification off (a test-only setting), every one of
    /// those handshakes succeeds, so the refusals are the verification's.
    func testTheRefusalsAreTheVerificationsOwn() throws {
        for refusal in Self.refusals {
            let client = try TLSSession(
                context: try clientContext(skipsVerification: true), role: .client(host: refusal.host))
            let server = try TLSSession(context: try serverContext(refusal.certificate), role: .server)
            XCTAssertNil(try handshake(client, server), "\(refusal.certificate) for \(refusal.host)")
            XCTAssertTrue(client.isEstablished)
        }
    }

    /// A client that trusts only the system's store refuses the tests' CA (it is in no store).
    func testTheSystemStoreDoesNotTrustThePrivateCA() throws {
        let context = try TLSContext.client(trust: .init(), library: try library())
        let client = try TLSSession(context: context, role: .client(host: "localhost"))
        let server = try TLSSession(context: try serverContext("leaf"), role: .server)
        XCTAssertEqual(try handshake(client, server)?.kind, .unknownRoot)
    }

    /// Bytes that are not TLS end the handshake with a typed failure.
    func testGarbageInsteadOfAServerHelloIsAHandshakeFailure() throws {
        let client = try TLSSession(context: try clientContext(), role: .client(host: "localhost"))
        XCTAssertFalse(try client.handshake())
        _ = client.takeOutput()
        Array("HTTP/1.1 200 OK\r\n\r\n".utf8).withUnsafeBytes { client.receive($0) }
        XCTAssertThrowsError(try client.handshake()) { error in
            XCTAssertEqual((error as? TLSFailure)?.kind, .handshake, "\(error)")
        }
    }

    // MARK: - Against nginx, with curl's verdicts

    /// A GET over a socket to each of the TLS nginx's servers: the library's verdict (accepted,
    /// or refused with which failure) is curl's (`curl --cacert`, the same CA), and the accepted
    /// one answers.
    func testVerdictsAgainstNginxAreCurls() throws {
        let servers: [(variable: String, refused: TLSFailure.Kind?)] = [
            ("WEBSERVICEKIT_TLS_URL", nil), ("WEBSERVICEKIT_TLS_SELF_SIGNED_URL", .untrusted),
            ("WEBSERVICEKIT_TLS_EXPIRED_URL", .expired), ("WEBSERVICEKIT_TLS_WRONG_HOST_URL", .hostMismatch),
        ]
        for server in servers {
            let url = try TLSServer.url(server.variable)
            let port = try XCTUnwrap(url.port)
            let curl = try TLSServer.curlAnswers(url.appendingPathComponent("ok"))
            let outcome = try get(port: port, host: "127.0.0.1", path: "/ok")
            switch outcome {
            case .success(let answer):
                XCTAssertNil(server.refused, "\(server.variable) accepted; curl: \(curl)")
                XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), answer)
                XCTAssertTrue(curl, "curl refused what the library accepted: \(server.variable)")
            case .failure(let failure):
                XCTAssertEqual(failure.kind, server.refused, "\(server.variable): \(failure)")
                XCTAssertFalse(curl, "curl accepted what the library refused: \(server.variable)")
            }
        }
    }

    /// `GET path` over TLS on a blocking socket to 127.0.0.1:`port`: the answer's text up to the
    /// server's close, or the TLS failure.
    private func get(port: Int, host: String, path: String) throws -> Result<String, TLSFailure> {
        let session = try TLSSession(context: try clientContext(), role: .client(host: host))
        let socket = try TestSocket(port: port)
        defer { socket.close() }
        do {
            while try !session.handshake() {
                try socket.send(session.takeOutput())
                let bytes = try socket.receive()
                if bytes.isEmpty { session.receiveEnd() }
                bytes.withUnsafeBytes { session.receive($0) }
            }
            try socket.send(session.takeOutput())
            let request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
            try Array(request.utf8).withUnsafeBytes { try session.write($0) }
            try socket.send(session.takeOutput())
            var answer: [UInt8] = []
            while true {
                let (bytes, result) = try readAll(session)
                answer += bytes
                if result == .closed { break }
                let received = try socket.receive()
                if received.isEmpty { session.receiveEnd() }
                received.withUnsafeBytes { session.receive($0) }
            }
            return .success(String(decoding: answer, as: UTF8.self))
        } catch let failure as TLSFailure {
            try? socket.send(session.takeOutput())
            return .failure(failure)
        }
    }
}

/// A blocking TCP socket to 127.0.0.1, for the tests' TLS exchanges.
private struct TestSocket {
    let descriptor: Int32

    init(port: Int) throws {
        #if os(Linux)
            descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { throw URLError(.cannotConnectToHost) }
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard sent > 0 else { throw URLError(.networkConnectionLost) }
            offset += sent
        }
    }

    func receive() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw URLError(.timedOut) }
        return Array(buffer[..<count])
    }

    func close() {
        #if os(Linux)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
