import Foundation
import WebServiceKit
import WebServiceKitOData
import WebServiceKitTesting
import XCTest

// The Swift examples of Docs/OData.md, compiled and run against StubTransport. When you change an
// example, change the page too.

extension WebServiceCall where Response == ODataCollection<ODataGuideExamplesTests.GuideProduct> {
    /// Any query over products; the ODataQuery argument names the set and the options.
    static let products = WebServiceCall(
        relativePath: "", urlBuilder: ODataURLBuilder(), errorHandler: ODataErrorHandler())
}

extension WebServiceCall where Response == ODataGuideExamplesTests.GuideProduct {
    /// One product by key: the path names the entity set, the query adds the key.
    static let product = WebServiceCall(
        relativePath: "Products", urlBuilder: ODataURLBuilder(), errorHandler: ODataErrorHandler())
}

final class ODataGuideExamplesTests: XCTestCase {
    struct GuideProduct: Decodable, Sendable {
        let id: Int
        let name: String
        let price: Decimal?

        enum CodingKeys: String, CodingKey {
            case id = "ID", name = "Name", price = "Price"
        }
    }

    static let productOrders = WebServiceCall<ODataCollection<GuideProduct>>(
        relativePath: "Products(%%0%%)/Orders?client=%%1%%", urlBuilder: ODataURLBuilder())

    func testTheGuideQueries() async throws {
        let stubs = StubTransport(fallback: .text(#"{"@odata.count":1,"value":[{"ID":2,"Name":"Baker's Dozen"}]}"#))
        let client = WebServiceClient(serviceRoot: URL(string: "https://example.com/odata/")!, transport: stubs)
        let name = ODataExpression.property("Name")
        let price = ODataExpression.property("Price")

        let page = try await client.perform(
            .products,
            ODataQuery("Products")
                .filter(name == "Baker's Dozen" || price > 40)
                .select("ID", "Name", "Price")
                .expand("Orders") { $0.filter(.property("Quantity") > 1).select("Quantity").top(2) }
                .orderBy("Price", .descending).orderBy("Name")
                .top(10).skip(20).count())
        XCTAssertEqual(page.values.count, 1)
        XCTAssertEqual(page.count, 1)
        XCTAssertEqual(
            stubs.requests.last?.request.url?.absoluteString,
            "https://example.com/odata/Products?$filter=(Name%20eq%20'Baker''s%20Dozen')%20or%20(Price%20gt%2040)"
                + "&$select=ID,Name,Price&$expand=Orders($filter=Quantity%20gt%201;$select=Quantity;$top=2)"
                + "&$orderby=Price%20desc,Name%20asc&$top=10&$skip=20&$count=true")

        stubs.reset()
        let stubbed = StubTransport(fallback: .text(#"{"ID":1,"Name":"Bread"}"#))
        let single = WebServiceClient(serviceRoot: URL(string: "https://example.com/odata/")!, transport: stubbed)
        let bread = try await single.perform(.product, ODataQuery().key(1))
        XCTAssertEqual(bread.name, "Bread")
        XCTAssertEqual(stubbed.requests.last?.request.url?.absoluteString, "https://example.com/odata/Products(1)")

        _ = try await client.perform(Self.productOrders, 7, "app", ODataQuery().top(2))
        XCTAssertEqual(
            stubs.requests.last?.request.url?.absoluteString,
            "https://example.com/odata/Products(7)/Orders?client=app&$top=2")
    }

    /// The snippets of the guide's query options and literals sections, as written there.
    func testTheGuideSearchExpandAndOffsetExamples() throws {
        let search = (.term("blue") || .term("green")) && !.phrase("out of stock")
        let query = ODataQuery("Products").search(search)
        XCTAssertEqual(
            try query.relativeURL(), "Products?$search=(blue%20OR%20green)%20AND%20NOT%20%22out%20of%20stock%22")

        let price = ODataExpression.property("Price")
        XCTAssertEqual(
            try ODataQuery("P").filter(ODataExpression.function("Demo.IsCheap", parameters: ["p": price]))
                .relativeURL(),
            "P?$filter=Demo.IsCheap(p=Price)")
        XCTAssertEqual(
            try ODataQuery("Orders").expand("Product/Orders") { $0.select("ID") }.relativeURL(),
            "Orders?$expand=Product($expand=Orders($select=ID))")
        XCTAssertEqual(
            try ODataQuery("Customers").expandPath("Address/Country").relativeURL(),
            "Customers?$expand=Address/Country")
        XCTAssertEqual(
            try ODataQuery("Orders").key(4).navigate("Product/Orders").relativeURL(), "Orders(4)/Product/Orders")
        let date = Date(timeIntervalSince1970: 1_707_908_400)
        XCTAssertEqual(
            try ODataQuery("P").filter(.property("When") == ODataDateTimeOffset(date, offsetMinutes: 60)).relativeURL(),
            "P?$filter=When%20eq%202024-02-14T12:00:00%2B01:00")
        XCTAssertEqual(
            try ODataQuery("Customers").key("$count").relativeURL(keyAsSegment: true), "Customers('$count')")
    }

    func testTheGuideErrorExample() async throws {
        let stubs = StubTransport(
            fallback: .text(#"{"error":{"code":"404","message":"Entity not found."}}"#, statusCode: 404))
        let client = WebServiceClient(serviceRoot: URL(string: "https://example.com/odata/")!, transport: stubs)
        var printed = ""
        do {
            _ = try await client.perform(.product, ODataQuery().key(999))
        } catch {
            if case .application(let underlying, _) = error.reason, let error = underlying as? ODataError {
                printed = "\(error.statusCode) \(error.code ?? "-") \(error.message)"
            }
        }
        XCTAssertEqual(printed, "404 404 Entity not found.")
    }
}
