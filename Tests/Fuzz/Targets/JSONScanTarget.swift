import Foundation

/// The one-pass scanners that read a server's JSON without a parser, on top of
/// ``JSONStringSkipper``: the JSON-RPC batch splitter (``JSONText/arrayElementRanges(of:)``) and
/// the OData error body's depth check (``ODataErrorParsing/nestsDeeper(than:_:)``).
///
/// Input: the body, as it is.
///
/// Beyond not crashing, checked against Foundation's `JSONSerialization` (a parser the scanners
/// share nothing with) whenever it reads the body as UTF-8 JSON:
/// - the depth check says "deeper" exactly when the value nests arrays and objects deeper than
///   the limit, for every limit up to one past the value's depth;
/// - for an array, the splitter gives one range per element, in order, inside the body, and each
///   range parses to that element.
enum JSONScanTarget {
    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let ranges = JSONText.arrayElementRanges(of: data)
        if let ranges {
            var previous = data.startIndex
            for range in ranges {
                fuzzCheck(range.lowerBound >= previous && range.upperBound <= data.endIndex, "ranges out of order")
                previous = range.upperBound
            }
        }
        // JSONSerialization also reads UTF-16 and UTF-32 and skips a BOM; the scanners read UTF-8.
        guard !bytes.contains(0), !bytes.starts(with: [0xEF, 0xBB, 0xBF]),
            let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else {
            for limit in [0, 1, 64] { _ = ODataErrorParsing.nestsDeeper(than: limit, data) }
            return
        }
        let depth = depth(of: value)
        for limit in 0...(depth + 1) {
            fuzzCheck(
                ODataErrorParsing.nestsDeeper(than: limit, data) == (depth > limit),
                "depth \(depth), limit \(limit)")
        }
        guard let array = value as? [Any] else { return }
        fuzzCheck(ranges?.count == array.count, "\(ranges?.count ?? -1) ranges for \(array.count) elements")
        for (range, element) in zip(ranges ?? [], array) {
            let part = try? JSONSerialization.jsonObject(with: data[range], options: [.fragmentsAllowed])
            fuzzCheck(part.map(canonical) == canonical(element), "an element's range reads otherwise")
        }
    }

    /// `value` written back with sorted keys: equal values, equal text.
    private static func canonical(_ value: Any) -> Data? {
        try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }

    /// How deep `value` nests arrays and objects (a scalar is 0).
    private static func depth(of value: Any) -> Int {
        if let array = value as? [Any] { return 1 + (array.map(depth(of:)).max() ?? 0) }
        if let object = value as? [String: Any] { return 1 + (object.values.map(depth(of:)).max() ?? 0) }
        return 0
    }
}
