import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The URL builder for OData calls: appends an ``ODataQuery`` argument to the URL made from the
/// call's `relativePath` (whose wildcards keep working), or replaces it with an
/// ``ODataNextLink``.
///
/// ```swift
/// extension WebServiceCall where Response == ODataCollection<Product> {
///     static let products = WebServiceCall(
///         relativePath: "", urlBuilder: ODataURLBuilder(), errorHandler: ODataErrorHandler())
/// }
/// let cheap = try await client.perform(.products, ODataQuery("Products").filter(.property("Price") < 5))
/// ```
public struct ODataURLBuilder: URLBuilder {
    /// The protocol version the URLs are written in.
    public let version: ODataVersion
    /// Whether keys are written as path segments (`Products/3`) instead of in parentheses
    /// (`Products(3)`); OData 4.01 Part 2 §4.3.6. A convention of 4.01: with an earlier
    /// ``version`` a key fails with ``ODataQueryError/unsupported(_:version:)``. A key whose
    /// segment would address another resource (empty, `.`, `..`, starting with `$`, or a
    /// qualified name) is written in parentheses all the same.
    public let keyAsSegment: Bool

    /// Creates a builder.
    public init(version: ODataVersion = .v401, keyAsSegment: Bool = false) {
        self.version = version
        self.keyAsSegment = keyAsSegment
    }

    public func accepts(_ argument: Any) -> Bool { argument is ODataQuery || argument is ODataNextLink }

    /// Whether two URLs have the same origin (RFC 6454 §4): scheme and host, compared without
    /// case, and port, the scheme's default one when none is written.
    static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        func origin(_ url: URL) -> (scheme: String, host: String, port: Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(first) == origin(second)
    }

    public func buildURL(from url: URL, arguments: [Any]) throws -> URL {
        if let link = arguments.lazy.compactMap({ $0 as? ODataNextLink }).first {
            // A next link comes from the response; credentials must not follow it elsewhere.
            guard Self.sameOrigin(link.url, url) else {
                throw ODataQueryError.foreignNextLink(link.url.absoluteString)
            }
            return link.url
        }
        let queries = arguments.compactMap { $0 as? ODataQuery }
        guard queries.count <= 1 else { throw ODataQueryError.invalidValue("a call takes one ODataQuery") }
        guard let query = queries.first else { return url }
        let writer = ODataQueryWriter(version: version, keyAsSegment: keyAsSegment)
        let path = try writer.path(of: query)
        let options = try writer.query(of: query.options)
        var base = url.absoluteString
        var existingQuery: Substring?
        if let mark = base.firstIndex(of: "?") {
            existingQuery = base[base.index(after: mark)...]
            base = String(base[..<mark])
        }
        if base.hasSuffix("/") && path.hasPrefix("/") {
            base += path.dropFirst()
        } else if path.isEmpty || base.hasSuffix("/") || path.hasPrefix("/") || path.hasPrefix("(") {
            base += path
        } else {
            base += "/" + path
        }
        let queryParts = [existingQuery.map(String.init), options.isEmpty ? nil : options].compactMap { $0 }
            .filter { !$0.isEmpty }
        if !queryParts.isEmpty { base += "?" + queryParts.joined(separator: "&") }
        guard let result = URL(string: base) else { throw ODataQueryError.invalidValue("\(base) is not a URL") }
        return result
    }
}

/// The `@odata.nextLink` of a page, as a call argument: the call fetches that page instead of
/// the one its query describes. ``ODataPages`` passes it for you.
public struct ODataNextLink: Sendable, Hashable {
    /// The absolute URL of the next page.
    public let url: URL

    /// Wraps a next link.
    public init(_ url: URL) { self.url = url }
}
