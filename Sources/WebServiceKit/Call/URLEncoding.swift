/// Percent-encoding for each place a value can go (RFC 3986 §2.1, §3.3, §3.4).
///
/// A substituted value is encoded so that the server decodes exactly the text that was passed:
/// only `unreserved` characters (§2.3) stay as they are, so `/ ? # % & = + ;` and space inside a
/// value always arrive as the same text. Literal text written in a template keeps its structure
/// characters and any `%XX` escapes the author wrote; only characters that may not appear in a URL
/// at all (space, non-ASCII, `"`, `<`…) are encoded.
package enum URLEncoding {
    /// A set of ASCII bytes, as a 128-bit mask.
    package struct ByteSet: Sendable {
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        package init(_ characters: String) {
            for byte in characters.utf8 { insert(byte) }
        }

        private mutating func insert(_ byte: UInt8) {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
        }

        package func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
        }

        static let unreserved = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        /// `pchar` plus `/` (RFC 3986 §3.3), for literal path text and pre-encoded paths.
        static let pathLiteral = ByteSet(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/")
        /// `query` characters (RFC 3986 §3.4) for literal query text; `&` and `=` were split off already.
        static let queryLiteral = ByteSet(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?")
        /// RFC 3986's unreserved and reserved characters (§2.2, §2.3) that a query value may hold
        /// as they are: all but `#`, `[` and `]`, which a query may not hold (§3.4), and `&`, `=`
        /// and `+`, which delimit items and stand for a space in `application/x-www-form-urlencoded`.
        static let reservedQueryValue = ByteSet(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?@!$'()*,;")
    }

    /// Encodes a value that fills one path segment.
    static func pathSegment(_ text: String) -> String { percentEncode(text, allowed: .unreserved) }

    /// Encodes a value that fills a query item's name or value.
    static func queryComponent(_ text: String) -> String { percentEncode(text, allowed: .unreserved) }

    /// Encodes a value that fills a query item by RFC 6570's reserved expansion (`{+var}`,
    /// OpenAPI's `allowReserved`): reserved characters and well-formed `%XX` escapes stay as they
    /// are, but for `&`, `=`, `+`, `#`, `[` and `]` (OpenAPI 3.1.1 Appendix C: a query may not
    /// hold the last three, and the first three would change the items a server reads); a `%` not
    /// followed by two hex digits becomes `%25`.
    static func reservedQueryComponent(_ text: String) -> String {
        normalizeLiteral(text[...], allowed: .reservedQueryValue)
    }

    /// Percent-encodes every byte of the UTF-8 form of `text` that is not in `allowed`.
    package static func percentEncode(_ text: String, allowed: ByteSet) -> String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !allowed.contains($0) }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 16)
        bytes.append(contentsOf: utf8[..<first])
        for byte in utf8[first...] {
            if allowed.contains(byte) {
                bytes.append(byte)
            } else {
                appendEscape(byte, to: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Keeps `allowed` bytes and well-formed `%XX` escapes; encodes everything else.
    static func normalizeLiteral(_ text: Substring, allowed: ByteSet) -> String {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count, isHexDigit(utf8[index + 1]),
                isHexDigit(utf8[index + 2])
            {
                bytes.append(contentsOf: utf8[index...(index + 2)])
                index += 3
                continue
            }
            if allowed.contains(byte) { bytes.append(byte) } else { appendEscape(byte, to: &bytes) }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` is usable as-is in a path: only `pchar`, `/` and well-formed `%XX` escapes.
    static func isValidEncodedPath(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, isHexDigit(utf8[index + 1]), isHexDigit(utf8[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard ByteSet.pathLiteral.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0x0F)])
    }
}
