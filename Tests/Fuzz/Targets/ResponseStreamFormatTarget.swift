import Foundation

/// The element decoders of ``StreamFormat`` (lines, JSON lines, Server-Sent Events across
/// reconnections) on any bytes, cut into any pieces: what a ``ResponseStream`` does with the body
/// a server sends.
///
/// Input: byte 0 picks the format (lines, JSON lines, events), byte 1 the longest line (0 to 1,020
/// bytes), byte 2 the number of cuts (0 to 15) and the next that many bytes the lengths of the
/// pieces before the last; the rest is the body. For events, the byte 0xFF (never in UTF-8) ends
/// one connection's body and starts the next's, as a reconnection does.
///
/// Beyond not crashing: fed whole, in those pieces and a byte at a time, a decoder gives the same
/// elements and the same error (the elements before an error included); no line is longer than
/// the limit or holds an LF; an event's ID holds no NUL and a reconnection keeps the last event ID
/// of the connection before (WHATWG HTML §9.2.3).
enum ResponseStreamFormatTarget {
    private struct Item: Decodable, Equatable {
        let n: Int?
    }

    private struct Run<Element: Equatable>: Equatable {
        var elements: [Element] = []
        var error: String?
        var lastEventIDs: [String] = []
    }

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let format = input.byte() % 3
        let limit = Int(input.byte()) * 4
        let cuts = input.take(Int(input.byte() % 16)).map(Int.init)
        let body = input.rest()
        switch format {
        case 0:
            let format = StreamFormat<String>.lines(maximumLength: limit)
            let whole = check(format, body: body, cuts: cuts)
            for line in whole.elements {
                fuzzCheck(line.utf8.count <= max(limit, 0) * 3 + 3, "a line past the limit")
                fuzzCheck(!line.contains("\n"), "a line with an LF")
            }
        case 1:
            _ = check(StreamFormat<Item>.jsonLines(Item.self, maximumLineLength: limit), body: body, cuts: cuts)
        default:
            let whole = check(
                StreamFormat<ServerSentEvent>.serverSentEvents(maximumLineLength: limit, maximumEventSize: limit),
                body: body, cuts: cuts)
            for event in whole.elements {
                fuzzCheck(!event.id.unicodeScalars.contains("\u{0}"), "an id with NUL")
                fuzzCheck(event.data.utf8.count <= limit, "data past the limit")
            }
            for pair in zip(whole.lastEventIDs, whole.lastEventIDs.dropFirst()) where !pair.1.isEmpty {
                fuzzCheck(!pair.1.unicodeScalars.contains("\u{0}"), "a last event ID with NUL")
            }
        }
    }

    /// Decodes `body` whole, in pieces and a byte at a time; checks the runs agree and returns the
    /// whole run.
    private static func check<Element: Equatable>(_ format: StreamFormat<Element>, body: [UInt8], cuts: [Int])
        -> Run<Element>
    {
        let connections = body.split(separator: 0xFF, omittingEmptySubsequences: false)
        func decode(cutting: (ArraySlice<UInt8>) -> [ArraySlice<UInt8>]) -> Run<Element> {
            var decoder = format.makeDecoder(200)
            var run = Run<Element>()
            do throws(WebServiceError) {
                for (index, connection) in connections.enumerated() {
                    if index > 0, let state = decoder.restart() { run.lastEventIDs.append(state.lastEventID) }
                    for piece in cutting(connection) { try decoder.decode(Data(piece), into: &run.elements) }
                    try decoder.finish(into: &run.elements)
                }
            } catch {
                run.error = "\(error)"
            }
            return run
        }
        let whole = decode { [$0] }
        let pieces = decode { connection in
            var pieces: [ArraySlice<UInt8>] = []
            var offset = connection.startIndex
            for cut in cuts {
                let end = min(connection.endIndex, offset + cut)
                pieces.append(connection[offset..<end])
                offset = end
            }
            pieces.append(connection[offset...])
            return pieces
        }
        let single = decode { connection in connection.indices.map { connection[$0...$0] } }
        fuzzCheck(pieces == whole, "pieces \(cuts) decoded otherwise than the whole body")
        fuzzCheck(single == whole, "a byte at a time decoded otherwise than the whole body")
        return whole
    }
}
