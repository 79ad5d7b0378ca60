/// RFC 9110 §5.6.2 `tchar`.
enum HTTPToken {
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether `text` is a `token` (RFC 9110 §5.6.2): what a method (§9.1) and a field name
    /// (§5.1) must be.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    static func isValidFieldName(_ name: String) -> Bool { isToken(name) }
}
