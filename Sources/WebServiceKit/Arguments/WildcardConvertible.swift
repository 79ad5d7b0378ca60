import Foundation

/// A type that can fill a `%%N%%` wildcard with text of its own choosing.
///
/// Strings, integers, floating-point numbers, `Bool`, `UUID`, `Date`, `URL`, `Decimal`,
/// `RawRepresentable` types and `Optional`s of these fill wildcards without any conformance.
/// Conform your own types when they need another textual form:
///
/// ```swift
/// struct UserID: WildcardConvertible { let raw: Int; var wildcardText: String { "u\(raw)" } }
/// ```
///
/// The text is percent-encoded for the place it fills, so return plain, unencoded text.
public protocol WildcardConvertible {
    /// The text that replaces the wildcard, before encoding.
    var wildcardText: String { get }
}

/// Text that is already percent-encoded and may span several path segments.
///
/// ROAD's tests passed `"basic-auth/user/passwd"` into a `relativePath` of `"%%0%%"`; a plain
/// `String` would have its `/` encoded as `%2F`. Wrap such text to insert it as written:
///
/// ```swift
/// client.perform(.anything, [PreEncodedPath("basic-auth/user/passwd")], ...)
/// ```
///
/// The text must be a valid encoded path: `pchar` characters, `/`, and well-formed `%XX` escapes
/// only (RFC 3986 §3.3). Anything else (space, `?`, `#`, CR/LF, non-ASCII) fails the call with
/// ``WebServiceError/invalidArguments(index:reason:)``. Only path wildcards accept it.
public struct PreEncodedPath: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The encoded path text.
    public let encodedText: String

    /// Wraps already-encoded path text.
    public init(_ encodedText: String) { self.encodedText = encodedText }

    public init(stringLiteral value: String) { self.init(value) }
}

/// How one argument fills a wildcard, after conversion.
enum WildcardValue: Equatable {
    case text(String)
    case preEncodedPath(String)
    case list([String])
    /// `nil`: drops a query item or header, is an error in the path.
    case absent
}

/// Marks `Optional` so that an argument boxed as `Any` can be unwrapped.
private protocol OptionalArgument {
    var wrappedArgument: Any? { get }
    static var wrappedType: any Any.Type { get }
}

extension Optional: OptionalArgument {
    fileprivate var wrappedArgument: Any? { self.map { $0 as Any } }
    fileprivate static var wrappedType: any Any.Type { Wrapped.self }
}

/// Marks `Array` so that a declared argument type can be checked element by element.
private protocol ArrayArgument {
    static var elementType: any Any.Type { get }
}

extension Array: ArrayArgument {
    fileprivate static var elementType: any Any.Type { Element.self }
}

enum WildcardConversion {
    /// Converts an argument to the text that fills a wildcard; `nil` when the type has no textual form.
    static func value(of argument: Any) -> WildcardValue? {
        // The commonest arguments first: a cast to a concrete type costs far less than the
        // protocol conformance lookup below. Skipped if the app made String or Int convertible.
        if !standardTypesAreConvertible {
            if let value = argument as? String { return .text(value) }
            if let value = argument as? Int { return .text(String(value)) }
        }
        switch argument {
        case let value as WildcardConvertible: return .text(value.wildcardText)
        case let value as String: return .text(value)
        case let value as Substring: return .text(String(value))
        case let value as Character: return .text(String(value))
        case let value as PreEncodedPath: return .preEncodedPath(value.encodedText)
        case let value as Bool: return .text(value ? "true" : "false")
        case let value as any BinaryInteger: return .text("\(value)")
        case let value as Double: return .text(formatted(value))
        case let value as Float: return .text(formatted(Double(value)))
        case let value as Decimal: return .text("\(value)")
        // RFC 9562 §4: UUIDs are written in lowercase.
        case let value as UUID: return .text(value.uuidString.lowercased())
        case let value as Date: return .text(value.ISO8601Format())
        case let value as URL: return .text(value.absoluteString)
        case let value as OptionalArgument:
            guard let wrapped = value.wrappedArgument else { return .absent }
            return Self.value(of: wrapped)
        case let value as any RawRepresentable: return Self.value(of: rawValue(of: value))
        case let values as [Any]:
            var texts: [String] = []
            texts.reserveCapacity(values.count)
            for element in values {
                switch Self.value(of: element) {
                case .text(let text): texts.append(text)
                case .absent: continue
                default: return nil
                }
            }
            return .list(texts)
        default: return nil
        }
    }

    /// Whether every value of `type` has a textual form that ``value(of:)`` gives (a `nil`
    /// `Optional` drops its query item or header): the check of a ``TypedCall``'s declared types,
    /// made once when it is declared. It follows ``value(of:)`` case by case.
    static func accepts(_ type: any Any.Type, inList: Bool = false) -> Bool {
        if type is WildcardConvertible.Type || type is any BinaryInteger.Type { return true }
        let plain: [any Any.Type] = [
            String.self, Substring.self, Character.self, Bool.self, Double.self, Float.self, Decimal.self,
            UUID.self, Date.self, URL.self,
        ]
        if plain.contains(where: { $0 == type }) { return true }
        if type == PreEncodedPath.self { return !inList }
        if let optional = type as? OptionalArgument.Type { return accepts(optional.wrappedType, inList: inList) }
        if let raw = type as? any RawRepresentable.Type { return accepts(rawValueType(of: raw), inList: inList) }
        if let array = type as? ArrayArgument.Type, !inList { return accepts(array.elementType, inList: true) }
        return false
    }

    private static func rawValueType<T: RawRepresentable>(of type: T.Type) -> any Any.Type { T.RawValue.self }

    /// Whether the app conformed `String` or `Int` to ``WildcardConvertible``, whose text then wins.
    private static let standardTypesAreConvertible =
        ("" as Any) is WildcardConvertible || (0 as Any) is WildcardConvertible

    /// Whether `argument` is an `Optional` holding `nil`.
    static func isNil(_ argument: Any) -> Bool {
        (argument as? OptionalArgument).map { $0.wrappedArgument == nil } ?? false
    }

    private static func rawValue<T: RawRepresentable>(of value: T) -> Any { value.rawValue }

    /// Integral doubles print without a fraction (`3`, not `3.0`); others use Swift's shortest form.
    private static func formatted(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
