#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Writes an ``ODataQuery`` as URL text, percent-encoded per the OData 4.01 URL conventions
/// (Part 2 §2): a space is `%20` (never `+`), `+` is `%2B` (servers decode a bare `+` as a
/// space), and `&`, `#`, `%` inside values are escaped. Every value is encoded exactly once, here.
struct ODataQueryWriter {
    let version: ODataVersion
    let keyAsSegment: Bool

    /// Characters left as they are in a query option value: RFC 3986 `unreserved` and the
    /// delimiters OData syntax itself uses (`'(),:;=$@/*!`). Everything else is escaped.
    static let queryAllowed = URLEncoding.ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'(),:;=$@/*!")
    /// In a path segment `/` separates segments, so a `/` inside a key value is escaped.
    static let pathAllowed = URLEncoding.ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'(),:;=$@*!")

    /// Percent-encodes (RFC 3986 §2.1, upper-case hex digits) every byte of the UTF-8 form of
    /// `text` that is not in `allowed`: the core's encoder, shared within the package.
    static func percentEncode(_ text: String, allowed: URLEncoding.ByteSet) -> String {
        URLEncoding.percentEncode(text, allowed: allowed)
    }

    // MARK: Resource path

    /// Path segments with a meaning of their own that a query may name (OData 4.01 Part 2 §4.4,
    /// §4.9, §4.12; ABNF `count`, `ref`, `value`). No key can follow them.
    private static let dollarSegments: Set<Substring> = ["$count", "$ref", "$value"]

    func path(of query: ODataQuery) throws(ODataQueryError) -> String {
        var text = ""
        for (index, segment) in query.segments.enumerated() {
            if !segment.name.isEmpty {
                // A `/` in a name separates segments: no OData identifier contains one (ABNF
                // `odataIdentifier`), so `ODataQuery("Products/Orders")` means the path, and
                // writing it as `Products%2FOrders` named a resource that does not exist.
                let names = segment.name.split(separator: "/", omittingEmptySubsequences: false)
                for name in names {
                    guard
                        ODataName.isIdentifier(name) || ODataName.isQualifiedName(name)
                            || Self.dollarSegments.contains(name)
                    else { throw .invalidName(segment.name) }
                    text += (text.isEmpty && index == 0 ? "" : "/") + name
                }
                if segment.key != nil, let last = names.last, Self.dollarSegments.contains(last) {
                    throw .invalidValue("a key cannot follow \(last)")
                }
            } else if index > 0 {
                throw .invalidName("")
            }
            if let key = segment.key { text += try keyText(key) }
        }
        if query.countSegment { text += text.isEmpty ? "$count" : "/$count" }
        return text
    }

    private func keyText(_ key: ODataQuery.Key) throws(ODataQueryError) -> String {
        switch key {
        case .single(let literal):
            if keyAsSegment, let segment = try segmentText(literal) { return "/" + encodePath(segment) }
            return "(" + encodePath(try literal.text(for: version)) + ")"
        case .composite(let parts):
            guard !parts.isEmpty else { throw .invalidValue("a composite key needs at least one part") }
            for (name, _) in parts { try ODataName.checkIdentifier(name) }
            if keyAsSegment {
                var segments: [String] = []
                for (_, value) in parts {
                    guard let segment = try segmentText(value) else { break }
                    segments.append("/" + encodePath(segment))
                }
                if segments.count == parts.count { return segments.joined() }
            }
            let texts = try parts.map { part throws(ODataQueryError) in
                part.0 + "=" + encodePath(try part.1.text(for: version))
            }
            return "(" + texts.joined(separator: ",") + ")"
        }
    }

    /// Key-as-segment (OData 4.01 Part 2 §4.3.6): the key value without the quotes of a string,
    /// or `nil` when that segment would address another resource, so that the key goes in
    /// parentheses, the form every service understands.
    ///
    /// Such a segment is empty (`Customers/` is the collection), a dot segment (`.` and `..` are
    /// removed by URL resolution, RFC 3986 §5.2.4, and `%2E` is the same text, §6.2.2.2),
    /// starts with `$` (`$count`, `$ref`, `$value`, `$each`, `$filter(…)`: ABNF
    /// `collectionNavPath`), or is a qualified name (`Demo.VIP` reads as a type cast or a bound
    /// operation, ABNF `collectionNavigation`, `boundOperation`).
    ///
    /// Key-as-segment is a convention of OData 4.01: earlier versions fail with `unsupported`.
    private func segmentText(_ literal: ODataLiteral) throws(ODataQueryError) -> String? {
        guard version >= .v401 else { throw .unsupported("key-as-segment", version: version) }
        let text: String
        if case .string(let value) = literal.value { text = value } else { text = try literal.text(for: version) }
        guard !text.isEmpty, text != ".", text != "..", !text.hasPrefix("$"), !ODataName.isQualifiedName(text)
        else { return nil }
        return text
    }

    private func encodePath(_ text: String) -> String { Self.percentEncode(text, allowed: Self.pathAllowed) }

    // MARK: Query options

    func query(of options: ODataQueryOptions) throws(ODataQueryError) -> String {
        try items(of: options, nested: false)
            .map { Self.percentEncode($0.0, allowed: Self.queryAllowed) + "=" + Self.encodeValue($0.1) }
            .joined(separator: "&")
    }

    /// What a string literal leaves as it is: ABNF `pchar-no-SQUOTE`, which has no `/` and no `?`
    /// (`stringLiteral = SQUOTE *( SQUOTE-in-string / pchar-no-SQUOTE ) SQUOTE`).
    static let stringAllowed = URLEncoding.ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'(),:;=$@*!")

    /// Percent-encodes an option value: between single quotes (a string literal, `''` inside
    /// one being two quotes in a row) with ``stringAllowed``, elsewhere with ``queryAllowed``, so
    /// that `'a/b'` is `'a%2Fb'` while the path `Address/City` keeps its `/`.
    static func encodeValue(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "'")) else { return percentEncode(text, allowed: queryAllowed) }
        var output = ""
        for (index, piece) in text.split(separator: "'", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { output += "'" }
            output += percentEncode(String(piece), allowed: index % 2 == 1 ? stringAllowed : queryAllowed)
        }
        return output
    }

    /// System query option names that OData 4.01 also reads without their `$`, in any case
    /// (Part 2 §5; ABNF `systemQueryOption`, `levels`, and `apply` of the aggregation extension).
    static let systemOptionNames: Set<String> = [
        "apply", "compute", "count", "deltatoken", "expand", "filter", "format", "id", "index", "levels",
        "orderby", "schemaversion", "search", "select", "skip", "skiptoken", "top",
    ]

    /// ABNF `customName`: not empty, no `$` or `@` first, no `=`, `&` or `#`; in 4.01 not a
    /// system option's name without `$`.
    private func checkCustomName(_ name: String) throws(ODataQueryError) {
        guard !name.isEmpty, !name.hasPrefix("$"), !name.hasPrefix("@"),
            !name.unicodeScalars.contains(where: { $0 == "=" || $0 == "&" || $0 == "#" })
        else { throw .invalidName(name) }
        if version >= .v401 && Self.systemOptionNames.contains(name.lowercased()) { throw .invalidName(name) }
    }

    /// The options as name/value pairs, not yet encoded.
    private func items(of options: ODataQueryOptions, nested: Bool) throws(ODataQueryError) -> [(String, String)] {
        if let error = options.deferredError { throw error }
        var items: [(String, String)] = []
        if let filter = options.filter { items.append(("$filter", try filter.text(for: version))) }
        if !options.select.isEmpty {
            for property in options.select { try ODataName.checkPath(property, allowWildcard: true) }
            items.append(("$select", options.select.joined(separator: ",")))
        }
        if !options.expand.isEmpty { items.append(("$expand", try expandText(options.expand))) }
        if !options.orderBy.isEmpty {
            let texts = try options.orderBy.map { item throws(ODataQueryError) in
                try item.0.text(for: version) + " " + item.1.rawValue
            }
            items.append(("$orderby", texts.joined(separator: ",")))
        }
        if let top = options.top { items.append(("$top", try countText(top, option: "$top"))) }
        if let skip = options.skip { items.append(("$skip", try countText(skip, option: "$skip"))) }
        if let count = options.count {
            if version >= .v4 {
                items.append(("$count", count ? "true" : "false"))
            } else {
                items.append(("$inlinecount", count ? "allpages" : "none"))
            }
        }
        if let search = options.search {
            guard version >= .v4 else { throw .unsupported("$search", version: version) }
            items.append(("$search", try search.text()))
        }
        if !options.compute.isEmpty {
            guard version >= .v401 else { throw .unsupported("$compute", version: version) }
            let texts = try options.compute.map { item throws(ODataQueryError) in
                try ODataName.checkIdentifier(item.1)
                return try item.0.text(for: version) + " as " + item.1
            }
            items.append(("$compute", texts.joined(separator: ",")))
        }
        if let levels = options.levels {
            guard nested else { throw .invalidValue("$levels belongs to an expanded property") }
            items.append(
                (
                    "$levels",
                    try levels.map { value throws(ODataQueryError) in
                        try countText(value, option: "$levels")
                    } ?? "max"
                ))
        }
        if let format = options.format { items.append(("$format", format)) }
        for (name, value) in options.custom {
            try checkCustomName(name)
            items.append((name, value))
        }
        return items
    }

    private func countText(_ value: Int, option: String) throws(ODataQueryError) -> String {
        guard value >= 0 else { throw .invalidValue("\(option) cannot be negative (\(value))") }
        return String(value)
    }

    private func expandText(_ expand: [ODataQueryOptions.ExpandItem]) throws(ODataQueryError) -> String {
        var texts: [String] = []
        for item in expand { try ODataName.checkPath(item.path, allowWildcard: true) }
        if version < .v4 {
            for item in expand { texts += try legacyExpandPaths(item, prefix: "") }
            return texts.joined(separator: ",")
        }
        for item in Self.nested(expand) {
            let nested = try items(of: item.options, nested: true)
            texts.append(
                nested.isEmpty
                    ? item.path : item.path + "(" + nested.map { "\($0.0)=\($0.1)" }.joined(separator: ";") + ")")
        }
        return texts.joined(separator: ",")
    }

    /// OData 4 expands a path of navigation properties by nesting (`A/B` is `A($expand=B)`,
    /// Part 2 §5.1.3; ABNF `expandPath` has no `navigationProperty "/" navigationProperty`): each
    /// path becomes a chain of expands, and a chain merges into an earlier expand of the same
    /// property.
    static func nested(_ expand: [ODataQueryOptions.ExpandItem]) -> [ODataQueryOptions.ExpandItem] {
        var result: [ODataQueryOptions.ExpandItem] = []
        for item in expand {
            guard !item.asWritten else {
                result.append(item)
                continue
            }
            let steps = steps(of: item.path)
            var current = ODataQueryOptions.ExpandItem(path: steps[steps.count - 1], options: item.options)
            for step in steps.dropLast().reversed() {
                var options = ODataQueryOptions()
                options.expand = [current]
                current = ODataQueryOptions.ExpandItem(path: step, options: options, implicit: true)
            }
            if let index = result.firstIndex(where: { $0.path == current.path && ($0.implicit || current.implicit) }) {
                var merged = result[index].implicit ? current.options : result[index].options
                merged.expand = result[index].options.expand + current.options.expand
                result[index].options = merged
                result[index].implicit = result[index].implicit && current.implicit
            } else {
                result.append(current)
            }
        }
        return result
    }

    /// The steps of an expand path: a new step starts at a property segment that follows a
    /// property segment; type casts, `$ref` and `$count` stay with their neighbours.
    static func steps(of path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        func isProperty(_ segment: Substring) -> Bool { ODataName.isIdentifier(segment) || segment == "*" }
        var steps: [String] = []
        var current: [Substring] = []
        for (index, segment) in segments.enumerated() {
            current.append(segment)
            let next = segments.index(after: index)
            if next < segments.endIndex, isProperty(segments[next]), current.contains(where: isProperty) {
                steps.append(current.joined(separator: "/"))
                current = []
            }
        }
        steps.append(current.joined(separator: "/"))
        return steps
    }

    /// Before OData 4 an expand has no options; a nested expand is written as a path
    /// (`Orders/Product`).
    private func legacyExpandPaths(_ item: ODataQueryOptions.ExpandItem, prefix: String) throws(ODataQueryError)
        -> [String]
    {
        let path = prefix + item.path
        var options = item.options
        let nestedExpand = options.expand
        options.expand = []
        guard try items(of: options, nested: true).isEmpty else {
            throw .unsupported("options inside $expand", version: version)
        }
        guard !nestedExpand.isEmpty else { return [path] }
        var paths: [String] = []
        for nested in nestedExpand { paths += try legacyExpandPaths(nested, prefix: path + "/") }
        return paths
    }
}
