import Foundation
import WebServiceKit
import WebServiceKitOData
import XCTest

/// Long and deep filters written by the iterative expression writer, read by a real OData service
/// (PyPI `odatapy`, started by Scripts/test): the service's parser is the independent check of the
/// text, and the fixture's data file of the results.
final class ODataLongExpressionTests: XCTestCase {
    struct Product: Decodable, Sendable {
        let id: Int

        enum CodingKeys: String, CodingKey {
            case id = "ID"
        }
    }

    private var client: WebServiceClient!
    private var fixture: ODataFixture!

    override func setUp() async throws {
        client = WebServiceClient(serviceRoot: try HTTPBin.odataURL())
        fixture = try ODataFixture.load()
    }

    /// The IDs of every product `filter` selects, across all pages, written for `version`.
    private func productIDs(_ filter: ODataExpression, version: ODataVersion = .v401) async throws -> [Int] {
        let call = WebServiceCall<ODataCollection<Product>>(
            relativePath: "", urlBuilder: ODataURLBuilder(version: version), errorHandler: ODataErrorHandler())
        return try await client.pages(call, ODataQuery("Products").filter(filter)).allValues().map(\.id)
    }

    func testInWrittenAsAnEqualityChainBeforeOData401() async throws {
        let ids = fixture.products.map(\.id)
        let wanted = Array(ids.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
        // Values that match nothing pad the list to 200.
        let values = wanted + (0..<(200 - wanted.count)).map { 1_000_000 + $0 }
        let id = ODataExpression.property("ID")
        let inV4 = try await productIDs(id.in(values), version: .v4)
        let inV401 = try await productIDs(id.in(values))
        XCTAssertEqual(inV4, wanted)
        XCTAssertEqual(inV401, wanted)
    }

    func testLongAndChainAndDeepRightNesting() async throws {
        let id = ODataExpression.property("ID")
        let price = ODataExpression.property("Price")
        // 300 terms that all hold for IDs above 0: `(ID gt 0) and (Price ge -1) and …`.
        var chain = id > 0
        for index in 1..<300 { chain = chain && (index.isMultiple(of: 2) ? id > 0 : price >= -1) }
        let all = try await productIDs(chain)
        XCTAssertEqual(all, fixture.products.filter { $0.id > 0 }.map(\.id))
        // 60 levels of `a or (b and (c or …))`, each needing its parentheses; only the innermost
        // term can select anything, and the `or` levels let it through.
        let first = try XCTUnwrap(fixture.products.first?.id)
        var nested = id == first
        for index in 0..<60 { nested = index.isMultiple(of: 2) ? (id == -1) || nested : (id > 0) && nested }
        let selected = try await productIDs(nested)
        XCTAssertEqual(selected, [first])
    }
}
