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

    static func parse(_ relativePath: String) throws(TemplateError) -> URLTemplate {
        if relativePath.contains("#") {
            throw TemplateError(text: relativePath, reason: "a fragment ('#') is never sent to a server")
        }
        let anchor: Anchor
        if relativePath.hasPrefix("/") {
            anchor = .origin
        } else if hasScheme(relativePath) {
            anchor = .absolute
        } else {
            anchor = .serviceRoot
        }
        let pathText: Substring
        let queryText: Substring?
        if let mark = relativePath.firstIndex(of: "?") {
            pathText = relativePath[..<mark]
            queryText = relativePath[relativePath.index(after: mark)...]
        } else {
            pathText = relativePath[...]
            queryText = nil
        }
        let path = try Template.parse(String(pathText)) { URLEncoding.normalizeLiteral($0, allowed: .pathLiteral) }
        var query: [QueryItem] = []
        for item in queryText?.split(separator: "&", omittingEmptySubsequences: true) ?? [] {
            let normalize: (Substring) -> String = { URLEncoding.normalizeLiteral($0, allowed: .queryLiteral) }
            if let equals = item.firstIndex(of: "=") {
                let name = try Template.parse(String(item[..<equals]), normalizeLiteral: normalize)
                let value = try Template.parse(String(item[item.index(after: equals)...]), normalizeLiteral: normalize)
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

    /// RFC 3986 §3.1: `scheme ":" "//"...`; only `scheme://` counts as an absolute URL here.
    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.range(of: "://") else { return false }
        let scheme = text[..<colon.lowerBound]
        guard let first = scheme.utf8.first, (65...90).contains(first) || (97...122).contains(first) else {
            return false
        }
        return scheme.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
