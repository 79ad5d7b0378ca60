/// Reads the `gzip` content coding (RFC 1952; RFC 9110 §8.4.1.3): one or more gzip members, each
/// a header, DEFLATE data and a trailer with the CRC-32 and length (ISIZE) of its decoded bytes,
/// both checked.
///
/// Header fields: FEXTRA, FNAME and FCOMMENT are skipped as they stream by (no length limit, no
/// memory held); FHCRC is checked; reserved flag bits and a method other than 8 are errors.
///
/// Concatenated members are decoded one after another into one body, as zlib's gzip readers,
/// gzip(1) and Python's `gzip` module do (RFC 1952 §2.2: "a gzip file consists of a series of
/// members"). After a member, anything that does not start another member (`1f 8b`) is trailing
/// data, an error. A body of zero bytes is an empty body: no member, nothing to check.
final class GzipReader: CodingReader {
    /// Where the reader is in the current member.
    private enum State {
        /// Nothing read yet: the end here is an empty body.
        case start
        /// Reading the 10-byte fixed header.
        case header
        /// Reading XLEN (2 bytes).
        case extraLength
        /// Skipping the extra field.
        case extra(remaining: Int)
        /// Skipping the zero-terminated file name.
        case name
        /// Skipping the zero-terminated comment.
        case comment
        /// Reading the 2-byte header CRC.
        case headerCRC
        /// Inside the DEFLATE data.
        case body
        /// Reading the 8-byte trailer.
        case trailer
        /// After a complete member: the end here is the end of the body.
        case memberEnd
    }

    private static let flagHeaderCRC: UInt8 = 0x02
    private static let flagExtra: UInt8 = 0x04
    private static let flagName: UInt8 = 0x08
    private static let flagComment: UInt8 = 0x10
    private static let reservedFlags: UInt8 = 0xE0

    private var state = State.start
    private var isFirstMember = true
    /// The bytes of the fixed-size field being read (header, XLEN, header CRC, trailer).
    private var field: [UInt8] = []
    private var flags: UInt8 = 0
    private var headerCRC = CRC32()
    private var inflater = Inflater()
    private var crc = CRC32()
    private var size: UInt32 = 0

    func feed(_ bytes: UnsafeRawBufferPointer, _ sink: Inflater.Sink) throws {
        try read(bytes, sink)
    }

    func finish() throws {
        switch state {
        case .start, .memberEnd: return
        default: throw ContentDecodingError.truncated(coding: "gzip")
        }
    }

    /// Reads `bytes`, whatever fields and members they hold.
    private func read(_ bytes: UnsafeRawBufferPointer, _ sink: Inflater.Sink) throws {
        var index = 0
        while index < bytes.count {
            switch state {
            case .start, .memberEnd:
                guard bytes[index] == 0x1F else { throw notAMember() }
                field = [0x1F]
                headerCRC = CRC32()
                state = .header
                index += 1
            case .header:
                let byte = bytes[index]
                if field.count == 1, byte != 0x8B { throw notAMember() }
                field.append(byte)
                index += 1
                if field.count == 10 { try headerRead() }
            case .extraLength:
                field.append(bytes[index])
                index += 1
                if field.count == 2 {
                    field.withUnsafeBytes { hashHeader($0) }
                    let length = Int(field[0]) | Int(field[1]) << 8
                    field = []
                    if length == 0 {
                        nextField(after: GzipReader.flagExtra)
                    } else {
                        state = .extra(remaining: length)
                    }
                }
            case .extra(let remaining):
                let count = min(remaining, bytes.count - index)
                hashHeader(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                if remaining == count {
                    nextField(after: GzipReader.flagExtra)
                } else {
                    state = .extra(remaining: remaining - count)
                }
            case .name, .comment:
                let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
                let terminator = rest.firstIndex(of: 0)
                let count = terminator.map { $0 + 1 } ?? rest.count
                hashHeader(UnsafeRawBufferPointer(rebasing: rest[0..<count]))
                index += count
                guard terminator != nil else { break }
                if case .name = state {
                    nextField(after: GzipReader.flagName)
                } else {
                    nextField(after: GzipReader.flagComment)
                }
            case .headerCRC:
                field.append(bytes[index])
                index += 1
                if field.count == 2 {
                    let stored = UInt32(field[0]) | UInt32(field[1]) << 8
                    let computed = headerCRC.value & 0xFFFF
                    guard stored == computed else {
                        throw ContentDecodingError.invalidGzipHeader(
                            "the header CRC is \(stored), the header's is \(computed) (FHCRC, RFC 1952 §2.3.1.2)")
                    }
                    startBody()
                }
            case .body:
                index += try inflate(UnsafeRawBufferPointer(rebasing: bytes[index...]), sink)
            case .trailer:
                field.append(bytes[index])
                index += 1
                if field.count == 8 { try trailerRead() }
            }
        }
    }

    private func notAMember() -> ContentDecodingError {
        isFirstMember
            ? .invalidGzipHeader("the body does not start with 1f 8b (RFC 1952 §2.3.1)")
            : .trailingData(coding: "gzip")
    }

    /// The fixed header is in `field`: checks it and moves to the first optional field.
    private func headerRead() throws {
        let method = field[2]
        flags = field[3]
        guard method == 8 else {
            throw ContentDecodingError.invalidGzipHeader("compression method \(method), not 8 (RFC 1952 §2.3.1)")
        }
        guard flags & GzipReader.reservedFlags == 0 else {
            throw ContentDecodingError.invalidGzipHeader("reserved flag bits are set (RFC 1952 §2.3.1.2)")
        }
        field.withUnsafeBytes { hashHeader($0) }
        field = []
        nextField(after: 0)
    }

    /// Moves to the first optional header field present after `previous` (in RFC 1952 order:
    /// extra, name, comment, header CRC), or to the DEFLATE data.
    private func nextField(after previous: UInt8) {
        let order: [(UInt8, State)] = [
            (GzipReader.flagExtra, .extraLength), (GzipReader.flagName, .name), (GzipReader.flagComment, .comment),
            (GzipReader.flagHeaderCRC, .headerCRC),
        ]
        let start = order.firstIndex { $0.0 == previous }.map { $0 + 1 } ?? 0
        for (flag, next) in order[start...] where flags & flag != 0 {
            state = next
            field = []
            return
        }
        startBody()
    }

    private func hashHeader(_ bytes: UnsafeRawBufferPointer) {
        headerCRC.update(bytes.bindMemory(to: UInt8.self))
    }

    private func startBody() {
        field = []
        inflater = Inflater()
        crc = CRC32()
        size = 0
        state = .body
    }

    /// Runs the inflater on `bytes`; how many it used. At the end of the DEFLATE data, reads the
    /// bytes the inflater had loaded past it (at most 7, all of them trailer bytes: no deeper
    /// recursion).
    private func inflate(_ bytes: UnsafeRawBufferPointer, _ sink: Inflater.Sink) throws -> Int {
        let used: Int
        do {
            used = try inflater.run(bytes) { chunk in
                crc.update(chunk)
                size = size &+ UInt32(truncatingIfNeeded: chunk.count)
                try sink(chunk)
            }
        } catch let fault as DeflateFault {
            throw ContentDecodingError.invalidDeflateData(fault)
        }
        guard inflater.isFinished else { return used }
        state = .trailer
        field = []
        try inflater.takeBufferedBytes().withUnsafeBytes { try read($0, sink) }
        return used
    }

    /// The trailer is in `field`: checks CRC-32 and ISIZE (RFC 1952 §2.3.1).
    private func trailerRead() throws {
        let expectedCRC = littleEndian(field[0..<4])
        let expectedSize = littleEndian(field[4..<8])
        guard expectedCRC == crc.value else {
            throw ContentDecodingError.checksumMismatch(algorithm: "CRC-32", expected: expectedCRC, computed: crc.value)
        }
        guard expectedSize == size else {
            throw ContentDecodingError.lengthMismatch(expected: expectedSize, computed: size)
        }
        field = []
        isFirstMember = false
        state = .memberEnd
    }

    private func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
