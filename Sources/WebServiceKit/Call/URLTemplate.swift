/// A descriptor's `relativePath`, split once into a path template and query item templates.
struct URLTemplate: Sendable, Hashable {
    /// Where the path is resolved from.
    enum Anchor: Sendable, Hashable {
        /// Appended to the client's service root (`users/%%0%%`).
        case serviceRoot
        /// Resolved against the service root's origin (`/v2/users`).
        case origin
        /// A complete URL that ignores the service root (`https://other.example/x`).
        case absolute
    }

    struct QueryItem: Sendable, Hashable {
        var name: Template
        /// `nil` for an item written without `=` (`?flag`).
        var value: Template?
    }

    var anchor: Anchor
    var path: Template
    var query: [QueryItem]

    var argumentIndices: [Int] {
        path.argumentIndices + query.flatMap { $0.name.argumentIndices + ($0.value?.argumentIndices ?? []) }
    }

    /// Splits `relativePath` at `?`, `&` and `=`.
    ///
    /// The structure characters (`/`, `#`, `?`, `&`, `=`, `://`) are looked for in the UTF-8 bytes,
    /// never by `Character`: a combining mark after one (`/\u{301}`, `?\u{301}`) makes a single
    /// `Character` that equals none of them, and would hide it.
    static func parse(_ relativePath: String) throws(TemplateError) -> URLTemplate {
        let utf8 = relativePath.utf8
        if utf8.contains(UInt8(ascii: "#")) {
            throw TemplateError(text: relativePath, reason: "a fragment ('#') is never sent to a server")
        }
        let anchor: Anchor
        if utf8.first == UInt8(ascii: "/") {
            anchor = .origin
        } else if hasScheme(relativePath) {
            anchor = .absolute
        } else {
            anchor = .serviceRoot
        }
        let pathText: Substring
        let queryText: Substring?
        if let mark = utf8.firstIndex(of: UInt8(ascii: "?")) {
            pathText = relativePath[..<mark]
            queryText = relativePath[utf8.index(after: mark)...]
        } else {
            pathText = relativePath[...]
            queryText = nil
        }
        let path = try Template.parse(String(pathText)) { URLEncoding.normalizeLiteral($0, allowed: .pathLiteral) }
        var query: [QueryItem] = []
        let normalize: (Substring) -> String = { URLEncoding.normalizeLiteral($0, allowed: .queryLiteral) }
        for item in queryText.map({ split($0, at: UInt8(ascii: "&")) }) ?? [] where !item.isEmpty {
            if let equals = item.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = try Template.parse(String(item[..<equals]), normalizeLiteral: normalize)
                let value = try Template.parse(
                    String(item[item.utf8.index(after: equals)...]), normalizeLiteral: normalize)
                query.append(QueryItem(name: name, value: value))
            } else {
                query.append(QueryItem(name: try Template.parse(String(item), normalizeLiteral: normalize), value: nil))
            }
        }
        if query.contains(where: { $0.name.isEmpty }) {
            throw TemplateError(text: relativePath, reason: "a query item has an empty name")
        }
        return URLTemplate(anchor: anchor, path: path, query: query)
    }

    /// The pieces of `text` between the bytes `separator`, empty ones included.
    private static func split(_ text: Substring, at separator: UInt8) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var index = text.utf8.startIndex
        while index != text.utf8.endIndex {
            if text.utf8[index] == separator {
                pieces.append(text[start..<index])
                start = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        pieces.append(text[start...])
        return pieces
    }

    /// RFC 3986 §3.1: `scheme ":" "//"...`; only `scheme://` counts as an absolute URL here.
    /// The scheme ends at the first `:`, since `:` is no scheme character.
    private static func hasScheme(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
            utf8[utf8.index(after: colon)...].starts(with: "//".utf8)
        else { return false }
        let scheme = utf8[..<colon]
        guard let first = scheme.first, (65...90).contains(first) || (97...122).contains(first) else {
            return false
        }
        return scheme.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
