import Foundation

/// The `gzip` and `deflate` content codings (``ContentDecoder``): RFC 1950, 1951 and 1952 data from
/// a hostile server.
///
/// Input: byte 0 picks the codings (one or several, chained), bytes 1–2 two split points, byte 3
/// the output limit (up to 128 KiB, small enough that bombs hit it); the rest is the body.
///
/// Beyond not crashing (no trap, bounded memory):
/// - no more than the limit is ever handed out, and a decoded body is within it;
/// - the body fed in three pieces (split at the two points) decodes to the same bytes as in one
///   piece, or both are refused (the errors may differ: a piece can end before a fault that one
///   piece reaches before its output is counted).
enum InflateTarget {
    static let codings: [[String]] = [
        ["gzip"], ["deflate"], ["gzip", "deflate"], ["deflate", "gzip"], ["x-gzip"], ["deflate", "deflate"],
        ["gzip", "identity", "gzip"],
    ]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let codings = codings[Int(input.byte()) % codings.count]
        let first = Int(input.byte())
        let second = Int(input.byte())
        let limit = (Int(input.byte()) + 1) * 512
        let body = input.rest()
        let splits = [first * body.count / 255, second * body.count / 255].sorted()

        let whole = decode(body, codings, limit: limit, splits: [])
        let pieces = decode(body, codings, limit: limit, splits: splits)
        fuzzCheck(
            whole == pieces,
            "\(codings) split at \(splits): \(String(describing: whole)) ≠ \(String(describing: pieces))")
    }

    /// The decoded body, or nil when it is refused.
    static func decode(_ body: [UInt8], _ codings: [String], limit: Int, splits: [Int]) -> [UInt8]? {
        guard let decoder = try? ContentDecoder(codings: codings, outputLimit: limit) else {
            fuzzCheck(false, "no decoder for \(codings)")
            return nil
        }
        var output: [UInt8] = []
        let sink: (UnsafeBufferPointer<UInt8>) throws -> Void = { piece in
            output.append(contentsOf: piece)
            fuzzCheck(output.count <= limit, "\(output.count) bytes handed out, limit \(limit)")
        }
        do {
            var start = 0
            for end in splits + [body.count] {
                try body[start..<end].withUnsafeBytes { try decoder.feed($0, sink) }
                start = end
            }
            try decoder.finish(sink)
        } catch let error as ContentDecodingError {
            _ = error.description
            return nil
        } catch {
            fuzzCheck(false, "an error that is not a ContentDecodingError: \(error)")
        }
        return output
    }
}
