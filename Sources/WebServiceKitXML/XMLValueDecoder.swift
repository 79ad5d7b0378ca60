import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Decodes `Decodable` values from XML documents.
///
/// ```swift
/// let person = try XMLValueDecoder().decode(Person.self, from: data)
/// let items = try XMLValueDecoder().decode([Item].self, from: data, at: ["result", "item"])
/// ```
///
/// How XML is read (the mirror image of ``XMLValueEncoder``):
/// - A property is read from the child element named after its coding key, or from an attribute or
///   the element's text when the type conforms to ``XMLNodeKindProviding``. The name of the root
///   element is not checked.
/// - Text keeps its whitespace for `String` (`<a> x </a>` is `" x "`, `<a/>` is `""`); numbers,
///   `Bool` (`true`, `false`, `1`, `0`), `Decimal`, `Date`, `Data` (Base64), `URL` and `UUID`
///   ignore surrounding whitespace. CDATA sections, the predefined entities and character
///   references are read as text; whitespace-only text between child elements is ignored.
/// - A missing element or attribute is `nil` for an optional; `xsi:nil="true"` is `nil` too.
/// - An array property is read from all child elements with its key's name, in order; when there
///   is none, the array is empty (the encoder writes an empty array as nothing). An array at the
///   top level or inside another array is read from all child elements of its element, whatever
///   their names. When several elements carry the name of a single-value property, the first wins.
/// - A `[String: T]` dictionary is read from all child elements, keyed by their names.
///
/// Errors are `DecodingError`s with the coding path of the failing value. Malformed XML is
/// `DecodingError.dataCorrupted` naming the parser's line and column; documents nesting deeper than
/// ``maximumDepth`` elements are rejected the same way. Entities declared in a DTD are not
/// expanded and external entities are never loaded.
public struct XMLValueDecoder: Sendable {
    /// How `Date` values are read.
    public enum DateDecodingStrategy: Sendable {
        /// ISO 8601 date and time with a `Z` or `±hh:mm` offset, with or without fractional seconds.
        /// The default.
        case iso8601
        /// A number of seconds since 1 January 1970 UTC, with or without a fraction.
        case secondsSince1970
        /// A number of milliseconds since 1 January 1970 UTC.
        case millisecondsSince1970
        /// The date the closure returns for the raw (untrimmed) text; an error it throws ends the decoding.
        case custom(@Sendable (String) throws -> Date)
    }

    /// How `Date` values are read; ``DateDecodingStrategy/iso8601`` by default.
    public var dateDecodingStrategy: DateDecodingStrategy = .iso8601

    /// The deepest element nesting accepted in a document; deeper documents are rejected with
    /// `DecodingError.dataCorrupted` (naming the line and column of the first element too deep)
    /// before any value is decoded. 128 by default.
    ///
    /// The document is parsed without recursion, however deep it is, but decoding a recursive type
    /// recurses once per element level, and releasing the parsed tree does too: the limit is what
    /// keeps hostile input from overflowing the stack. 128 levels of a small recursive type decode
    /// on a 512 KiB stack (a Task's on Apple platforms) in an unoptimized build, where a level takes
    /// about 2.5 KiB; 256 do not. Raise it only for code that runs on a larger stack.
    public var maximumDepth = 128

    /// Values handed to the `init(from:)` implementations through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with the default options.
    public init() {}

    /// Decodes a value of type `T` from the root element of the document in `data`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: An XML document in any encoding `XMLParser` recognizes (UTF-8 by default).
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError` when the document is malformed or does not match `T`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: data, at: [])
    }

    /// Decodes a value of type `T` from an element below the root.
    ///
    /// Each name in `path` steps into the first child element of that name; the elements found by
    /// the last step are decoded, so an array type reads every one of them:
    /// `decode([Item].self, from: data, at: ["items", "item"])` reads all `<item>` children of
    /// `<items>`. An empty path decodes the root element.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: An XML document.
    ///   - path: Element names below the root to descend into.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError.keyNotFound` when a step of `path` has no element (its coding path
    ///   names the steps taken so far), or when the last step finds nothing and `T` is neither an
    ///   optional nor an array; and any error decoding `T` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: [String]) throws -> T {
        let root = try XMLTreeParser.parse(data, maximumDepth: maximumDepth)
        let state = XMLDecodingState(options: self)
        var node = XMLDecodingNode.element(root)
        var codingPath: [any CodingKey] = []
        var current = root
        for (index, step) in path.enumerated() {
            let key = XMLCodingKey(stringValue: step)
            let matches = current.children(named: step)
            if matches.isEmpty {
                if index == path.count - 1, let absent = T.self as? any XMLEmptyWhenAbsent.Type,
                    let value = absent.xmlValueWhenAbsent as? T
                {
                    return value
                }
                let taken = ([root.name] + path.prefix(index)).joined(separator: "/")
                throw DecodingError.keyNotFound(
                    key,
                    DecodingError.Context(
                        codingPath: codingPath, debugDescription: "No element <\(step)> below /\(taken)."))
            }
            codingPath.append(key)
            if index == path.count - 1 {
                node = .elements(matches, name: step)
            } else if let first = matches.first {
                current = first
            }
        }
        return try state.decode(T.self, from: node, codingPath: codingPath)
    }
}
