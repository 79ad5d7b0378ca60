import Foundation

/// The chunked transfer coding (RFC 9112 §7.1): chunk sizes, extensions, data, trailers, fed to
/// ``HTTP1ResponseParser`` after a fixed `Transfer-Encoding: chunked` head.
///
/// Input: a mode byte, a count byte (0–7 piece sizes follow, one byte each, cycled), then:
/// - raw mode (mode bit 0 clear): the rest is the chunked body as sent;
/// - built mode (bit 0 set): the rest describes chunks — per chunk a length byte (0 ends), a
///   format byte (hex case, leading zeros, an extension, BWS before it) and that many data bytes,
///   then a trailer count byte — which the target encodes as a valid chunked body.
///
/// Invariants, beyond never trapping:
/// - the verdict is the same fed whole, in the input's pieces (the body drained as it comes) and
///   a byte at a time;
/// - raw mode: a body the parser accepts is the one a plain reading of §7.1 gives (sizes in hex,
///   each chunk's data followed by CRLF, up to the last chunk), so no byte of framing reaches it;
/// - built mode: every valid encoding is accepted, whole, with the data of its chunks as the body,
///   and leaves the connection reusable.
enum HTTP1ChunkedTarget {
    /// Valid chunk extensions (§7.1.1), without the BWS that may precede them.
    static let extensions = [";a", ";name=value", ";a=\"quoted; \\\"string\\\"\"", ";a;b=c", "; x = y"]
    static let trailerFields = ["X-Checksum: abc", "Server-Timing: total;dur=1", "X-Empty:", "x-folded: a\r\n b"]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let sizes = (0..<Int(input.byte() % 8)).map { _ in max(1, Int(input.byte())) }
        if mode & 1 == 0 {
            checkRaw(input.rest(), sizes: sizes)
        } else {
            checkBuilt(&input, sizes: sizes)
        }
    }

    private static func verdicts(of body: [UInt8], sizes: [Int]) -> HTTP1ResponseTarget.Verdict {
        let response = HTTP1ResponseTarget.chunkedHead + body
        let whole = HTTP1ResponseTarget.verdict(of: response, method: "GET", sizes: [response.count + 1])
        let split = HTTP1ResponseTarget.verdict(
            of: response, method: "GET", sizes: sizes.isEmpty ? [2] : sizes, drains: true)
        let bytewise = HTTP1ResponseTarget.verdict(of: response, method: "GET", sizes: [1])
        for other in [split, bytewise] {
            if let error = whole.error {
                fuzzCheck(other.error == error, "whole: \(error); split: \(String(describing: other.error))")
            } else {
                fuzzCheck(other == whole, "whole: \(whole)\nsplit: \(other)")
            }
        }
        return whole
    }

    private static func checkRaw(_ body: [UInt8], sizes: [Int]) {
        let whole = verdicts(of: body, sizes: sizes)
        guard whole.error == nil, whole.isComplete else { return }
        let reference = plainReading(body)
        fuzzCheck(reference == whole.body, "body \(whole.body) where §7.1 reads \(String(describing: reference))")
    }

    private static func checkBuilt(_ input: inout FuzzInput, sizes: [Int]) {
        var encoded: [UInt8] = []
        var data: [UInt8] = []
        while true {
            let length = Int(input.byte())
            let format = input.byte()
            let chunk = input.take(length)
            guard length > 0, chunk.count == length else { break }
            var size = String(length, radix: 16, uppercase: format & 1 == 1)
            size = String(repeating: "0", count: Int(format >> 1 & 3)) + size
            encoded += Array(size.utf8)
            if format & 8 == 8 {
                if format & 16 == 16 { encoded += Array(" \t".utf8) }
                encoded += Array(extensions[Int(format >> 5) % extensions.count].utf8)
            }
            encoded += [HTTP1Bytes.cr, HTTP1Bytes.lf] + chunk + [HTTP1Bytes.cr, HTTP1Bytes.lf]
            data += chunk
        }
        encoded += Array("0\r\n".utf8)
        for index in 0..<Int(input.byte() % 3) {
            encoded += Array((trailerFields[index % trailerFields.count] + "\r\n").utf8)
        }
        encoded += [HTTP1Bytes.cr, HTTP1Bytes.lf]
        let whole = verdicts(of: encoded, sizes: sizes)
        fuzzCheck(whole.error == nil, "a valid encoding refused: \(String(describing: whole.error))")
        fuzzCheck(whole.isComplete && whole.isReusable, "a valid encoding not complete or not reusable")
        fuzzCheck(whole.body == data, "body \(whole.body), sent \(data)")
        fuzzCheck(plainReading(encoded) == data, "the plain reading of a valid encoding is wrong")
    }

    /// The body a plain reading of RFC 9112 §7.1 gives: chunk-size in hex, the rest of its line
    /// skipped, chunk-data, CRLF, up to the last chunk (trailers not read). `nil` when it cannot.
    static func plainReading(_ bytes: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while true {
            var size = 0
            let start = index
            while index < bytes.count, let digit = HTTP1Bytes.hexValue(bytes[index]) {
                // Past the input's length, no such chunk can be whole.
                guard size <= bytes.count else { return nil }
                size = size * 16 + digit
                index += 1
            }
            guard index > start else { return nil }
            // The size line ends at its first LF, which a CR must precede.
            guard let lf = bytes[index...].firstIndex(of: HTTP1Bytes.lf), lf > index, bytes[lf - 1] == HTTP1Bytes.cr
            else { return nil }
            index = lf + 1
            if size == 0 { return body }
            guard size <= bytes.count - index, bytes.count - index - size >= 2 else { return nil }
            body += bytes[index..<(index + size)]
            index += size
            guard bytes[index] == HTTP1Bytes.cr, bytes[index + 1] == HTTP1Bytes.lf else { return nil }
            index += 2
        }
    }
}
