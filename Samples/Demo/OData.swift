import Foundation
import WebServiceKit
import WebServiceKitOData

/// An OData product, with the properties the demo asks for.
struct ODataProduct: Decodable, Sendable {
    let id: Int
    let name: String
    let price: Decimal?
    let orders: [ODataOrder]?

    enum CodingKeys: String, CodingKey {
        case id = "ID", name = "Name", price = "Price", orders = "Orders"
    }
}

/// An order of a product.
struct ODataOrder: Decodable, Sendable {
    let id: Int
    let quantity: Int

    enum CodingKeys: String, CodingKey {
        case id = "ID", quantity = "Quantity"
    }
}

extension WebServiceCall where Response == ODataCollection<ODataProduct> {
    /// Any collection of products; the ODataQuery argument names the set and the options.
    static let products = WebServiceCall(
        relativePath: "", urlBuilder: ODataURLBuilder(), errorHandler: ODataErrorHandler())
}

extension WebServiceCall where Response == ODataCollection<ODataOrder> {
    /// Orders, served by the fixture in pages of five.
    static let orders = WebServiceCall(
        relativePath: "", urlBuilder: ODataURLBuilder(), errorHandler: ODataErrorHandler())
}

/// Typed OData queries against the local OData service (`Scripts/demo` starts one from PyPI
/// `odatapy`): a filter with quoting traps, a nested expand, paging, and a typed error.
func demonstrateOData(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    let name = ODataExpression.property("Name")
    let price = ODataExpression.property("Price")
    let query = ODataQuery("Products")
        .filter(name == "Baker's Dozen" || name.contains("C+") || price > 40)
        .select("ID", "Name", "Price")
        .expand("Orders") { $0.filter(.property("Quantity") > 1).select("Quantity").top(2) }
        .orderBy("Price", .descending)
        .count()
    do {
        print("GET \(try query.relativeURL())")
        let page = try await client.perform(.products, query)
        print("\(page.count ?? 0) matching products:")
        for product in page.values {
            let orders = (product.orders ?? []).map { "#\($0.id)×\($0.quantity)" }.joined(separator: " ")
            print("  \(product.id) \(product.name) \(product.price.map { "\($0)" } ?? "-")  orders: \(orders)")
        }
        var pageNumber = 0
        for try await page in client.pages(.orders, ODataQuery("Orders").select("ID", "Quantity")) {
            pageNumber += 1
            print("orders page \(pageNumber): \(page.values.map(\.id))\(page.nextLink == nil ? " (last)" : "")")
        }
        _ = try await client.perform(.products, ODataQuery("Products").filter(.property("Nope") == 1))
    } catch {
        if case .application(let failure as ODataError, _)? = (error as? WebServiceError)?.reason {
            print("typed OData error: \(failure)")
        } else {
            print("failed: \(error)")
        }
    }
}
