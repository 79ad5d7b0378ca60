import Foundation

/// The few pieces of JSON text the JSON-RPC envelopes are assembled from.
enum JSONText {
    /// `text` as a JSON string literal (RFC 8259 §7): quotes, backslashes and control
    /// characters escaped, everything else as it is, in UTF-8.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The first byte of `data` that is not JSON whitespace.
    static func firstSignificantByte(of data: Data) -> UInt8? {
        data.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    }
}
