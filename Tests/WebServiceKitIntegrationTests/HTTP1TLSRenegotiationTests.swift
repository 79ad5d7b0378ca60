import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server that asks for renegotiation in the middle of an exchange (TLS 1.2's HelloRequest):
/// `openssl s_server`, driven through its standard input (`r` renegotiates once the request came,
/// then the answer is written), with the certificates of `Scripts/test`. The library's TLS
/// context refuses renegotiation (`SSL_OP_NO_RENEGOTIATION`: a `no_renegotiation` warning instead
/// of a new ClientHello, RFC 5246 §7.2.2 leaves the server to go on or close). s_server closes: the
/// call fails at once with a typed lost connection, never hangs, and the server's own count says
/// no second handshake finished. With the option off in a test build the count is 2 (tried);
/// curl, which accepts renegotiation, against the same server is the standing twin: its second
/// handshake finishes, and it gets the answer.
final class HTTP1TLSRenegotiationTests: XCTestCase {
    /// `openssl s_server` for one connection over TLS 1.2, what it printed so far, and its input.
    private final class RenegotiatingServer: @unchecked Sendable {  // `printed` is guarded by `lock`
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private let lock = NSLock()
        private var printed = ""

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "openssl", "s_server", "-tls1_2", "-accept", "127.0.0.1:0", "-naccept", "1",
                "-cert", try TLSServer.file("leaf-chain.pem").path, "-key", try TLSServer.file("leaf.key").path,
            ]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                guard let self else { return }
                lock.withLock { printed += text }
            }
            try process.run()
        }

        var text: String { lock.withLock { printed } }

        /// Waits (20 s at most) until the server printed `marker`; what it printed then.
        func wait(for marker: String) throws -> String {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let text = self.text
                if text.contains(marker) { return text }
                if !process.isRunning, !self.text.contains(marker) { break }
                usleep(10_000)
            }
            throw XCTSkip("s_server never printed \(marker): \(text)")
        }

        func type(_ line: String) { input.fileHandleForWriting.write(Data(line.utf8)) }

        /// The port from s_server's `ACCEPT 127.0.0.1:PORT`.
        func port() throws -> Int {
            let text = try wait(for: "ACCEPT ")
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("ACCEPT ") })
            return try XCTUnwrap(line.split(separator: ":").last.flatMap { Int($0) })
        }

        /// Asks for renegotiation once the request arrived.
        func renegotiate() throws {
            _ = try wait(for: "GET / HTTP/1.1")
            type("r\n")
        }

        /// Answers once the renegotiation finished, and closes.
        func answerAfterRenegotiation() throws {
            _ = try wait(for: "SSL_do_handshake -> ")
            type("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        }

        /// Waits for the server to end and returns its count of finished server handshakes.
        func finishedHandshakes() throws -> Int {
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning {
                process.terminate()
                XCTFail("s_server did not end: \(text)")
            }
            let text = try wait(for: "server accepts that finished")
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("server accepts that finished") })
            return try XCTUnwrap(Int(line.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]))
        }

        deinit {
            if process.isRunning { process.terminate() }
            output.fileHandleForReading.readabilityHandler = nil
        }
    }

    func testTheLibraryRefusesRenegotiation() throws {
        #if os(Linux)
            try XCTSkipIf(HTTP1Transport.runsOnThreads, "https is the event loop's only")
            try XCTSkipUnless(HTTP1Transport.carriesHTTPS, "OpenSSL could not be opened")
            let server = try RenegotiatingServer()
            let port = try server.port()
            let authority = try X509Certificate(derOrPEM: Data(contentsOf: TLSServer.file("ca.pem")))
            let client = try WebServiceClient(
                serviceRoot: XCTUnwrap(URL(string: "https://127.0.0.1:\(port)/")),
                serverTrust: .onlyCertificateAuthorities([authority]))
            let call = WebServiceCall<String>(relativePath: "", timeout: 3)
            // The call blocks a thread of its own while this one drives the server.
            let outcome = Locked<Result<WebServiceResponse<String>, WebServiceError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let result = Result { () throws(WebServiceError) in try client.performSynchronously(call) }
                outcome.withLock { $0 = result }
                done.signal()
            }
            try server.renegotiate()
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "the call ended")
            switch try XCTUnwrap(outcome.current) {
            case .success(let response): XCTFail("the server never answers; got \(response.value)")
            case .failure(let error):
                guard case .transport(let failure) = error.reason else { return XCTFail("\(error)") }
                XCTAssertEqual(failure.code, .networkConnectionLost, "\(error)")
                print("HTTP1TLSRenegotiationTests: \(error)")
            }
            XCTAssertEqual(try server.finishedHandshakes(), 1, "no second handshake: \(server.text)")
        #else
            throw XCTSkip("the TLS layer is Linux's")
        #endif
    }

    /// The twin: curl accepts the same server's renegotiation, which then finishes a second
    /// handshake, so the count above would show one.
    func testCurlAcceptsTheSameRenegotiation() throws {
        let server = try RenegotiatingServer()
        let port = try server.port()
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = [
            "curl", "-s", "-m", "20", "--tls-max", "1.2", "--cacert", try TLSServer.file("ca.pem").path, "-o",
            "/dev/null", "https://127.0.0.1:\(port)/",
        ]
        try curl.run()
        try server.renegotiate()
        try server.answerAfterRenegotiation()
        curl.waitUntilExit()
        XCTAssertEqual(curl.terminationStatus, 0)
        XCTAssertGreaterThanOrEqual(try server.finishedHandshakes(), 2, server.text)
    }
}
