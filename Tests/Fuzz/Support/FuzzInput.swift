import Foundation

/// Reads typed values from the front of a fuzz input; past the end every read gives zero or empty,
/// so a target never needs to check the length.
struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var isEmpty: Bool { bytes.isEmpty }

    /// The next byte, 0 past the end.
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A little-endian integer from the next `MemoryLayout<T>.size` bytes (fewer at the end).
    mutating func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
        var value: T = 0
        for shift in 0..<MemoryLayout<T>.size {
            guard let byte = bytes.popFirst() else { break }
            value |= T(truncatingIfNeeded: byte) << (shift * 8)
        }
        return value
    }

    /// The next `count` bytes (fewer at the end).
    mutating func take(_ count: Int) -> [UInt8] {
        let taken = bytes.prefix(max(0, count))
        bytes.removeFirst(taken.count)
        return Array(taken)
    }

    /// Everything left.
    mutating func rest() -> [UInt8] { take(bytes.count) }
}

/// Splits a fuzz input at the byte 0xFF, which never occurs in UTF-8, so every field can hold any
/// text (CR, LF and NUL included) and the seeds stay readable.
func fuzzFields(_ bytes: [UInt8]) -> [String] {
    bytes.split(separator: 0xFF, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
}

/// Whether `byte` is an ASCII hexadecimal digit.
func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
}
