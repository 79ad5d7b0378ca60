/// A message digest computed incrementally: create a value, feed it bytes with `update`, read the
/// digest with `finalize()`.
///
/// The digests here (MD5, SHA-256, SHA-512, SHA-512/256) exist for HTTP Digest authentication
/// (RFC 7616) so that WebServiceKit needs no crypto package. They are plain implementations of the
/// published algorithms, not hardened against side channels; MD5 is only for protocol compatibility.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(headerBytes)
/// hasher.update(bodyChunk)          // any number of chunks, of any size
/// let digest = hasher.finalize()    // 32 bytes; the hasher starts over afterwards
/// ```
protocol HashFunction: Sendable {
    /// Length of the digest in bytes.
    static var digestByteCount: Int { get }

    /// Length of the block the compression function consumes, in bytes.
    static var blockByteCount: Int { get }

    /// A hasher that has seen no input.
    init()

    /// Feeds the bytes at `bytes` to the hash. The bytes are read during the call only.
    mutating func update(bufferPointer bytes: UnsafeRawBufferPointer)

    /// Pads the message, returns its digest (``digestByteCount`` bytes) and resets the hasher to its
    /// initial state, so the same value can hash another message.
    mutating func finalize() -> [UInt8]
}

extension HashFunction {
    /// Feeds `bytes` to the hash. Contiguous collections (`[UInt8]`, `ArraySlice`, `Data`, UTF-8
    /// views of native strings) are read in place; other sequences are copied through a small
    /// stack buffer, never as a whole.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(bufferPointer: UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            updateByCopying(bytes)
        }
    }

    /// Feeds the bytes at `bytes` to the hash (same as ``update(bufferPointer:)``; this overload keeps
    /// raw buffers off the byte-by-byte path of the `Sequence` overload).
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        update(bufferPointer: bytes)
    }

    /// Feeds the UTF-8 encoding of `string` to the hash.
    mutating func update(_ string: some StringProtocol) {
        update(string.utf8)
    }

    /// Like ``finalize()``, as a lowercase hexadecimal string.
    mutating func finalizeHexDigest() -> String {
        HexEncoding.lowercase(finalize())
    }

    /// The digest of `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the UTF-8 encoding of `string`.
    static func hash(_ string: some StringProtocol) -> [UInt8] {
        hash(string.utf8)
    }

    /// The digest of `bytes` as a lowercase hexadecimal string (the form RFC 7616 uses).
    static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        HexEncoding.lowercase(hash(bytes))
    }

    /// The digest of the UTF-8 encoding of `string` as a lowercase hexadecimal string.
    static func hexDigest(_ string: some StringProtocol) -> String {
        HexEncoding.lowercase(hash(string))
    }

    private mutating func updateByCopying(_ bytes: some Sequence<UInt8>) {
        let chunkByteCount = 4096
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkByteCount) { chunk in
            var iterator = bytes.makeIterator()
            var exhausted = false
            while !exhausted {
                var count = 0
                while count < chunkByteCount {
                    guard let byte = iterator.next() else {
                        exhausted = true
                        break
                    }
                    chunk[count] = byte
                    count += 1
                }
                if count > 0 {
                    update(bufferPointer: UnsafeRawBufferPointer(start: chunk.baseAddress, count: count))
                }
            }
        }
    }
}

/// Hexadecimal text for digests.
enum HexEncoding {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hexadecimal, two digits a byte, no separators.
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
