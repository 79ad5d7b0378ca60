/// What is wrong with DEFLATE data (RFC 1951): the detail of
/// ``ContentDecodingError/invalidDeflateData(_:)``.
enum DeflateFault: String, Error, Sendable, Equatable {
    case invalidBlockType = "block type 3 is reserved (RFC 1951 §3.2.3)"
    case storedLengthMismatch = "a stored block's NLEN is not the one's complement of LEN (RFC 1951 §3.2.4)"
    case tooManyCodes = "more than 286 literal/length codes or 30 distance codes (RFC 1951 §3.2.7)"
    case oversubscribedCode = "over-subscribed Huffman code lengths (RFC 1951 §3.2.2)"
    case incompleteCode = "incomplete Huffman code lengths (RFC 1951 §3.2.2)"
    case repeatWithoutPrevious = "code length 16 repeats a previous length, and there is none (RFC 1951 §3.2.7)"
    case repeatTooLong = "a code length repeat goes past the last code (RFC 1951 §3.2.7)"
    case missingEndOfBlock = "no code for end-of-block, symbol 256 (RFC 1951 §3.2.7)"
    case invalidLiteralLengthCode = "an invalid literal/length code (RFC 1951 §3.2.5)"
    case invalidDistanceCode = "an invalid distance code (RFC 1951 §3.2.5)"
    case distanceTooFarBack = "a distance reaches before the start of the output (RFC 1951 §3.2.5)"
}

/// A streaming decoder of raw DEFLATE data (RFC 1951), the engine of the `gzip` and `deflate`
/// content codings (``ContentDecoder``).
///
/// ``run(_:_:)`` decodes all it can from the bytes it is given, hands the output to a sink in
/// pieces, and returns how many of the bytes it used: all of them unless the final block ended in
/// them, so input may be split anywhere. Only bits, never bytes, are carried from one call to the
/// next (the bit buffer); the input is read where the caller holds it, not copied. After the final
/// block ``isFinished`` is true and ``takeBufferedBytes()`` gives back the whole bytes that the bit
/// buffer had loaded past the end of the stream (at most 7): with the unused rest of the last
/// call's input, they are what follows the stream (a gzip or zlib trailer).
///
/// Memory stays bounded whatever the input: the output buffer grows to 128 KiB (the 32 KiB window
/// of RFC 1951 §3.2 and up to 96 KiB not yet handed out), the Huffman tables of a block to a few
/// tens of KiB. Nothing traps on any input: every distance is checked against the data decoded so
/// far (`distanceTooFarBack`), every table index is masked to the table's size or checked, and a
/// malformed stream throws a ``DeflateFault``. After a fault the decoder must not be used again.
struct Inflater {
    /// Receives decoded bytes; valid only for the call.
    typealias Sink = (UnsafeBufferPointer<UInt8>) throws -> Void

    /// Where the decoder is in the stream.
    private enum State {
        /// Before the 3-bit header of a block (RFC 1951 §3.2.3).
        case blockHeader
        /// Before LEN and NLEN of a stored block (§3.2.4).
        case storedHeader
        /// Inside a stored block, with this many bytes to copy.
        case stored(remaining: Int)
        /// Before HLIT, HDIST and HCLEN of a dynamic block (§3.2.7).
        case tableCounts
        /// Reading the lengths of the code-length code; `index` of them read.
        case codeLengthCodes(index: Int)
        /// Reading the literal/length and distance code lengths; `index` of them read.
        case codeLengths(index: Int)
        /// Decoding the symbols of a compressed block.
        case symbols
        /// After the final block.
        case done
    }

    /// Why ``decodeSymbols()`` returned.
    private enum Stop {
        case needInput, endOfBlock, outputFull
    }

    /// The window: how far back a distance may reach (RFC 1951 §3.2).
    static let windowSize = 32768
    /// The size the output buffer grows to.
    static let outputCapacity = 4 * windowSize
    /// The longest match (RFC 1951 §3.2.5).
    private static let maximumMatch = 258
    /// Room the match copy may write past a match: it copies 8 bytes at a time.
    private static let copySlack = 8
    /// The order in which code-length code lengths arrive (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private var state = State.blockHeader
    private var isFinalBlock = false
    /// The input of the current ``run(_:_:)`` call (empty between calls).
    private var input = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The next byte of `input` to load into the bit buffer.
    private var position = 0
    /// Loaded bits, least significant first. The bits above `bitCount` are either zero or the
    /// first bits of `input[position]`, so loading that byte again by OR-ing it in is harmless;
    /// when a call has used all its input they are zero.
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    /// The window, then the output not yet handed to the sink.
    private var output = [UInt8](repeating: 0, count: 4096)
    private var outputEnd = 0
    private var flushed = 0
    private var literalTable: [UInt32] = []
    private var distanceTable: [UInt32] = []
    private var codeLengthTable: [UInt32] = []
    private var literalCount = 0
    private var distanceCount = 0
    private var codeLengthCount = 0
    /// Code lengths of the dynamic block being read: the code-length code's 19, or the
    /// literal/length codes then the distance codes.
    private var lengths = [UInt8](repeating: 0, count: 320)

    init() {}

    /// Whether the final block has ended.
    var isFinished: Bool {
        if case .done = state { return true }
        return false
    }

    /// After the end of the stream: the whole bytes that the bit buffer holds past it, in order
    /// (the unused bits of the last byte of the stream are padding, RFC 1951 §3.2.3). At most 7.
    mutating func takeBufferedBytes() -> [UInt8] {
        drop(bitCount & 7)
        var bytes: [UInt8] = []
        while bitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: bitBuffer))
            drop(8)
        }
        bitBuffer = 0
        return bytes
    }

    /// Decodes what `bytes` allow, handing the output to `sink`, and returns when they are used up
    /// or the stream has ended: how many of them it used (all, unless the stream ended).
    mutating func run(_ bytes: UnsafeRawBufferPointer, _ sink: Sink) throws -> Int {
        input = bytes
        position = 0
        defer { input = UnsafeRawBufferPointer(start: nil, count: 0) }
        try decode(sink)
        return position
    }

    private mutating func decode(_ sink: Sink) throws {
        decoding: while true {
            switch state {
            case .blockHeader:
                guard ensure(3) else { break decoding }
                isFinalBlock = take(1) == 1
                switch take(2) {
                case 0: state = .storedHeader
                case 1:
                    literalTable = HuffmanTable.fixedLiteralLength
                    distanceTable = HuffmanTable.fixedDistance
                    state = .symbols
                case 2: state = .tableCounts
                default: throw DeflateFault.invalidBlockType
                }
            case .storedHeader:
                drop(bitCount & 7)
                guard ensure(32) else { break decoding }
                let length = take(16)
                guard take(16) == ~length & 0xFFFF else { throw DeflateFault.storedLengthMismatch }
                state = .stored(remaining: length)
            case .stored(let remaining):
                if remaining == 0 {
                    endBlock()
                } else if outputEnd == output.count {
                    try makeRoom(sink)
                } else {
                    let copied = copyStored(upTo: remaining)
                    guard copied > 0 else { break decoding }
                    state = .stored(remaining: remaining - copied)
                }
            case .tableCounts:
                guard ensure(14) else { break decoding }
                literalCount = take(5) + 257
                distanceCount = take(5) + 1
                codeLengthCount = take(4) + 4
                // zlib's limits, which RFC 1951 §3.2.5 implies: codes 286–287 and 30–31 never occur.
                guard literalCount <= 286, distanceCount <= 30 else { throw DeflateFault.tooManyCodes }
                for index in 0..<19 { lengths[index] = 0 }
                state = .codeLengthCodes(index: 0)
            case .codeLengthCodes(var index):
                while index < codeLengthCount {
                    guard ensure(3) else {
                        state = .codeLengthCodes(index: index)
                        break decoding
                    }
                    lengths[Inflater.codeLengthOrder[index]] = UInt8(take(3))
                    index += 1
                }
                codeLengthTable = try HuffmanTable.build(lengths[0..<19], alphabet: .codeLengths)
                state = .codeLengths(index: 0)
            case .codeLengths(let start):
                guard let index = try readCodeLengths(from: start) else { break decoding }
                guard index == literalCount + distanceCount else {
                    state = .codeLengths(index: index)
                    break decoding
                }
                guard lengths[256] != 0 else { throw DeflateFault.missingEndOfBlock }
                literalTable = try HuffmanTable.build(lengths[0..<literalCount], alphabet: .literalLength)
                distanceTable = try HuffmanTable.build(
                    lengths[literalCount..<(literalCount + distanceCount)], alphabet: .distance)
                state = .symbols
            case .symbols:
                switch try decodeSymbols() {
                case .needInput: break decoding
                case .endOfBlock: endBlock()
                case .outputFull: try makeRoom(sink)
                }
            case .done:
                break decoding
            }
        }
        try flush(sink)
    }

    private mutating func endBlock() {
        state = isFinalBlock ? .done : .blockHeader
    }

    // MARK: Bits

    /// Loads whole bytes while there is room in the bit buffer; whether `count` bits are there.
    private mutating func ensure(_ count: Int) -> Bool {
        while bitCount <= 56, position < input.count {
            bitBuffer |= UInt64(input[position]) &<< UInt64(bitCount)
            position += 1
            bitCount += 8
        }
        return bitCount >= count
    }

    /// The next `count` (at most 32) loaded bits, consumed.
    private mutating func take(_ count: Int) -> Int {
        let value = Int(truncatingIfNeeded: bitBuffer & ((1 &<< UInt64(count)) &- 1))
        drop(count)
        return value
    }

    private mutating func drop(_ count: Int) {
        bitBuffer = bitBuffer &>> UInt64(count)
        bitCount -= count
    }

    // MARK: Stored blocks

    /// Copies up to `remaining` bytes of a stored block to the output (byte-aligned: the bit
    /// buffer holds whole bytes, which come first); how many it copied.
    private mutating func copyStored(upTo remaining: Int) -> Int {
        var copied = 0
        while copied < remaining, outputEnd < output.count, bitCount >= 8 {
            output[outputEnd] = UInt8(truncatingIfNeeded: bitBuffer)
            outputEnd += 1
            drop(8)
            copied += 1
        }
        guard bitCount == 0 else { return copied }
        // Bytes are now read past the bit buffer: it must hold no stale look-ahead.
        bitBuffer = 0
        let count = min(remaining - copied, output.count - outputEnd, input.count - position)
        guard count > 0 else { return copied }
        let source = UnsafeRawBufferPointer(rebasing: input[position..<(position + count)])
        output.withUnsafeMutableBytes { target in
            UnsafeMutableRawBufferPointer(rebasing: target[outputEnd..<(outputEnd + count)]).copyMemory(from: source)
        }
        outputEnd += count
        position += count
        return copied + count
    }

    // MARK: Dynamic block headers

    /// Reads literal/length and distance code lengths with the code-length code from `start`
    /// (RFC 1951 §3.2.7); the index reached, or `nil` when no symbol could be read yet.
    private mutating func readCodeLengths(from start: Int) throws(DeflateFault) -> Int? {
        let total = literalCount + distanceCount
        var index = start
        while index < total {
            _ = ensure(14)
            let entry = codeLengthTable[Int(bitBuffer & 0x7F)]
            let length = Int(entry & 15)
            guard length > 0 else {
                // The code-length code is complete (checked when built): every entry has a code.
                throw .incompleteCode
            }
            guard length <= bitCount else { break }
            let symbol = Int(entry >> 16)
            if symbol < 16 {
                drop(length)
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            }
            let extraBits = symbol == 16 ? 2 : symbol == 17 ? 3 : 7
            guard length + extraBits <= bitCount else { break }
            drop(length)
            let extra = take(extraBits)
            let repeated: UInt8
            let count: Int
            switch symbol {
            case 16:
                guard index > 0 else { throw .repeatWithoutPrevious }
                repeated = lengths[index - 1]
                count = 3 + extra
            case 17:
                repeated = 0
                count = 3 + extra
            default:
                repeated = 0
                count = 11 + extra
            }
            guard index + count <= total else { throw .repeatTooLong }
            for offset in index..<(index + count) { lengths[offset] = repeated }
            index += count
        }
        return index == start && index < total ? nil : index
    }

    // MARK: Output

    /// Hands the output not yet handed out to `sink`.
    private mutating func flush(_ sink: Sink) throws {
        guard outputEnd > flushed else { return }
        let range = flushed..<outputEnd
        flushed = outputEnd
        try output.withUnsafeBufferPointer { try sink(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Flushes, then makes room: doubles the buffer up to ``outputCapacity``, then keeps only the
    /// last window's worth of output at its start.
    private mutating func makeRoom(_ sink: Sink) throws {
        try flush(sink)
        if output.count < Inflater.outputCapacity {
            output.append(contentsOf: repeatElement(0, count: output.count))
            return
        }
        let keep = Inflater.windowSize
        let start = outputEnd - keep
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, start >= keep else { return }
            // The buffer is four windows long and nearly full: the two ranges do not overlap.
            base.update(from: base + start, count: keep)
        }
        outputEnd = keep
        flushed = keep
    }

    // MARK: Compressed blocks

    /// Decodes literal/length and distance codes until the end of the block, the end of the
    /// input, or an output buffer too full for the longest match. The hot loop: local copies of
    /// the state, the input and the output, and the refill that loads eight bytes at once.
    private mutating func decodeSymbols() throws(DeflateFault) -> Stop {
        var saved = (bits: bitBuffer, count: bitCount, position: position, end: outputEnd)
        var output = self.output
        self.output = []
        defer {
            self.output = output
            (bitBuffer, bitCount, position, outputEnd) = saved
        }
        let source = self.input
        let literalTable = self.literalTable
        let distanceTable = self.distanceTable
        // Room for the longest match and the copy's overshoot after any `end` up to `limit`.
        let limit = output.count - Inflater.maximumMatch - Inflater.copySlack
        // The entry kinds as locals: read through a global's accessor, they cost a tenth of the
        // time when the module is not compiled whole.
        let kindMask = HuffmanTable.kindMask
        let subtable = HuffmanTable.subtable
        let literalKind = HuffmanTable.literal
        let endOfBlock = HuffmanTable.endOfBlock
        let baseKind = HuffmanTable.base
        let literalBits = UInt64(HuffmanTable.Alphabet.literalLength.primaryBits)
        let distanceBits = UInt64(HuffmanTable.Alphabet.distance.primaryBits)
        let literalMask: UInt64 = (1 &<< literalBits) &- 1
        let distanceMask: UInt64 = (1 &<< distanceBits) &- 1
        guard literalTable.count > Int(literalMask), distanceTable.count > Int(distanceMask) else {
            throw .invalidLiteralLengthCode
        }

        return try output.withUnsafeMutableBufferPointer { (target) throws(DeflateFault) -> Stop in
            try literalTable.withUnsafeBufferPointer { (literals) throws(DeflateFault) -> Stop in
                try distanceTable.withUnsafeBufferPointer { (distances) throws(DeflateFault) -> Stop in
                    guard let out = target.baseAddress else { return .outputFull }
                    let inputCount = source.count
                    // Plain locals, not variables the closures capture: they stay in registers.
                    var (bits, count, position, end) = saved
                    defer { saved = (bits, count, position, end) }
                    while true {
                        if end > limit { return .outputFull }
                        if count < 48 {
                            if inputCount - position >= 8 {
                                let word = UInt64(
                                    littleEndian: source.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                                bits |= word &<< UInt64(count)
                                position += (63 - count) >> 3
                                count |= 56
                            } else {
                                while count <= 56, position < inputCount {
                                    bits |= UInt64(source[position]) &<< UInt64(count)
                                    position += 1
                                    count += 8
                                }
                            }
                        }
                        var entry = literals[Int(bits & literalMask)]
                        if entry & kindMask == subtable {
                            let subtableMask = UInt64(1) &<< UInt64((entry >> 12) & 15) &- 1
                            let index = Int(entry >> 16) + Int((bits &>> literalBits) & subtableMask)
                            guard index < literals.count else { throw .invalidLiteralLengthCode }
                            entry = literals[index]
                        }
                        let length = Int(entry & 15)
                        guard length > 0, length <= count else {
                            if count >= 15 { throw .invalidLiteralLengthCode }
                            return .needInput
                        }
                        switch entry & kindMask {
                        case literalKind:
                            out[end] = UInt8(truncatingIfNeeded: entry >> 16)
                            end += 1
                            bits = bits &>> UInt64(length)
                            count -= length
                            continue
                        case endOfBlock:
                            bits = bits &>> UInt64(length)
                            count -= length
                            return .endOfBlock
                        case baseKind:
                            break
                        default:
                            throw .invalidLiteralLengthCode
                        }
                        let lengthExtra = Int((entry >> 4) & 15)
                        var used = length + lengthExtra
                        guard used <= count else { return .needInput }
                        let matchLength =
                            Int(entry >> 16)
                            + Int((bits &>> UInt64(length)) & (UInt64(1) &<< UInt64(lengthExtra) &- 1))
                        let rest = bits &>> UInt64(used)
                        var distanceEntry = distances[Int(rest & distanceMask)]
                        if distanceEntry & kindMask == subtable {
                            let subtableMask = UInt64(1) &<< UInt64((distanceEntry >> 12) & 15) &- 1
                            let index = Int(distanceEntry >> 16) + Int((rest &>> distanceBits) & subtableMask)
                            guard index < distances.count else { throw .invalidDistanceCode }
                            distanceEntry = distances[index]
                        }
                        let distanceLength = Int(distanceEntry & 15)
                        guard distanceLength > 0, used + distanceLength <= count else {
                            if count - used >= 15 { throw .invalidDistanceCode }
                            return .needInput
                        }
                        guard distanceEntry & kindMask == baseKind else {
                            throw .invalidDistanceCode
                        }
                        let distanceExtra = Int((distanceEntry >> 4) & 15)
                        guard used + distanceLength + distanceExtra <= count else { return .needInput }
                        let distance =
                            Int(distanceEntry >> 16)
                            + Int(
                                (rest &>> UInt64(distanceLength)) & (UInt64(1) &<< UInt64(distanceExtra) &- 1))
                        used += distanceLength + distanceExtra
                        guard distance <= end else { throw .distanceTooFarBack }
                        let from = out + (end - distance)
                        let to = out + end
                        if distance >= 8 {
                            // Eight bytes at a time, each read from bytes already final (the
                            // source is at least 8 behind); up to 7 bytes past the match are
                            // written too, inside the buffer (`copySlack`), and overwritten later.
                            var offset = 0
                            repeat {
                                let word = UnsafeRawPointer(from + offset).loadUnaligned(as: UInt64.self)
                                UnsafeMutableRawPointer(to + offset).storeBytes(of: word, as: UInt64.self)
                                offset += 8
                            } while offset < matchLength
                        } else if distance == 1 {
                            to.update(repeating: from[0], count: matchLength)
                        } else {
                            var offset = 0
                            while offset < matchLength {
                                to[offset] = from[offset]
                                offset += 1
                            }
                        }
                        end += matchLength
                        bits = bits &>> UInt64(used)
                        count -= used
                    }
                }
            }
        }
    }
}
