import Foundation
import XCTest

@testable import WebServiceKit

/// Writes DEFLATE data (RFC 1951) bit by bit, so that tests can build streams zlib never makes:
/// distance 32768, a bomb, malformed code lengths.
struct DeflateWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    /// `bits` bits of `value`, least significant first (header fields, extra bits).
    mutating func write(_ value: Int, bits: Int) {
        buffer |= UInt64(value & ((1 << bits) - 1)) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// A Huffman code of `length` bits, most significant bit first (RFC 1951 §3.1.1).
    mutating func writeCode(_ code: Int, length: Int) {
        for shift in stride(from: length - 1, through: 0, by: -1) { write(code >> shift & 1, bits: 1) }
    }

    /// Pads to a byte boundary with zero bits.
    mutating func align() {
        if count > 0 { write(0, bits: 8 - count) }
    }

    /// The bytes written, the last one padded.
    mutating func finish() -> [UInt8] {
        align()
        return bytes
    }

    // MARK: Blocks

    /// A block header: BFINAL and BTYPE (RFC 1951 §3.2.3).
    mutating func blockHeader(final: Bool, type: Int) {
        write(final ? 1 : 0, bits: 1)
        write(type, bits: 2)
    }

    /// A whole stored block (RFC 1951 §3.2.4).
    mutating func storedBlock(_ data: [UInt8], final: Bool) {
        precondition(data.count <= 65535)
        blockHeader(final: final, type: 0)
        align()
        write(data.count, bits: 16)
        write(~data.count & 0xFFFF, bits: 16)
        bytes.append(contentsOf: data)
    }

    /// Symbols of a block with the given code (fixed or dynamic).
    mutating func literal(_ byte: UInt8, _ code: HuffmanCode) {
        code.write(Int(byte), to: &self)
    }

    mutating func endOfBlock(_ code: HuffmanCode) {
        code.write(256, to: &self)
    }

    /// A match of `length` (3–258) at `distance` (1–32768), RFC 1951 §3.2.5.
    mutating func match(length: Int, distance: Int, _ literals: HuffmanCode, _ distances: HuffmanCode) {
        let lengthSymbol = DeflateWriter.lengthBases.lastIndex { $0 <= length } ?? 0
        literals.write(257 + lengthSymbol, to: &self)
        write(length - DeflateWriter.lengthBases[lengthSymbol], bits: DeflateWriter.lengthExtra[lengthSymbol])
        let distanceSymbol = DeflateWriter.distanceBases.lastIndex { $0 <= distance } ?? 0
        distances.write(distanceSymbol, to: &self)
        write(
            distance - DeflateWriter.distanceBases[distanceSymbol], bits: DeflateWriter.distanceExtra[distanceSymbol])
    }

    /// A dynamic block header (RFC 1951 §3.2.7) for these code lengths, written with a complete
    /// code-length code (0–12 in 4 bits, 13–18 in 5) and no repeat codes.
    mutating func dynamicHeader(final: Bool, literalLengths: [Int], distanceLengths: [Int]) {
        blockHeader(final: final, type: 2)
        write(literalLengths.count - 257, bits: 5)
        write(distanceLengths.count - 1, bits: 5)
        write(19 - 4, bits: 4)
        let codeLengthLengths = (0..<19).map { $0 <= 12 ? 4 : 5 }
        for symbol in DeflateWriter.codeLengthOrder { write(codeLengthLengths[symbol], bits: 3) }
        let codeLengthCode = HuffmanCode(lengths: codeLengthLengths)
        for length in literalLengths + distanceLengths { codeLengthCode.write(length, to: &self) }
    }

    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
}

/// A canonical Huffman code (RFC 1951 §3.2.2) built from code lengths, independently of the
/// library's tables.
struct HuffmanCode {
    let lengths: [Int]
    let codes: [Int]

    init(lengths: [Int]) {
        self.lengths = lengths
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        codes = lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return next[length]
        }
    }

    func write(_ symbol: Int, to writer: inout DeflateWriter) {
        precondition(lengths[symbol] > 0, "symbol \(symbol) has no code")
        writer.writeCode(codes[symbol], length: lengths[symbol])
    }

    /// The fixed codes of RFC 1951 §3.2.6.
    static let fixedLiterals = HuffmanCode(
        lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
            + [Int](repeating: 8, count: 8))
    static let fixedDistances = HuffmanCode(lengths: [Int](repeating: 5, count: 32))
}

/// Containers around raw DEFLATE data, with checksums computed by the library's CRC-32 and
/// Adler-32 (themselves checked against published values in ``ContentCodingTests``).
enum Container {
    /// A gzip member (RFC 1952 §2.3) of `deflated`, the DEFLATE data of `original`.
    static func gzip(
        _ deflated: [UInt8], original: [UInt8], flags: UInt8 = 0, extra: [UInt8]? = nil, name: String? = nil,
        comment: String? = nil, headerCRC: Bool = false
    ) -> [UInt8] {
        var flags = flags
        if extra != nil { flags |= 0x04 }
        if name != nil { flags |= 0x08 }
        if comment != nil { flags |= 0x10 }
        if headerCRC { flags |= 0x02 }
        var header: [UInt8] = [0x1F, 0x8B, 8, flags, 0, 0, 0, 0, 0, 3]
        if let extra {
            header += [UInt8(extra.count & 0xFF), UInt8(extra.count >> 8)] + extra
        }
        if let name { header += Array(name.utf8) + [0] }
        if let comment { header += Array(comment.utf8) + [0] }
        if headerCRC {
            let crc = CRC32.checksum(header)
            header += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF)]
        }
        return header + deflated + littleEndian(CRC32.checksum(original)) + littleEndian(UInt32(original.count))
    }

    /// A zlib stream (RFC 1950) of `deflated`, the DEFLATE data of `original`.
    static func zlib(_ deflated: [UInt8], original: [UInt8]) -> [UInt8] {
        let adler = Adler32.checksum(original)
        return [0x78, 0x9C] + deflated + [24, 16, 8, 0].map { UInt8(adler >> $0 & 0xFF) }
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [0, 8, 16, 24].map { UInt8(value >> $0 & 0xFF) }
    }
}

/// Bytes from a fixed seed (a 64-bit linear congruential generator): the same on every run.
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self = bytes
    }
}

/// Decodes `bytes` with `codings`, fed in pieces split at `splits` (offsets), as an array.
func decodeContent(
    _ bytes: [UInt8], _ codings: [String], limit: Int = 1 << 26, splits: [Int] = []
) throws -> [UInt8] {
    guard let decoder = try ContentDecoder(codings: codings, outputLimit: limit) else {
        throw XCTSkip("no decoder for \(codings)")
    }
    var output: [UInt8] = []
    var start = 0
    for end in splits.sorted() + [bytes.count] where end >= start {
        try bytes[start..<end].withUnsafeBytes { piece in
            try decoder.feed(piece) { output.append(contentsOf: $0) }
        }
        start = end
    }
    try decoder.finish { output.append(contentsOf: $0) }
    return output
}
