/// How an argument fills its wildcard by OpenAPI's parameter serialization rules (`style`,
/// `explode` and `allowReserved` of the Parameter Object, OpenAPI 3.1; RFC 6570 §3.2 for `simple`,
/// `label`, `matrix` and `form`): a descriptor's ``CallFields/parameterStyles`` maps an argument
/// index to one.
///
/// The argument may be text (anything that fills a wildcard: a `String`, a number, a `Bool`, a
/// `Date`, an enum's raw value…), a list of such values, or an object (an `Encodable` structure,
/// its members in the order it encodes them, or a `[String: V]` dictionary, in the order of its
/// names). With `color` = `["blue", "black", "brown"]` or `{R: 100, G: 200, B: 150}`:
///
/// - `.simple()`: `blue,black,brown`, `R,100,G,200,B,150` (exploded: `R=100,G=200,B=150`)
/// - `.label()`: `.blue,black,brown`, `.R,100,G,200,B,150` (exploded: `.blue.black.brown`,
///   `.R=100.G=200.B=150`)
/// - `.matrix("color")`: `;color=blue,black,brown`, `;color=R,100,G,200,B,150` (exploded:
///   `;color=blue;color=black;color=brown`, `;R=100;G=200;B=150`)
/// - `.form("color")`: `color=blue&color=black&color=brown`, `R=100&G=200&B=150` (not exploded:
///   `color=blue,black,brown`, `color=R,100,G,200,B,150`)
/// - `.spaceDelimited("color")`: `color=blue%20black%20brown`; `.pipeDelimited("color")`:
///   `color=blue%7Cblack%7Cbrown`
/// - `.deepObject("color")`: `color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150`
///
/// Text is written as a list of one element would be (`blue`, `.blue`, `;color=blue`,
/// `color=blue`); `deepObject` refuses it.
///
/// `simple`, `label` and `matrix` fill a wildcard in the path (a whole segment or part of one);
/// `form`, `spaceDelimited`, `pipeDelimited` and `deepObject` fill a query item written as a lone
/// wildcard (`?%%0%%`, `&%%0%%`); `simple` fills a header value (or the cache identifier) as it
/// is, without percent-encoding, and `form` fills the `Cookie` field with `name=value` (an OpenAPI
/// cookie parameter; exploded pairs separated by `; `). Any other place, or a style for an index
/// no wildcard uses, makes the descriptor invalid. Names, elements and members are
/// percent-encoded for their place as every argument is; the delimiters are written as above. A
/// `nil` drops the query items or the header field (and is an error in the path); an empty list
/// or object sends no query item and drops a header field, and in the path takes OpenAPI's
/// "undefined" form: nothing for `simple`, `.` for `label`, `;color` for `matrix`. See
/// "Parameter styles (OpenAPI)" in Docs/DescriptorReference.md.
public struct ParameterStyle: Sendable, Hashable, CustomStringConvertible {
    /// OpenAPI's `style` values.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// RFC 6570 simple string expansion (`{color}`): path and header values.
        case simple
        /// RFC 6570 label expansion (`{.color}`): the path.
        case label
        /// RFC 6570 path-style parameters (`{;color}`): the path.
        case matrix
        /// RFC 6570 form-style query expansion (`{?color}`): the query, and the `Cookie` field.
        case form
        /// A list's elements (or an object's names and values) separated by `%20`: the query.
        case spaceDelimited
        /// A list's elements (or an object's names and values) separated by `%7C` (`|`): the query.
        case pipeDelimited
        /// An object's members as `color[R]=100` items (brackets percent-encoded): the query.
        case deepObject
    }

    /// The style.
    public let kind: Kind
    /// The parameter's name, which `matrix`, `form`, `spaceDelimited`, `pipeDelimited` and
    /// `deepObject` write; `""` for `simple` and `label`, which write none.
    public let name: String
    /// Whether a list or an object is spread into one item (or one `;name=value`, one `.value`)
    /// per element or member: OpenAPI's `explode`.
    public let explode: Bool
    /// Whether values in the query keep RFC 3986's reserved characters and `%XX` escapes as they
    /// are (RFC 6570 reserved expansion, `{+var}`), but for `&`, `=`, `+`, `#`, `[` and `]`, which
    /// would break the query's items or are not allowed in a query, and stay encoded. Only the
    /// query's styles have it: OpenAPI's `allowReserved`.
    public let allowReserved: Bool

    private init(_ kind: Kind, name: String = "", explode: Bool, allowReserved: Bool = false) {
        self.kind = kind
        self.name = name
        self.explode = explode
        self.allowReserved = allowReserved
    }

    /// `blue`, `blue,black,brown`, `R,100,G,200,B,150` (`R=100,G=200,B=150` exploded): a path
    /// wildcard, or a header value (where it is not percent-encoded).
    public static func simple(explode: Bool = false) -> ParameterStyle { ParameterStyle(.simple, explode: explode) }

    /// `.blue`, `.blue,black,brown` (`.blue.black.brown` exploded), `.R,100,G,200,B,150`
    /// (`.R=100.G=200.B=150` exploded): a path wildcard.
    public static func label(explode: Bool = false) -> ParameterStyle { ParameterStyle(.label, explode: explode) }

    /// `;color=blue`, `;color=blue,black,brown` (`;color=blue;color=black;color=brown` exploded),
    /// `;color=R,100,G,200,B,150` (`;R=100;G=200;B=150` exploded): a path wildcard.
    public static func matrix(_ name: String, explode: Bool = false) -> ParameterStyle {
        ParameterStyle(.matrix, name: name, explode: explode)
    }

    /// `color=blue`, `color=blue&color=black&color=brown` (`color=blue,black,brown` not exploded),
    /// `R=100&G=200&B=150` (`color=R,100,G,200,B,150` not exploded): a lone query wildcard, or
    /// the `Cookie` field, where exploded pairs are separated by `; ` and `allowReserved` has no
    /// effect.
    public static func form(_ name: String, explode: Bool = true, allowReserved: Bool = false) -> ParameterStyle {
        ParameterStyle(.form, name: name, explode: explode, allowReserved: allowReserved)
    }

    /// `color=blue%20black%20brown`, `color=R%20100%20G%20200%20B%20150`: a lone query wildcard.
    public static func spaceDelimited(_ name: String, allowReserved: Bool = false) -> ParameterStyle {
        ParameterStyle(.spaceDelimited, name: name, explode: false, allowReserved: allowReserved)
    }

    /// `color=blue%7Cblack%7Cbrown`, `color=R%7C100%7CG%7C200%7CB%7C150`: a lone query wildcard.
    public static func pipeDelimited(_ name: String, allowReserved: Bool = false) -> ParameterStyle {
        ParameterStyle(.pipeDelimited, name: name, explode: false, allowReserved: allowReserved)
    }

    /// `color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150` (`color[R]=100…`, the brackets
    /// percent-encoded): a lone query wildcard whose argument is an object.
    public static func deepObject(_ name: String, allowReserved: Bool = false) -> ParameterStyle {
        ParameterStyle(.deepObject, name: name, explode: true, allowReserved: allowReserved)
    }

    /// The style as it is written in Swift: `.form("tags", explode: false)`.
    public var description: String {
        var arguments: [String] = []
        if kind != .simple, kind != .label { arguments.append(name.debugDescription) }
        switch kind {
        case .simple, .label, .matrix: if explode { arguments.append("explode: true") }
        case .form: if !explode { arguments.append("explode: false") }
        case .spaceDelimited, .pipeDelimited, .deepObject: break
        }
        if allowReserved { arguments.append("allowReserved: true") }
        return ".\(kind.rawValue)(\(arguments.joined(separator: ", ")))"
    }
}
