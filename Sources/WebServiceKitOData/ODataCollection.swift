import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A page of entities from an OData collection response, in any of the JSON shapes:
/// `{"value": […], "@odata.count": 12, "@odata.nextLink": "…"}` (v4, also the 4.01 forms
/// `@count`/`@nextLink`), `{"odata.count": "12", "value": […], "odata.nextLink": "…"}` (v3), and
/// `{"d": {"results": […], "__count": "12", "__next": "…"}}` or `{"d": […]}` (v2).
///
/// ```swift
/// let page: ODataCollection<Product> = try await client.perform(.products, query)
/// print(page.values.count, page.count ?? -1)
/// ```
public struct ODataCollection<Entity: Decodable & Sendable>: Decodable, Sendable {
    /// The entities of this page.
    public let values: [Entity]
    /// The total number of matching entities, when the query asked for it (`count()`).
    public let count: Int?
    /// The link to the next page (server-driven paging), as the server wrote it: absolute or
    /// relative to the request URL. ``ODataPages`` follows it.
    public let nextLink: String?
    /// The delta link, for change tracking.
    public let deltaLink: String?

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: Key.self)
        if root.contains(Key("d")) {
            // OData 2.0 verbose JSON: `d` is the array itself (1.0) or holds `results`.
            if let values = try? root.decode([Entity].self, forKey: Key("d")) {
                self.values = values
                count = nil
                nextLink = nil
                deltaLink = nil
                return
            }
            let d = try root.nestedContainer(keyedBy: Key.self, forKey: Key("d"))
            values = try d.decode([Entity].self, forKey: Key("results"))
            count = try Self.decodeCount(d, keys: ["__count"])
            nextLink = try d.decodeIfPresent(String.self, forKey: Key("__next"))
            deltaLink = try d.decodeIfPresent(String.self, forKey: Key("__delta"))
            return
        }
        values = try root.decode([Entity].self, forKey: Key("value"))
        count = try Self.decodeCount(root, keys: ["@odata.count", "@count", "odata.count"])
        nextLink = try Self.first(String.self, root, keys: ["@odata.nextLink", "@nextLink", "odata.nextLink"])
        deltaLink = try Self.first(String.self, root, keys: ["@odata.deltaLink", "@deltaLink", "odata.deltaLink"])
    }

    /// A count is a number, or a string when the service writes 64-bit integers as strings
    /// (v2 always does; v4 with `IEEE754Compatible=true`).
    private static func decodeCount(_ container: KeyedDecodingContainer<Key>, keys: [String]) throws -> Int? {
        for key in keys.map(Key.init) where container.contains(key) {
            if let number = try? container.decode(Int.self, forKey: key) { return number }
            let text = try container.decode(String.self, forKey: key)
            guard let number = Int(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\"\(text)\" is not a count")
            }
            return number
        }
        return nil
    }

    private static func first<T: Decodable>(_ type: T.Type, _ container: KeyedDecodingContainer<Key>, keys: [String])
        throws -> T?
    {
        for key in keys.map(Key.init) where container.contains(key) {
            return try container.decode(T.self, forKey: key)
        }
        return nil
    }
}
