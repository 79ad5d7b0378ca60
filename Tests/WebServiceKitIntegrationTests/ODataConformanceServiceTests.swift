import Foundation
import WebServiceKit
import WebServiceKitOData
import XCTest

/// Issue 22, items 12 and 14 to 18, against the OData fixture (PyPI `odatapy`, started by
/// Scripts/test): the URLs the builder writes now are the ones the service reads as meant.
/// Expected results come from the fixture's data file.
final class ODataConformanceServiceTests: XCTestCase {
    struct Order: Decodable, Sendable {
        let id: Int
        let product: Product?

        enum CodingKeys: String, CodingKey {
            case id = "ID", product = "Product"
        }
    }

    struct Product: Decodable, Sendable {
        let id: Int
        let orders: [OrderID]?

        enum CodingKeys: String, CodingKey {
            case id = "ID", orders = "Orders"
        }
    }

    struct OrderID: Decodable, Sendable {
        let id: Int

        enum CodingKeys: String, CodingKey { case id = "ID" }
    }

    struct Customer: Decodable, Sendable {
        let code: String

        enum CodingKeys: String, CodingKey { case code = "Code" }
    }

    private var client: WebServiceClient!
    private var fixture: ODataFixture!

    override func setUp() async throws {
        client = WebServiceClient(serviceRoot: try HTTPBin.odataURL())
        fixture = try ODataFixture.load()
    }

    private static func call<Response: Decodable & Sendable>(
        _ response: Response.Type, version: ODataVersion = .v401, keyAsSegment: Bool = false
    ) -> WebServiceCall<Response> {
        WebServiceCall<Response>(
            relativePath: "", urlBuilder: ODataURLBuilder(version: version, keyAsSegment: keyAsSegment),
            errorHandler: ODataErrorHandler())
    }

    /// The OData error a call fails with, or a test failure.
    private func odataError(_ work: () async throws -> Void) async -> ODataError? {
        do {
            try await work()
            XCTFail("expected an OData error")
        } catch let error as WebServiceError where error.applicationError != nil {
            return error.applicationError as? ODataError
        } catch {
            XCTFail("expected an OData error, got \(error)")
        }
        return nil
    }

    // MARK: 12

    func testExpandPathIsNestedAndTheServerAnswersIt() async throws {
        let query = ODataQuery("Orders").select("ID").top(4).expand("Product/Orders") { $0.select("ID") }
        XCTAssertEqual(
            try query.relativeURL(), "Orders?$select=ID&$expand=Product($expand=Orders($select=ID))&$top=4")
        let page = try await client.perform(Self.call(ODataCollection<Order>.self), query)
        XCTAssertEqual(page.values.map(\.id), Array(fixture.orders.prefix(4).map(\.id)))
        for order in page.values {
            let productID = try XCTUnwrap(fixture.orders.first { $0.id == order.id }?.productID)
            XCTAssertEqual(order.product?.id, productID)
            XCTAssertEqual(
                order.product?.orders?.map(\.id), fixture.orders.filter { $0.productID == productID }.map(\.id),
                "orders of product \(productID)")
        }
        // The path form, what 2.0/3.0 mode still writes, is what this v4 service refuses.
        let legacy = await odataError {
            _ = try await self.client.perform(
                Self.call(ODataCollection<Order>.self, version: .v3), ODataQuery("Orders").expand("Product/Orders"))
        }
        XCTAssertEqual(legacy?.statusCode, 400)
    }

    // MARK: 14

    func testNavigationPathWithSlashes() async throws {
        let order = try XCTUnwrap(fixture.orders.first { $0.id == 4 })
        let query = ODataQuery("Orders").key(4).navigate("Product/Orders")
        XCTAssertEqual(try query.relativeURL(), "Orders(4)/Product/Orders")
        let orders = try await client.pages(Self.call(ODataCollection<OrderID>.self), query).allValues()
        XCTAssertEqual(orders.map(\.id), fixture.orders.filter { $0.productID == order.productID }.map(\.id))
    }

    // MARK: 15

    func testReservedKeySegmentsAddressTheKeyNotAnotherResource() async throws {
        let bySegment = Self.call(Customer.self, keyAsSegment: true)
        for key in ["$count", "$ref", "$value", ".", "..", "Demo.Customer"] {
            // Written as a segment, `Customers/$count` answered the count and `Customers/.` the
            // collection; in parentheses the service looks the key up, and no customer has it.
            let error = await odataError {
                _ = try await self.client.perform(bySegment, ODataQuery("Customers").key(key))
            }
            XCTAssertEqual(error?.statusCode, 404, key)
            XCTAssertEqual(error?.message, "Entity not found.", key)
        }
        for customer in fixture.customers where !customer.code.contains("/") {
            let found = try await client.perform(bySegment, ODataQuery("Customers").key(customer.code))
            XCTAssertEqual(found.code, customer.code)
        }
    }

    // MARK: 16

    func testTypedSearchAgainstTheService() async throws {
        let call = Self.call(ODataCollection<OrderID>.self)
        let names = Dictionary(uniqueKeysWithValues: fixture.products.map { ($0.id, $0.name) })
        let cases: [(ODataSearch, (String) -> Bool)] = [
            (.term("Salt") && !.term("Rock"), { $0.contains("Salt") && !$0.contains("Rock") }),
            (
                (.term("Salt") || .term("Bread")) && !.phrase("Rock Salt"),
                {
                    ($0.contains("Salt") || $0.contains("Bread")) && !$0.contains("Rock Salt")
                }
            ),
            (.phrase("Apple Pie") || .term("Widget"), { $0.contains("Apple Pie") || $0.contains("Widget") }),
        ]
        for (search, predicate) in cases {
            let ids = try await client.pages(call, ODataQuery("Products").select("ID").search(search)).allValues()
                .map(\.id)
            let text = try search.text()
            XCTAssertEqual(ids, fixture.products.map(\.id).filter { predicate(names[$0] ?? "") }, text)
            XCTAssertFalse(ids.isEmpty, text)
        }
    }

    // MARK: 17

    func testStringLiteralsWithSlashesAndQuestionMarks() async throws {
        let call = Self.call(ODataCollection<Customer>.self)
        for customer in fixture.customers {
            let query = ODataQuery("Customers").filter(.property("Code") == customer.code)
            let page = try await client.perform(call, query)
            let written = try query.relativeURL()
            XCTAssertEqual(page.values.map(\.code), [customer.code], written)
        }
        let url = try ODataQuery("Customers").filter(.property("Code") == "A/B").relativeURL()
        XCTAssertTrue(url.contains("'A%2FB'"), url)
        let none = try await client.perform(call, ODataQuery("Customers").filter(.property("Code") == "A/B?"))
        XCTAssertEqual(none.values.count, 0)
    }

    // MARK: 18

    func testDateTimeOffsetLiteralsWithTheRowsOwnOffsets() async throws {
        let call = Self.call(ODataCollection<OrderID>.self)
        var checked = 0
        for product in fixture.products {
            // The offset the data file writes, `+01:00`, `-05:00`, `+05:30` or `Z`.
            let text = product.lastModified
            var minutes = 0
            if !text.hasSuffix("Z") {
                let offset = text.suffix(6)
                let sign = offset.hasPrefix("-") ? -1 : 1
                let hours = try XCTUnwrap(Int(offset.dropFirst().prefix(2)))
                minutes = sign * (hours * 60 + (try XCTUnwrap(Int(offset.suffix(2)))))
            }
            let literal = ODataDateTimeOffset(product.instant, offsetMinutes: minutes)
            XCTAssertEqual(try literal.odataLiteral.text(for: .v401), text)
            let ids = try await client.pages(
                call, ODataQuery("Products").select("ID").filter(.property("LastModified") == literal)
            ).allValues().map(\.id)
            XCTAssertEqual(ids, fixture.products.filter { $0.instant == product.instant }.map(\.id), text)
            if minutes != 0 { checked += 1 }
        }
        XCTAssertGreaterThanOrEqual(checked, 4, "rows with an offset other than Z")
        // The same instant in another offset finds the same row.
        let second = try XCTUnwrap(fixture.products.first { $0.id == 2 })
        let ids = try await client.perform(
            call,
            ODataQuery("Products").select("ID")
                .filter(.property("LastModified") == ODataDateTimeOffset(second.instant, offsetMinutes: -7 * 60)))
        XCTAssertEqual(ids.values.map(\.id), [2])
    }
}
