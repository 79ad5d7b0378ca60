import Foundation

/// Why a streamed body could not be split into lines or events.
///
/// Every limit is checked as bytes arrive, so a server that never ends a line or an event cannot
/// make the parser hold more than the limit (plus one piece of input) in memory.
enum StreamParseError: Error, Equatable, Sendable {
    /// A line grew past `limit` bytes (its line end not counted) before it ended.
    case lineTooLong(limit: Int)
    /// The stream ended inside a line, where the caller said it may not.
    case unterminatedLine(length: Int)
    /// One Server-Sent Event's data grew past `limit` bytes of UTF-8.
    case eventTooLarge(limit: Int)
}

/// Splits a byte stream, fed in pieces of any size, into lines.
///
/// A line ends at LF or CRLF; with `splitsAtLoneCR` (Server-Sent Events: WHATWG HTML §9.2.6,
/// "Lines must be separated by either a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF) character
/// pair, a single U+000A LINE FEED (LF) character, or a single U+000D CARRIAGE RETURN (CR)
/// character") also at a CR not followed by LF. A CR at the end of one piece followed by an LF at
/// the start of the next is one line end, so the lines never depend on how the stream was cut.
/// Without `splitsAtLoneCR` a lone CR is part of the line, and a CR right before LF is dropped.
///
/// Lines are delivered without their line end. A line still open when the stream ends is
/// delivered by ``finish(allowingUnterminatedLine:)`` only. After an error the splitter keeps
/// failing with the same error.
struct LineSplitter: Sendable {
    /// The longest line accepted, in bytes, its line end not counted.
    let maximumLineLength: Int
    /// Whether a lone CR ends a line (Server-Sent Events) or is part of it (JSON lines, text).
    let splitsAtLoneCR: Bool

    private var line: [UInt8] = []
    /// A CR ended the last line (lone-CR mode): an LF right after it belongs to that line end.
    private var afterCR = false
    private var failure: StreamParseError?

    /// A splitter for lines of at most `maximumLineLength` bytes (at least 0).
    init(maximumLineLength: Int, splitsAtLoneCR: Bool) {
        self.maximumLineLength = max(0, maximumLineLength)
        self.splitsAtLoneCR = splitsAtLoneCR
    }

    /// Takes the next piece of the stream and returns the lines it completes, in order.
    mutating func append(_ bytes: some Sequence<UInt8>) throws(StreamParseError) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        try append(bytes) { lines.append($0) }
        return lines
    }

    /// Takes the next piece of the stream and hands each line it completes to `line`, in order, as
    /// soon as it is complete: an error on a later line of the piece comes after the earlier lines
    /// were handled. An error `line` throws stops the splitter, as its own errors do.
    mutating func append(
        _ bytes: some Sequence<UInt8>, each line: ([UInt8]) throws(StreamParseError) -> Void
    ) throws(StreamParseError) {
        try scan(bytes) { (span) throws(StreamParseError) in try line(Array(span)) }
    }

    /// Like ``append(_:each:)``, without copying lines: each line is handed to `line` as a buffer
    /// that is valid only during that call. A line that lies within `bytes` is not copied at all;
    /// only one begun in an earlier piece is gathered in the splitter's own buffer.
    mutating func scan(
        _ bytes: some Sequence<UInt8>, each line: (UnsafeBufferPointer<UInt8>) throws(StreamParseError) -> Void
    ) throws(StreamParseError) {
        if let failure { throw failure }
        var thrown: StreamParseError?
        // `Data`, arrays and their slices are contiguous: they are read in place.
        let scanned: Void? = bytes.withContiguousStorageIfAvailable { input in
            do throws(StreamParseError) { try split(input, each: line) } catch { thrown = error }
        }
        if scanned == nil {
            Array(bytes).withUnsafeBufferPointer { input in
                do throws(StreamParseError) { try split(input, each: line) } catch { thrown = error }
            }
        }
        if let thrown {
            failure = thrown
            throw thrown
        }
    }

    /// Splits one piece: the lines it completes go to `deliver`, what follows the last line end
    /// stays in ``line``.
    private mutating func split(
        _ input: UnsafeBufferPointer<UInt8>, each deliver: (UnsafeBufferPointer<UInt8>) throws(StreamParseError) -> Void
    ) throws(StreamParseError) {
        guard let base = input.baseAddress else { return }
        let count = input.count
        var index = 0
        while index < count {
            if afterCR {
                afterCR = false
                if base[index] == 0x0A {
                    index += 1
                    continue
                }
            }
            let stop = lineEnd(base, from: index, to: count)
            let content = UnsafeBufferPointer(start: base + index, count: (stop ?? count) - index)
            guard let stop else {
                try appendContent(content)
                break
            }
            let endsAtLF = base[stop] == 0x0A
            if !endsAtLF { afterCR = true }
            if line.isEmpty {
                // The whole line is in this piece: it is handed out where it lies.
                try checkLength(content.count, lastByte: content.last)
                var whole = content
                if endsAtLF, !splitsAtLoneCR, whole.last == 0x0D {
                    whole = UnsafeBufferPointer(rebasing: whole.dropLast())
                }
                try deliver(whole)
            } else {
                try appendContent(content)
                if endsAtLF, !splitsAtLoneCR, line.last == 0x0D { line.removeLast() }
                var thrown: StreamParseError?
                line.withUnsafeBufferPointer { whole in
                    do throws(StreamParseError) { try deliver(whole) } catch { thrown = error }
                }
                if let thrown { throw thrown }
                line.removeAll(keepingCapacity: true)
            }
            index = stop + 1
        }
    }

    /// The offset of the first line end (LF, and with `splitsAtLoneCR` also CR) in
    /// `base[start..<end]`, `nil` when there is none. `memchr` scans many bytes at a time; the CR is
    /// looked for only before the LF found.
    private func lineEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let origin = UnsafeRawPointer(base)
        let lf = memchr(origin + start, 0x0A, end - start).map { origin.distance(to: UnsafeRawPointer($0)) }
        guard splitsAtLoneCR else { return lf }
        let limit = lf ?? end
        if let cr = memchr(origin + start, 0x0D, limit - start) { return origin.distance(to: UnsafeRawPointer(cr)) }
        return lf
    }

    /// Adds bytes that end no line. Without lone-CR splitting a CR at the end may still be the
    /// start of a CRLF, so it may stand one byte past the limit until the next byte shows whether
    /// it is content.
    private mutating func appendContent(_ content: UnsafeBufferPointer<UInt8>) throws(StreamParseError) {
        try checkLength(line.count + content.count, lastByte: content.last ?? line.last)
        line.append(contentsOf: content)
    }

    /// Whether a line of `count` bytes so far, the last of them `lastByte`, is within the limit
    /// (see ``appendContent(_:)`` for the CR that may stand one byte past it).
    private func checkLength(_ count: Int, lastByte: UInt8?) throws(StreamParseError) {
        guard count > maximumLineLength else { return }
        guard !splitsAtLoneCR, count == maximumLineLength + 1, lastByte == 0x0D else {
            throw StreamParseError.lineTooLong(limit: maximumLineLength)
        }
    }

    /// Ends the stream: returns the last line when the stream ended inside one (not when it ended
    /// right after a line end). When `allowingUnterminatedLine` is false such a line is an error.
    mutating func finish(allowingUnterminatedLine: Bool) throws(StreamParseError) -> [UInt8]? {
        if let failure { throw failure }
        afterCR = false
        guard !line.isEmpty else { return nil }
        let last = line
        line = []
        // A CR held as a possible CRLF is content now: it may take the line past the limit.
        let error: StreamParseError? =
            last.count > maximumLineLength
            ? .lineTooLong(limit: maximumLineLength)
            : allowingUnterminatedLine ? nil : .unterminatedLine(length: last.count)
        if let error {
            failure = error
            throw error
        }
        return last
    }
}
