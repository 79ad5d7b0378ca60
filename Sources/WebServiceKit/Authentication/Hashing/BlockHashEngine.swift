/// The compression function of a Merkle–Damgård hash (MD5, the SHA-2 family) and the state it
/// chains from block to block.
protocol BlockCompressionCore: Sendable {
    /// Bytes per block: 64 for MD5 and SHA-256, 128 for SHA-512.
    static var blockByteCount: Int { get }

    /// Bytes of the message-length field at the end of the padding: 8, or 16 for SHA-512.
    static var lengthFieldByteCount: Int { get }

    /// Whether the message length (and the state words) are big-endian (SHA-2) or little-endian (MD5).
    static var isBigEndian: Bool { get }

    /// Runs the compression function over `blocks`, whose count is a multiple of ``blockByteCount``.
    mutating func compress(_ blocks: UnsafeRawBufferPointer)

    /// The chaining state serialised as the digest (before any truncation).
    func stateBytes() -> [UInt8]
}

/// Buffers input into whole blocks for a ``BlockCompressionCore`` and applies the padding
/// (`0x80`, zeros, message length in bits) when finalising.
///
/// Input is compressed directly from the caller's memory when it covers whole blocks; only a
/// partial block (less than ``BlockCompressionCore/blockByteCount`` bytes) is ever copied.
struct BlockHashEngine<Core: BlockCompressionCore>: Sendable {
    private let initialCore: Core
    private var core: Core
    /// Holds the partial block; always `Core.blockByteCount` bytes long, the first `pendingCount` in use.
    private var pending: [UInt8]
    private var pendingCount = 0
    /// Message length so far in bytes, modulo 2^64 (the algorithms specify the length modulo 2^64
    /// bits for MD5 and SHA-256; 2^64 bytes is far beyond anything hashed here).
    private var messageByteCount: UInt64 = 0

    init(core: Core) {
        initialCore = core
        self.core = core
        pending = [UInt8](repeating: 0, count: Core.blockByteCount)
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let blockByteCount = Core.blockByteCount
        messageByteCount &+= UInt64(truncatingIfNeeded: bytes.count)
        var input = bytes[...]

        if pendingCount > 0 {
            let taken = min(blockByteCount - pendingCount, input.count)
            let start = pendingCount
            pending.withUnsafeMutableBytes { buffer in
                UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + taken)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: input.prefix(taken)))
            }
            pendingCount += taken
            input = input.dropFirst(taken)
            guard pendingCount == blockByteCount else { return }
            pending.withUnsafeBytes { core.compress($0) }
            pendingCount = 0
        }

        let wholeByteCount = input.count - input.count % blockByteCount
        if wholeByteCount > 0 {
            core.compress(UnsafeRawBufferPointer(rebasing: input.prefix(wholeByteCount)))
            input = input.dropFirst(wholeByteCount)
        }

        if !input.isEmpty {
            let remainder = UnsafeRawBufferPointer(rebasing: input)
            pending.withUnsafeMutableBytes { buffer in
                UnsafeMutableRawBufferPointer(rebasing: buffer[..<remainder.count]).copyMemory(from: remainder)
            }
            pendingCount = remainder.count
        }
    }

    /// Pads, compresses the last block(s) and returns the state bytes; the engine then starts over.
    mutating func finalize() -> [UInt8] {
        let blockByteCount = Core.blockByteCount
        let lengthFieldByteCount = Core.lengthFieldByteCount
        let bitCountLow = messageByteCount &<< 3
        let bitCountHigh = messageByteCount &>> 61

        // One block, or two when the 0x80 marker and the length field do not fit after the data.
        let tailByteCount =
            pendingCount + 1 + lengthFieldByteCount <= blockByteCount ? blockByteCount : 2 * blockByteCount
        var tail = [UInt8](repeating: 0, count: tailByteCount)
        tail.withUnsafeMutableBytes { buffer in
            pending.withUnsafeBytes { partial in
                UnsafeMutableRawBufferPointer(rebasing: buffer[..<pendingCount])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: partial[..<pendingCount]))
            }
        }
        tail[pendingCount] = 0x80

        // Length in bits: a 64-bit field, or 128 bits (high word first) for SHA-512.
        let lowStart = tailByteCount - 8
        for index in 0..<8 {
            let shift = UInt64(Core.isBigEndian ? 56 - 8 * index : 8 * index)
            tail[lowStart + index] = UInt8(truncatingIfNeeded: bitCountLow &>> shift)
        }
        if lengthFieldByteCount == 16 {
            let highStart = tailByteCount - 16
            for index in 0..<8 {
                let shift = UInt64(56 - 8 * index)
                tail[highStart + index] = UInt8(truncatingIfNeeded: bitCountHigh &>> shift)
            }
        }

        tail.withUnsafeBytes { core.compress($0) }
        let digest = core.stateBytes()
        reset()
        return digest
    }

    /// Forgets all input.
    mutating func reset() {
        core = initialCore
        pendingCount = 0
        messageByteCount = 0
    }
}

/// Word loads and stores for the hash implementations, kept in a namespace rather than as extensions
/// on standard types.
enum HashWords {
    /// The 32-bit big-endian word at `offset` in `bytes` (no alignment needed).
    @inline(__always)
    static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The 32-bit little-endian word at `offset` in `bytes` (no alignment needed).
    @inline(__always)
    static func littleEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The 64-bit big-endian word at `offset` in `bytes` (no alignment needed).
    @inline(__always)
    static func bigEndian64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// `words` serialised as big-endian bytes.
    static func bigEndianBytes(_ words: [UInt32]) -> [UInt8] {
        words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word &>> UInt32(24 - 8 * $0)) } }
    }

    /// `words` serialised as little-endian bytes.
    static func littleEndianBytes(_ words: [UInt32]) -> [UInt8] {
        words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word &>> UInt32(8 * $0)) } }
    }

    /// `words` serialised as big-endian bytes.
    static func bigEndianBytes(_ words: [UInt64]) -> [UInt8] {
        words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word &>> UInt64(56 - 8 * $0)) } }
    }
}
