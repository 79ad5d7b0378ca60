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

    /// `Content-Length` (RFC 9110 §8.6), `nil` when absent. Every field and every element of a
    /// list in one must be the same 1*DIGIT, or the framing is invalid (RFC 9112 §6.3 item 5).
    static func contentLength(of headers: HTTPHeaders) throws(HTTP1ParseError) -> Int? {
        var length: Int?
        var text: Substring.UTF8View?
        for value in headers.values(for: "Content-Length") {
            for element in value.utf8.split(separator: HTTP1Bytes.comma, omittingEmptySubsequences: false) {
                let digits = HTTPText.trimmingOWS(element)
                guard let parsed = HTTP1Bytes.decimal(digits) else {
                    throw HTTP1ParseError(
                        .contentLength,
                        "invalid Content-Length \(String(value.prefix(40)).debugDescription): not one 1*DIGIT (RFC 9112 §6.3 item 5)"
                    )
                }
                if let text, !text.elementsEqual(digits) {
                    throw HTTP1ParseError(.contentLength, "differing Content-Length values (RFC 9112 §6.3 item 5)")
                }
                text = digits
                length = parsed
            }
        }
        return length
    }

    /// The elements of a comma-separated list field (RFC 9110 §5.6.1), byte for byte: empty ones
    /// left out, each trimmed of SP and HTAB only. A coding is compared byte by byte, never after
    /// Unicode trimming or case mapping, which would read `chunked` + NBSP or `chun` + KELVIN SIGN
    /// + `ed` as `chunked` where another parser on the path does not.
    static func listElements(_ values: [String]) -> [ArraySlice<UInt8>] { HTTPHeaders.listElementBytes(values) }

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

    /// chunk = chunk-size [ chunk-ext ] CRLF (§7.1), the line without its CRLF.
    static func chunkSize(ofLine line: ArraySlice<UInt8>) throws(HTTP1ParseError) -> Int {
        var index = line.startIndex
        var size = 0
        // chunk-size = 1*HEXDIG: no sign, no space, no prefix.
        while index < line.endIndex, let digit = HTTP1Bytes.hexValue(line[index]) {
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            guard !overflow, shifted <= Int.max - digit else {
                throw HTTP1ParseError(.chunkSize, "a chunk size larger than \(Int.max) bytes")
            }
            size = shifted + digit
            index += 1
        }
        // What follows the digits is nothing, or chunk-ext, which opens with BWS ";" (§7.1.1):
        // anything else (a sign, "0x", a trailing space or NUL) makes the size itself invalid.
        var extensionStart = index
        while extensionStart < line.endIndex, HTTP1Bytes.isWhitespace(line[extensionStart]) { extensionStart += 1 }
        let opensExtension = extensionStart < line.endIndex && line[extensionStart] == UInt8(ascii: ";")
        guard index > line.startIndex, index == line.endIndex || opensExtension else {
            throw HTTP1ParseError(
                .chunkSize, "invalid chunk size \(Self.excerpt(line)): chunk-size = 1*HEXDIG (RFC 9112 §7.1)")
        }
        try checkExtensions(line[index...])
        return size
    }

    /// chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ) (§7.1.1), with
    /// chunk-ext-name = token and chunk-ext-val = token / quoted-string. Extensions are then ignored.
    static func checkExtensions(_ bytes: ArraySlice<UInt8>) throws(HTTP1ParseError) {
        var invalid: HTTP1ParseError {
            HTTP1ParseError(.chunkExtension, "invalid chunk extension \(Self.excerpt(bytes)) (RFC 9112 §7.1.1)")
        }
        var index = bytes.startIndex
        let end = bytes.endIndex
        func skipWhitespace(_ index: inout Int) {
            while index < end, HTTP1Bytes.isWhitespace(bytes[index]) { index += 1 }
        }
        func skipToken(_ index: inout Int) -> Bool {
            let start = index
            while index < end, HTTPToken.isTokenCharacter(bytes[index]) { index += 1 }
            return index > start
        }
        while index < end {
            skipWhitespace(&index)
            guard index < end, bytes[index] == UInt8(ascii: ";") else { throw invalid }
            index += 1
            skipWhitespace(&index)
            guard skipToken(&index) else { throw invalid }
            var next = index
            skipWhitespace(&next)
            guard next < end, bytes[next] == UInt8(ascii: "=") else { continue }
            next += 1
            skipWhitespace(&next)
            if next < end, bytes[next] == HTTP1Bytes.quote {
                guard let after = HTTP1Bytes.quotedStringEnd(bytes, from: next) else { throw invalid }
                next = after
            } else {
                guard skipToken(&next) else { throw invalid }
            }
            index = next
        }
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

    /// The lines of a section without its final empty line, each without its CRLF or bare LF.
    static func lines(of bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        lines.reserveCapacity(16)
        var start = bytes.startIndex
        func append(upTo end: Int) {
            lines.append(bytes[start..<(end > start && bytes[end - 1] == HTTP1Bytes.cr ? end - 1 : end)])
        }
        for index in bytes.indices where bytes[index] == HTTP1Bytes.lf {
            append(upTo: index)
            start = index + 1
        }
        append(upTo: bytes.endIndex)
        return lines
    }

    /// Parses a status line and its fields (the head without its final empty line).
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTP1ParseError) -> HTTP1ResponseHead {
        let lines = Self.lines(of: bytes)
        guard let statusLine = lines.first else { throw HTTP1ParseError(.statusLine, "empty response head") }
        let (version, statusCode) = try parseStatusLine(statusLine)
        return HTTP1ResponseHead(
            statusCode: statusCode, headers: HTTPHeaders(try parseFields(lines.dropFirst())), version: version)
    }

    /// status-line = HTTP-version SP status-code SP [ reason-phrase ] (§4), where HTTP-version is
    /// `HTTP/1.` DIGIT and status-code is 3DIGIT from 100 to 599 (RFC 9110 §15). The SP before an
    /// empty reason phrase may be missing, as many servers leave it out.
    static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(HTTP1ParseError) -> (String, Int) {
        // Made only when it is thrown: its text costs more than the whole check.
        var invalid: HTTP1ParseError {
            HTTP1ParseError(.statusLine, "invalid status line \(Self.excerpt(line))")
        }
        let start = line.startIndex
        // The byte at `offset` from the start of the line (no copy of the line).
        func byte(_ offset: Int) -> UInt8 { line[start + offset] }
        guard line.count >= 12, line[start..<(start + 5)].elementsEqual("HTTP/".utf8), HTTP1Bytes.isDigit(byte(5)),
            byte(6) == UInt8(ascii: "."), HTTP1Bytes.isDigit(byte(7)), byte(8) == HTTP1Bytes.space,
            line[(start + 9)..<(start + 12)].allSatisfy(HTTP1Bytes.isDigit)
        else { throw invalid }
        guard byte(5) == UInt8(ascii: "1") else {
            throw HTTP1ParseError(.statusLine, "unsupported version \(Self.excerpt(line[..<(start + 8)]))")
        }
        let statusCode = line[(start + 9)..<(start + 12)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard (100...599).contains(statusCode) else {
            throw HTTP1ParseError(.statusLine, "status code \(statusCode) is outside 100–599 (RFC 9110 §15)")
        }
        if line.count > 12 {
            // reason-phrase = 1*( HTAB / SP / VCHAR / obs-text )
            guard byte(12) == HTTP1Bytes.space,
                !line[(start + 13)...].contains(where: HTTP1Bytes.isControlOtherThanTab)
            else { throw invalid }
        }
        return (String(decoding: line[start..<(start + 8)], as: UTF8.self), statusCode)
    }

    /// field-line = field-name ":" OWS field-value OWS (§5), with obs-fold (§5.2) replaced by one
    /// SP. Values are not checked here: the call pipeline does that for every transport.
    static func parseFields(_ lines: ArraySlice<ArraySlice<UInt8>>) throws(HTTP1ParseError) -> [HTTPHeaders.Field] {
        var names: [ArraySlice<UInt8>] = []
        var values: [ArraySlice<UInt8>] = []
        names.reserveCapacity(lines.count)
        values.reserveCapacity(lines.count)
        for line in lines {
            if let first = line.first, HTTP1Bytes.isWhitespace(first) {
                // obs-fold = OWS CRLF RWS: a user agent replaces it with SP (§5.2).
                guard let last = values.popLast() else {
                    throw HTTP1ParseError(.fieldLine, "a folded line (obs-fold) before any field (RFC 9112 §5.2)")
                }
                values.append(
                    HTTPText.trimmingOWS(last) + [HTTP1Bytes.space] + HTTPText.trimmingOWS(line))
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw HTTP1ParseError(.fieldLine, "a field line without a colon: \(Self.excerpt(line))")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(HTTPToken.isTokenCharacter) else {
                if let last = name.last, HTTP1Bytes.isWhitespace(last) {
                    throw HTTP1ParseError(
                        .fieldLine,
                        "whitespace between a field name and its colon (RFC 9112 §5.1): \(Self.excerpt(line))")
                }
                throw HTTP1ParseError(.fieldLine, "invalid field name \(Self.excerpt(name)) (RFC 9110 §5.1)")
            }
            names.append(name)
            values.append(line[(colon + 1)...])
        }
        return zip(names, values).map { name, value in
            HTTPHeaders.Field(
                name: String(decoding: name, as: UTF8.self),
                value: String(decoding: HTTPText.trimmingOWS(value), as: UTF8.self))
        }
    }

    /// A short, escaped excerpt of bytes for an error message.
    private static func excerpt(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix(60), as: UTF8.self).debugDescription
    }
}
