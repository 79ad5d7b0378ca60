/// SHA-512/256 (FIPS 180-4 §5.3.6.2, §6.7): SHA-512 with its own initial hash value, truncated to
/// 32 bytes; the `SHA-512-256` and `SHA-512-256-sess` algorithms of RFC 7616.
///
/// Not the same as the first half of a SHA-512 digest: the initial hash value differs.
struct SHA512_256: HashFunction {
    static var digestByteCount: Int { 32 }
    static var blockByteCount: Int { SHA512Core.blockByteCount }

    private var engine = BlockHashEngine(core: SHA512Core.sha512Slash256)

    init() {}

    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        engine.update(bytes)
    }

    mutating func finalize() -> [UInt8] {
        Array(engine.finalize().prefix(Self.digestByteCount))
    }
}
