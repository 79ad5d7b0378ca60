/// Reads the DER encoding of ASN.1 (ITU-T X.690 §8 and §10) just far enough to find a
/// certificate's parts: one element at a time, its tag, its length and the range of its content.
///
/// Every read is checked against the bytes that are there: a length that runs past the end, a
/// length in more than eight bytes, an indefinite length (§10.1 forbids it in DER) or a tag in
/// the high-tag-number form fails with ``DERError`` instead of trapping.
struct DERReader {
    /// One element: its identifier octet and the range of its content in the reader's bytes.
    struct Element {
        let tag: UInt8
        /// Where the content is, in the bytes the reader was made with.
        let content: Range<Int>
        /// Where the whole element is (identifier, length and content).
        let whole: Range<Int>
    }

    /// The identifier of a SEQUENCE (constructed, universal 16).
    static let sequence: UInt8 = 0x30

    private let bytes: [UInt8]
    private var position: Int
    private let end: Int

    /// A reader over `bytes[range]` (all of `bytes` by default).
    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        let range = range ?? bytes.indices
        position = range.lowerBound
        end = range.upperBound
    }

    /// Whether every byte of the range was read.
    var isAtEnd: Bool { position >= end }

    /// The next element; fails if what is there is not one whole element within the range.
    mutating func next() throws(DERError) -> Element {
        let start = position
        guard position < end else { throw .truncated }
        let tag = bytes[position]
        // The high-tag-number form (low five bits all set) appears nowhere in a certificate's
        // outer structure (RFC 5280 §4.1).
        guard tag & 0x1F != 0x1F else { throw .unsupportedTag(tag) }
        position += 1
        guard position < end else { throw .truncated }
        let first = bytes[position]
        position += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            // 0x80 is the indefinite form, which DER forbids (X.690 §10.1); more than eight
            // length octets cannot describe anything that fits in memory.
            guard count > 0 else { throw .indefiniteLength }
            guard count <= 8 else { throw .lengthTooLong }
            guard end - position >= count else { throw .truncated }
            var value: UInt64 = 0
            for index in position..<(position + count) {
                value = value << 8 | UInt64(bytes[index])
            }
            position += count
            guard value <= UInt64(end - position) else { throw .truncated }
            length = Int(value)
        }
        guard length <= end - position else { throw .truncated }
        let content = position..<(position + length)
        position += length
        return Element(tag: tag, content: content, whole: start..<position)
    }

    /// The next element, which must have identifier `tag`.
    mutating func next(tag: UInt8) throws(DERError) -> Element {
        let element = try next()
        guard element.tag == tag else { throw .unexpectedTag(expected: tag, found: element.tag) }
        return element
    }
}

/// Why bytes could not be read as DER.
enum DERError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated
    case indefiniteLength
    case lengthTooLong
    case unsupportedTag(UInt8)
    case unexpectedTag(expected: UInt8, found: UInt8)
    case trailingBytes

    var description: String {
        switch self {
        case .truncated: return "an element runs past the end of the bytes"
        case .indefiniteLength: return "an indefinite length, which DER forbids (X.690 §10.1)"
        case .lengthTooLong: return "a length in more than eight bytes"
        case .unsupportedTag(let tag): return "a high-number tag (0x\(String(tag, radix: 16)))"
        case .unexpectedTag(let expected, let found):
            return "tag 0x\(String(found, radix: 16)) where 0x\(String(expected, radix: 16)) belongs"
        case .trailingBytes: return "bytes after the certificate"
        }
    }
}
