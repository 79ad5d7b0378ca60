import Foundation

/// Reads one HTTP/1.1 response from bytes fed in pieces of any size, as they arrive.
///
/// Interim (1xx) responses are reported and skipped; the final response's body is framed by
/// RFC 9112 §6.3: no body for HEAD, 204 and 304; with `Transfer-Encoding`, chunked when
/// `chunked` is its final coding, else everything until the connection closes (item 4);
/// else `Content-Length`; else everything until the connection closes. The codings before a
/// final `chunked`, or all of them when it is not there, must be ones the client decodes (`gzip`,
/// `x-gzip`, `deflate`): they are in ``transferCodings``, for ``ResponseIntake`` to decode. Any
/// other coding, `chunked` anywhere but last, or an empty list is an error: no byte of a body
/// goes out undecoded. Field values are kept as sent (trimmed of whitespace): the call pipeline
/// checks them for every transport.
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

    /// The largest head (status line and fields) or trailer section accepted, as servers limit
    /// request heads.
    static let maximumHeadSize = 64 * 1024
    /// The largest chunk size line accepted, extensions included.
    static let maximumChunkLineSize = 8 * 1024

    private let isHeadRequest: Bool
    private var buffer: [UInt8] = []
    private var position = 0
    /// How many bytes after `position` were searched for the end of a line or section already.
    private var scanned = 0
    private var state = State.head
    /// The body ran until the connection closed, so the connection cannot be reused.
    private var readUntilClose = false
    /// Both `Transfer-Encoding` and `Content-Length` framed the body (a sign of smuggling, RFC 9112
    /// §6.3 item 3), or a 204 came with either: the connection is not reused.
    private var hasConflictingFraming = false
    private(set) var head: HTTP1ResponseHead?
    /// The final response's `Content-Length`, when that is what delimits its body.
    private(set) var bodyLength: Int?
    private(set) var body: [UInt8] = []
    /// The trailer fields of a chunked body (RFC 9112 §7.1.2), read for checking and not merged
    /// into the head.
    private(set) var trailers = HTTPHeaders()
    /// The final response's transfer codings other than `chunked`, in the order they were applied
    /// (lower case): each one `gzip`, `x-gzip` or `deflate`. The body the parser hands out is
    /// still coded with them.
    private(set) var transferCodings: [String] = []

    /// The transfer codings this client decodes besides `chunked` (RFC 9112 §7.2; §7.3 registers
    /// the names: `x-gzip` is an alias of `gzip`).
    static let decodedTransferCodings: Set<String> = ["gzip", "x-gzip", "deflate"]

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
    /// complete, delimited by its framing rather than by the connection closing and not by both
    /// framing fields at once, the server keeps the connection open, and nothing came after it.
    var leavesConnectionReusable: Bool {
        guard isComplete, !readUntilClose, !hasConflictingFraming, position == buffer.count, let head else {
            return false
        }
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
            if !hasReceivedBytes {
                throw HTTP1ParseError(.noResponse, "the server closed the connection without a response")
            }
            throw HTTP1ParseError(.cutShort, "the response head was cut short")
        default:
            throw HTTP1ParseError(.cutShort, "the connection closed before the end of the response body")
        }
    }

    /// Makes progress on the buffered bytes; `false` when more are needed (or the end is reached).
    private mutating func step(_ events: inout [Event]) throws(HTTP1ParseError) -> Bool {
        switch state {
        case .head:
            guard let end = try sectionEnd() else { return false }
            let parsed = try Self.parseHead(buffer[position..<end.content])
            consume(upTo: end.next)
            if (100..<200).contains(parsed.statusCode) {
                guard parsed.statusCode != 101 else {
                    throw HTTP1ParseError(
                        .switchingProtocols, "unexpected 101 Switching Protocols: this client asks for no upgrade")
                }
                // The fields of an interim response are not used, but CR, LF or NUL in one make the
                // message invalid (RFC 9110 §5.5), as they would in the final head.
                if let field = parsed.headers.fields.first(where: { ResponseCheck.breaksLines($0.value) }) {
                    throw HTTP1ParseError(
                        .fieldLine,
                        "the \(parsed.statusCode) response's field \(field.name.prefix(40).debugDescription) has CR, LF or NUL in its value (RFC 9110 §5.5)"
                    )
                }
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
            guard let line = try chunkSizeLine() else { return false }
            let size = try Self.chunkSize(ofLine: line.bytes)
            consume(upTo: line.next)
            state = size == 0 ? .trailers : .chunkData(remaining: size)
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
            // chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF (§7.1): exactly CRLF, no bare LF.
            let available = buffer.count - position
            if available >= 1,
                buffer[position] != HTTP1Bytes.cr || (available >= 2 && buffer[position + 1] != HTTP1Bytes.lf)
            {
                throw HTTP1ParseError(.chunkData, "a chunk's data is not followed by CRLF (RFC 9112 §7.1)")
            }
            guard available >= 2 else { return false }
            consume(upTo: position + 2)
            state = .chunkSize
            return true
        case .trailers:
            // §7.1.2: the trailer section is fields, then the empty line that ends the message.
            guard let end = try sectionEnd() else { return false }
            let section = buffer[position..<end.content]
            let fields = section.isEmpty ? [] : try Self.parseFields(Self.lines(of: section)[...])
            for field in fields where ResponseCheck.breaksLines(field.value) {
                // The call pipeline checks head fields only; trailers are checked here, by the same
                // rule: CR, LF or NUL make the message invalid, other controls may stay (RFC 9110 §5.5).
                throw HTTP1ParseError(
                    .trailerValue, "the trailer field \(field.name) has CR, LF or NUL in its value (RFC 9110 §5.5)")
            }
            trailers = HTTPHeaders(fields)
            consume(upTo: end.next)
            state = .done
            return false
        case .untilClose:
            body.append(contentsOf: buffer[position...])
            position = buffer.count
            return false
        case .done:
            return false
        }
    }

    private mutating func consume(upTo next: Int) {
        position = next
        scanned = 0
    }

    /// §6.3: how the final response's body is delimited.
    private mutating func bodyState(for head: HTTP1ResponseHead) throws(HTTP1ParseError) -> State {
        let length = try Self.contentLength(of: head.headers)
        // §6.3 item 1: no content whatever the fields say. A HEAD or 304 response may carry the
        // Transfer-Encoding a GET would have had (§6.1); it frames nothing here.
        if isHeadRequest || head.statusCode == 204 || head.statusCode == 304 {
            // A 204 may carry neither a length nor a coding (RFC 9110 §8.6, RFC 9112 §6.1): a
            // server that sends them may send a body too, so its connection is not used again.
            // (`Content-Length: 0` is common and harmless.)
            if !isHeadRequest, head.statusCode == 204 {
                hasConflictingFraming = head.headers.contains("Transfer-Encoding") || (length ?? 0) > 0
            }
            return .done
        }
        if head.headers.contains("Transfer-Encoding") {
            // §6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing.
            guard head.version != "HTTP/1.0" else {
                throw HTTP1ParseError(
                    .transferCoding, "an HTTP/1.0 response with Transfer-Encoding has faulty framing (RFC 9112 §6.1)")
            }
            let codings = Self.listElements(head.headers.values(for: "Transfer-Encoding"))
            let chunkedLast = codings.last.map { $0.count == 7 && HTTP1Bytes.equalsIgnoringASCIICase($0, "chunked") }
            let applied = chunkedLast == true ? codings.dropLast() : codings[...]
            // Names compared byte by byte (RFC 9112 §7: case-insensitive), never after Unicode case
            // mapping; `chunked` applied before another coding is among those refused (§6.1: it is
            // applied once, last).
            let names = applied.map { element in
                Self.decodedTransferCodings.first { name in
                    element.count == name.utf8.count && HTTP1Bytes.equalsIgnoringASCIICase(element, name)
                }
            }
            guard !codings.isEmpty, names.allSatisfy({ $0 != nil }) else {
                let list =
                    codings.isEmpty
                    ? "an empty list" : codings.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
                throw HTTP1ParseError(
                    .transferCoding,
                    "Transfer-Encoding \(list.prefix(80)) is not implemented: chunked, last, and gzip, x-gzip and "
                        + "deflate before it or alone are (RFC 9112 §6.1, §7)")
            }
            transferCodings = names.compactMap { $0 }
            // §6.3 item 3: Transfer-Encoding overrides Content-Length; both is a smuggling sign.
            hasConflictingFraming = length != nil
            // §6.3 item 4: when chunked is not the final coding, the body runs to the close.
            return chunkedLast == true ? .chunkSize : .untilClose
        }
        guard let length else { return .untilClose }
        bodyLength = length
        return length == 0 ? .done : .fixed(remaining: length)
    }

    /// The next chunk size line without its CRLF, or `nil` until it is whole.
    private mutating func chunkSizeLine() throws(HTTP1ParseError) -> (bytes: ArraySlice<UInt8>, next: Int)? {
        var tooLong: HTTP1ParseError {
            HTTP1ParseError(.chunkSize, "a chunk size line longer than \(Self.maximumChunkLineSize) bytes")
        }
        var index = position + scanned
        while index < buffer.count, buffer[index] != HTTP1Bytes.lf { index += 1 }
        // The same limit whether the line's end is already there or not.
        guard index - position <= Self.maximumChunkLineSize else { throw tooLong }
        guard index < buffer.count else {
            scanned = index - position
            return nil
        }
        guard index > position, buffer[index - 1] == HTTP1Bytes.cr else {
            throw HTTP1ParseError(.chunkSize, "a chunk size line ends with a bare LF, not CRLF (RFC 9112 §7.1)")
        }
        return (buffer[position..<(index - 1)], index + 1)
    }

    /// Where the head or trailer section at `position` ends: `content` is the end of its last line,
    /// `next` the first byte after its empty line (CRLF, or a bare LF as §2.2 allows). `nil` until
    /// the whole section is buffered.
    private mutating func sectionEnd() throws(HTTP1ParseError) -> (content: Int, next: Int)? {
        // An empty section: the empty line at once.
        if position < buffer.count, buffer[position] == HTTP1Bytes.lf { return (position, position + 1) }
        if position + 1 < buffer.count, buffer[position] == HTTP1Bytes.cr, buffer[position + 1] == HTTP1Bytes.lf {
            return (position, position + 2)
        }
        var index = position + scanned
        while index < buffer.count {
            if buffer[index] == HTTP1Bytes.lf {
                guard index + 1 < buffer.count else { break }
                if buffer[index + 1] == HTTP1Bytes.lf { return try bounded((index, index + 2)) }
                if buffer[index + 1] == HTTP1Bytes.cr {
                    guard index + 2 < buffer.count else { break }
                    if buffer[index + 2] == HTTP1Bytes.lf { return try bounded((index, index + 3)) }
                }
            }
            index += 1
        }
        scanned = index - position
        // The empty line can start two bytes before the end at the earliest: past that, the section
        // is too large however it ends (the same verdict as with its end already there).
        if buffer.count - 2 - position > Self.maximumHeadSize { try throwTooLarge() }
        return nil
    }

    private func bounded(_ end: (content: Int, next: Int)) throws(HTTP1ParseError) -> (content: Int, next: Int) {
        if end.content - position > Self.maximumHeadSize { try throwTooLarge() }
        return end
    }

    private func throwTooLarge() throws(HTTP1ParseError) {
        let what = head == nil ? "head" : "trailer section"
        throw HTTP1ParseError(.sectionTooLarge, "the response \(what) is larger than \(Self.maximumHeadSize) bytes")
    }
}
