/// SHA-256 (FIPS 180-4 §6.2): 32-byte digests, the `SHA-256` and `SHA-256-sess` algorithms of RFC 7616.
struct SHA256: HashFunction {
    static var digestByteCount: Int { 32 }
    static var blockByteCount: Int { SHA256Core.blockByteCount }

    private var engine = BlockHashEngine(core: SHA256Core())

    init() {}

    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        engine.update(bytes)
    }

    mutating func finalize() -> [UInt8] {
        engine.finalize()
    }
}

/// The SHA-256 compression function and chaining state (FIPS 180-4 §4.1.2, §5.3.3, §6.2.2).
struct SHA256Core: BlockCompressionCore {
    static var blockByteCount: Int { 64 }
    static var lengthFieldByteCount: Int { 8 }
    static var isBigEndian: Bool { true }

    // Initial hash value H(0), FIPS 180-4 §5.3.3.
    private var h0: UInt32 = 0x6a09_e667
    private var h1: UInt32 = 0xbb67_ae85
    private var h2: UInt32 = 0x3c6e_f372
    private var h3: UInt32 = 0xa54f_f53a
    private var h4: UInt32 = 0x510e_527f
    private var h5: UInt32 = 0x9b05_688c
    private var h6: UInt32 = 0x1f83_d9ab
    private var h7: UInt32 = 0x5be0_cd19

    func stateBytes() -> [UInt8] {
        HashWords.bigEndianBytes([h0, h1, h2, h3, h4, h5, h6, h7])
    }

    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        var s0 = h0
        var s1 = h1
        var s2 = h2
        var s3 = h3
        var s4 = h4
        var s5 = h5
        var s6 = h6
        var s7 = h7
        sha256RoundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for blockStart in stride(from: 0, to: blocks.count, by: 64) {
                    // Message schedule, §6.2.2 step 1.
                    for t in 0..<16 {
                        w[t] = HashWords.bigEndian32(blocks, at: blockStart + 4 * t)
                    }
                    for t in 16..<64 {
                        let w15 = w[t - 15]
                        let w2 = w[t - 2]
                        let sigma0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 &>> 3)
                        let sigma1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 &>> 10)
                        w[t] = sigma1 &+ w[t - 7] &+ sigma0 &+ w[t - 16]
                    }

                    var a = s0
                    var b = s1
                    var c = s2
                    var d = s3
                    var e = s4
                    var f = s5
                    var g = s6
                    var h = s7
                    for t in 0..<64 {
                        let bigSigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let choose = (e & f) ^ (~e & g)
                        let t1 = h &+ bigSigma1 &+ choose &+ k[t] &+ w[t]
                        let bigSigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = bigSigma0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    s0 &+= a
                    s1 &+= b
                    s2 &+= c
                    s3 &+= d
                    s4 &+= e
                    s5 &+= f
                    s6 &+= g
                    s7 &+= h
                }
            }
        }
        h0 = s0
        h1 = s1
        h2 = s2
        h3 = s3
        h4 = s4
        h5 = s5
        h6 = s6
        h7 = s7
    }
}

/// K, the first 32 bits of the fractional parts of the cube roots of the first 64 primes
/// (FIPS 180-4 §4.2.2).
private let sha256RoundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
]

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x &>> n) | (x &<< (32 &- n))
}
