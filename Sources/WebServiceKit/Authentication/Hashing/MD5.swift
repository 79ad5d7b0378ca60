/// MD5 (RFC 1321): 16-byte digests, the `MD5` and `MD5-sess` algorithms of RFC 7616 and RFC 2617.
///
/// Broken for collision resistance; here only because Digest authentication servers still ask for it.
struct MD5: HashFunction {
    static var digestByteCount: Int { 16 }
    static var blockByteCount: Int { MD5Core.blockByteCount }

    private var engine = BlockHashEngine(core: MD5Core())

    init() {}

    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        engine.update(bytes)
    }

    mutating func finalize() -> [UInt8] {
        engine.finalize()
    }
}

/// The MD5 compression function and chaining state (RFC 1321 §3.3–3.4).
struct MD5Core: BlockCompressionCore {
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }
    static var isBigEndian: Bool { false }

    // Initial buffer, RFC 1321 §3.3 (words written high byte first).
    private var a0: UInt32 = 0x6745_2301
    private var b0: UInt32 = 0xefcd_ab89
    private var c0: UInt32 = 0x98ba_dcfe
    private var d0: UInt32 = 0x1032_5476

    func stateBytes() -> [UInt8] {
        HashWords.littleEndianBytes([a0, b0, c0, d0])
    }

    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        var s0 = a0
        var s1 = b0
        var s2 = c0
        var s3 = d0
        md5SineConstants.withUnsafeBufferPointer { k in
            md5Shifts.withUnsafeBufferPointer { shifts in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { m in
                    for blockStart in stride(from: 0, to: blocks.count, by: 64) {
                        for j in 0..<16 {
                            m[j] = HashWords.littleEndian32(blocks, at: blockStart + 4 * j)
                        }
                        var a = s0
                        var b = s1
                        var c = s2
                        var d = s3
                        // Each step: a = b + ((a + f(b, c, d) + X[g] + T[i]) <<< s), then rotate the
                        // roles (a, b, c, d) <- (d, a', b, c).
                        for i in 0..<16 {
                            let f = (b & c) | (~b & d)
                            let sum = a &+ f &+ k[i] &+ m[i]
                            a = d
                            d = c
                            c = b
                            b = b &+ rotl(sum, shifts[i])
                        }
                        for i in 16..<32 {
                            let f = (b & d) | (c & ~d)
                            let sum = a &+ f &+ k[i] &+ m[(5 &* i &+ 1) & 15]
                            a = d
                            d = c
                            c = b
                            b = b &+ rotl(sum, shifts[i])
                        }
                        for i in 32..<48 {
                            let f = b ^ c ^ d
                            let sum = a &+ f &+ k[i] &+ m[(3 &* i &+ 5) & 15]
                            a = d
                            d = c
                            c = b
                            b = b &+ rotl(sum, shifts[i])
                        }
                        for i in 48..<64 {
                            let f = c ^ (b | ~d)
                            let sum = a &+ f &+ k[i] &+ m[(7 &* i) & 15]
                            a = d
                            d = c
                            c = b
                            b = b &+ rotl(sum, shifts[i])
                        }
                        s0 &+= a
                        s1 &+= b
                        s2 &+= c
                        s3 &+= d
                    }
                }
            }
        }
        a0 = s0
        b0 = s1
        c0 = s2
        d0 = s3
    }
}

/// Per-step left-rotation amounts, RFC 1321 §3.4.
private let md5Shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
]

/// T[i] = floor(2^32 × |sin(i + 1)|), RFC 1321 §3.4.
private let md5SineConstants: [UInt32] = [
    0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613, 0xfd46_9501,
    0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193, 0xa679_438e, 0x49b4_0821,
    0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d, 0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8,
    0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed, 0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a,
    0xfffa_3942, 0x8771_f681, 0x6d9d_6122, 0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70,
    0x289b_7ec6, 0xeaa1_27fa, 0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665,
    0xf429_2244, 0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
    0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb, 0xeb86_d391,
]

@inline(__always)
private func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x &<< n) | (x &>> (32 &- n))
}
