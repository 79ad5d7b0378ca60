import Foundation

/// Why an OpenAPI document could not be read: the file, the JSON pointer of the offending value
/// (or the line and column of a YAML syntax error), and what is wrong.
///
/// Its `description` reads `pets.yaml: /paths/~1pets/get/parameters/0/in: 'body' is not a
/// parameter location (path, query, header, cookie)`, or `pets.yaml:3:7: …` for YAML errors.
public struct OpenAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file concerned; `nil` only when no file is involved.
    public var file: URL?
    /// The pointer of the offending value; `nil` for errors of a whole file (unreadable, not
    /// YAML).
    public var pointer: JSONPointer?
    /// The YAML error when the file is not well-formed YAML (with its line and column).
    public var yamlError: YAMLError?
    /// What is wrong, in one sentence without a trailing period.
    public var message: String

    /// Creates an error at a value of a file.
    public init(_ message: String, at location: OpenAPILocation) {
        self.file = location.file
        self.pointer = location.pointer
        self.message = message
    }

    /// Creates an error of a whole file.
    public init(_ message: String, file: URL?) {
        self.file = file
        self.message = message
    }

    /// Wraps the YAML error of `file`.
    public init(_ yamlError: YAMLError, file: URL) {
        self.file = file
        self.yamlError = yamlError
        self.message = yamlError.message
    }

    /// `file: pointer: message`, `file:line:column: message` or `file: message`.
    public var description: String {
        var text = file?.path ?? ""
        if let yamlError {
            text += ":\(yamlError.line):\(yamlError.column)"
        } else if let pointer {
            text += ": \(pointer.description.isEmpty ? "/" : pointer.description)"
        }
        return text.isEmpty ? message : text + ": " + message
    }
}

/// Something of a document the model leaves out (callbacks, links, `not`, `xml`, …): where it
/// is and what is skipped. The reader collects them and never prints them.
public struct OpenAPIWarning: Sendable, Equatable, CustomStringConvertible {
    /// Where the skipped value is.
    public var location: OpenAPILocation
    /// What is skipped, in one sentence without a trailing period.
    public var message: String

    /// Creates a warning.
    public init(_ message: String, at location: OpenAPILocation) {
        self.location = location
        self.message = message
    }

    /// `file: pointer: message`.
    public var description: String { "\(location.file.path): \(location.pointer): \(message)" }
}
