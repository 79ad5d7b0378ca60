/// An argument as a ``ParameterStyle`` writes it: text, a list of texts, or an object (named
/// texts), made from the tree ``QueryItemEncoder`` encodes a value into. Values are not yet
/// percent-encoded.
enum StyledValue: Equatable {
    /// `nil`: drops a query item or a header field; an error in the path.
    case absent
    case text(String)
    /// The elements that are not `nil`, in order.
    case list([String])
    /// The members that are not `nil`, in the order the value encodes them.
    case object([Member])

    /// One member of an object.
    struct Member: Equatable {
        let name: String
        let value: String
    }

    /// Whether the value is a list or an object with nothing in it: RFC 6570's "undefined"
    /// (§2.3), which OpenAPI's style table writes in its own column.
    var isEmptyCompound: Bool {
        switch self {
        case .list(let elements): elements.isEmpty
        case .object(let members): members.isEmpty
        case .absent, .text: false
        }
    }

    /// The value of `node`: its list elements and object members must be text (or `nil`, which
    /// is left out); a list or an object inside one fails, naming it.
    init(_ node: QueryItemEncoder.Node) throws(QueryItemEncoder.Failure) {
        switch node {
        case .absent: self = .absent
        case .text(let text): self = .text(text)
        case .list(let elements):
            var texts: [String] = []
            texts.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                switch element {
                case .text(let text): texts.append(text)
                case .absent: continue
                case .list, .object:
                    throw QueryItemEncoder.Failure(
                        path: ["\(position)"], reason: "a list or an object inside a list has no styled form")
                }
            }
            self = .list(texts)
        case .object(let members):
            var texts: [Member] = []
            texts.reserveCapacity(members.count)
            for (name, member) in members {
                switch member {
                case .text(let text): texts.append(Member(name: name, value: text))
                case .absent: continue
                case .list, .object:
                    throw QueryItemEncoder.Failure(
                        path: [name], reason: "a list or an object inside an object has no styled form")
                }
            }
            self = .object(texts)
        }
    }
}

/// Writes a ``StyledValue`` by its ``ParameterStyle`` for the place its wildcard is in (OpenAPI
/// 3.1's style table, RFC 6570 §3.2 for `simple`, `label`, `matrix` and `form`): names, elements
/// and members percent-encoded for the place as every argument is (``URLEncoding``), the style's
/// delimiters written as they are.
///
/// An empty list or object is RFC 6570's "undefined": in the path it takes OpenAPI's "undefined"
/// column (nothing for `simple`, `.` for `label`, `;name` for `matrix`); in the query it sends no
/// item, as an empty list always did; in a header it drops the field, as `nil` does.
enum StyledParameterWriter {
    // MARK: Path

    /// The text of a path wildcard (`simple`, `label`, `matrix`); `nil` for an absent value.
    static func pathText(_ value: StyledValue, style: ParameterStyle) -> String? {
        let encode = URLEncoding.pathSegment
        switch style.kind {
        case .label: return label(value, explode: style.explode, encode: encode)
        case .matrix: return matrix(value, name: encode(style.name), explode: style.explode, encode: encode)
        default: return simple(value, explode: style.explode, encode: encode)
        }
    }

    /// `blue`, `blue,black,brown`, `R,100,G,200,B,150` or `R=100,G=200,B=150`.
    private static func simple(_ value: StyledValue, explode: Bool, encode: (String) -> String) -> String? {
        switch value {
        case .absent: nil
        case .text(let text): encode(text)
        case .list(let elements): elements.map(encode).joined(separator: ",")
        case .object(let members): pairs(members, explode: explode, separator: ",", encode: encode)
        }
    }

    /// `.blue`, `.blue,black,brown` or `.blue.black.brown`, `.R,100,G,200,B,150` or
    /// `.R=100.G=200.B=150`; `.` for an empty list or object.
    private static func label(_ value: StyledValue, explode: Bool, encode: (String) -> String) -> String? {
        let separator = explode ? "." : ","
        switch value {
        case .absent: return nil
        case .text(let text): return "." + encode(text)
        case .list(let elements): return "." + elements.map(encode).joined(separator: separator)
        case .object(let members): return "." + pairs(members, explode: explode, separator: separator, encode: encode)
        }
    }

    /// `;color=blue` (`;color` for empty text), `;color=blue,black,brown` or
    /// `;color=blue;color=black;color=brown`, `;color=R,100,G,200,B,150` or `;R=100;G=200;B=150`;
    /// `;color` for an empty list or object. Exploded, an empty element or member value writes its
    /// name alone (RFC 6570 Appendix A: the `;` operator's `ifemp` is empty).
    private static func matrix(_ value: StyledValue, name: String, explode: Bool, encode: (String) -> String)
        -> String?
    {
        func named(_ name: String, _ text: String) -> String { text.isEmpty ? ";" + name : ";" + name + "=" + text }
        switch value {
        case .absent: return nil
        case .text(let text): return named(name, encode(text))
        case _ where value.isEmptyCompound: return ";" + name
        case .list(let elements):
            if explode { return elements.map { named(name, encode($0)) }.joined() }
            return ";" + name + "=" + elements.map(encode).joined(separator: ",")
        case .object(let members):
            if explode { return members.map { named(encode($0.name), encode($0.value)) }.joined() }
            return ";" + name + "=" + pairs(members, explode: false, separator: ",", encode: encode)
        }
    }

    // MARK: Query

    /// The query items of a lone query wildcard (`form`, `spaceDelimited`, `pipeDelimited`,
    /// `deepObject`), each `name=value` percent-encoded; none for an absent value or an empty list
    /// or object. `deepObject` takes an object only: anything else fails, naming the argument at
    /// `index`.
    static func queryItems(_ value: StyledValue, style: ParameterStyle, index: Int) throws(WebServiceError)
        -> [String]
    {
        if value == .absent || value.isEmptyCompound { return [] }
        let allowReserved = style.allowReserved
        let encode = { (text: String) -> String in
            allowReserved ? URLEncoding.reservedQueryComponent(text) : URLEncoding.queryComponent(text)
        }
        let name = URLEncoding.queryComponent(style.name)
        switch style.kind {
        case .deepObject:
            guard case .object(let members) = value else {
                throw .invalidArguments(
                    index: index,
                    reason: "\(style) writes the members of an object; pass an Encodable structure or a dictionary")
            }
            // The brackets are percent-encoded: RFC 3986 §3.4 leaves `[` and `]` out of a query,
            // and Foundation's URL on Linux encodes them itself (OpenAPI 3.1.1's table writes
            // `color%5BR%5D=100`).
            return members.map { name + "%5B" + encode($0.name) + "%5D=" + encode($0.value) }
        case .spaceDelimited:
            return [name + "=" + delimited(value, separator: "%20", encode: encode)]
        case .pipeDelimited:
            // `|` is not allowed in a URI (RFC 3986 §2): the pipe is written `%7C`, as OpenAPI
            // 3.1.1's table writes it.
            return [name + "=" + delimited(value, separator: "%7C", encode: encode)]
        default:
            return form(value, name: name, explode: style.explode, encode: encode)
        }
    }

    /// The fields of a form body (``StyledFormRequestSerializer``): each member of `value` as a
    /// query parameter of its style (`styles[name]`, else `form` exploding) would be; an error
    /// naming the member when one has no form.
    static func formFields(of value: Any, styles: [String: ParameterStyle]) throws(SerializationError) -> [String] {
        let members: [(String, QueryItemEncoder.Node)]
        switch QueryItemEncoder.members(of: value) {
        case .success(let found): members = found
        case .failure(let failure): throw SerializationError("a form body: \(failure)")
        }
        var fields: [String] = []
        fields.reserveCapacity(members.count)
        for (name, node) in members {
            let style = styles[name] ?? .form(name)
            let styled: StyledValue
            do {
                styled = try StyledValue(node)
            } catch {
                throw SerializationError("a form body's member \(name): \(error)")
            }
            do {
                fields += try queryItems(styled, style: style, index: 0)
            } catch {
                guard case .invalidArguments(_, let reason) = error.reason else {
                    throw SerializationError("a form body's member \(name): \(error)")
                }
                throw SerializationError("a form body's member \(name): \(reason)")
            }
        }
        return fields
    }

    /// `color=blue`, `color=blue,black,brown` or `color=blue&color=black&color=brown` (one item
    /// each), `color=R,100,G,200,B,150` or `R=100&G=200&B=150`.
    private static func form(_ value: StyledValue, name: String, explode: Bool, encode: (String) -> String)
        -> [String]
    {
        switch value {
        case .absent: return []
        case .text(let text): return [name + "=" + encode(text)]
        case .list(let elements):
            if explode { return elements.map { name + "=" + encode($0) } }
            return [name + "=" + elements.map(encode).joined(separator: ",")]
        case .object(let members):
            if explode { return members.map { encode($0.name) + "=" + encode($0.value) } }
            return [name + "=" + pairs(members, explode: false, separator: ",", encode: encode)]
        }
    }

    /// A list's elements, or an object's names and values, each encoded, separated by `separator`.
    private static func delimited(_ value: StyledValue, separator: String, encode: (String) -> String) -> String {
        switch value {
        case .absent: ""
        case .text(let text): encode(text)
        case .list(let elements): elements.map(encode).joined(separator: separator)
        case .object(let members): pairs(members, explode: false, separator: separator, encode: encode)
        }
    }

    // MARK: Headers

    /// The text of a header wildcard: `simple` as it is, without percent-encoding (a header is
    /// not a URL; the request check refuses control characters), or the `Cookie` field's `form`
    /// (``cookie(_:style:)``); `nil` when the value drops the field (absent, or an empty list or
    /// object). The cache identifier takes the same text as a header.
    static func headerText(_ value: StyledValue, style: ParameterStyle) -> String? {
        if value.isEmptyCompound { return nil }
        if style.kind == .form { return cookie(value, style: style) }
        return simple(value, explode: style.explode, encode: { $0 })
    }

    /// An OpenAPI cookie parameter (`form` in the `Cookie` field): `color=blue`,
    /// `color=blue,black,brown`, `color=R,100,G,200,B,150`; exploded, one pair per element or
    /// member, separated by `; ` as cookie pairs are (RFC 6265 §4.2.1; OpenAPI 3.1.1 Appendix D:
    /// `&` is "always incorrect" there): `color=blue; color=black`, `R=100; G=200`. Names and
    /// values are percent-encoded as a query's are (RFC 6570 form expansion, which OpenAPI's
    /// `form` is), so no value can end its pair or add one; `allowReserved` has no effect here.
    private static func cookie(_ value: StyledValue, style: ParameterStyle) -> String? {
        let encode = URLEncoding.queryComponent
        let name = encode(style.name)
        switch value {
        case .absent: return nil
        case .text(let text): return name + "=" + encode(text)
        case .list(let elements):
            if style.explode { return elements.map { name + "=" + encode($0) }.joined(separator: "; ") }
            return name + "=" + elements.map(encode).joined(separator: ",")
        case .object(let members):
            if style.explode { return members.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "; ") }
            return name + "=" + pairs(members, explode: false, separator: ",", encode: encode)
        }
    }

    // MARK: Shared

    /// An object's members: `R,100,G,200` (`name,value`) or, exploded, `R=100,G=200`
    /// (`name=value`), separated by `separator`.
    private static func pairs(
        _ members: [StyledValue.Member], explode: Bool, separator: String, encode: (String) -> String
    ) -> String {
        let inner = explode ? "=" : separator
        return members.map { encode($0.name) + inner + encode($0.value) }.joined(separator: separator)
    }
}
