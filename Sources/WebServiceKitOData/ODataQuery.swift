#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// An OData request (ROAD's `RFODataFetchRequest`): a resource path and query options. Pass it
/// as an argument of a call whose descriptor has an ``ODataURLBuilder``.
///
/// ```swift
/// let query = ODataQuery("Products")
///     .filter(.property("Price") > 10 && .property("Name").contains("Dozen"))
///     .expand("Orders") { $0.filter(.property("Quantity") > 1).select("Quantity").top(2) }
///     .orderBy("Price", .descending).orderBy("Name")
///     .top(3).skip(2).count()
/// let page = try await client.perform(.products, query)
/// ```
///
/// The call's `relativePath` can name the entity set instead (`"Products"`); then the query
/// starts without one, and its key or options are added to that path.
public struct ODataQuery: Sendable, ODataQueryOptionBuilding {
    struct Segment: Sendable {
        let name: String
        var key: Key?
    }

    enum Key: Sendable {
        case single(ODataLiteral)
        case composite([(String, ODataLiteral)])
    }

    var segments: [Segment]
    var countSegment = false
    public var options = ODataQueryOptions()

    /// A query of `entitySet`, or of the resource the call's path names when `nil`.
    ///
    /// A `/` separates path segments (`"Products/Demo.Special"`); each segment is an identifier,
    /// a qualified name, `$count`, `$ref` or `$value`, and anything else fails with
    /// ``ODataQueryError/invalidName(_:)`` when the query is written.
    public init(_ entitySet: String? = nil) {
        segments = entitySet.map { [Segment(name: $0)] } ?? []
    }

    /// Addresses one entity by its key: `Products(3)`, `Customers('O''Neil')`.
    public consuming func key(_ value: some ODataLiteralConvertible) -> ODataQuery {
        withKey(.single(value.odataLiteral))
    }

    /// Addresses one entity by a composite key: `OrderLines(OrderID=1,LineNo=2)`.
    public consuming func key(_ parts: KeyValuePairs<String, any ODataLiteralConvertible>) -> ODataQuery {
        withKey(.composite(parts.map { ($0.key, $0.value.odataLiteral) }))
    }

    private consuming func withKey(_ key: Key) -> ODataQuery {
        if segments.isEmpty { segments.append(Segment(name: "")) }
        segments[segments.count - 1].key = key
        return self
    }

    /// Follows a navigation (or complex) property: `Products(1)/Orders`. A path,
    /// `navigate("Product/Orders")`, follows each of its segments in turn.
    public consuming func navigate(_ property: String) -> ODataQuery {
        segments.append(Segment(name: property))
        return self
    }

    /// Asks for the number of entities only: `Products/$count` (the body is plain text).
    public consuming func countOnly() -> ODataQuery {
        countSegment = true
        return self
    }

    /// The query as a URL relative to the service root, percent-encoded: what the URL builder
    /// appends.
    public func relativeURL(version: ODataVersion = .v401, keyAsSegment: Bool = false) throws(ODataQueryError)
        -> String
    {
        let writer = ODataQueryWriter(version: version, keyAsSegment: keyAsSegment)
        let path = try writer.path(of: self)
        let query = try writer.query(of: options)
        return query.isEmpty ? path : path + "?" + query
    }
}
