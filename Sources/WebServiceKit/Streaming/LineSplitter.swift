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
        if let failure { throw failure }
        let input = Array(bytes)
        do throws(StreamParseError) {
            var index = 0
            while index < input.count {
                if afterCR {
                    afterCR = false
                    if input[index] == 0x0A {
                        index += 1
                        continue
                    }
                }
                let stop =
                    splitsAtLoneCR
                    ? input[index...].firstIndex { $0 == 0x0A || $0 == 0x0D } : input[index...].firstIndex(of: 0x0A)
                try appendContent(input[index..<(stop ?? input.count)])
                guard let stop else { break }
                if input[stop] == 0x0A {
                    if !splitsAtLoneCR, self.line.last == 0x0D { self.line.removeLast() }
                } else {
                    afterCR = true
                }
                try line(self.line)
                self.line.removeAll(keepingCapacity: true)
                index = stop + 1
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Adds bytes that end no line. Without lone-CR splitting a CR at the end may still be the
    /// start of a CRLF, so it may stand one byte past the limit until the next byte shows whether
    /// it is content.
    private mutating func appendContent(_ content: ArraySlice<UInt8>) throws(StreamParseError) {
        let count = line.count + content.count
        if count > maximumLineLength {
            let lastByte = content.last ?? line.last
            guard !splitsAtLoneCR, count == maximumLineLength + 1, lastByte == 0x0D else {
                throw StreamParseError.lineTooLong(limit: maximumLineLength)
            }
        }
        line.append(contentsOf: content)
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
