/// Why a body with a content coding (RFC 9110 §8.4) could not be decoded: thrown by
/// ``ContentDecoder`` for every malformed input, and for a body that decodes to more bytes than
/// the caller allows.
enum ContentDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The body ended inside the stream: in a gzip or zlib header or trailer, or before the final
    /// DEFLATE block ended.
    case truncated(coding: String)
    /// Bytes follow the end of the stream: after the zlib trailer, after the final block of raw
    /// DEFLATE data, or after a gzip member, bytes that do not start another member.
    case trailingData(coding: String)
    /// A gzip member header is malformed (RFC 1952 §2.3): no `1f 8b`, a method other than 8
    /// (deflate), reserved flag bits set, or a header CRC that does not match.
    case invalidGzipHeader(String)
    /// The zlib stream needs a preset dictionary (FDICT, RFC 1950 §2.2), which HTTP cannot supply.
    case presetDictionary
    /// The DEFLATE data is malformed (RFC 1951).
    case invalidDeflateData(DeflateFault)
    /// The CRC-32 of a gzip member (RFC 1952 §2.3.1) or the Adler-32 of a zlib stream
    /// (RFC 1950 §2.2) is not the one of the decoded bytes.
    case checksumMismatch(algorithm: String, expected: UInt32, computed: UInt32)
    /// A gzip member's ISIZE is not the length of its decoded bytes modulo 2^32 (RFC 1952 §2.3.1).
    case lengthMismatch(expected: UInt32, computed: UInt32)
    /// The decoded body, or what one of several codings decodes to, is longer than the limit.
    case outputLimitExceeded(limit: Int)
    /// More codings than ``ContentDecoder/maximumCodings`` are applied to one body.
    case tooManyCodings(Int)

    var description: String {
        switch self {
        case .truncated(let coding):
            return "the \(coding)-coded body ends before the end of its stream"
        case .trailingData(let coding):
            return "bytes follow the end of the \(coding)-coded stream"
        case .invalidGzipHeader(let detail):
            return "invalid gzip header: \(detail)"
        case .presetDictionary:
            return "the zlib stream needs a preset dictionary (FDICT), which HTTP cannot supply"
        case .invalidDeflateData(let fault):
            return "invalid DEFLATE data: \(fault.rawValue)"
        case .checksumMismatch(let algorithm, let expected, let computed):
            return "\(algorithm) mismatch: the stream says \(hex(expected)), the decoded bytes have \(hex(computed))"
        case .lengthMismatch(let expected, let computed):
            return "gzip ISIZE mismatch: the trailer says \(expected) bytes, \(computed) were decoded (modulo 2^32)"
        case .outputLimitExceeded(let limit):
            return "the body decodes to more than \(limit) bytes"
        case .tooManyCodings(let count):
            return "\(count) content codings applied to one body; at most \(ContentDecoder.maximumCodings) are decoded"
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
