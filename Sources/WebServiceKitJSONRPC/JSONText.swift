import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

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

    /// The byte ranges of the elements of the array that `data` holds, whitespace trimmed, in
    /// order; `nil` when the text is not one array.
    ///
    /// For text a strict `JSONDecoder` has already read as an array: only strings (whose
    /// brackets, commas and escaped quotes do not count), nesting and the commas between
    /// elements need telling apart. A batch's results are then decoded each from its own
    /// element, so reading every result of a batch costs one pass over the body, not one per
    /// request. Iterative, so nesting depth cannot exhaust the stack.
    static func arrayElementRanges(of data: Data) -> [Range<Data.Index>]? {
        data.withUnsafeBytes { bytes -> [Range<Data.Index>]? in
            let base = data.startIndex
            var ranges: [Range<Data.Index>] = []
            var depth = 0
            var strings = JSONStringSkipper()
            var isClosed = false
            var elementStart: Int?
            var lastSignificant = 0
            for (offset, byte) in bytes.enumerated() {
                if strings.isInString {
                    strings.feed(byte)
                    lastSignificant = offset
                    continue
                }
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
                guard !isClosed else { return nil }
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if depth == 0, byte != UInt8(ascii: "[") { return nil }
                    if depth == 1, elementStart == nil { elementStart = offset }
                    depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 {
                        if let start = elementStart { ranges.append(base + start..<base + lastSignificant + 1) }
                        elementStart = nil
                        isClosed = true
                    }
                    guard depth >= 0 else { return nil }
                case UInt8(ascii: ","):
                    if depth == 1 {
                        guard let start = elementStart else { return nil }
                        ranges.append(base + start..<base + lastSignificant + 1)
                        elementStart = nil
                    }
                default:
                    guard depth > 0 else { return nil }
                    if byte == UInt8(ascii: "\"") { strings.enter() }
                    if depth == 1, elementStart == nil { elementStart = offset }
                }
                lastSignificant = offset
            }
            return isClosed ? ranges : nil
        }
    }

    /// The first 256 characters of `data`, for messages (as the client cuts a body's excerpt).
    static func excerpt(of data: Data) -> String {
        let limit = 256
        let text = String(decoding: data.prefix(limit * 4), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// The body in UTF-8, which `JSONDecoder` reads: transcoded from the charset its
    /// `Content-Type` names (RFC 9110 §8.3.1), when that is a known one other than UTF-8.
    static func utf8(_ body: Data, context: ResponseContext) throws -> Data {
        guard let charset = charset(of: context.headers["Content-Type"]), charset != .utf8, charset != .ascii
        else { return body }
        return Data(try StringResponseSerializer(defaultCharset: charset).deserialize(body, context: context).utf8)
    }

    /// The known charset a `Content-Type` value's `charset` parameter names, if any.
    private static func charset(of contentType: String?) -> Charset? {
        guard let contentType, contentType.utf8.contains(UInt8(ascii: ";")) else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                return Charset(ianaName: String(pair[1]))
            }
        }
        return nil
    }
}
