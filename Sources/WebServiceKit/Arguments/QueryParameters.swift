import Foundation

/// Query items made at run time: an argument that fills a query item written as a lone wildcard
/// (`search?q=%%0%%&%%1%%`) with any number of items.
///
/// Such an argument can be a `QueryParameters`, a dictionary (`[String: V]`, items in the order of
/// their names), or any `Encodable` value whose members become items in the order it encodes them:
///
/// ```swift
/// struct Filter: Encodable { let tag: String; let page: Int?; let ids: [Int] }
/// let search = WebServiceCall<[Repo]>(relativePath: "search?q=%%0%%&%%1%%")
/// try await client.perform(search, "swift", Filter(tag: "a b", page: nil, ids: [1, 2]))
/// // GET …/search?q=swift&tag=a%20b&ids=1&ids=2
/// ```
///
/// Each value takes the text it would take filling a wildcard (a `Date` in ISO 8601, a `UUID` in
/// lowercase, a `RawRepresentable` its raw value…), and names and values are percent-encoded as a
/// query wildcard's are: only unreserved characters stay as they are. A `nil` drops its item; a
/// list repeats the item (`ids=1&ids=2`) or, with ``ListStyle/commaSeparated``, fills one item
/// (`ids=1,2`); an empty list, with either style, sends no item. A value with no query form (a
/// nested object, a list of lists) fails the call with ``WebServiceError/Reason/invalidArguments(index:reason:)``.
/// A lone wildcard whose argument is text (`?%%0%%` with `"debug"`) is still a query item with a
/// name and no value.
public struct QueryParameters: Sendable {
    /// How a list fills the query.
    public enum ListStyle: Sendable, Hashable {
        /// `ids=1&ids=2`: one item per element (as a list filling a query wildcard does).
        case repeated
        /// `ids=1,2`: one item, its elements separated by commas (each one percent-encoded, so a
        /// comma inside an element is `%2C`).
        case commaSeparated
    }

    enum Source: Sendable {
        case pairs([(String, (any Sendable)?)])
        /// An `Encodable` value or a dictionary, encoded when the call is made.
        case value(any Sendable)
    }

    let source: Source
    /// How the lists of these parameters fill the query.
    public let listStyle: ListStyle

    /// Items from `pairs`, in their order; a `nil` value drops its item.
    public init(_ pairs: KeyValuePairs<String, (any Sendable)?>, lists: ListStyle = .repeated) {
        source = .pairs(pairs.map { ($0.key, $0.value) })
        listStyle = lists
    }

    /// Items from `dictionary`, in the order of their names.
    public init(_ dictionary: [String: (any Sendable)?], lists: ListStyle = .repeated) {
        source = .pairs(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        listStyle = lists
    }

    /// Items from the members of `value`, in the order it encodes them.
    public init(encoding value: some Encodable & Sendable, lists: ListStyle = .repeated) {
        source = .value(value)
        listStyle = lists
    }

    /// Items from `value`, a dictionary or an `Encodable` argument that fills a lone query wildcard.
    init(argument value: any Sendable) {
        source = .value(value)
        listStyle = .repeated
    }

    /// The items as text, not yet percent-encoded (a comma-separated list as its elements); the
    /// problem if there is one.
    func items() -> Result<[(name: String, values: [String])], QueryItemEncoder.Failure> {
        let members: [(String, QueryItemEncoder.Node)]
        switch source {
        case .pairs(let pairs):
            var converted: [(String, QueryItemEncoder.Node)] = []
            for (name, value) in pairs {
                switch QueryItemEncoder.node(of: value as Any) {
                case .success(let node): converted.append((name, node))
                case .failure(let failure): return .failure(failure.at(name))
                }
            }
            members = converted
        case .value(let value):
            switch QueryItemEncoder.members(of: value) {
            case .success(let encoded): members = encoded
            case .failure(let failure): return .failure(failure)
            }
        }
        return QueryItemEncoder.flatten(members, lists: listStyle)
    }

    /// The items, names and values percent-encoded for the query; the argument at `index` is
    /// named in the error of a value with no query form.
    func encodedItems(index: Int) throws(WebServiceError) -> [(name: String, value: String)] {
        switch items() {
        case .success(let items):
            return items.map { item in
                (
                    URLEncoding.queryComponent(item.name),
                    item.values.map(URLEncoding.queryComponent).joined(separator: ",")
                )
            }
        case .failure(let failure):
            throw .invalidArguments(index: index, reason: "its query items: \(failure)")
        }
    }
}
