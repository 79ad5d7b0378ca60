/// Walking an input file's text one Unicode scalar at a time while keeping the line and column
/// of the next one: what both readers (JSON IDL and HTTPIDL) need for their error locations.
protocol SourceScanning {
    var scalars: [Unicode.Scalar] { get }
    var file: String { get }
    var index: Int { get set }
    /// The line of the scalar at `index`, from 1.
    var line: Int { get set }
    /// Its column, from 1, counted in scalars.
    var column: Int { get set }
}

extension SourceScanning {
    /// Where the scalar at `index` is.
    var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    /// The scalar at `index`, `nil` at the end.
    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    /// Moves past the scalar at `index`.
    mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }
}
