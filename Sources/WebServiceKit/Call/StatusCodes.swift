/// A value that names one or more HTTP status codes: an `Int`, a `Range<Int>` or a `ClosedRange<Int>`.
public protocol StatusCodeRangeConvertible: Sendable {
    /// The codes as a closed range; `nil` when there are none (an empty `Range`).
    var statusCodeRange: ClosedRange<Int>? { get }
}

extension Int: StatusCodeRangeConvertible {
    public var statusCodeRange: ClosedRange<Int>? { self...self }
}

extension Range: StatusCodeRangeConvertible where Bound == Int {
    public var statusCodeRange: ClosedRange<Int>? { isEmpty ? nil : lowerBound...(upperBound - 1) }
}

extension ClosedRange: StatusCodeRangeConvertible where Bound == Int {
    public var statusCodeRange: ClosedRange<Int>? { self }
}

/// A set of acceptable HTTP status codes, written as a list of codes and ranges:
/// `[200..<300, 304]`.
public struct StatusCodes: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The ranges the set is made of, in the order they were written.
    public let ranges: [ClosedRange<Int>]

    /// Creates a set from codes and ranges.
    public init(_ elements: [any StatusCodeRangeConvertible]) {
        ranges = elements.compactMap(\.statusCodeRange)
    }

    public init(arrayLiteral elements: any StatusCodeRangeConvertible...) { self.init(elements) }

    /// `200..<300`, the client's default.
    public static let successful: StatusCodes = [200..<300]

    /// Whether `code` is in the set.
    public func contains(_ code: Int) -> Bool { ranges.contains { $0.contains(code) } }

    /// The union of two sets.
    public func union(_ other: StatusCodes) -> StatusCodes { StatusCodes(ranges + other.ranges) }

    public var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }
            .joined(separator: ", ")
    }
}
