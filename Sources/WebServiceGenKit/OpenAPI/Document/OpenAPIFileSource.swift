import Foundation

/// Where the files of an OpenAPI document set are read from: the file system, or memory (tests).
public protocol OpenAPIFileSource: Sendable {
    /// The bytes of the file at the standardized file URL `url`; an error when it cannot be read.
    func contents(of url: URL) throws -> [UInt8]
}

/// Reads files from the file system.
public struct OpenAPIFileSystemSource: OpenAPIFileSource {
    /// Creates the source.
    public init() {}

    /// The file's bytes.
    public func contents(of url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }
}

/// Files held in memory, by absolute path (`/api/pets.yaml`).
public struct OpenAPIMemorySource: OpenAPIFileSource {
    /// The files' texts by absolute path.
    public var files: [String: String]

    /// Creates a source of `files`, keyed by absolute path.
    public init(_ files: [String: String]) {
        self.files = files
    }

    /// The file's UTF-8 bytes; an error when there is no file at that path.
    public func contents(of url: URL) throws -> [UInt8] {
        guard let text = files[url.path] else { throw CocoaError(.fileNoSuchFile) }
        return Array(text.utf8)
    }
}
