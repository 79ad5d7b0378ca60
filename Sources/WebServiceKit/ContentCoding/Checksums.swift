/// CRC-32 as the gzip trailer uses it (RFC 1952 §8: the polynomial 0xEDB88320 in reflected form,
/// initial and final XOR 0xFFFFFFFF; the value of "123456789" is 0xCBF43926). Table-driven,
/// eight bytes per step ("slicing by 8").
struct CRC32 {
    /// The checksum of everything given to ``update(_:)`` so far.
    private(set) var value: UInt32 = 0

    init() {}

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        let tables = CRC32.tables
        var crc = ~value
        var index = 0
        let count = bytes.count
        tables.withUnsafeBufferPointer { table in
            while count - index >= 8 {
                let low =
                    crc
                    ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                        | UInt32(bytes[index + 3]) << 24)
                let high =
                    UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8 | UInt32(bytes[index + 6]) << 16
                    | UInt32(bytes[index + 7]) << 24
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        value = ~crc
    }

    /// The checksum of `bytes` alone.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        bytes.withUnsafeBufferPointer { crc.update($0) }
        return crc.value
    }

    /// Eight tables of 256: table 0 is the byte-at-a-time table, table k the CRC of a byte
    /// followed by k zero bytes.
    private static let tables: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            table[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(slice - 1) * 256 + byte]
                table[slice * 256 + byte] = table[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return table
    }()
}

/// Adler-32 as the zlib trailer uses it (RFC 1950 §8.2: two sums modulo 65521, initial value 1;
/// the value of "Wikipedia" is 0x11E60398).
struct Adler32 {
    /// The checksum of everything given to ``update(_:)`` so far.
    private(set) var value: UInt32 = 1

    init() {}

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        let modulus: UInt32 = 65521
        // 5552 is the largest n with 255·n·(n+1)/2 + (n+1)·(65521−1) < 2^32: the sums cannot
        // overflow before the next reduction.
        let run = 5552
        var a = value & 0xFFFF
        var b = value >> 16
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + run)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= modulus
            b %= modulus
        }
        value = b << 16 | a
    }

    /// The checksum of `bytes` alone.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var adler = Adler32()
        bytes.withUnsafeBufferPointer { adler.update($0) }
        return adler.value
    }
}
