/// A place in an input file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as it was named on the command line, or joined from the importing file's folder.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    /// The same line, `offset` columns further right.
    func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }
}

/// Why an input could not be turned into Swift: a message and, when it comes from a file, where.
///
/// Its `description` is the compiler-style line the `webservice-gen` tool prints:
/// `GooglePlaces.json:12:18: error: unknown type 'GoogleLocaton'`.
public struct IDLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is; `nil` for problems with no place, such as an unreadable file.
    public var location: SourceLocation?
    /// What is wrong, in one sentence without a trailing period.
    public var message: String

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation?) {
        self.message = message
        self.location = location
    }

    /// `file:line:column: error: message`, or `error: message` without a location.
    public var description: String {
        guard let location else { return "error: \(message)" }
        return "\(location): error: \(message)"
    }
}
