#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Where a property of a `Codable` value goes in its XML element.
///
/// ```swift
/// struct Price: Codable, XMLNodeKindProviding {
///     let currency: String
///     let amount: Decimal
///
///     static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind {
///         key.stringValue == "currency" ? .attribute : .text
///     }
/// }
/// // <price currency="EUR">12.50</price>
/// ```
public enum XMLNodeKind: Sendable, Hashable {
    /// A child element named after the key: `<city>Berlin</city>`. The default.
    case element
    /// An attribute of the value's own element, named after the key: `<person name="Ann">`.
    ///
    /// Only single values (strings, numbers, dates…) can be attributes; a nested value or an
    /// array under an attribute key is an `EncodingError` / `DecodingError`.
    case attribute
    /// The character content of the value's own element: `<price>12.50</price>`.
    ///
    /// Like ``attribute``, only single values can be text.
    case text
}

/// A `Codable` type that places some of its properties in XML attributes or in the text of its element.
///
/// ``XMLValueEncoder`` and ``XMLValueDecoder`` ask the type of every value they encode or decode
/// through a keyed container. Types that do not conform store every property as a child element.
public protocol XMLNodeKindProviding {
    /// Returns where the property with coding key `key` is stored in this type's element.
    ///
    /// - Parameter key: The coding key of one property, as passed to the keyed container.
    /// - Returns: ``XMLNodeKind/element``, ``XMLNodeKind/attribute`` or ``XMLNodeKind/text``.
    static func xmlNodeKind(for key: any CodingKey) -> XMLNodeKind
}
