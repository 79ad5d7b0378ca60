import Foundation

/// A streaming reader of one content coding (RFC 9110 §8.4.1): ``GzipReader`` or
/// ``DeflateReader``.
///
/// Bytes come in pieces split anywhere; decoded bytes go to the sink as they come, in order, in
/// pieces of any size (each valid only for the call). Errors are ``ContentDecodingError``, except
/// an error the sink throws, which passes through. After an error the reader must not be used
/// again.
protocol CodingReader: AnyObject {
    /// Decodes `bytes`, the next part of the coded stream, handing what they decode to to `sink`.
    func feed(_ bytes: UnsafeRawBufferPointer, _ sink: Inflater.Sink) throws
    /// The end of the coded stream: throws ``ContentDecodingError/truncated(coding:)`` when it
    /// ends inside a stream. Decodes nothing more: ``feed(_:_:)`` has handed out every byte.
    func finish() throws
}

/// Decodes a response body sent with one or more content codings (RFC 9110 §8.4), streaming,
/// with a limit on the decoded size.
///
/// `gzip` and its alias `x-gzip` (RFC 9110 §8.4.1.3, RFC 1952) and `deflate` (RFC 9110 §8.4.1.2:
/// zlib, RFC 1950, with raw DEFLATE data accepted too, see ``DeflateReader``) are decoded by a
/// pure-Swift inflater. Several codings are decoded in the reverse of the order they were applied
/// in: `Content-Encoding: gzip, deflate` means deflate was applied last, so it is decoded first and
/// what it decodes to is decoded as gzip.
///
/// Hostile bodies: nothing traps on any input, memory stays bounded (about 200 KiB per coding,
/// whatever the input and the limit), and a decompression bomb stops as soon as one coding's output
/// would pass `outputLimit`: no byte beyond the limit is handed out or held.
final class ContentDecoder {
    /// The most codings decoded for one body: more is ``ContentDecodingError/tooManyCodings(_:)``
    /// (each coding may multiply the size by about 1,000; no real server applies more than two).
    static let maximumCodings = 4

    /// The readers in decoding order: the coding applied last first.
    private let readers: [CodingReader]
    /// The number of bytes each reader has decoded so far.
    private var produced: [Int]
    /// The most bytes any one coding may decode to.
    private let outputLimit: Int
    /// The first error thrown, thrown again by every later call.
    private var failure: (any Error)?

    /// A decoder for a body with these codings.
    ///
    /// - Parameters:
    ///   - codings: the `Content-Encoding` list elements in the order they were applied (RFC 9110
    ///     §8.4), lower-cased; `identity` is ignored. An empty list (or only `identity`) passes the
    ///     body through unchanged, still within `outputLimit`.
    ///   - outputLimit: the most bytes the body, and what each coding decodes to, may have. A body
    ///     that decodes to more throws ``ContentDecodingError/outputLimitExceeded(limit:)``.
    /// - Returns: `nil` when any coding is not `gzip`, `x-gzip` or `deflate`: the caller then passes
    ///   the body through unchanged, with its `Content-Encoding`.
    /// - Throws: ``ContentDecodingError/tooManyCodings(_:)`` for more than ``maximumCodings``
    ///   codings that could all be decoded.
    init?(codings: [String], outputLimit: Int) throws(ContentDecodingError) {
        var readers: [CodingReader] = []
        for coding in codings.reversed() {
            switch coding.lowercased() {
            case "identity": continue
            case "gzip", "x-gzip": readers.append(GzipReader())
            case "deflate": readers.append(DeflateReader())
            default: return nil
            }
        }
        guard readers.count <= ContentDecoder.maximumCodings else { throw .tooManyCodings(readers.count) }
        self.readers = readers
        self.produced = [Int](repeating: 0, count: readers.count + 1)
        self.outputLimit = max(0, outputLimit)
    }

    /// Feeds encoded bytes, the next part of the body; decoded bytes go to `sink` as they come
    /// (in order, in pieces of any size, each valid only for the call).
    ///
    /// Throws ``ContentDecodingError`` for malformed data or an output past the limit; an error
    /// thrown by `sink` passes through. After an error, every later call throws it again.
    func feed(_ bytes: UnsafeRawBufferPointer, _ sink: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if let failure { throw failure }
        do {
            try push(bytes, to: 0, sink)
        } catch {
            failure = error
            throw error
        }
    }

    /// The end of the body: throws ``ContentDecodingError/truncated(coding:)`` if a stream ends
    /// before its end. Every decoded byte has already gone to a sink given to ``feed(_:_:)``;
    /// `sink` is there for symmetry and receives nothing.
    func finish(_ sink: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if let failure { throw failure }
        do {
            for reader in readers { try reader.finish() }
        } catch {
            failure = error
            throw error
        }
    }

    /// Decodes a whole body at once.
    ///
    /// - Returns: the decoded body, or `nil` when a coding is not one this decoder reads (see
    ///   ``init(codings:outputLimit:)``).
    static func decode(_ data: Data, codings: [String], outputLimit: Int) throws -> Data? {
        guard let decoder = try ContentDecoder(codings: codings, outputLimit: outputLimit) else { return nil }
        var result = Data()
        try data.withUnsafeBytes { bytes in
            try decoder.feed(bytes) { result.append($0) }
        }
        try decoder.finish { result.append($0) }
        return result
    }

    /// Feeds `bytes` to the reader at `stage`, its output to the next one, and the last one's to
    /// `sink`, counting each stage's output against the limit before handing it on.
    private func push(
        _ bytes: UnsafeRawBufferPointer, to stage: Int, _ sink: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        // The body itself is not limited, only what it decodes to (or itself, when nothing decodes it).
        if stage > 0 || readers.isEmpty { try count(bytes.count, at: stage) }
        guard stage < readers.count else {
            try sink(bytes.assumingMemoryBound(to: UInt8.self))
            return
        }
        try readers[stage].feed(bytes) { chunk in
            try self.push(UnsafeRawBufferPointer(chunk), to: stage + 1, sink)
        }
    }

    /// Adds `count` bytes to what `stage` was given; throws when that passes the limit.
    private func count(_ count: Int, at stage: Int) throws(ContentDecodingError) {
        guard count <= outputLimit - produced[stage] else { throw .outputLimitExceeded(limit: outputLimit) }
        produced[stage] += count
    }
}
