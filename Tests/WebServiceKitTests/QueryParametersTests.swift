import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Filter: Encodable, Sendable {
    enum Sort: String, Encodable, Sendable { case updated, created }
    let tag: String
    let page: Int?
    let ids: [Int]
    let sort: Sort
    let since: Date
    let id: UUID
}

extension TypedCall where Arguments == ArgumentList<String, Filter>, Body == NoBody, Response == Data {
    fileprivate static let filteredSearch = TypedCall(.init(relativePath: "search?q=%%0%%&%%1%%"))
}

/// A lone query wildcard (`?%%1%%`) filled with items: from an `Encodable` value, a dictionary or
/// `QueryParameters`, encoded as query wildcards are.
final class QueryParametersTests: XCTestCase {
    private static let filter = Filter(
        tag: "a b&c=d", page: nil, ids: [1, 2], sort: .updated, since: Date(timeIntervalSince1970: 0),
        id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)

    private func query(_ relativePath: String, _ arguments: [any Sendable]) async -> Result<String, WebServiceError> {
        let result = await sentRequest(WebServiceCall<Data>(relativePath: relativePath), arguments)
        return result.map { $0.url?.query ?? "" }
    }

    func testAnEncodableValueFillsItsMembersInOrder() async throws {
        let query = try await query("search?q=%%0%%&%%1%%", ["swift", Self.filter]).get()
        XCTAssertEqual(
            query,
            "q=swift&tag=a%20b%26c%3Dd&ids=1&ids=2&sort=updated&since=1970-01-01T00%3A00%3A00Z"
                + "&id=e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    }

    func testADictionaryInTheOrderOfItsNames() async throws {
        let values: [String: any Sendable] = ["z": 1, "a": "x y", "m": [true, false]]
        let query = try await query("s?%%0%%&fixed=1", [values]).get()
        XCTAssertEqual(query, "a=x%20y&m=true&m=false&z=1&fixed=1")
    }

    func testQueryParametersKeepTheirOrderAndTheirListStyle() async throws {
        let repeated = QueryParameters(["b": 2, "a": nil, "ids": [3, 4]])
        let repeatedQuery = try await query("s?%%0%%", [repeated]).get()
        XCTAssertEqual(repeatedQuery, "b=2&ids=3&ids=4")
        let comma = QueryParameters(["ids": ["x,y", "z"], "empty": [Int]()], lists: .commaSeparated)
        let commaQuery = try await query("s?%%0%%", [comma]).get()
        XCTAssertEqual(commaQuery, "ids=x%2Cy,z", "the separator is a comma, one in an element %2C")
        let encoded = QueryParameters(encoding: Self.filter, lists: .commaSeparated)
        let encodedQuery = try await query("s?%%0%%", [encoded]).get()
        XCTAssertEqual(encodedQuery.components(separatedBy: "&")[1], "ids=1,2")
    }

    func testTextInALoneWildcardIsStillANameWithoutAValue() async throws {
        let named = try await query("s?%%0%%&x=1", ["debug"]).get()
        XCTAssertEqual(named, "debug&x=1")
        let dropped = try await query("s?%%0%%&x=1", [Optional<String>.none]).get()
        XCTAssertEqual(dropped, "x=1")
    }

    func testValuesWithNoQueryFormFailWithTheArgumentAndTheMember() async {
        struct Outer: Encodable, Sendable {
            struct Inner: Encodable, Sendable { let x: Int }
            let inner: Inner
        }
        struct Lists: Encodable, Sendable { let grid: [[Int]] }
        final class Deep: Encodable, @unchecked Sendable {
            var next: Deep?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(next ?? self, forKey: .next)
            }
            enum CodingKeys: String, CodingKey { case next }
        }
        for (value, expected) in [
            (Outer(inner: .init(x: 1)) as any Sendable, "its query items: inner: a nested object has no query form"),
            (Lists(grid: [[1]]), "its query items: grid: a list of lists or objects has no query form"),
            ([1, 2] as [Int], nil),
            (Deep(), "nested deeper than 32"),
        ] {
            let result = await query("s?%%0%%", [value])
            guard let expected else { continue }
            guard case .invalidArguments(0, let reason)? = result.failure?.reason else {
                XCTFail("\(value): \(result)")
                continue
            }
            XCTAssertTrue(reason.hasPrefix(expected) || reason.hasSuffix(expected), reason)
        }
    }

    func testATypedCallDeclaresItsQueryArgument() async throws {
        try TypedCall.filteredSearch.validate()
        let (client, stubs) = makeStubClient()
        _ = try await client.perform(.filteredSearch, "swift", Self.filter)
        XCTAssertEqual(stubs.requests.first?.request.url?.query?.hasPrefix("q=swift&tag=a%20b%26c%3Dd&ids=1"), true)
        let text = TypedCall<ArgumentList<Int>, NoBody, Data>(.init(relativePath: "s?%%0%%"))
        XCTAssertNoThrow(try text.validate(), "a number names an item, as always")
        struct Opaque: Sendable {}
        let opaque = TypedCall<ArgumentList<Opaque>, NoBody, Data>(.init(relativePath: "s?%%0%%"))
        XCTAssertThrowsError(try opaque.validate())
        let inPath = TypedCall<ArgumentList<Filter>, NoBody, Data>(.init(relativePath: "s/%%0%%"))
        XCTAssertThrowsError(try inPath.validate(), "items fill only a lone query wildcard")
    }
}
