import Foundation

/// The JSON body writer against `JSONEncoder`, the implementation it stands in for.
///
/// Input: a ``JSONBodySample`` described by the bytes (every primitive and Foundation type,
/// objects with repeating keys, arrays, nested and stale containers, `superEncoder`, values that
/// encode nothing, dictionaries).
///
/// Beyond not crashing: whenever the writer answers, its bytes are `JSONEncoder()`'s but for the
/// order of object members (``canonicalJSON``), and `JSONEncoder` fails on none of them; where it
/// does not, the serializer fails too.
enum JSONBodyTarget {
    static func run(_ bytes: [UInt8]) {
        let sample = JSONBodySample.make(bytes)
        let expected = (try? JSONEncoder().encode(sample)).map { canonicalJSON([UInt8]($0)) }
        if let written = JSONBodyWriter.write(sample) {
            guard let expected else { fatalError("the writer wrote \(written.count) bytes where JSONEncoder fails") }
            precondition(canonicalJSON(written) == expected, "the writer's JSON differs from JSONEncoder's")
        }
        let sent = (try? JSONBodyEncoding.encode(sample, with: JSONEncoder())).map { canonicalJSON([UInt8]($0)) }
        precondition(sent == expected, "the serializer's JSON differs from JSONEncoder's")
    }
}
