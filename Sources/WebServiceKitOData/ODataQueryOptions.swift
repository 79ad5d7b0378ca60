#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The system query options of a request or of an expanded navigation property (OData 4.01
/// Part 2 §5): `$filter`, `$select`, `$expand`, `$orderby`, `$top`, `$skip`, `$count`,
/// `$search`, `$compute`, `$levels`, `$format` and custom parameters.
///
/// Options are set with chained calls that return a changed copy; see ``ODataQueryOptionBuilding``.
/// Lists known only at run time go in whole, as arrays: `select(["Name", "Price"])`,
/// `orderBy([("Price", .descending)])` and friends.
public struct ODataQueryOptions: Sendable, ODataQueryOptionBuilding {
    var filter: ODataExpression?
    var selectList = OptionList<String>()
    var expand: [ExpandItem] = []
    var orderByList = OptionList<(ODataExpression, ODataSortOrder)>()
    var top: Int?
    var skip: Int?
    var count: Bool?
    var search: ODataSearch?
    var computeList = OptionList<(ODataExpression, String)>()
    var levels: Int??
    var format: String?
    var customList = OptionList<(String, String)>()
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
        var options: ODataQueryOptions
        /// Made by splitting a navigation path (`A/B` is `A($expand=B)` in OData 4): it has no
        /// options but `$expand`, and merges with another expand of the same property.
        var implicit = false
        /// Written as it is in every version (``ODataQueryOptionBuilding/expandPath(_:_:)``).
        var asWritten = false
    }

    var select: [String] { selectList.elements }
    var orderBy: [(ODataExpression, ODataSortOrder)] { orderByList.elements }
    var compute: [(ODataExpression, String)] { computeList.elements }
    var custom: [(String, String)] { customList.elements }

    /// No options.
    public init() {}

    public var options: ODataQueryOptions {
        get { self }
        // In place, not get-then-set: a chained setter changes the options without copying them first.
        _modify { yield &self }
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
///
/// Each setter costs the same however many options are already set, so a list built one call at
/// a time (`query = query.select(name)` in a loop, or a long chain) takes time in step with its
/// length: the setters consume the value they change, and the list options extend a buffer that
/// the values share, each value seeing only its own elements (a value reused afterwards keeps
/// its options unchanged). The list setters (`select`, `orderBy`, `compute`, `parameters`) also
/// take an array, for lists known only at run time; an empty array changes nothing.
public protocol ODataQueryOptionBuilding: Sendable {
    /// The options set so far.
    var options: ODataQueryOptions { get set }
}

extension ODataQueryOptionBuilding {
    /// Changes the options of `self`, which the caller gave up: no copy of the option lists.
    private consuming func with(_ change: (inout ODataQueryOptions) -> Void) -> Self {
        change(&self.options)
        return self
    }

    /// `$filter`: only entities for which `expression` is true. A second call adds its expression
    /// with `and`.
    public consuming func filter(_ expression: ODataExpression) -> Self {
        with { $0.filter = $0.filter.map { $0.and(expression) } ?? expression }
    }

    /// `$select`: only these properties (paths, `*`, or `Namespace.*`).
    public consuming func select(_ properties: String...) -> Self {
        with { $0.selectList.append(contentsOf: properties) }
    }

    /// `$select` from a list known at run time: the same as `select(properties[0], properties[1], …)`
    /// (and as one `select` call per name). An empty list changes nothing: the options select what
    /// they selected before, everything when nothing was.
    public consuming func select(_ properties: [String]) -> Self {
        with { $0.selectList.append(contentsOf: properties) }
    }

    /// `$expand`: include the related entities of a navigation property, with options of their
    /// own: `$expand=Orders($filter=Quantity gt 1;$select=Quantity;$top=2)`.
    ///
    /// A path of navigation properties is written as OData 4 wants it, each step nested in the
    /// one before: `expand("Product/Orders")` is `$expand=Product($expand=Orders)`, the options
    /// going to the last step, and several paths through `Product` share one `Product(…)`. OData
    /// 2.0 and 3.0 keep the path form, `$expand=Product/Orders`. A type-cast segment stays with its
    /// neighbour (`Orders/Demo.BigOrder`, `Demo.Special/Orders`), and so do `$ref` and `$count`.
    ///
    /// Expands nest at most ``ODataQueryOptions/maximumExpandDepth`` levels deep; a deeper one
    /// makes the query fail when it is written.
    public consuming func expand(
        _ navigationPath: String, _ configure: (ODataQueryOptions) -> ODataQueryOptions = { $0 }
    ) -> Self {
        expand(navigationPath, asWritten: false, configure)
    }

    /// `$expand` of a path written as it is, in every version: for a navigation property reached
    /// through complex properties, `expandPath("Address/Country")` is `$expand=Address/Country`
    /// (ABNF `expandPath` lets complex properties and type casts lead to the navigation
    /// property), where ``expand(_:_:)`` would write `Address($expand=Country)`. The options go to
    /// the navigation property at the end of the path.
    public consuming func expandPath(
        _ path: String, _ configure: (ODataQueryOptions) -> ODataQueryOptions = { $0 }
    ) -> Self {
        expand(path, asWritten: true, configure)
    }

    private consuming func expand(
        _ navigationPath: String, asWritten: Bool, _ configure: (ODataQueryOptions) -> ODataQueryOptions
    ) -> Self {
        with { options in
            let nested = configure(ODataQueryOptions())
            if let error = nested.deferredError {
                options.deferredError = options.deferredError ?? error
            } else if nested.expandDepth
                + navigationPath.utf8.lazy.filter({ $0 == UInt8(ascii: "/") }).count
                >= ODataQueryOptions.maximumExpandDepth
            {
                options.deferredError =
                    options.deferredError
                    ?? .invalidValue(
                        "$expand nests deeper than the maximum depth of \(ODataQueryOptions.maximumExpandDepth)")
            } else {
                options.expand.append(.init(path: navigationPath, options: nested, asWritten: asWritten))
                // Each segment of a path is one level once OData 4 nests it (`A($expand=B)`).
                let segments = 1 + navigationPath.utf8.lazy.filter { $0 == UInt8(ascii: "/") }.count
                options.expandDepth = max(options.expandDepth, nested.expandDepth + segments)
            }
        }
    }

    /// `$orderby`: sort by a property; call again for the next sort key.
    public consuming func orderBy(_ property: String, _ order: ODataSortOrder = .ascending) -> Self {
        orderBy(.property(property), order)
    }

    /// `$orderby`: sort by an expression (`length(Name) desc`).
    public consuming func orderBy(_ expression: ODataExpression, _ order: ODataSortOrder = .ascending) -> Self {
        with { $0.orderByList.append(contentsOf: CollectionOfOne((expression, order))) }
    }

    /// `$orderby` from a list of sort keys known at run time, the first key first: the same as
    /// one `orderBy(property, order)` call per key, `orderBy([("Price", .descending), ("Name", .ascending)])`.
    /// An empty list changes nothing.
    public consuming func orderBy(_ keys: [(String, ODataSortOrder)]) -> Self {
        with { $0.orderByList.append(contentsOf: keys.lazy.map { (.property($0.0), $0.1) }) }
    }

    /// `$orderby` from a list of sort expressions known at run time: the same as one
    /// `orderBy(expression, order)` call per key. An empty list changes nothing.
    public consuming func orderBy(_ keys: [(ODataExpression, ODataSortOrder)]) -> Self {
        with { $0.orderByList.append(contentsOf: keys) }
    }

    /// `$top`: at most `count` entities.
    public consuming func top(_ count: Int) -> Self { with { $0.top = count } }

    /// `$skip`: leave out the first `count` entities.
    public consuming func skip(_ count: Int) -> Self { with { $0.skip = count } }

    /// `$count=true` (`$inlinecount=allpages` before OData 4): the response carries the total
    /// number of matching entities.
    public consuming func count(_ include: Bool = true) -> Self { with { $0.count = include } }

    /// `$search`: a free-text search expression as text (`blue OR green`, `"exact phrase"`),
    /// checked when the query is written (see ``ODataSearch/raw(_:)``).
    public consuming func search(_ expression: String) -> Self { with { $0.search = .raw(expression) } }

    /// `$search` built from terms, phrases and operators: `.search(.term("blue") || .phrase("light green"))`.
    public consuming func search(_ expression: ODataSearch) -> Self { with { $0.search = expression } }

    /// `$compute`: a computed property, usable in `$select`, `$filter` and `$orderby` (OData 4.01).
    public consuming func compute(_ expression: ODataExpression, as alias: String) -> Self {
        with { $0.computeList.append(contentsOf: CollectionOfOne((expression, alias))) }
    }

    /// `$compute` from a list known at run time of expressions, each with its alias: the same as
    /// one ``compute(_:as:)`` call per item. An empty list changes nothing.
    public consuming func compute(_ items: [(ODataExpression, String)]) -> Self {
        with { $0.computeList.append(contentsOf: items) }
    }

    /// `$levels` of a recursive expand: a number, or `nil` for `max`.
    public consuming func levels(_ levels: Int?) -> Self { with { $0.levels = .some(levels) } }

    /// `$format`: `json`, `xml`, `atom`, or a media type.
    public consuming func format(_ format: String) -> Self { with { $0.format = format } }

    /// A custom query parameter.
    ///
    /// Its name must not be empty, start with `$` or `@`, or contain `=`, `&` or `#` (ABNF
    /// `customName`); in OData 4.01 it must not be a system option's name without its `$`
    /// (`filter`, `top`, … in any case), which 4.01 services read as the system option (Part 2
    /// §5). Otherwise the query fails with ``ODataQueryError/invalidName(_:)`` when written.
    public consuming func parameter(_ name: String, _ value: String) -> Self {
        with { $0.customList.append(contentsOf: CollectionOfOne((name, value))) }
    }

    /// Custom query parameters from a list of names and values known at run time, in order: the
    /// same as one ``parameter(_:_:)`` call per pair. An empty list changes nothing.
    public consuming func parameters(_ pairs: [(String, String)]) -> Self {
        with { $0.customList.append(contentsOf: pairs) }
    }
}

/// A list option (`$select`, `$orderby`, `$compute`, custom parameters) that a setter extends in
/// constant time even while the value it came from is still held: `query = query.select(name)` in
/// a loop, where the caller keeps the old value alive during the call, copied the whole list on
/// every call (100,000 names did not finish in a minute).
///
/// The elements live in a buffer that values share; a value sees its first `count`. A value whose
/// view ends where the buffer ends appends in place: no other value sees the new elements, since
/// each one's view ends earlier. A value that was extended already (`base.select("a")`, then
/// `base.select("b")`) copies its own elements into a new buffer first, so every value keeps
/// exactly the elements it was given.
struct OptionList<Element: Sendable>: Sendable {
    /// The shared elements; a lock keeps two values appending from different threads apart.
    private var storage: Locked<[Element]>?
    /// How many of the shared elements belong to this value.
    private var count = 0

    /// This value's elements, in order.
    var elements: [Element] {
        guard let storage, count > 0 else { return [] }
        return storage.withLock { Array($0[0..<count]) }
    }

    /// Appends `new` after this value's elements.
    mutating func append(contentsOf new: some Collection<Element>) {
        guard !new.isEmpty else { return }
        let newCount = count + new.count
        if let storage {
            let extended = storage.withLock { shared in
                guard shared.count == count else { return false }
                shared.append(contentsOf: new)
                return true
            }
            if extended {
                count = newCount
                return
            }
        }
        storage = Locked(elements + Array(new))
        count = newCount
    }
}
