import Foundation
import XCTest

@testable import WebServiceKit

/// The `gzip` and `deflate` content codings (RFC 9110 §8.4.1) read by ``ContentDecoder``: vectors
/// of RFC 1950, 1951 and 1952, streams built bit by bit (``DeflateWriter``), malformed and hostile
/// input. ``ContentCodingDifferentialTests`` compares with zlib on generated streams.
final class ContentCodingTests: XCTestCase {
    private let hello = Array("hello world\n".utf8)
    /// `gzip.compress(b"hello world\n", mtime=0)` (Python).
    private let helloGzip = [UInt8](hex: "1f8b0800000000000203cb48cdc9c95728cf2fca49e102002d3b08af0c000000")

    private func assertThrows(
        _ expected: ContentDecodingError, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? ContentDecodingError, expected, file: file, line: line)
        }
    }

    private func fault(_ fault: DeflateFault) -> ContentDecodingError { .invalidDeflateData(fault) }

    // MARK: Checksums

    func testChecksumsMatchPublishedValuesAndBitwiseDefinitions() {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)  // RFC 1952 §8's CRC
        XCTAssertEqual(Adler32.checksum(Array("Wikipedia".utf8)), 0x11E6_0398)
        XCTAssertEqual(CRC32.checksum([]), 0)
        XCTAssertEqual(Adler32.checksum([]), 1)
        // Every length up to 40 (the 8-byte steps and the tail), and one long enough for Adler-32's
        // deferred reduction, against the definitions computed bit by bit.
        let data = pseudoRandomBytes(20000, seed: 7).map { $0 | 0x80 }
        for length in Array(0...40) + [5552, 5553, 20000] {
            let bytes = Array(data.prefix(length))
            var crc: UInt32 = 0xFFFF_FFFF
            var a: UInt32 = 1
            var b: UInt32 = 0
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
                a = (a + UInt32(byte)) % 65521
                b = (b + a) % 65521
            }
            XCTAssertEqual(CRC32.checksum(bytes), ~crc, "length \(length)")
            XCTAssertEqual(Adler32.checksum(bytes), b << 16 | a, "length \(length)")
        }
    }

    // MARK: Block types (RFC 1951 §3.2.3–3.2.7)

    func testStoredBlockAsRawDeflateAndZlib() throws {
        let raw: [UInt8] = [0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8)
        XCTAssertEqual(try decodeContent(raw, ["deflate"]), Array("hello".utf8))
        let zlib = Container.zlib(raw, original: Array("hello".utf8))
        XCTAssertEqual(try decodeContent(zlib, ["deflate"]), Array("hello".utf8))
    }

    func testFixedHuffmanBlockFromZlib() throws {
        // zlib, strategy Z_FIXED, raw: one fixed block with a match.
        let fixed = [UInt8](hex: "f348cdc9c9d751f040a1caf38b72521401")
        XCTAssertEqual(fixed[0] >> 1 & 3, 1)
        XCTAssertEqual(try decodeContent(fixed, ["deflate"]), Array("Hello, Hello, Hello, world!".utf8))
    }

    func testDynamicHuffmanBlockFromZlib() throws {
        let dynamic = [UInt8](hex: "05c1c11100300802b059e1a015d9ff6f82f92bd0dd0ae5d81135d26b8203")
        XCTAssertEqual(dynamic[0] >> 1 & 3, 2)
        let expected = (0..<30).map { (index: Int) -> UInt8 in UInt8((index * index * 7 + index / 3) % 11 + 97) }
        XCTAssertEqual(try decodeContent(dynamic, ["deflate"]), expected)
    }

    func testZlibStreamFromZlib() throws {
        // `zlib.compress(text, 9)` (Python): header 78 da, a fixed block, Adler-32.
        let text = Array(
            "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy dog.".utf8)
        let zlib = [UInt8](
            hex:
                "78da0bc94855282ccd4cce56482aca2fcf5348cbaf50c82acd2d2856c82f4b2d5228014ae72456552aa4e4a7eb298490a01800aed1202f"
        )
        XCTAssertEqual(try decodeContent(zlib, ["deflate"]), text)
        // `zlib.compress(b"")`.
        XCTAssertEqual(try decodeContent([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01], ["deflate"]), [])
    }

    func testDynamicBlockBuiltHereWithMatchesAcrossBlocks() throws {
        // Block 1 (stored, not final) "abc"; block 2 (dynamic, final): a match reaching into
        // block 1, then literals.
        var writer = DeflateWriter()
        writer.storedBlock(Array("abc".utf8), final: false)
        var literalLengths = [Int](repeating: 0, count: 286)
        literalLengths[Int(UInt8(ascii: "x"))] = 2
        literalLengths[256] = 2
        literalLengths[258] = 2  // length 4
        literalLengths[285] = 2  // length 258
        let distanceLengths = [1, 0, 1]  // distances 1 and 3
        writer.dynamicHeader(final: true, literalLengths: literalLengths, distanceLengths: distanceLengths)
        let literals = HuffmanCode(lengths: literalLengths)
        let distances = HuffmanCode(lengths: distanceLengths)
        writer.match(length: 4, distance: 3, literals, distances)
        writer.literal(UInt8(ascii: "x"), literals)
        writer.match(length: 258, distance: 1, literals, distances)
        writer.endOfBlock(literals)
        let expected = Array("abcabca".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 259)
        XCTAssertEqual(try decodeContent(writer.finish(), ["deflate"]), expected)
    }

    func testDistanceOneAndMaximumLength() throws {
        var writer = DeflateWriter()
        writer.blockHeader(final: true, type: 1)
        writer.literal(0x61, .fixedLiterals)
        writer.match(length: 258, distance: 1, .fixedLiterals, .fixedDistances)
        writer.match(length: 258, distance: 1, .fixedLiterals, .fixedDistances)
        writer.match(length: 3, distance: 1, .fixedLiterals, .fixedDistances)
        writer.endOfBlock(.fixedLiterals)
        XCTAssertEqual(try decodeContent(writer.finish(), ["deflate"]), [UInt8](repeating: 0x61, count: 520))
    }

    func testDistance32768AfterTheOutputBufferWrapped() throws {
        // 200,000 bytes in stored blocks (more than the 128 KiB output buffer, so the window has
        // moved), then matches at distance 32768 (which zlib's compressor never makes) and 1.
        let data = pseudoRandomBytes(200_000, seed: 1)
        var writer = DeflateWriter()
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + 65535)
            writer.storedBlock(Array(data[offset..<end]), final: false)
            offset = end
        }
        writer.blockHeader(final: true, type: 1)
        writer.match(length: 258, distance: 32768, .fixedLiterals, .fixedDistances)
        writer.match(length: 100, distance: 32768, .fixedLiterals, .fixedDistances)
        writer.match(length: 3, distance: 1, .fixedLiterals, .fixedDistances)
        writer.endOfBlock(.fixedLiterals)
        let start = data.count - 32768
        var expected = data + data[start..<(start + 258)]
        expected += expected[(expected.count - 32768)..<(expected.count - 32768 + 100)]
        expected += [UInt8](repeating: expected[expected.count - 1], count: 3)
        let stream = writer.finish()
        XCTAssertEqual(try decodeContent(stream, ["deflate"]), expected)
        let gzip = Container.gzip(stream, original: expected)
        XCTAssertEqual(try decodeContent(gzip, ["gzip"], splits: [7, 65536, 131_000, 200_030]), expected)
    }

    func testFullWindowMatchesWhereverTheOutputBufferMoves() throws {
        // The buffer keeps exactly the last 32 KiB when it moves: a distance of 32768 right after
        // a move must still reach. Stored data of sizes around the buffer's 128 KiB, so that the
        // move happens in a stored block, at a block boundary, or between matches.
        let data = pseudoRandomBytes(131_072 + 600, seed: 5)
        for size in [131_072 - 520, 131_072 - 266, 131_072 - 265, 131_072 - 1, 131_072, 131_072 + 1, 131_072 + 300] {
            var writer = DeflateWriter()
            var offset = 0
            while offset < size {
                let end = min(size, offset + 65535)
                writer.storedBlock(Array(data[offset..<end]), final: false)
                offset = end
            }
            writer.blockHeader(final: true, type: 1)
            var expected = Array(data.prefix(size))
            for (length, distance) in [(258, 32768), (258, 32768), (3, 32768), (258, 32767), (258, 9), (10, 2)] {
                writer.match(length: length, distance: distance, .fixedLiterals, .fixedDistances)
                for _ in 0..<length { expected.append(expected[expected.count - distance]) }
            }
            writer.endOfBlock(.fixedLiterals)
            XCTAssertEqual(try decodeContent(writer.finish(), ["deflate"]), expected, "after \(size) bytes")
        }
    }

    func testDistanceTooFarBack() {
        var writer = DeflateWriter()
        writer.blockHeader(final: true, type: 1)
        writer.literal(0x61, .fixedLiterals)
        writer.match(length: 3, distance: 2, .fixedLiterals, .fixedDistances)
        writer.endOfBlock(.fixedLiterals)
        let stream = writer.finish()
        assertThrows(fault(.distanceTooFarBack)) { _ = try decodeContent(stream, ["deflate"]) }
        // The same in a later gzip member: each member has its own window (RFC 1952 §2.2).
        var first = DeflateWriter()
        first.storedBlock(Array("abcdef".utf8), final: true)
        let members =
            Container.gzip(first.finish(), original: Array("abcdef".utf8))
            + Container.gzip(stream, original: Array("aaaa".utf8))
        assertThrows(fault(.distanceTooFarBack)) { _ = try decodeContent(members, ["gzip"]) }
    }

    func testInvalidSymbolsOfTheFixedCodes() {
        for (symbol, isDistance) in [(286, false), (287, false), (30, true), (31, true)] {
            var writer = DeflateWriter()
            writer.blockHeader(final: true, type: 1)
            writer.literal(0x61, .fixedLiterals)
            if isDistance {
                HuffmanCode.fixedLiterals.write(257, to: &writer)
                HuffmanCode.fixedDistances.write(symbol, to: &writer)
            } else {
                HuffmanCode.fixedLiterals.write(symbol, to: &writer)
            }
            writer.write(0, bits: 32)
            let stream = writer.finish()
            let expected = fault(isDistance ? .invalidDistanceCode : .invalidLiteralLengthCode)
            assertThrows(expected) { _ = try decodeContent(stream, ["deflate"]) }
        }
    }

    func testReservedBlockTypeAndStoredLengthMismatch() {
        assertThrows(fault(.invalidBlockType)) { _ = try decodeContent([0x07, 0, 0, 0], ["deflate"]) }
        let stored: [UInt8] = [0x01, 0x05, 0x00, 0xFA, 0xFE] + Array("hello".utf8)
        assertThrows(fault(.storedLengthMismatch)) { _ = try decodeContent(stored, ["deflate"]) }
    }

    // MARK: Code lengths (RFC 1951 §3.2.2, §3.2.7)

    private func dynamicBlock(literals: [Int], distances: [Int]) -> [UInt8] {
        var writer = DeflateWriter()
        writer.dynamicHeader(final: true, literalLengths: literals, distanceLengths: distances)
        writer.write(0, bits: 32)
        return writer.finish()
    }

    func testMalformedCodeLengths() {
        // 257 codes of 8 bits: one too many.
        let over = [Int](repeating: 8, count: 256) + [8] + [Int](repeating: 0, count: 29)
        assertThrows(fault(.oversubscribedCode)) {
            _ = try decodeContent(self.dynamicBlock(literals: over, distances: [1]), ["deflate"])
        }
        var incomplete = [Int](repeating: 0, count: 257)
        for symbol in 0..<128 { incomplete[symbol] = 8 }
        incomplete[256] = 8
        assertThrows(fault(.incompleteCode)) {
            _ = try decodeContent(self.dynamicBlock(literals: incomplete, distances: [1]), ["deflate"])
        }
        var noEnd = [Int](repeating: 0, count: 257)
        noEnd[0] = 1
        noEnd[1] = 1
        assertThrows(fault(.missingEndOfBlock)) {
            _ = try decodeContent(self.dynamicBlock(literals: noEnd, distances: [1]), ["deflate"])
        }
        // Distances: over-subscribed, and incomplete with more than one code.
        var valid = [Int](repeating: 0, count: 257)
        valid[0] = 1
        valid[256] = 1
        assertThrows(fault(.oversubscribedCode)) {
            _ = try decodeContent(self.dynamicBlock(literals: valid, distances: [1, 1, 1]), ["deflate"])
        }
        assertThrows(fault(.incompleteCode)) {
            _ = try decodeContent(self.dynamicBlock(literals: valid, distances: [2, 2, 2]), ["deflate"])
        }
    }

    func testSingleCodesAndNoDistanceCodesAreAccepted() throws {
        // One literal/length code of one bit (end-of-block alone), and a distance code with no
        // codes at all: both incomplete, both allowed (RFC 1951 §3.2.7; zlib accepts them).
        var writer = DeflateWriter()
        var literals = [Int](repeating: 0, count: 257)
        literals[256] = 1
        writer.dynamicHeader(final: false, literalLengths: literals, distanceLengths: [0])
        writer.endOfBlock(HuffmanCode(lengths: literals))
        // One distance code of one bit.
        var second = [Int](repeating: 0, count: 258)
        second[0x62] = 1
        second[256] = 2
        second[257] = 2
        writer.dynamicHeader(final: true, literalLengths: second, distanceLengths: [1])
        let code = HuffmanCode(lengths: second)
        writer.literal(0x62, code)
        writer.match(length: 3, distance: 1, code, HuffmanCode(lengths: [1]))
        writer.endOfBlock(code)
        XCTAssertEqual(try decodeContent(writer.finish(), ["deflate"]), Array("bbbb".utf8))
    }

    func testLengthsOfCodesThatAreNotThere() {
        // HLIT 30 (287 codes) and HDIST 30 (31 codes) are refused.
        var writer = DeflateWriter()
        writer.blockHeader(final: true, type: 2)
        writer.write(30, bits: 5)
        writer.write(0, bits: 5)
        writer.write(0, bits: 4)
        writer.write(0, bits: 32)
        assertThrows(fault(.tooManyCodes)) { _ = try decodeContent(writer.finish(), ["deflate"]) }
        var distances = DeflateWriter()
        distances.blockHeader(final: true, type: 2)
        distances.write(0, bits: 5)
        distances.write(30, bits: 5)
        distances.write(0, bits: 4)
        distances.write(0, bits: 32)
        assertThrows(fault(.tooManyCodes)) { _ = try decodeContent(distances.finish(), ["deflate"]) }
    }

    func testRepeatCodes() {
        // A code-length code where only 16 and 1 have codes (one bit each): a 16 first repeats
        // nothing.
        func header(_ symbols: [(Int, Int)]) -> [UInt8] {
            var writer = DeflateWriter()
            writer.blockHeader(final: true, type: 2)
            writer.write(0, bits: 5)
            writer.write(0, bits: 5)
            writer.write(18 - 4, bits: 4)  // 18 lengths: up to symbol 1 in codeLengthOrder
            var codeLengthLengths = [Int](repeating: 0, count: 19)
            codeLengthLengths[16] = 1
            codeLengthLengths[1] = 1
            for symbol in DeflateWriter.codeLengthOrder.prefix(18) { writer.write(codeLengthLengths[symbol], bits: 3) }
            let code = HuffmanCode(lengths: codeLengthLengths)
            for (symbol, extra) in symbols {
                code.write(symbol, to: &writer)
                if symbol == 16 { writer.write(extra, bits: 2) }
            }
            writer.write(0, bits: 32)
            return writer.finish()
        }
        assertThrows(fault(.repeatWithoutPrevious)) { _ = try decodeContent(header([(16, 0)]), ["deflate"]) }
        // 1, then 16 × 3 repeats (6 each) up to 256 … 1 + 43·6 = 259 > 258 codes.
        assertThrows(fault(.repeatTooLong)) {
            _ = try decodeContent(header([(1, 0)] + Array(repeating: (16, 3), count: 43)), ["deflate"])
        }
    }

    // MARK: gzip (RFC 1952)

    func testGzipFromPythonWithAndWithoutFileName() throws {
        XCTAssertEqual(try decodeContent(helloGzip, ["gzip"]), hello)
        XCTAssertEqual(try decodeContent(helloGzip, ["x-gzip"]), hello)
        let named = [UInt8](
            hex: "1f8b08080000000002ff68656c6c6f2e74787400cb48cdc9c95728cf2fca49e102002d3b08af0c000000")
        XCTAssertEqual(try decodeContent(named, ["gzip"]), hello)
    }

    func testGzipOptionalHeaderFields() throws {
        var writer = DeflateWriter()
        writer.storedBlock(hello, final: true)
        let deflated = writer.finish()
        let all = Container.gzip(
            deflated, original: hello, extra: [0x41, 0x70, 2, 0, 1, 2], name: "hello.txt", comment: "a comment",
            headerCRC: true)
        XCTAssertEqual(try decodeContent(all, ["gzip"]), hello)
        // Byte by byte: every field crosses a split.
        XCTAssertEqual(try decodeContent(all, ["gzip"], splits: Array(1..<all.count)), hello)
        let extraOnly = Container.gzip(deflated, original: hello, extra: [])
        XCTAssertEqual(try decodeContent(extraOnly, ["gzip"]), hello)
        // A header CRC that does not match.
        var wrongCRC = all
        wrongCRC[12] ^= 1  // inside the extra field
        XCTAssertThrowsError(try decodeContent(wrongCRC, ["gzip"])) { error in
            guard case .invalidGzipHeader = error as? ContentDecodingError else {
                return XCTFail("\(error)")
            }
        }
    }

    func testGzipHeaderErrors() {
        for (index, value) in [(0, UInt8(0x1E)), (1, 0x8C), (2, 7), (3, 0x20), (3, 0x80)] {
            var bytes = helloGzip
            bytes[index] = value
            XCTAssertThrowsError(try decodeContent(bytes, ["gzip"]), "byte \(index) = \(value)") { error in
                guard case .invalidGzipHeader = error as? ContentDecodingError else {
                    return XCTFail("\(error)")
                }
            }
        }
    }

    func testMultiMemberGzip() throws {
        var empty = DeflateWriter()
        empty.blockHeader(final: true, type: 1)
        empty.endOfBlock(.fixedLiterals)
        let emptyMember = Container.gzip(empty.finish(), original: [])
        let members = helloGzip + emptyMember + helloGzip
        XCTAssertEqual(try decodeContent(members, ["gzip"]), hello + hello)
        for split in 0...members.count {
            XCTAssertEqual(try decodeContent(members, ["gzip"], splits: [split]), hello + hello, "split at \(split)")
        }
        // Many empty members in one piece: linear, not quadratic (20,000 × 20 bytes).
        let many = [UInt8](Array(repeating: emptyMember, count: 20000).joined())
        XCTAssertEqual(try decodeContent(many, ["gzip"]), [])
    }

    func testWrongChecksumsAndLengths() {
        var crc = helloGzip
        crc[crc.count - 8] ^= 1
        assertThrows(.checksumMismatch(algorithm: "CRC-32", expected: 0xAF08_3B2C, computed: 0xAF08_3B2D)) {
            _ = try decodeContent(crc, ["gzip"])
        }
        var size = helloGzip
        size[size.count - 4] = 13
        assertThrows(.lengthMismatch(expected: 13, computed: 12)) { _ = try decodeContent(size, ["gzip"]) }
        var writer = DeflateWriter()
        writer.storedBlock(hello, final: true)
        var zlib = Container.zlib(writer.finish(), original: hello)
        let adler = Adler32.checksum(hello)
        zlib[zlib.count - 1] ^= 0x10
        assertThrows(.checksumMismatch(algorithm: "Adler-32", expected: adler ^ 0x10, computed: adler)) {
            _ = try decodeContent(zlib, ["deflate"])
        }
    }

    // MARK: deflate (RFC 1950, raw RFC 1951)

    func testZlibPresetDictionaryIsRefused() {
        for flags: UInt8 in [0x20, 0x3F, 0x7D, 0xBB, 0xF9] {
            assertThrows(.presetDictionary) {
                _ = try decodeContent([0x78, flags, 0, 0, 0, 0, 0x4B, 0x03, 0], ["deflate"])
            }
        }
    }

    func testEmptyBodies() throws {
        XCTAssertEqual(try decodeContent([], ["gzip"]), [])
        XCTAssertEqual(try decodeContent([], ["deflate"]), [])
        XCTAssertEqual(try decodeContent([], ["gzip", "deflate"]), [])
        XCTAssertEqual(try decodeContent([0x03, 0x00], ["deflate"]), [])  // raw: one empty fixed block
        assertThrows(.truncated(coding: "deflate")) { _ = try decodeContent([0x78], ["deflate"]) }
        assertThrows(.truncated(coding: "gzip")) { _ = try decodeContent([0x1F], ["gzip"]) }
    }

    /// Small streams of each format, several blocks, for the truncation and split tests.
    private func smallStreams() -> [(coding: String, stream: [UInt8], decoded: [UInt8])] {
        var writer = DeflateWriter()
        writer.storedBlock(Array("stored ".utf8), final: false)
        writer.blockHeader(final: false, type: 1)
        for byte in "fixed ".utf8 { writer.literal(byte, .fixedLiterals) }
        writer.match(length: 5, distance: 6, .fixedLiterals, .fixedDistances)
        writer.endOfBlock(.fixedLiterals)
        var literals = [Int](repeating: 0, count: 257)
        literals[Int(UInt8(ascii: "!"))] = 1
        literals[256] = 1
        writer.dynamicHeader(final: true, literalLengths: literals, distanceLengths: [0])
        writer.literal(UInt8(ascii: "!"), HuffmanCode(lengths: literals))
        writer.endOfBlock(HuffmanCode(lengths: literals))
        let raw = writer.finish()
        let decoded = Array("stored fixed fixed!".utf8)
        return [
            ("deflate", raw, decoded),
            ("deflate", Container.zlib(raw, original: decoded), decoded),
            ("gzip", Container.gzip(raw, original: decoded, name: "n", headerCRC: true), decoded),
            ("gzip", helloGzip, hello),
        ]
    }

    func testTruncationAtEveryOffsetIsAnError() throws {
        for (coding, stream, decoded) in smallStreams() {
            XCTAssertEqual(try decodeContent(stream, [coding]), decoded)
            for length in 1..<stream.count {
                assertThrows(.truncated(coding: coding)) {
                    _ = try decodeContent(Array(stream.prefix(length)), [coding])
                }
            }
        }
    }

    func testEverySplitInTwoAndThreeDecodesTheSame() throws {
        for (coding, stream, decoded) in smallStreams() {
            for first in 0...stream.count {
                XCTAssertEqual(try decodeContent(stream, [coding], splits: [first]), decoded)
                for second in stride(from: first, through: stream.count, by: 3) {
                    XCTAssertEqual(try decodeContent(stream, [coding], splits: [first, second]), decoded)
                }
            }
        }
    }

    func testTrailingData() {
        assertThrows(.trailingData(coding: "gzip")) { _ = try decodeContent(self.helloGzip + [0x78], ["gzip"]) }
        assertThrows(.trailingData(coding: "gzip")) { _ = try decodeContent(self.helloGzip + [0], ["gzip"]) }
        assertThrows(.trailingData(coding: "gzip")) { _ = try decodeContent(self.helloGzip + [0x1F, 0], ["gzip"]) }
        assertThrows(.truncated(coding: "gzip")) { _ = try decodeContent(self.helloGzip + [0x1F, 0x8B], ["gzip"]) }
        for (coding, stream, _) in smallStreams() where coding == "deflate" {
            assertThrows(.trailingData(coding: "deflate")) { _ = try decodeContent(stream + [0], [coding]) }
            assertThrows(.trailingData(coding: "deflate")) { _ = try decodeContent(stream + stream, [coding]) }
        }
    }

    // MARK: Codings, limits

    func testChainedCodingsAreDecodedInReverseOrder() throws {
        var inner = DeflateWriter()
        inner.storedBlock(hello, final: true)
        let gzip = Container.gzip(inner.finish(), original: hello)
        var outer = DeflateWriter()
        outer.storedBlock(gzip, final: true)
        let body = Container.zlib(outer.finish(), original: gzip)
        // gzip applied first, deflate last: decode deflate, then gzip.
        XCTAssertEqual(try decodeContent(body, ["gzip", "deflate"]), hello)
        XCTAssertEqual(try decodeContent(body, ["gzip", "identity", "deflate"]), hello)
        XCTAssertEqual(try decodeContent(body, ["gzip", "deflate"], splits: Array(0..<body.count)), hello)
        XCTAssertThrowsError(try decodeContent(body, ["deflate", "gzip"]))
        XCTAssertEqual(try decodeContent(hello, ["identity"]), hello)
        XCTAssertEqual(try decodeContent(hello, []), hello)
    }

    func testUnknownCodingsAndTooManyCodings() throws {
        XCTAssertNil(try ContentDecoder(codings: ["br"], outputLimit: 100))
        XCTAssertNil(try ContentDecoder(codings: ["gzip", "compress"], outputLimit: 100))
        XCTAssertNil(try ContentDecoder.decode(Data([1, 2, 3]), codings: ["zstd"], outputLimit: 100))
        XCTAssertNotNil(try ContentDecoder(codings: Array(repeating: "gzip", count: 4), outputLimit: 100))
        XCTAssertThrowsError(try ContentDecoder(codings: Array(repeating: "gzip", count: 5), outputLimit: 100)) {
            XCTAssertEqual($0 as? ContentDecodingError, .tooManyCodings(5))
        }
        XCTAssertEqual(try ContentDecoder.decode(Data(helloGzip), codings: ["gzip"], outputLimit: 100), Data(hello))
    }

    func testSinkErrorsPassThrough() throws {
        struct Stop: Error {}
        let decoder = try XCTUnwrap(try ContentDecoder(codings: ["gzip"], outputLimit: 100))
        XCTAssertThrowsError(try helloGzip.withUnsafeBytes { try decoder.feed($0) { _ in throw Stop() } }) {
            XCTAssertTrue($0 is Stop, "\($0)")
        }
    }

    func testAnErrorIsThrownAgainByEveryLaterCall() throws {
        let decoder = try XCTUnwrap(try ContentDecoder(codings: ["gzip"], outputLimit: 100))
        var bad = helloGzip
        bad[20] ^= 0xFF
        var output: [UInt8] = []
        let sink: (UnsafeBufferPointer<UInt8>) -> Void = { output.append(contentsOf: $0) }
        var first: ContentDecodingError?
        do {
            try bad.withUnsafeBytes { try decoder.feed($0, sink) }
        } catch {
            first = error as? ContentDecodingError
        }
        XCTAssertNotNil(first)
        XCTAssertThrowsError(try helloGzip.withUnsafeBytes { try decoder.feed($0, sink) }) {
            XCTAssertEqual($0 as? ContentDecodingError, first)
        }
        XCTAssertThrowsError(try decoder.finish(sink)) { XCTAssertEqual($0 as? ContentDecodingError, first) }
        XCTAssertNotEqual(output, hello)
    }

    func testOutputLimit() throws {
        XCTAssertEqual(try decodeContent(helloGzip, ["gzip"], limit: hello.count), hello)
        assertThrows(.outputLimitExceeded(limit: hello.count - 1)) {
            _ = try decodeContent(self.helloGzip, ["gzip"], limit: self.hello.count - 1)
        }
        // Each coding's output counts: the gzip member inside is larger than the final body here.
        var inner = DeflateWriter()
        inner.storedBlock(hello, final: true)
        let gzip = Container.gzip(inner.finish(), original: hello)
        var outer = DeflateWriter()
        outer.storedBlock(gzip, final: true)
        let body = Container.zlib(outer.finish(), original: gzip)
        assertThrows(.outputLimitExceeded(limit: gzip.count - 1)) {
            _ = try decodeContent(body, ["gzip", "deflate"], limit: gzip.count - 1)
        }
    }

    /// A bomb: one dynamic block whose matches of 258 bytes at distance 1 take two zero bits each
    /// (the ratio of zlib's best), 1 GiB of zeros in about 1 MiB.
    static func bomb(zeroBytes: Int) -> [UInt8] {
        var literals = [Int](repeating: 0, count: 286)
        literals[0] = 2
        literals[256] = 2
        literals[285] = 1
        var writer = DeflateWriter()
        writer.dynamicHeader(final: true, literalLengths: literals, distanceLengths: [1])
        writer.literal(0, HuffmanCode(lengths: literals))
        // Every bit from here on is 0: code "0" for length 258, code "0" for distance 1.
        return writer.finish() + [UInt8](repeating: 0, count: zeroBytes)
    }

    func testDecompressionBombStopsAtTheLimit() throws {
        let deflated = ContentCodingTests.bomb(zeroBytes: 1 << 20)  // 1 GiB of zeros
        let gzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + deflated  // never reaches its trailer
        let limit = 4 << 20
        for (coding, body) in [("deflate", deflated), ("gzip", gzip)] {
            let decoder = try XCTUnwrap(try ContentDecoder(codings: [coding], outputLimit: limit))
            var received = 0
            var largestPiece = 0
            var fed = 0
            XCTAssertThrowsError(
                try body.withUnsafeBytes { bytes in
                    while fed < bytes.count {
                        let start = fed
                        fed = min(bytes.count, fed + 65536)
                        try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<fed])) {
                            received += $0.count
                            largestPiece = max(largestPiece, $0.count)
                        }
                    }
                }
            ) { XCTAssertEqual($0 as? ContentDecodingError, .outputLimitExceeded(limit: limit)) }
            // It stopped in the first 64 KiB of input, at most at the limit, in pieces no larger
            // than the inflater's bounded buffer.
            XCTAssertEqual(fed, 65536, coding)
            XCTAssertLessThanOrEqual(received, limit)
            XCTAssertGreaterThan(received, limit - Inflater.outputCapacity)
            XCTAssertLessThanOrEqual(largestPiece, Inflater.outputCapacity)
        }
        // A bomb inside gzip (Content-Encoding: deflate, gzip): the gzip stage's output, 64 KiB
        // of deflate bomb, is under the limit; the deflate stage's is not.
        let inner = ContentCodingTests.bomb(zeroBytes: 65536)
        var stored = DeflateWriter()
        stored.storedBlock(Array(inner.prefix(65535)), final: false)
        stored.storedBlock(Array(inner.dropFirst(65535)), final: true)
        let outer = Container.gzip(stored.finish(), original: inner)
        XCTAssertEqual(try decodeContent(outer, ["gzip"]), inner)
        assertThrows(.outputLimitExceeded(limit: 1 << 20)) {
            _ = try decodeContent(outer, ["deflate", "gzip"], limit: 1 << 20)
        }
    }

    func testBombIsAValidStreamUpToItsEnd() throws {
        // The same construction, short, with an end: 1 + 258·n zeros.
        var literals = [Int](repeating: 0, count: 286)
        literals[0] = 2
        literals[256] = 2
        literals[285] = 1
        let code = HuffmanCode(lengths: literals)
        var writer = DeflateWriter()
        writer.dynamicHeader(final: true, literalLengths: literals, distanceLengths: [1])
        writer.literal(0, code)
        for _ in 0..<1000 { writer.match(length: 258, distance: 1, code, HuffmanCode(lengths: [1])) }
        writer.endOfBlock(code)
        XCTAssertEqual(try decodeContent(writer.finish(), ["deflate"]), [UInt8](repeating: 0, count: 258_001))
    }
}
