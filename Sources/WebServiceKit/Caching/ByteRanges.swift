import Foundation

/// A `Range` request field (RFC 9110 §14.2) as the cache reads it.
///
/// The grammar is RFC 9110 §14.1.1 and §14.1.2:
///
///     Range            = ranges-specifier
///     ranges-specifier = range-unit "=" range-set
///     range-set        = 1#range-spec
///     range-spec       = int-range / suffix-range / other-range
///     int-range        = first-pos "-" [ last-pos ]
///     suffix-range     = "-" suffix-length
///
/// The unit is a token compared without regard to case (§14.1). The list rule (§5.6.1) allows
/// optional whitespace around each comma, and a recipient ignores empty list elements
/// (§5.6.1.2). Positions are `1*DIGIT` of any length: they are compared as digit strings, so
/// that `bytes=99999999999999999999-1` is known invalid without overflow, and each is then kept
/// saturated at `Int64.max`, which no body in memory reaches.
enum RangeRequest: Sendable, Hashable {
    /// One or more byte ranges, in the order written (`bytes=0-99`, `bytes=100-`, `bytes=-50`,
    /// `bytes=0-9, 20-29`).
    case bytes([ByteRangeSpec])
    /// A unit other than `bytes`, with whatever follows its `=`; only the origin knows it.
    case otherUnit(String)
    /// A field that is not a valid ranges-specifier: no `=`, a unit that is not a token, an empty
    /// range set, or a `bytes` range set with an element that is no int-range or suffix-range, or
    /// an int-range whose last position is before its first (§14.1.2). A server ignores it or
    /// rejects it (§14.2: "MAY ignore or reject ... an invalid ranges-specifier").
    case invalid

    /// The `Range` field of `headers`, or `nil` when there is none. Several `Range` lines are
    /// read as one list (RFC 9110 §5.3), which is then invalid unless each line after the first
    /// continues the range set (`bytes=0-9` and `20-29`).
    init?(_ headers: HTTPHeaders) {
        let values = headers.values(for: "Range")
        guard !values.isEmpty else { return nil }
        self.init(fieldValue: values.joined(separator: ","))
    }

    /// Reads one field value.
    init(fieldValue: String) {
        var text = fieldValue
        self = text.withUTF8 { RangeRequest.parse($0) }
    }

    /// The one range of a `bytes` field with a single range-spec; `nil` otherwise.
    var singleByteRange: ByteRangeSpec? {
        guard case .bytes(let specs) = self, specs.count == 1 else { return nil }
        return specs[0]
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> RangeRequest {
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return .invalid }
        let unit = trimmed(bytes, 0, equals)
        guard unit.lowerBound < unit.upperBound, unit.allSatisfy({ isTokenCharacter(bytes[$0]) }) else {
            return .invalid
        }
        let setStart = equals + 1
        let isBytes =
            unit.count == 5
            && zip(unit, "bytes".utf8).allSatisfy { index, letter in bytes[index] | 0x20 == letter }
        guard isBytes else {
            let rest = String(decoding: UnsafeBufferPointer(rebasing: bytes[setStart...]), as: UTF8.self)
            return .otherUnit(rest)
        }
        var specs: [ByteRangeSpec] = []
        var elementStart = setStart
        while elementStart <= bytes.count {
            let elementEnd = bytes[elementStart...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
            let element = trimmed(bytes, elementStart, elementEnd)
            if element.lowerBound < element.upperBound {
                guard let spec = ByteRangeSpec.parse(bytes, element) else { return .invalid }
                specs.append(spec)
            }
            elementStart = elementEnd + 1
        }
        return specs.isEmpty ? .invalid : .bytes(specs)
    }

    /// The indices `start..<end` of `bytes` without the spaces and tabs at either end (OWS).
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        var lower = start
        var upper = end
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// tchar (RFC 9110 §5.6.2).
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// One byte range of a `Range` field (RFC 9110 §14.1.2), its positions saturated at `Int64.max`.
enum ByteRangeSpec: Sendable, Hashable {
    /// `first-last` (both inclusive) or, without a last position, `first-` to the end.
    case from(first: Int64, last: Int64?)
    /// `-length`: the last `length` bytes.
    case suffix(length: Int64)

    /// The range this spec selects in a representation of `length` bytes, both ends inclusive, or
    /// `nil` when it is not satisfiable (§14.1.2): an int-range is satisfiable when its first
    /// position is below the length, and a last position at or past the end means the last
    /// byte; a suffix-range when its length is above zero, and one longer than the
    /// representation means all of it. Nothing is satisfiable in an empty representation.
    func resolved(length: Int64) -> ClosedRange<Int64>? {
        guard length > 0 else { return nil }
        switch self {
        case .from(let first, let last):
            guard first < length else { return nil }
            return first...min(last ?? (length - 1), length - 1)
        case .suffix(let suffixLength):
            guard suffixLength > 0 else { return nil }
            return (length - min(suffixLength, length))...(length - 1)
        }
    }

    /// Reads `bytes[element]`, an element of the range set without surrounding whitespace;
    /// `nil` when it is no valid int-range or suffix-range.
    fileprivate static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ element: Range<Int>) -> ByteRangeSpec? {
        guard let dash = bytes[element].firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let first = element.lowerBound..<dash
        let last = (dash + 1)..<element.upperBound
        guard isDigits(bytes, last) || (last.isEmpty && !first.isEmpty) else { return nil }
        if first.isEmpty { return .suffix(length: saturated(bytes, last)) }
        guard isDigits(bytes, first) else { return nil }
        if last.isEmpty { return .from(first: saturated(bytes, first), last: nil) }
        // §14.1.2: "invalid if the last-pos value is present and less than the first-pos".
        guard compare(bytes, last, first) >= 0 else { return nil }
        return .from(first: saturated(bytes, first), last: saturated(bytes, last))
    }

    private static func isDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        !range.isEmpty && range.allSatisfy { (48...57).contains(bytes[$0]) }
    }

    /// The digits `bytes[range]` as a number, `Int64.max` when larger.
    private static func saturated(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64 {
        var value: Int64 = 0
        for index in range {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(bytes[index] &- 48))
            if overflow1 || overflow2 { return .max }
            value = sum
        }
        return value
    }

    /// The order of two digit strings as numbers of any length: negative, zero or positive.
    private static func compare(_ bytes: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Int {
        func significant(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound
            while lower < range.upperBound, bytes[lower] == 48 { lower += 1 }
            return lower..<range.upperBound
        }
        let left = significant(lhs)
        let right = significant(rhs)
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        for (l, r) in zip(left, right) where bytes[l] != bytes[r] {
            return bytes[l] < bytes[r] ? -1 : 1
        }
        return 0
    }
}
