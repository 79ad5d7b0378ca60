/// Text from a request or a response, shown in an error message.
enum HTTPText {
    /// At most `limit` characters of `text` in quotes, with control characters escaped: a message
    /// never carries a line break, or megabytes, from a hostile value.
    static func quoted(_ text: String, limit: Int = 80) -> String {
        let excerpt = text.unicodeScalars.prefix(limit).map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "\"" + excerpt.joined() + (text.unicodeScalars.count > limit ? "…" : "") + "\""
    }
}
