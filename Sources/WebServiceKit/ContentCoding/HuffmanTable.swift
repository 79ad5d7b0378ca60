/// A canonical Huffman code of DEFLATE (RFC 1951 §3.2.2) as a two-level lookup table, indexed by
/// the next bits of the input (least significant bit first, so codes are stored bit-reversed).
///
/// A code of at most `primaryBits` bits fills every primary slot whose low bits are the code; a
/// longer code goes to a subtable, reached through a pointer entry in the slot of its first
/// `primaryBits` bits. Each entry is a `UInt32`:
///
/// - bits 0–3: the code's length in bits (0: no code here, the bits are invalid);
/// - bits 4–7: extra bits that follow the code (length and distance symbols);
/// - bits 8–10: the kind (``HuffmanTable/literal`` …);
/// - bits 12–15: a subtable's index bits (pointer entries);
/// - bits 16–31: the value: a literal byte, a base length or distance, a code-length symbol, or a
///   subtable's offset.
enum HuffmanTable {
    /// A literal byte, or a code-length symbol (0–18) in the code-length code.
    static let literal: UInt32 = 0
    /// A length (literal/length code) or a distance (distance code): base value plus extra bits.
    static let base: UInt32 = 1 << 8
    /// End of block (symbol 256).
    static let endOfBlock: UInt32 = 2 << 8
    /// A symbol that has a code but no meaning: literal/length 286–287, distance 30–31.
    static let invalidSymbol: UInt32 = 3 << 8
    /// A pointer to a subtable.
    static let subtable: UInt32 = 4 << 8
    /// The bits of an entry that hold its kind.
    static let kindMask: UInt32 = 7 << 8

    /// Which alphabet a table decodes (RFC 1951 §3.2.5, §3.2.7).
    enum Alphabet {
        case codeLengths, literalLength, distance

        /// Index bits of the primary table.
        var primaryBits: Int {
            switch self {
            case .codeLengths: return 7
            case .literalLength: return 10
            case .distance: return 8
            }
        }
    }

    /// Base lengths of literal/length symbols 257–285 (RFC 1951 §3.2.5).
    private static let lengthBases: [UInt32] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtraBits: [UInt32] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// Base distances of distance symbols 0–29 (RFC 1951 §3.2.5).
    private static let distanceBases: [UInt32] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [UInt32] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// The fixed literal/length code of RFC 1951 §3.2.6.
    static let fixedLiteralLength: [UInt32] = {
        let lengths =
            [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
            + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8)
        // Complete by construction: building cannot fail.
        return (try? build(lengths[...], alphabet: .literalLength)) ?? []
    }()

    /// The fixed distance code of RFC 1951 §3.2.6: 5 bits for each of 32 symbols (30 and 31 invalid).
    static let fixedDistance: [UInt32] = {
        (try? build([UInt8](repeating: 5, count: 32)[...], alphabet: .distance)) ?? []
    }()

    /// The entry for `symbol` with a code of `length` bits.
    private static func entry(symbol: Int, length: Int, alphabet: Alphabet) -> UInt32 {
        let length = UInt32(length)
        switch alphabet {
        case .codeLengths:
            return length | literal | UInt32(symbol) << 16
        case .literalLength:
            if symbol < 256 { return length | literal | UInt32(symbol) << 16 }
            if symbol == 256 { return length | endOfBlock }
            let index = symbol - 257
            guard index < lengthBases.count else { return length | invalidSymbol }
            return length | lengthExtraBits[index] << 4 | base | lengthBases[index] << 16
        case .distance:
            guard symbol < distanceBases.count else { return length | invalidSymbol }
            return length | distanceExtraBits[symbol] << 4 | base | distanceBases[symbol] << 16
        }
    }

    /// Builds the table of the canonical code with these code lengths (0: the symbol has no code),
    /// or throws when they are not a code zlib accepts: over-subscribed, or incomplete except for
    /// a single code of one bit in a literal/length or distance code (RFC 1951 §3.2.7 allows one
    /// distance code of one bit) and except for a distance code with no codes at all.
    static func build(_ lengths: ArraySlice<UInt8>, alphabet: Alphabet) throws(DeflateFault) -> [UInt32] {
        var counts = [Int](repeating: 0, count: 16)
        var maximumLength = 0
        for length in lengths {
            let length = Int(length)
            counts[length] += 1
            maximumLength = max(maximumLength, length)
        }
        var left = 1
        for length in 1...15 {
            left = left << 1 - counts[length]
            if left < 0 { throw .oversubscribedCode }
        }
        if left > 0 {
            switch (alphabet, maximumLength) {
            case (.distance, 0), (.literalLength, 1), (.distance, 1): break
            default: throw .incompleteCode
            }
        }
        // The first code of each length (RFC 1951 §3.2.2, step 2).
        counts[0] = 0
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1...15 {
            code = (code + counts[length - 1]) << 1
            nextCode[length] = code
        }
        let primaryBits = alphabet.primaryBits
        let primarySize = 1 << primaryBits
        let subtableBits = max(0, maximumLength - primaryBits)
        var table = [UInt32](repeating: 0, count: primarySize)
        var subtableOffsets = [Int](repeating: -1, count: subtableBits > 0 ? primarySize : 0)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let length = Int(length)
            let reversed = reverse(nextCode[length], bits: length)
            nextCode[length] += 1
            let value = entry(symbol: symbol, length: length, alphabet: alphabet)
            if length <= primaryBits {
                for slot in stride(from: reversed, to: primarySize, by: 1 << length) { table[slot] = value }
            } else {
                let prefix = reversed & (primarySize - 1)
                var offset = subtableOffsets[prefix]
                if offset < 0 {
                    offset = table.count
                    subtableOffsets[prefix] = offset
                    table.append(contentsOf: repeatElement(0, count: 1 << subtableBits))
                    table[prefix] = subtable | UInt32(subtableBits) << 12 | UInt32(offset) << 16
                }
                let high = reversed >> primaryBits
                for slot in stride(from: high, to: 1 << subtableBits, by: 1 << (length - primaryBits)) {
                    table[offset + slot] = value
                }
            }
        }
        return table
    }

    /// The low `bits` bits of `code` in reverse order.
    private static func reverse(_ code: Int, bits: Int) -> Int {
        var result = 0
        var code = code
        for _ in 0..<bits {
            result = result << 1 | code & 1
            code >>= 1
        }
        return result
    }
}
