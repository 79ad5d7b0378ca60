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
        guard let host = url.host, !host.isEmpty else { throw URLError(.badURL, reason: "no host in \(url)") }
        let port = url.port ?? 80
        // An IPv6 literal without its brackets, as getaddrinfo takes it.
        let address = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
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

/// The push half of reading a response: takes the bytes of the response as they arrive from
/// wherever they come (a blocking read, or an event loop's readable event), parses them with an
/// ``HTTP1ResponseParser``, and writes the final response's body into the call's
/// ``ResponseBodySink`` as it arrives (memory within the size limit, or the call's file; the sink
/// counts progress), decoding it on the way when it has a content coding this path reads.
///
/// It does no I/O of its own: ``ResponseReader`` pulls bytes from a ``SocketConnection`` into it;
/// the event loop's exchange feeds it from its readable events.
struct ResponseIntake {
    let context: TransportContext
    /// The request's method.
    let method: String
    var parser: HTTP1ResponseParser
    /// How the final response's body is kept, decided when its head arrives (``ResponseDecoding``);
    /// `nil` until then. The sink's body is begun at the same moment.
    private var coding: Coding?
    /// The bytes of a coded body as they came on the wire, for its progress.
    private var wireBytes: Int64 = 0
    private let url: URL?

    private enum Coding {
        /// The body is kept as it came.
        case asIs
        /// The body is decoded as it comes; the response has these fields.
        case decoded(ContentDecoder, HTTPHeaders)
    }

    /// An intake for the response to a `method` request of `url` (the URL a streamed call's head
    /// carries).
    init(method: String, url: URL? = nil, context: TransportContext) {
        self.context = context
        self.method = method
        self.url = url
        parser = HTTP1ResponseParser(requestMethod: method)
    }

    var hasFinalHead: Bool { parser.head != nil }

    /// Parses `bytes`, the next ones of the response, and moves the body parsed so far into the
    /// sink. A malformed response throws `URLError(.badServerResponse)`; a body over the size
    /// limit, the sink's error; a body that does not decode, the decoder's.
    ///
    /// Errors come in the order of the bytes that cause them, whatever pieces the bytes arrive
    /// in: the body parsed before a framing fault goes to the sink (and its decoder) first, so a
    /// body that passed the limit, or did not decode, before the fault fails for that, as it does
    /// when the fault arrives in a later piece.
    mutating func take(_ bytes: some Sequence<UInt8>) throws {
        var fault: HTTP1ParseError?
        do {
            _ = try parser.feed(bytes)
        } catch {
            fault = error
        }
        try keepBody()
        if let fault { throw URLError(.badServerResponse, reason: fault.description) }
    }

    /// Moves the body parsed so far into the call's sink, decoded on the way when it has a
    /// content coding this path reads. The sink refuses a body over the size limit (a
    /// `Content-Length` over it at once, before the body is read); the connection is then closed
    /// unread.
    private mutating func keepBody() throws {
        guard let head = parser.head else { return }
        let sink = context.responseBody
        let coding: Coding
        if let decided = self.coding {
            coding = decided
        } else {
            // The decoder stops a bomb at the sink's limit in each of its stages, not only the last.
            let limit = sink.limit(statusCode: head.statusCode) ?? Int.max
            coding =
                try ResponseDecoding.decoder(
                    method: method, statusCode: head.statusCode, headers: head.headers,
                    transferCodings: parser.transferCodings, outputLimit: limit
                )
                .map(Coding.decoded) ?? .asIs
            self.coding = coding
            // A decoded body's length is known only at its end: its progress is that of its bytes
            // on the wire, against its Content-Length.
            let headers: HTTPHeaders
            if case .decoded(_, let decoded) = coding { headers = decoded } else { headers = head.headers }
            let asIs = if case .asIs = coding { true } else { false }
            try sink.begin(
                statusCode: head.statusCode, expectedLength: asIs ? parser.bodyLength.map(Int64.init) : nil,
                countsAppendedBytes: asIs,
                head: TransportResponse(statusCode: head.statusCode, headers: headers, url: url))
        }
        switch coding {
        case .asIs:
            try parser.drainBody { (bytes) throws(WebServiceError) in try sink.append(bytes) }
        case .decoded(let decoder, _):
            try decode(with: decoder, statusCode: head.statusCode)
        }
    }

    /// Decodes the body parsed so far into the sink; at the end of the body (`finishing`),
    /// checks that the coded stream ended too.
    private mutating func decode(with decoder: ContentDecoder, statusCode: Int, finishing: Bool = false) throws {
        let sink = context.responseBody
        wireBytes += Int64(parser.body.count)
        let keep = { (bytes: UnsafeBufferPointer<UInt8>) throws in try sink.append(UnsafeRawBufferPointer(bytes)) }
        do {
            try parser.drainBody { bytes in try decoder.feed(bytes, keep) }
            if finishing { try decoder.finish(keep) }
        } catch {
            let limit = sink.limit(statusCode: statusCode) ?? Int.max
            throw ResponseDecoding.failure(error, statusCode: statusCode, limit: limit)
        }
        sink.advance(to: wireBytes, expected: parser.bodyLength.map(Int64.init))
    }

    /// The response, once the parser is complete or the connection ended (a body delimited by
    /// the close ends there; any other cut is `URLError(.networkConnectionLost)`).
    mutating func finish(url: URL) throws -> TransportResponse {
        if !parser.isComplete {
            do {
                try parser.finish()
            } catch {
                throw URLError(.networkConnectionLost, reason: error.description)
            }
        }
        guard let head = parser.head else { throw URLError(.badServerResponse) }
        try keepBody()
        var response = TransportResponse(statusCode: head.statusCode, headers: head.headers, url: url)
        if case .decoded(let decoder, let headers) = coding {
            try decode(with: decoder, statusCode: head.statusCode, finishing: true)
            response.headers = headers
        }
        return try context.responseBody.finish(response)
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

/// The request line and header fields of a request (RFC 9112 §3).
struct HTTP1RequestHead {
    /// How the body is delimited (RFC 9112 §6).
    enum Framing: Equatable {
        /// No body, no framing field.
        case none
        /// `Content-Length`.
        case length(Int64)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }

    let bytes: [UInt8]

    /// Fields the connection manages itself; the request's own values of these are replaced.
    static let managedFields: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "expect"]

    /// Writes the head of a request that passed ``RequestCheck``, with the fields the call's
    /// ``BridgeStage`` added: the transport adds only the connection's own (``managedFields``).
    init(
        method: String, url: URL, fields: [String: String], framing: Framing, expectsContinue: Bool,
        keepsAlive: Bool = false
    ) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        let target = (path.isEmpty ? "/" : path) + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        var host = url.host ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        if let port = url.port, port != 80 { host += ":\(port)" }

        // The head written once, straight into its bytes, in one pass over the request's fields:
        // no line of its own for each, and no table of their names, only of the transport's few.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + fields.count * 48)
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        func appendField(_ name: String, _ value: String) {
            append(name)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
            append(value)
            bytes.append(UInt8(ascii: "\r"))
            bytes.append(UInt8(ascii: "\n"))
        }
        append("\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n")
        for (name, value) in fields where !Self.isManaged(name) { appendField(name, value) }
        switch framing {
        case .none: break
        case .length(let length): append("Content-Length: \(length)\r\n")
        case .chunked: append("Transfer-Encoding: chunked\r\n")
        }
        if expectsContinue { append("Expect: 100-continue\r\n") }
        // HTTP/1.1 connections persist unless a side says `close` (RFC 9112 §9.3).
        append(keepsAlive ? "\r\n" : "Connection: close\r\n\r\n")
        self.bytes = bytes
    }

    /// Whether `name` is one of ``managedFields`` in any ASCII case, without lowercasing it: a
    /// request's every field is asked.
    static func isManaged(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name.caseInsensitiveEquals("host")
        case 6: name.caseInsensitiveEquals("expect")
        case 10: name.caseInsensitiveEquals("connection")
        case 14: name.caseInsensitiveEquals("content-length")
        case 17: name.caseInsensitiveEquals("transfer-encoding")
        default: false
        }
    }
}
