import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request with a streamed body, or one whose response goes to a file, sent over plain
/// HTTP/1.1 on a connection of its own.
///
/// The body, if any, goes out with `Content-Length` when its length is known (chunked otherwise), in
/// large writes straight from the body stream. Bodies of 1 MiB or more, or of unknown length,
/// ask `Expect: 100-continue` first and wait up to a second, as curl does, so that a server
/// that refuses the request (401, 413) answers before a gigabyte is sent for nothing (RFC 9110
/// §10.1.1). A server that answers while the body is still going out is heard: sending stops
/// and its response is the result. The final response's body goes into the call's
/// ``ResponseBodySink`` as it arrives: to its file when the call downloads to one, else into
/// memory within the size limit.
///
/// A GET or HEAD without a body may run on a kept-alive connection (``keepsAlive``): it is opened
/// only if it is not open yet, the request does not ask for `Connection: close`, and ``run()``
/// tells whether the connection can carry the next request.
///
/// Runs on the calling thread and blocks it; ``HTTP1Transport`` gives it a thread.
struct DirectExchange {
    let request: URLRequest
    let url: URL
    /// The body to send, `nil` for none.
    let body: InputStream?
    let length: Int64?
    let context: TransportContext
    let connection: SocketConnection
    /// Whether the connection stays open for more requests.
    var keepsAlive = false

    /// What an exchange on a kept-alive connection gives back.
    struct Outcome: Sendable {
        var response: TransportResponse
        /// Whether the connection can carry the next request.
        var leavesConnectionReusable: Bool
    }

    /// A kept-alive connection that the server had closed (or closes as the request arrives): no
    /// byte of a response came. The request can be sent again on a new connection.
    struct StaleConnection: Error {}

    /// Bodies from this size on ask `Expect: 100-continue` (curl's threshold).
    static let expectContinueThreshold: Int64 = 1024 * 1024
    /// How long to wait for `100 Continue` before sending anyway (RFC 9110 §10.1.1).
    static let continueWait: Int32 = 1000
    /// The size of one write of the body.
    static let bufferSize = 512 * 1024

    func run() throws -> TransportResponse { try exchange().response }

    /// Sends the request and reads the response. On a connection that was already open, a
    /// failure before any byte of the response throws ``StaleConnection``.
    func exchange() throws -> Outcome {
        let reused = connection.isOpen
        var reader = ResponseReader(connection: connection, method: method, context: context)
        do {
            return try exchange(reader: &reader)
        } catch {
            let lost = error is SocketConnection.PeerClosed || (error as? URLError)?.code == .networkConnectionLost
            if lost, reused, !reader.parser.hasReceivedBytes { throw StaleConnection() }
            if error is SocketConnection.PeerClosed {
                throw URLError(.networkConnectionLost, reason: "the server closed the connection")
            }
            throw error
        }
    }

    private var method: String { request.httpMethod ?? (body == nil ? "GET" : "POST") }

    private func exchange(reader: inout ResponseReader) throws -> Outcome {
        let address = try SocketOperations.host(of: url)
        let port = url.port ?? 80
        if !connection.isOpen { try connection.open(host: address, port: port) }
        let framing: HTTP1RequestHead.Framing =
            body == nil
            ? HTTP1Transport.framing(of: nil, method: method) : length.map(HTTP1RequestHead.Framing.length) ?? .chunked
        var expectsContinue =
            body != nil
            && (request.value(forHTTPHeaderField: "Expect").map { $0.lowercased() == "100-continue" }
                ?? ((length ?? Int64.max) >= Self.expectContinueThreshold))
        while true {
            let head = HTTP1RequestHead(
                method: method, url: url, fields: request.allHTTPHeaderFields ?? [:], framing: framing,
                expectsContinue: expectsContinue, keepsAlive: keepsAlive)
            try head.bytes.withUnsafeBytes { try connection.sendAll($0) }
            guard let body else { break }
            if expectsContinue, try connection.wait(for: Int16(POLLIN), atMost: Self.continueWait) {
                try reader.readAvailable()
                if reader.parser.head?.statusCode == 417 {
                    // The expectation failed before any byte of the body went out: send the request
                    // again without it, on a new connection, since the server may still be waiting
                    // for the body of the first (RFC 9110 §10.1.1: "SHOULD repeat that request
                    // without a 100-continue expectation"; curl does the same, once).
                    reader = ResponseReader(connection: connection, method: method, context: context)
                    connection.disconnect()
                    try connection.open(host: address, port: port)
                    expectsContinue = false
                    continue
                }
                if reader.hasFinalHead { break }
            }
            try send(body, reader: &reader)
            break
        }
        let response = try reader.readResponse(url: url)
        return Outcome(
            response: response, leavesConnectionReusable: keepsAlive && reader.parser.leavesConnectionReusable)
    }

    /// Streams the body until it ends, or until the server answers or closes.
    private func send(_ body: InputStream, reader: inout ResponseReader) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        let chunked = length == nil
        // Opened only when it is sent, so that a request refused before its body (a 417) can
        // send the same stream again.
        body.open()
        defer { body.close() }
        var sent: Int64 = 0
        do {
            while true {
                let wanted = length.map { Int(min(Int64(buffer.count), $0 - sent)) } ?? buffer.count
                let count = wanted == 0 ? 0 : try read(body, into: buffer, maxLength: wanted)
                if count == 0 {
                    try checkEnd(of: body, sent: sent, buffer: buffer)
                    if chunked { try send("0\r\n\r\n") }
                    return
                }
                if chunked { try send(String(count, radix: 16) + "\r\n") }
                try connection.sendAll(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                if chunked { try send("\r\n") }
                sent += Int64(count)
                context.reportUploadProgress(sent: sent, expected: length ?? -1)
                // An early answer (a 413, a 401) ends the upload: RFC 9112 §9.5 lets a server
                // respond and close before reading the whole body.
                if connection.hasInput {
                    try reader.readAvailable()
                    if reader.hasFinalHead || reader.sawEnd { return }
                }
            }
        } catch is SocketConnection.PeerClosed {
            // The server closed its side: its response, if it sent one, is the answer.
            return
        }
    }

    private func read(_ body: InputStream, into buffer: UnsafeMutableRawBufferPointer, maxLength: Int) throws
        -> Int
    {
        let count = body.read(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), maxLength: maxLength)
        guard count >= 0 else {
            throw WebServiceError.requestSerialization(
                "the body could not be sent: \(body.reportedError.map { "\($0)" } ?? "the stream failed")")
        }
        return count
    }

    /// A body of known length must end exactly there: a short stream would leave the server
    /// waiting, a long one would be cut silently.
    private func checkEnd(of body: InputStream, sent: Int64, buffer: UnsafeMutableRawBufferPointer) throws {
        guard let length else { return }
        if sent < length {
            throw WebServiceError.requestSerialization(
                "the body stream ended after \(sent) of its \(length) bytes")
        }
        if try read(body, into: buffer, maxLength: 1) > 0 {
            throw WebServiceError.requestSerialization("the body stream is longer than its \(length) bytes")
        }
    }

    private func send(_ text: String) throws {
        var text = text
        try text.withUTF8 { try connection.sendAll(UnsafeRawBufferPointer($0)) }
    }
}

/// The pulling half of reading a response, for the blocking path: reads from the connection
/// (waiting on it) into a ``ResponseIntake``, which parses and keeps the body.
struct ResponseReader {
    let connection: SocketConnection
    private(set) var intake: ResponseIntake
    private(set) var sawEnd = false
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(connection: SocketConnection, method: String, context: TransportContext) {
        self.connection = connection
        intake = ResponseIntake(method: method, context: context)
    }

    var parser: HTTP1ResponseParser { intake.parser }

    var hasFinalHead: Bool { intake.hasFinalHead }

    /// Reads once (what is there, or at least a byte) and parses it.
    mutating func readAvailable() throws {
        guard !sawEnd else { return }
        let connection = connection
        let count = try buffer.withUnsafeMutableBytes { try connection.receive(into: $0) }
        if count == 0 {
            sawEnd = true
            return
        }
        try intake.take(buffer[..<count])
    }

    /// Reads to the end of the final response.
    mutating func readResponse(url: URL) throws -> TransportResponse {
        while !intake.parser.isComplete && !sawEnd {
            try readAvailable()
        }
        return try intake.finish(url: url)
    }
}
