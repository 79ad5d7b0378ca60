#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The rules for names in OData URLs (OData ABNF `odataIdentifier`, `qualifiedTypeName`,
/// `memberExpr`).
enum ODataName {
    /// A letter or `_`, then letters, digits or `_`; at most 128 characters. Letters are Unicode
    /// letters, as the ABNF's `identifierLeadingCharacter` allows.
    static func isIdentifier<S: StringProtocol>(_ text: S) -> Bool {
        guard let first = text.unicodeScalars.first, text.unicodeScalars.count <= 128 else { return false }
        guard first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// `Namespace.Name`: identifiers joined by dots, at least two.
    static func isQualifiedName<S: StringProtocol>(_ text: S) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { isIdentifier($0) }
    }

    /// Path segments with a meaning of their own (OData 4.01 Part 2 §4, §5.1.1.9).
    private static let reservedSegments: Set<String> = ["$count", "$it", "$this", "$root", "$ref", "$value"]

    /// A path of properties, navigation properties and type casts: `Address/City`,
    /// `Orders/$count`, `Model.Special/Bonus`, `$it/Name`. With `allowWildcard`, `*` and
    /// `Namespace.*` are accepted too (in `$select`).
    static func isPath(_ text: String, allowWildcard: Bool = false) -> Bool {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        return !segments.isEmpty
            && segments.allSatisfy { segment in
                isIdentifier(segment) || isQualifiedName(segment)
                    || reservedSegments.contains(String(segment))
                    || (allowWildcard
                        && (segment == "*" || (segment.hasSuffix(".*") && isPath(String(segment.dropLast(2))))))
            }
    }

    static func checkPath(_ text: String, allowWildcard: Bool = false) throws(ODataQueryError) {
        guard isPath(text, allowWildcard: allowWildcard) else { throw .invalidName(text) }
    }

    static func checkIdentifier(_ text: String) throws(ODataQueryError) {
        guard isIdentifier(text) else { throw .invalidName(text) }
    }
}
