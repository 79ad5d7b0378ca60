/// Why a YAML document could not be read: what was found or expected, and where.
///
/// Every malformed input gives one of these, never a crash: a syntax error, a character YAML does
/// not allow, a second document, an undefined alias, a duplicate key, a scalar that does not fit
/// its tag, nesting past ``YAMLLimits/maximumDepth`` or aliases that expand past
/// ``YAMLLimits/maximumAliasExpansion``.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line of the problem, from 1.
    public var line: Int
    /// Its column, from 1, counted in Unicode scalars (a byte order mark at the start of the
    /// text is not counted).
    public var column: Int
    /// What is wrong, in one sentence without a trailing period: what was found, and what was
    /// expected there.
    public var message: String

    /// Creates an error at `line` and `column` (both from 1).
    public init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// An error at `mark` (a place counted from 0).
    init(_ message: String, at mark: YAMLMark) {
        self.init(message, line: mark.line + 1, column: mark.column + 1)
    }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
