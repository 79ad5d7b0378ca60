/// Steps over the strings of JSON text in a one-pass byte scanner that only cares about the
/// structure around them (RFC 8259 §7: a string ends at a `"` that no `\` escapes).
package struct JSONStringSkipper {
    /// Whether the last byte fed was inside a string (its opening quote included, its closing
    /// quote not).
    package private(set) var isInString = false
    private var escaped = false

    /// The scanner met an opening quote outside any string.
    package init() {}

    package mutating func enter() { isInString = true }

    /// Feeds a byte that follows the opening quote; the string ends at an unescaped quote.
    package mutating func feed(_ byte: UInt8) {
        if escaped {
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            isInString = false
        }
    }
}
