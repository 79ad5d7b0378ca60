import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Encodes `Encodable` values as XML documents.
///
/// ```swift
/// struct Person: Codable, XMLNodeKindProviding {
///     let name: String
///     let city: String
///     static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
///         key.stringValue == "name" ? .attribute : .element
///     }
/// }
/// let data = try XMLValueEncoder().encode(Person(name: "Иван", city: "Москва"))
/// // <?xml version="1.0" encoding="UTF-8"?><Person name="Иван"><city>Москва</city></Person>
/// ```
///
/// How values are written:
/// - Every property becomes a child element named after its coding key, or an attribute or the
///   element's text when the type conforms to ``XMLNodeKindProviding``.
/// - Strings, numbers, `Bool` (`true`/`false`), `Decimal`, `UUID`, `URL` (its absolute string),
///   `Date` (see ``dateEncodingStrategy``) and `Data` (Base64) are written as text. `&`, `<`, `>`
///   and, in attribute values, quotes are escaped; `\r` is written as `&#13;` so it survives parsing.
///   `Double.nan` and the infinities are written `NaN`, `INF` and `-INF`.
/// - `nil` is written as nothing at all: the element or attribute is left out.
/// - An array property repeats its element once per item (`<cities>a</cities><cities>b</cities>`), so an
///   empty array writes nothing. An array at the top level, or inside another array, is one element
///   with an `<element>` child per item. A `nil` array item is an empty item element marked
///   `xsi:nil="true"` (with the `xsi` prefix declared on the element itself).
/// - A `[String: T]` dictionary becomes one child element per entry, named by its key.
///
/// Element and attribute names must be valid XML names, and text must not contain characters XML 1.0
/// cannot carry (control characters other than tab, line feed and carriage return); both are reported
/// as `EncodingError.invalidValue`.
public struct XMLValueEncoder: Sendable {
    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// ISO 8601 in UTC with whole seconds, such as `2024-03-01T12:30:00Z`. The default.
        case iso8601
        /// ISO 8601 in UTC with milliseconds, such as `2024-03-01T12:30:00.250Z`.
        case iso8601WithFractionalSeconds
        /// Seconds since 1 January 1970 UTC, such as `1709296200` or `1709296200.25`.
        case secondsSince1970
        /// Milliseconds since 1 January 1970 UTC, such as `1709296200250`.
        case millisecondsSince1970
        /// The text the closure returns; an error it throws ends the encoding.
        case custom(@Sendable (Date) throws -> String)
    }

    /// How `Date` values are written; ``DateEncodingStrategy/iso8601`` by default.
    public var dateEncodingStrategy: DateEncodingStrategy = .iso8601

    /// Whether the document starts with `<?xml version="1.0" encoding="UTF-8"?>`; `true` by default.
    public var includesDeclaration = true

    /// Whether child elements are put on their own lines, indented by four spaces per level;
    /// `false` by default. Elements that have text of their own are never indented, so the
    /// decoded values stay the same.
    public var prettyPrinted = false

    /// The longest coding path the encoder accepts before it throws `EncodingError.invalidValue`
    /// instead of risking a stack overflow on a cyclic or very deep value; 128 by default.
    ///
    /// Encoding recurses once per level through the values' `encode(to:)`: 128 levels of a small
    /// recursive type encode on a 512 KiB stack (a Task's on Apple platforms) in an unoptimized
    /// build; 256 do not. Raise it only for code that runs on a larger stack.
    public var maximumDepth = 128

    /// Values handed to the `encode(to:)` implementations through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// The declaration written at the start of every document unless ``includesDeclaration`` is `false`.
    public static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"

    /// Creates an encoder with the default options.
    public init() {}

    /// Encodes `value` as a UTF-8 XML document.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - rootElement: The name of the document element. By default the name of `T` without its
    ///     module and generic arguments, such as `Person` (`Array` for an array, `Dictionary` for a
    ///     dictionary).
    /// - Returns: The document, as UTF-8 bytes.
    /// - Throws: `EncodingError.invalidValue` for a name that is not a valid XML name, text XML cannot
    ///   carry, a nested value or an array in an attribute or text position, or nesting deeper than
    ///   ``maximumDepth``; and any error a value's `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T, rootElement: String? = nil) throws -> Data {
        let name = rootElement ?? XMLValueEncoder.defaultRootElementName(for: T.self)
        guard XMLSyntax.isValidName(name) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "\"\(name)\" is not a valid XML name for the root element."))
        }
        let root = XMLTreeElement(name: name)
        let state = XMLEncodingState(options: self)
        try state.encode(value, into: .existing(root), codingPath: [])
        let writer = XMLTreeWriter(prettyPrinted: prettyPrinted)
        return Data(writer.document(root, declaration: includesDeclaration ? XMLValueEncoder.declaration : nil).utf8)
    }

    /// The root element name used when `encode(_:rootElement:)` is not given one: the type's name
    /// without module and generic arguments (`Person`, `Array`, `Dictionary`).
    static func defaultRootElementName(for type: Any.Type) -> String {
        let described = String(describing: type)
        let name = described.prefix { $0 != "<" && $0 != "(" && $0 != " " }
        return name.isEmpty ? "root" : String(name)
    }
}
