import Foundation

/// A response head: status line and header fields (RFC 9112 §4 and §5).
struct HTTP1ResponseHead: Sendable, Equatable {
    var statusCode: Int
    var headers: HTTPHeaders
    /// `HTTP/1.1` or `HTTP/1.0`.
    var version = "HTTP/1.1"

    /// Whether the server keeps the connection open after this response (RFC 9112 §9.3): HTTP/1.1
    /// without the `close` connection option.
    var keepsConnectionOpen: Bool {
        version == "HTTP/1.1" && !headers.listElements(for: "Connection").contains("close")
    }
}

/// Why a response could not be read.
struct HTTP1ParseError: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads one HTTP/1.1 response from bytes fed in pieces of any size, as they arrive.
///
/// Interim (1xx) responses are reported and skipped; the final response's body is framed by
/// RFC 9112 §6.3: no body for HEAD, 1xx, 204 and 304; chunked when `chunked` is the final
/// transfer coding; else `Content-Length`; else everything until the connection closes.
struct HTTP1ResponseParser {
    enum Event: Equatable {
        /// An interim response (`100 Continue`, `103 Early Hints`…).
        case interim(Int)
        /// The final response's head was read.
        case head(HTTP1ResponseHead)
    }

    private enum State {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case done
    }

    /// The largest head accepted (status line and fields), as servers limit request heads.
    static let maximumHeadSize = 64 * 1024

    private let isHeadRequest: Bool
    private var buffer: [UInt8] = []
    private var position = 0
    private var state = State.head
    /// The body ran until the connection closed, so the connection cannot be reused.
    private var readUntilClose = false
    private(set) var head: HTTP1ResponseHead?
    /// The final response's `Content-Length`, when that is what delimits its body.
    private(set) var bodyLength: Int?
    private(set) var body: [UInt8] = []

    init(requestMethod: String) {
        isHeadRequest = requestMethod.uppercased() == "HEAD"
    }

    /// Hands the body read so far to `consume` and forgets it: a body that goes to a file is
    /// never whole in memory.
    mutating func drainBody<E: Error>(_ consume: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        guard !body.isEmpty else { return }
        let result = body.withUnsafeBytes { bytes -> Result<Void, E> in
            do throws(E) {
                try consume(bytes)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        body.removeAll(keepingCapacity: true)
        try result.get()
    }

    /// Whether the whole final response has been read.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Whether the connection can carry another request now (RFC 9112 §9.3): the response is
    /// complete, delimited by its framing rather than by the connection closing, the server
    /// keeps the connection open, and nothing came after the response.
    var leavesConnectionReusable: Bool {
        guard isComplete, !readUntilClose, position == buffer.count, let head else { return false }
        return head.keepsConnectionOpen
    }

    /// Whether any byte of a response has arrived.
    private(set) var hasReceivedBytes = false

    /// Takes more bytes and returns the heads they completed, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(HTTP1ParseError) -> [Event] {
        if position > 0, position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        buffer.append(contentsOf: bytes)
        if buffer.count > position { hasReceivedBytes = true }
        var events: [Event] = []
        while try step(&events) {}
        if position > 64 * 1024 {
            buffer.removeFirst(position)
            position = 0
        }
        return events
    }

    /// The connection closed: completes a body read until close, fails anything cut short.
    mutating func finish() throws(HTTP1ParseError) {
        switch state {
        case .done: return
        case .untilClose:
            state = .done
            readUntilClose = true
        case .head:
            throw HTTP1ParseError(
                buffer.count == position
                    ? "the server closed the connection without a response" : "the response head was cut short")
        default: throw HTTP1ParseError("the connection closed before the end of the response body")
        }
    }

    /// Makes progress on the buffered bytes; `false` when more are needed (or the end is reached).
    private mutating func step(_ events: inout [Event]) throws(HTTP1ParseError) -> Bool {
        switch state {
        case .head:
            guard let end = headEnd() else {
                if buffer.count - position > Self.maximumHeadSize {
                    throw HTTP1ParseError("the response head is larger than \(Self.maximumHeadSize) bytes")
                }
                return false
            }
            let parsed = try Self.parseHead(buffer[position..<end.start])
            position = end.next
            if (100..<200).contains(parsed.statusCode) {
                // §15.2: a 101 would switch protocols, which this client never asks for.
                guard parsed.statusCode != 101 else { throw HTTP1ParseError("unexpected 101 Switching Protocols") }
                events.append(.interim(parsed.statusCode))
                return true
            }
            head = parsed
            events.append(.head(parsed))
            state = try bodyState(for: parsed)
            return true
        case .fixed(let remaining):
            let count = min(remaining, buffer.count - position)
            body.append(contentsOf: buffer[position..<(position + count)])
            position += count
            state = remaining == count ? .done : .fixed(remaining: remaining - count)
            return false
        case .chunkSize:
            guard let line = nextLine() else { return false }
            state = try Self.chunkState(forSizeLine: line)
            return true
        case .chunkData(let remaining):
            let count = min(remaining, buffer.count - position)
            body.append(contentsOf: buffer[position..<(position + count)])
            position += count
            guard count == remaining else {
                state = .chunkData(remaining: remaining - count)
                return false
            }
            state = .chunkDataEnd
            return true
        case .chunkDataEnd:
            guard let line = nextLine() else { return false }
            guard line.isEmpty else { throw HTTP1ParseError("a chunk is longer than its size says") }
            state = .chunkSize
            return true
        case .trailers:
            // §7.1.2: trailer fields are read and dropped; the empty line ends the message.
            guard let line = nextLine() else { return false }
            if line.isEmpty { state = .done }
            return true
        case .untilClose:
            body.append(contentsOf: buffer[position...])
            position = buffer.count
            return false
        case .done:
            return false
        }
    }

    /// §6.3: how the final response's body is delimited.
    private mutating func bodyState(for head: HTTP1ResponseHead) throws(HTTP1ParseError) -> State {
        if isHeadRequest || head.statusCode == 204 || head.statusCode == 304 { return .done }
        if let last = head.headers.listElements(for: "Transfer-Encoding").last {
            // §6.3 item 4: chunked last means chunked framing; any other coding reads until close.
            return last == "chunked" ? .chunkSize : .untilClose
        }
        let lengths = Set(
            head.headers.values(for: "Content-Length").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) })
        guard let first = lengths.first else { return .untilClose }
        // §6.3 item 5: differing or invalid lengths are an unrecoverable error.
        guard lengths.count == 1, !first.isEmpty, first.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let length = Int(first)
        else { throw HTTP1ParseError("invalid Content-Length: \(head.headers.values(for: "Content-Length"))") }
        bodyLength = length
        return length == 0 ? .done : .fixed(remaining: length)
    }

    private static func chunkState(forSizeLine line: ArraySlice<UInt8>) throws(HTTP1ParseError) -> State {
        // chunk = chunk-size [ chunk-ext ] CRLF (§7.1); extensions are ignored (§7.1.1).
        let digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
        else { throw HTTP1ParseError("invalid chunk size line") }
        return size == 0 ? .trailers : .chunkData(remaining: size)
    }

    /// The end of the head: the empty line, with CRLF or (§2.2) bare LF line endings.
    private func headEnd() -> (start: Int, next: Int)? {
        var index = position
        while index < buffer.count {
            if buffer[index] == 0x0A {
                if index + 1 < buffer.count, buffer[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// The next line without its CRLF (or LF), or `nil` until a whole line is buffered.
    private mutating func nextLine() -> ArraySlice<UInt8>? {
        guard let newline = buffer[position...].firstIndex(of: 0x0A) else { return nil }
        var end = newline
        if end > position, buffer[end - 1] == 0x0D { end -= 1 }
        let line = buffer[position..<end]
        position = newline + 1
        return line
    }

    /// Parses a status line and its fields (the head without its final empty line).
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTP1ParseError) -> HTTP1ResponseHead {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        guard !lines.isEmpty else { throw HTTP1ParseError("empty response head") }
        let statusLine = String(decoding: lines.removeFirst(), as: UTF8.self)
        // status-line = HTTP-version SP status-code SP [ reason-phrase ] (§4)
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
            let statusCode = Int(parts[1]), (100...999).contains(statusCode)
        else { throw HTTP1ParseError("invalid status line: \(statusLine.prefix(80))") }
        var fields: [HTTPHeaders.Field] = []
        for line in lines {
            if let first = line.first, first == 0x20 || first == 0x09 {
                // §5.2: obs-fold in a response is replaced by a space.
                guard let last = fields.popLast() else { throw HTTP1ParseError("a folded line before any field") }
                let continuation = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                fields.append(HTTPHeaders.Field(name: last.name, value: last.value + " " + continuation))
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw HTTP1ParseError("a header line without a colon")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            guard HTTPToken.isValidFieldName(name) else {
                throw HTTP1ParseError("invalid field name: \(name.prefix(40))")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            fields.append(HTTPHeaders.Field(name: name, value: value))
        }
        return HTTP1ResponseHead(statusCode: statusCode, headers: HTTPHeaders(fields), version: String(parts[0]))
    }
}
