/// ``ServerSentEventParser`` (WHATWG HTML §9.2.6) and its ``LineSplitter`` on any bytes, cut into
/// any pieces.
///
/// Input: byte 0 gives the largest data of one event (0 to 1,020 bytes), byte 1 the longest line
/// (0 to 1,020 bytes), byte 2 the number of cuts (0 to 15) and the next that many bytes the lengths
/// of the pieces before the last; the rest is the stream.
///
/// Beyond not crashing:
/// - fed in those pieces and a byte at a time, the parser gives the same events as fed whole, or
///   fails with the same error; where it fails, the events it delivered before are the first
///   events of the byte-at-a-time run;
/// - no event's data is longer than the limit, its type is never empty, and its id holds no NUL;
/// - a retry is never negative;
/// - the plain ``LineSplitter`` (LF and CRLF, a lone CR is content) gives the same lines, or the
///   same error, fed whole, in those pieces and a byte at a time; no line holds an LF or is longer
///   than the limit, the unterminated last line included.
enum ServerSentEventTarget {
    private struct Run: Equatable {
        var events: [ServerSentEvent] = []
        var error: StreamParseError?
    }

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let maximumDataSize = Int(input.byte()) * 4
        let maximumLineLength = Int(input.byte()) * 4
        let cuts = input.take(Int(input.byte() % 16)).map(Int.init)
        let stream = input.rest()

        var pieces: [ArraySlice<UInt8>] = []
        var offset = 0
        for cut in cuts {
            let end = min(stream.count, offset + cut)
            pieces.append(stream[offset..<end])
            offset = end
        }
        pieces.append(stream[offset...])

        func parse(_ pieces: [ArraySlice<UInt8>]) -> Run {
            var parser = ServerSentEventParser(maximumLineLength: maximumLineLength, maximumDataSize: maximumDataSize)
            var run = Run()
            do {
                for piece in pieces { run.events += try parser.append(piece) }
                try parser.finish()
            } catch {
                run.error = error
            }
            return run
        }

        let whole = parse([stream[...]])
        let cutRun = parse(pieces)
        let byteRun = parse(stream.indices.map { stream[$0...$0] })
        fuzzCheck(
            cutRun.error == whole.error,
            "pieces: \(String(describing: cutRun.error)), whole: \(String(describing: whole.error))")
        fuzzCheck(
            byteRun.error == whole.error,
            "bytes: \(String(describing: byteRun.error)), whole: \(String(describing: whole.error))")
        if whole.error == nil {
            fuzzCheck(cutRun.events == whole.events, "pieces \(cuts) gave other events than the whole stream")
            fuzzCheck(byteRun.events == whole.events, "a byte at a time gave other events than the whole stream")
        } else {
            fuzzCheck(byteRun.events.starts(with: whole.events), "whole: events not delivered a byte at a time")
            fuzzCheck(byteRun.events.starts(with: cutRun.events), "pieces: events not delivered a byte at a time")
        }
        checkLines(pieces: pieces, stream: stream, maximumLineLength: maximumLineLength)
        for event in byteRun.events {
            fuzzCheck(event.data.utf8.count <= maximumDataSize, "data of \(event.data.utf8.count) bytes")
            fuzzCheck(!event.type.isEmpty, "an empty event type")
            fuzzCheck(!event.id.unicodeScalars.contains("\u{0}"), "an id with NUL")
            fuzzCheck((event.retry ?? 0) >= 0, "a negative retry")
        }
    }

    private static func checkLines(pieces: [ArraySlice<UInt8>], stream: [UInt8], maximumLineLength: Int) {
        func split(_ pieces: [ArraySlice<UInt8>]) -> (lines: [[UInt8]], last: [UInt8]?, error: StreamParseError?) {
            var splitter = LineSplitter(maximumLineLength: maximumLineLength, splitsAtLoneCR: false)
            var lines: [[UInt8]] = []
            do {
                for piece in pieces { lines += try splitter.append(piece) }
                return (lines, try splitter.finish(allowingUnterminatedLine: true), nil)
            } catch {
                return (lines, nil, error)
            }
        }
        let whole = split([stream[...]])
        let cut = split(pieces)
        let bytes = split(stream.indices.map { stream[$0...$0] })
        fuzzCheck(cut.error == whole.error && bytes.error == whole.error, "lines: the error depends on the cuts")
        if whole.error == nil {
            fuzzCheck(cut.lines == whole.lines && bytes.lines == whole.lines, "lines: the lines depend on the cuts")
            fuzzCheck(cut.last == whole.last && bytes.last == whole.last, "lines: the last line depends on the cuts")
        }
        for line in bytes.lines {
            fuzzCheck(!line.contains(0x0A), "lines: an LF kept in a line")
            fuzzCheck(line.count <= maximumLineLength, "lines: a line of \(line.count) bytes")
        }
        if let last = bytes.last {
            fuzzCheck(
                !last.contains(0x0A) && last.count <= maximumLineLength, "lines: a last line of \(last.count) bytes")
        }
    }
}
