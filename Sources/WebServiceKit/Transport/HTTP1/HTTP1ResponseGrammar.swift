import Foundation

/// The grammar of a response head and of the chunked coding (RFC 9112 §2–§7, RFC 9110 §5), as
/// pure functions over bytes: what ``HTTP1ResponseParser`` reads its lines and fields with.
extension HTTP1ResponseParser {
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
    static func excerpt(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix(60), as: UTF8.self).debugDescription
    }
}
