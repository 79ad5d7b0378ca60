/// Why a JSON pointer could not be parsed or evaluated.
public enum JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text (given) is neither empty nor starts with `/` (after the `#` of the fragment form).
    case missingLeadingSlash(String)
    /// The text (given) has a `~` followed by something other than `0` or `1`.
    case invalidEscape(String)
    /// The fragment (given) has a `%` that does not start an escape of UTF-8.
    case invalidPercentEncoding(String)
    /// The object at the pointer has no member named by the token.
    case noMember(JSONPointer, String)
    /// The array at the pointer cannot be indexed by the token (not decimal digits without a
    /// leading zero; `-` included).
    case invalidIndex(JSONPointer, String)
    /// The array at the pointer has `count` elements, no element at the index.
    case indexOutOfRange(JSONPointer, Int, count: Int)
    /// The value at the pointer is a scalar, which the token cannot go into.
    case notAContainer(JSONPointer, String)

    /// What is wrong, in one sentence.
    public var description: String {
        switch self {
        case .missingLeadingSlash(let text):
            return "the JSON pointer '\(text.prefix(200))' does not start with '/'"
        case .invalidEscape(let text):
            return "the JSON pointer '\(text.prefix(200))' has a '~' that is not '~0' or '~1'"
        case .invalidPercentEncoding(let text):
            return "the JSON pointer '\(text.prefix(200))' has a '%' that is not a percent escape of UTF-8"
        case .noMember(let pointer, let token):
            return "the object at '\(pointer)' has no member '\(token.prefix(200))'"
        case .invalidIndex(let pointer, let token):
            return "the array at '\(pointer)' has no index '\(token.prefix(200))' (indexes are decimal, "
                + "without leading zeros)"
        case .indexOutOfRange(let pointer, let index, let count):
            return "the array at '\(pointer)' has \(count) elements, no element \(index)"
        case .notAContainer(let pointer, let token):
            return "the value at '\(pointer)' is not an object or an array, so it has no '\(token.prefix(200))'"
        }
    }
}
