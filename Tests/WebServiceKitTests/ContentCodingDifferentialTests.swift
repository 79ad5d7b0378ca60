import Foundation
import XCTest

@testable import WebServiceKit

/// ``ContentDecoder`` against zlib, an independent implementation, through the system `python3`
/// (Tests/Differential/inflate/zlib_reference.py): streams zlib made (levels 0–9, every strategy,
/// window bits for raw, zlib and gzip, flushes in the middle, several gzip members, random and
/// repetitive data of 0 bytes to 1 MiB), mutations of them, and streams built here bit by bit.
/// Where zlib decodes, the bytes must be the same; where it refuses, the decoder must throw.
///
/// The reference applies the library's rules with zlib deciding every byte (see the script). The
/// accepted differences are in the rules, not in the DEFLATE decoding: Python's `gzip` module
/// skips zero bytes after a member and zlib's `gzip` tools ignore trailing garbage with a
/// warning, where this decoder refuses anything after a member that is not another member
/// (RFC 1952 §2.2 defines a gzip file as a series of members); and `deflate` that does not start
/// with a zlib header is read as raw DEFLATE (zlib with window bits 15 would refuse it), as
/// browsers and curl do.
final class ContentCodingDifferentialTests: XCTestCase {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Differential/inflate/zlib_reference.py")

    private struct Record {
        var coding: String
        var isMutation: Bool
        var encoded: [UInt8]
        var decoded: [UInt8]?
    }

    /// Runs the script with `arguments` and `input`; its standard output.
    private func runReference(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        let python = path.split(separator: ":").map { "\($0)/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let python else { throw XCTSkip("python3 is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.script.path] + arguments
        let output = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardInput = inputPipe
        try process.run()
        // Writes from another thread: the script answers while it reads.
        let writer = Thread {
            inputPipe.fileHandleForWriting.write(Data(input))
            try? inputPipe.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "zlib_reference.py \(arguments) failed")
        return [UInt8](data)
    }

    private func parseRecords(_ bytes: [UInt8]) throws -> [Record] {
        var records: [Record] = []
        var offset = 0
        func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count - offset >= count else { throw CocoaError(.fileReadCorruptFile) }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }
        func length() throws -> Int {
            try take(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        while offset < bytes.count {
            let header = try take(2)
            let coding = header.first == 0 ? "gzip" : "deflate"
            let encoded = Array(try take(length()))
            let status = try take(1).first
            let decoded = Array(try take(length()))
            records.append(
                Record(
                    coding: coding, isMutation: header.last == 1, encoded: encoded, decoded: status == 0 ? decoded : nil
                ))
        }
        return records
    }

    /// Decodes `record` whole and in three pieces, and compares with zlib's verdict.
    private func check(_ record: Record, _ label: String) {
        let whole = try? decodeContent(record.encoded, [record.coding])
        XCTAssertEqual(whole, record.decoded, "\(label): \(record.coding) \(record.encoded.prefix(64).map { $0 })")
        guard whole == record.decoded, record.encoded.count > 2, record.encoded.count < 16384 else { return }
        // In three pieces too (small streams only: the debug build is slow).
        let splits = [record.encoded.count / 3, record.encoded.count * 2 / 3 + 1]
        XCTAssertEqual(try? decodeContent(record.encoded, [record.coding], splits: splits), record.decoded, label)
    }

    func testStreamsAndMutationsAgainstZlib() throws {
        var counts = (valid: 0, mutationsDecoded: 0, mutationsRefused: 0)
        // WEBSERVICEKIT_INFLATE_SEEDS=N runs N seeds (a longer run); one by default.
        let seeds = Int(ProcessInfo.processInfo.environment["WEBSERVICEKIT_INFLATE_SEEDS"] ?? "") ?? 1
        for seed in 1...max(1, seeds) {
            let records = try parseRecords(try runReference(["generate", "\(seed)", "120", "4000"]))
            XCTAssertEqual(records.count, 4120)
            for (index, record) in records.enumerated() {
                check(record, "seed \(seed) record \(index)")
                if !record.isMutation {
                    XCTAssertNotNil(record.decoded, "zlib refused its own stream")
                    counts.valid += 1
                } else if record.decoded != nil {
                    counts.mutationsDecoded += 1
                } else {
                    counts.mutationsRefused += 1
                }
            }
        }
        // The generator must exercise both verdicts on mutations.
        XCTAssertGreaterThan(counts.mutationsDecoded, 100)
        XCTAssertGreaterThan(counts.mutationsRefused, 1000)
        XCTAssertEqual(counts.valid, 120 * max(1, seeds))
    }

    func testStreamsBuiltHereAgainstZlib() throws {
        var streams: [(String, [UInt8])] = []
        // Distance 32768 after the window moved, and a short bomb.
        let data = pseudoRandomBytes(40000, seed: 3)
        var writer = DeflateWriter()
        writer.storedBlock(Array(data.prefix(40000)), final: false)
        writer.blockHeader(final: true, type: 1)
        writer.match(length: 258, distance: 32768, .fixedLiterals, .fixedDistances)
        writer.endOfBlock(.fixedLiterals)
        let far = writer.finish()
        streams.append(("deflate", far))
        var literals = [Int](repeating: 0, count: 286)
        literals[0] = 2
        literals[256] = 2
        literals[285] = 1
        var bomb = DeflateWriter()
        bomb.dynamicHeader(final: true, literalLengths: literals, distanceLengths: [1])
        bomb.literal(0, HuffmanCode(lengths: literals))
        for _ in 0..<100 {
            bomb.match(length: 258, distance: 1, HuffmanCode(lengths: literals), HuffmanCode(lengths: [1]))
        }
        bomb.endOfBlock(HuffmanCode(lengths: literals))
        let bombStream = bomb.finish()
        streams.append(("deflate", bombStream))
        let bombOutput = [UInt8](repeating: 0, count: 25801)
        // gzip headers with every optional field, the header CRC right and wrong.
        streams.append(
            (
                "gzip",
                Container.gzip(
                    bombStream, original: bombOutput, extra: [1, 2, 3], name: "name", comment: "comment",
                    headerCRC: true)
            ))
        var wrongHeaderCRC = Container.gzip(bombStream, original: bombOutput, name: "name", headerCRC: true)
        wrongHeaderCRC[11] ^= 4
        streams.append(("gzip", wrongHeaderCRC))
        streams.append(("deflate", Container.zlib(far, original: data + data[7232..<7490])))
        // Every prefix and a sample of single-byte changes of a small multi-block stream.
        var small = DeflateWriter()
        small.storedBlock(Array("stored ".utf8), final: false)
        small.blockHeader(final: true, type: 1)
        for byte in "fixed ".utf8 { small.literal(byte, .fixedLiterals) }
        small.match(length: 5, distance: 6, .fixedLiterals, .fixedDistances)
        small.endOfBlock(.fixedLiterals)
        let smallStream = Container.zlib(small.finish(), original: Array("stored fixed fixed".utf8))
        for length in 0...smallStream.count { streams.append(("deflate", Array(smallStream.prefix(length)))) }
        for index in smallStream.indices {
            for bit in 0..<8 {
                var changed = smallStream
                changed[index] ^= 1 << bit
                streams.append(("deflate", changed))
            }
        }

        var input: [UInt8] = []
        for (coding, bytes) in streams {
            input += [coding == "gzip" ? 0 : 1, 0] + Container.littleEndian(UInt32(bytes.count)) + bytes
        }
        let records = try parseRecords(try runReference(["judge"], input: input))
        XCTAssertEqual(records.count, streams.count)
        for (index, record) in records.enumerated() { check(record, "stream \(index)") }
        // zlib agrees on what the constructions mean.
        XCTAssertEqual(records.first?.decoded, data + data[7232..<7490])
        XCTAssertEqual(records[1].decoded, bombOutput)
        XCTAssertEqual(records[2].decoded, bombOutput)
        XCTAssertNil(records[3].decoded)
    }
}
