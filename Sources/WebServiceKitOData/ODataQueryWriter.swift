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

    func path(of query: ODataQuery) throws(ODataQueryError) -> String {
        var text = ""
        for (index, segment) in query.segments.enumerated() {
            if !segment.name.isEmpty {
                try ODataName.checkPath(segment.name)
                text += (index == 0 ? "" : "/") + Self.percentEncode(segment.name, allowed: Self.pathAllowed)
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
            guard keyAsSegment else { return "(" + encodePath(try literal.text(for: version)) + ")" }
            return "/" + encodePath(try segmentText(literal))
        case .composite(let parts):
            guard !parts.isEmpty else { throw .invalidValue("a composite key needs at least one part") }
            for (name, _) in parts { try ODataName.checkIdentifier(name) }
            if keyAsSegment {
                let texts = try parts.map { part throws(ODataQueryError) in encodePath(try segmentText(part.1)) }
                return "/" + texts.joined(separator: "/")
            }
            let texts = try parts.map { part throws(ODataQueryError) in
                part.0 + "=" + encodePath(try part.1.text(for: version))
            }
            return "(" + texts.joined(separator: ",") + ")"
        }
    }

    /// Key-as-segment (OData 4.01 Part 2 §4.3.6): the key value without the quotes of a string.
    private func segmentText(_ literal: ODataLiteral) throws(ODataQueryError) -> String {
        if case .string(let value) = literal.value {
            guard !value.isEmpty else { throw .invalidValue("an empty string cannot be a key segment") }
            return value
        }
        return try literal.text(for: version)
    }

    private func encodePath(_ text: String) -> String { Self.percentEncode(text, allowed: Self.pathAllowed) }

    // MARK: Query options

    func query(of options: ODataQueryOptions) throws(ODataQueryError) -> String {
        try items(of: options, nested: false)
            .map {
                Self.percentEncode($0.0, allowed: Self.queryAllowed) + "="
                    + Self.percentEncode($0.1, allowed: Self.queryAllowed)
            }
            .joined(separator: "&")
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
            items.append(("$search", search))
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
            guard !name.isEmpty, !name.hasPrefix("$"), !name.hasPrefix("@") else {
                throw .invalidName(name)
            }
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
        for item in expand {
            try ODataName.checkPath(item.path, allowWildcard: true)
            if version < .v4 {
                texts += try legacyExpandPaths(item, prefix: "")
                continue
            }
            let nested = try items(of: item.options, nested: true)
            texts.append(
                nested.isEmpty
                    ? item.path : item.path + "(" + nested.map { "\($0.0)=\($0.1)" }.joined(separator: ";") + ")")
        }
        return texts.joined(separator: ",")
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
