import Foundation

/// The query items of a lone query wildcard (``QueryParameters``), from any `Encodable` value.
///
/// Input: a ``JSONBodySample`` described by the bytes (every primitive and Foundation type,
/// objects with repeating keys, arrays, nested and stale containers, `superEncoder`, values that
/// encode nothing, dictionaries), with each list style.
///
/// Beyond not crashing: the items are either made or refused with a typed reason, and every
/// encoded name and value holds only unreserved characters, `%XX` escapes and (between the
/// elements of a comma-separated list) commas, so no item can split or join another.
enum QueryItemsTarget {
    static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%".utf8)

    static func run(_ bytes: [UInt8]) {
        let sample = JSONBodySample.make(bytes)
        for style in [QueryParameters.ListStyle.repeated, .commaSeparated] {
            let parameters = QueryParameters(encoding: sample, lists: style)
            guard let items = try? parameters.encodedItems(index: 0) else { continue }
            for (name, value) in items {
                precondition(name.utf8.allSatisfy { allowed.contains($0) }, "a name outside the query's characters")
                precondition(
                    value.utf8.allSatisfy {
                        allowed.contains($0) || (style == .commaSeparated && $0 == UInt8(ascii: ","))
                    },
                    "a value outside the query's characters")
            }
        }
    }
}
