#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The OData protocol version whose URL conventions a query is written in.
///
/// The version decides literal forms (`datetime'…'` and `guid'…'` before v4), function names
/// (`substringof` before v4), the count option (`$inlinecount` before v4) and which constructs
/// exist at all: a construct the version lacks fails with ``ODataQueryError/unsupported(_:version:)``
/// instead of producing a URL the server would misread.
public enum ODataVersion: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// OData 2.0.
    case v2 = 20
    /// OData 3.0.
    case v3 = 30
    /// OData 4.0.
    case v4 = 40
    /// OData 4.01: adds `in`, `divby`, `$compute`, key-as-segment, and system option names
    /// without `$` in any case (so a custom option may not be named `filter`).
    case v401 = 41

    public static func < (lhs: ODataVersion, rhs: ODataVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .v2: "OData 2.0"
        case .v3: "OData 3.0"
        case .v4: "OData 4.0"
        case .v401: "OData 4.01"
        }
    }
}

/// Why an OData query could not be written as a URL.
public enum ODataQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The construct does not exist in the version the query is written for.
    case unsupported(String, version: ODataVersion)
    /// A property, entity set, alias or type name is not an OData identifier (path).
    case invalidName(String)
    /// A literal is out of range (a month of 13, a negative `$top`, a NaN decimal…).
    case invalidValue(String)
    /// A next link points to another origin than the request it came from; following it would
    /// send the call's credentials there.
    case foreignNextLink(String)

    public var description: String {
        switch self {
        case .unsupported(let construct, let version): "\(construct) is not part of \(version)"
        case .invalidName(let name): "\"\(name)\" is not an OData identifier"
        case .invalidValue(let reason): "invalid OData value: \(reason)"
        case .foreignNextLink(let link): "the next link \(link) points to another origin"
        }
    }
}
