import Foundation

/// Where the generator gets the text of its input files and of the files they import.
public protocol SourceReading: Sendable {
    /// The text of `path`; `importedAt` is the import that names it, for the error when it cannot
    /// be read.
    func contents(of path: String, importedAt: SourceLocation?) throws(IDLError) -> String
    /// A key that is the same for two paths to the same file (to read each file once and notice
    /// import cycles).
    func identity(of path: String) -> String
}

/// Reads input files from the file system as UTF-8; relative paths start at the current folder.
public struct FileSystemSource: SourceReading {
    /// Creates the reader.
    public init() {}

    public func contents(of path: String, importedAt: SourceLocation?) throws(IDLError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IDLError("cannot read '\(path)': no such file or not readable", at: importedAt)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw IDLError("'\(path)' is not UTF-8 text", at: importedAt)
        }
        return text
    }

    public func identity(of path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// Input files held in memory, by path: for tests and for tools that generate from text.
public struct MemorySource: SourceReading {
    /// The files' text by path.
    public var files: [String: String]

    /// Creates a source with `files`.
    public init(_ files: [String: String]) { self.files = files }

    public func contents(of path: String, importedAt: SourceLocation?) throws(IDLError) -> String {
        let key = identity(of: path)
        guard let text = files.first(where: { identity(of: $0.key) == key })?.value else {
            throw IDLError("cannot read '\(path)': no such file or not readable", at: importedAt)
        }
        return text
    }

    public func identity(of path: String) -> String {
        // Removes "./" and "dir/../" so that imports from other folders name the same key.
        var parts: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
