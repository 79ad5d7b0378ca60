/// Reads the `deflate` content coding: the zlib format (RFC 1950), which RFC 9110 §8.4.1.2 says
/// `deflate` is, and raw DEFLATE data (RFC 1951) when the body does not start with a zlib header.
///
/// zlib: the two header bytes are a zlib header when CM is 8, CINFO at most 7 and the 16-bit value
/// a multiple of 31 (RFC 1950 §2.2). FDICT is refused (HTTP has no way to agree on a
/// dictionary), and the Adler-32 trailer is checked. The window size in CINFO is not enforced on
/// distances: zlib does not either, and the data decode the same.
///
/// Raw DEFLATE: some servers (old IIS, some mod_deflate set-ups) send raw DEFLATE data as
/// `deflate`, and browsers and curl decode it, so this reader does too. The two formats cannot be
/// confused in practice: a raw stream would have to start with a non-final stored block whose
/// ignored padding bits are not zero. There is no checksum to check in raw data.
///
/// Either way, bytes after the end of the stream are an error, and a body of zero bytes is an
/// empty body.
final class DeflateReader: CodingReader {
    /// Where the reader is.
    private enum State {
        /// Reading the first two bytes, to tell zlib from raw DEFLATE.
        case sniffing
        /// Inside the DEFLATE data.
        case body
        /// Reading the 4-byte Adler-32 (zlib only).
        case trailer
        /// After the end of the stream.
        case done
    }

    private var state = State.sniffing
    private var isZlib = false
    private var field: [UInt8] = []
    private var inflater = Inflater()
    private var adler = Adler32()

    func feed(_ bytes: UnsafeRawBufferPointer, _ sink: Inflater.Sink) throws {
        var index = 0
        while index < bytes.count {
            switch state {
            case .sniffing:
                field.append(bytes[index])
                index += 1
                guard field.count == 2 else { continue }
                let header = field
                field = []
                state = .body
                isZlib =
                    header[0] & 0x0F == 8 && header[0] >> 4 <= 7
                    && (UInt16(header[0]) << 8 | UInt16(header[1])) % 31 == 0
                if isZlib {
                    guard header[1] & 0x20 == 0 else { throw ContentDecodingError.presetDictionary }
                } else {
                    // Raw DEFLATE data: the two bytes are its start.
                    try header.withUnsafeBytes { header in
                        let used = try inflate(header, sink)
                        try readTrailer(UnsafeRawBufferPointer(rebasing: header[used...]))
                    }
                }
            case .body:
                index += try inflate(UnsafeRawBufferPointer(rebasing: bytes[index...]), sink)
            case .trailer, .done:
                try readTrailer(UnsafeRawBufferPointer(rebasing: bytes[index...]))
                index = bytes.count
            }
        }
    }

    func finish() throws {
        switch state {
        case .done: return
        case .sniffing where field.isEmpty: return
        default: throw ContentDecodingError.truncated(coding: "deflate")
        }
    }

    /// Runs the inflater on `bytes`; how many it used. At the end of the DEFLATE data, reads the
    /// bytes the inflater had loaded past it.
    private func inflate(_ bytes: UnsafeRawBufferPointer, _ sink: Inflater.Sink) throws -> Int {
        let isZlib = isZlib
        let used: Int
        do {
            used = try inflater.run(bytes) { chunk in
                if isZlib { adler.update(chunk) }
                try sink(chunk)
            }
        } catch let fault as DeflateFault {
            throw ContentDecodingError.invalidDeflateData(fault)
        }
        guard inflater.isFinished else { return used }
        state = isZlib ? .trailer : .done
        try inflater.takeBufferedBytes().withUnsafeBytes { try readTrailer($0) }
        return used
    }

    /// Reads bytes after the DEFLATE data: the Adler-32 (big-endian, RFC 1950 §2.2), then
    /// nothing.
    private func readTrailer(_ bytes: UnsafeRawBufferPointer) throws {
        for byte in bytes {
            guard case .trailer = state else { throw ContentDecodingError.trailingData(coding: "deflate") }
            field.append(byte)
            guard field.count == 4 else { continue }
            let expected = field.reduce(0) { $0 << 8 | UInt32($1) }
            guard expected == adler.value else {
                throw ContentDecodingError.checksumMismatch(
                    algorithm: "Adler-32", expected: expected, computed: adler.value)
            }
            field = []
            state = .done
        }
    }
}
