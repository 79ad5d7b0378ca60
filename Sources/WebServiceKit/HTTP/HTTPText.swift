/// Text from a request or a response, shown in an error message.
enum HTTPText {
    /// `bytes` without the optional whitespace at either end (`OWS`: spaces and tabs, RFC 9110
    /// §5.6.3), nothing else.
    static func trimmingOWS<C: BidirectionalCollection>(_ bytes: C) -> C.SubSequence where C.Element == UInt8 {
        func isOWS(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isOWS(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isOWS(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return bytes[start..<end]
    }

    /// At most `limit` characters of `text` in quotes, with control characters escaped: a message
    /// never carries a line break, or megabytes, from a hostile value.
    static func quoted(_ text: String, limit: Int = 80) -> String {
        let excerpt = text.unicodeScalars.prefix(limit).map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "\"" + excerpt.joined() + (text.unicodeScalars.count > limit ? "…" : "") + "\""
    }
}
