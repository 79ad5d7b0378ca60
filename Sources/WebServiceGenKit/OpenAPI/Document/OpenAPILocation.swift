import Foundation

/// A place in an OpenAPI document set: a file and the JSON pointer of a value in it. Where a
/// `$ref` leads, and where each part of the model was read from.
public struct OpenAPILocation: Sendable, Hashable, CustomStringConvertible {
    /// The file (a standardized file URL).
    public var file: URL
    /// The value's pointer in the file.
    public var pointer: JSONPointer

    /// Creates a location.
    public init(file: URL, pointer: JSONPointer = .root) {
        self.file = file
        self.pointer = pointer
    }

    /// The location of the member `token` (or element) of this value.
    public func appending(_ token: String) -> OpenAPILocation {
        OpenAPILocation(file: file, pointer: pointer.appending(token))
    }

    /// The location of the element `index` of this array.
    public func appending(_ index: Int) -> OpenAPILocation {
        OpenAPILocation(file: file, pointer: pointer.appending(index))
    }

    /// `path#/json/pointer`.
    public var description: String { file.path + pointer.fragment }
}
