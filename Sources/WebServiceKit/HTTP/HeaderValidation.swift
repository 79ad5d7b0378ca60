/// RFC 9110 §5.5: a field value is visible characters, spaces and tabs; CR, LF and NUL would let
/// a value inject header fields or end the header section (request smuggling).
enum HeaderValidation {
    /// Refuses a field whose name is not a token or whose value could inject fields.
    static func check(_ headers: [String: String]) throws(WebServiceError) {
        for (name, value) in headers { try check(name: name, value: value) }
    }

    /// Refuses one field whose name is not a token or whose value could inject fields.
    static func check(name: String, value: String) throws(WebServiceError) {
        guard HTTPToken.isValidFieldName(name) else {
            throw .invalidHeader(name: name, reason: "not a valid field name (RFC 9110 §5.1)")
        }
        if let problem = problem(in: value) { throw .invalidHeader(name: name, reason: problem) }
    }

    static func problem(in value: String) -> String? {
        for byte in value.utf8 {
            switch byte {
            case 0x0D, 0x0A: return "the value contains CR or LF (header injection)"
            case 0x00: return "the value contains NUL"
            case 0x01...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F: return "the value contains a control character"
            default: continue
            }
        }
        return nil
    }
}
