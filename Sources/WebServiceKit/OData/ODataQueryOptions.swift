/// The system query options of a request or of an expanded navigation property (OData 4.01
/// Part 2 §5): `$filter`, `$select`, `$expand`, `$orderby`, `$top`, `$skip`, `$count`,
/// `$search`, `$compute`, `$levels`, `$format` and custom parameters.
///
/// Options are set with chained calls that return a changed copy; see ``ODataQueryOptionBuilding``.
public struct ODataQueryOptions: Sendable, ODataQueryOptionBuilding {
    var filter: ODataExpression?
    var select: [String] = []
    var expand: [ExpandItem] = []
    var orderBy: [(ODataExpression, ODataSortOrder)] = []
    var top: Int?
    var skip: Int?
    var count: Bool?
    var search: String?
    var compute: [(ODataExpression, String)] = []
    var levels: Int??
    var format: String?
    var custom: [(String, String)] = []
    /// How many `$expand` levels the options nest: 0 without `$expand`.
    var expandDepth = 0
    /// An error found while the options were built, thrown when they are written.
    var deferredError: ODataQueryError?

    /// The deepest nesting of `$expand` options: 32 levels. Deeper nesting fails with
    /// ``ODataQueryError/invalidValue(_:)`` when the query is written.
    ///
    /// Writing the options recurses once per level, and so does releasing them; services allow far
    /// fewer levels (ASP.NET Core OData's `MaxExpansionDepth` is 2 by default).
    public static let maximumExpandDepth = 32

    struct ExpandItem: Sendable {
        let path: String
        let options: ODataQueryOptions
    }

    /// No options.
    public init() {}

    public var options: ODataQueryOptions {
        get { self }
        set { self = newValue }
    }
}

/// The direction of an `$orderby` item.
public enum ODataSortOrder: String, Sendable {
    /// Smallest first.
    case ascending = "asc"
    /// Largest first.
    case descending = "desc"
}

/// Chained setters for the query options, shared by ``ODataQuery`` and the nested options of
/// ``expand(_:_:)``.
public protocol ODataQueryOptionBuilding: Sendable {
    /// The options set so far.
    var options: ODataQueryOptions { get set }
}

extension ODataQueryOptionBuilding {
    private func with(_ change: (inout ODataQueryOptions) -> Void) -> Self {
        var copy = self
        change(&copy.options)
        return copy
    }

    /// `$filter`: only entities for which `expression` is true. A second call adds its expression
    /// with `and`.
    public func filter(_ expression: ODataExpression) -> Self {
        with { $0.filter = $0.filter.map { $0.and(expression) } ?? expression }
    }

    /// `$select`: only these properties (paths, `*`, or `Namespace.*`).
    public func select(_ properties: String...) -> Self { with { $0.select += properties } }

    /// `$expand`: include the related entities of a navigation property, with options of their
    /// own: `$expand=Orders($filter=Quantity gt 1;$select=Quantity;$top=2)`.
    ///
    /// Expands nest at most ``ODataQueryOptions/maximumExpandDepth`` levels deep; a deeper one
    /// makes the query fail when it is written.
    public func expand(
        _ navigationPath: String, _ configure: (ODataQueryOptions) -> ODataQueryOptions = { $0 }
    ) -> Self {
        with { options in
            let nested = configure(ODataQueryOptions())
            if let error = nested.deferredError {
                options.deferredError = options.deferredError ?? error
            } else if nested.expandDepth >= ODataQueryOptions.maximumExpandDepth {
                options.deferredError =
                    options.deferredError
                    ?? .invalidValue(
                        "$expand nests deeper than the maximum depth of \(ODataQueryOptions.maximumExpandDepth)")
            } else {
                options.expand.append(.init(path: navigationPath, options: nested))
                options.expandDepth = max(options.expandDepth, nested.expandDepth + 1)
            }
        }
    }

    /// `$orderby`: sort by a property; call again for the next sort key.
    public func orderBy(_ property: String, _ order: ODataSortOrder = .ascending) -> Self {
        orderBy(.property(property), order)
    }

    /// `$orderby`: sort by an expression (`length(Name) desc`).
    public func orderBy(_ expression: ODataExpression, _ order: ODataSortOrder = .ascending) -> Self {
        with { $0.orderBy.append((expression, order)) }
    }

    /// `$top`: at most `count` entities.
    public func top(_ count: Int) -> Self { with { $0.top = count } }

    /// `$skip`: leave out the first `count` entities.
    public func skip(_ count: Int) -> Self { with { $0.skip = count } }

    /// `$count=true` (`$inlinecount=allpages` before OData 4): the response carries the total
    /// number of matching entities.
    public func count(_ include: Bool = true) -> Self { with { $0.count = include } }

    /// `$search`: a free-text search expression (`blue OR green`, `"exact phrase"`).
    public func search(_ expression: String) -> Self { with { $0.search = expression } }

    /// `$compute`: a computed property, usable in `$select`, `$filter` and `$orderby` (OData 4.01).
    public func compute(_ expression: ODataExpression, as alias: String) -> Self {
        with { $0.compute.append((expression, alias)) }
    }

    /// `$levels` of a recursive expand: a number, or `nil` for `max`.
    public func levels(_ levels: Int?) -> Self { with { $0.levels = .some(levels) } }

    /// `$format`: `json`, `xml`, `atom`, or a media type.
    public func format(_ format: String) -> Self { with { $0.format = format } }

    /// A custom query parameter (its name must not start with `$` or `@`).
    public func parameter(_ name: String, _ value: String) -> Self { with { $0.custom.append((name, value)) } }
}
