import Foundation
import XCTest

/// The data the OData fixture serves (Tests/Servers/odata_fixture_data.json), read here too so
/// that every expected result is computed from the same rows instead of being written by hand.
struct ODataFixture {
    struct Product {
        let id: Int
        let name: String
        let price: Decimal
        let rating: Double
        let inStock: Bool
        let released: String
        let lastModified: String
        let instant: Date
        let code: UUID
        let color: String
        let description: String?
        let tags: [String]
    }

    struct Order {
        let id: Int
        let quantity: Int
        let orderDate: String
        let productID: Int
    }

    struct Customer {
        let code: String
        let name: String
    }

    let products: [Product]
    let orders: [Order]
    let customers: [Customer]
    let orderPageSize: Int

    func orders(of product: Product) -> [Order] { orders.filter { $0.productID == product.id } }

    static func load() throws -> ODataFixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Servers/odata_fixture_data.json")
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let products = try XCTUnwrap(root["Products"] as? [[String: Any]]).map { row in
            let lastModified = row["LastModified"] as! String
            return Product(
                id: row["ID"] as! Int, name: row["Name"] as! String, price: Decimal(string: row["Price"] as! String)!,
                rating: (row["Rating"] as! NSNumber).doubleValue, inStock: row["InStock"] as! Bool,
                released: row["Released"] as! String, lastModified: lastModified,
                instant: ISO8601DateFormatter().date(from: lastModified)!,
                code: UUID(uuidString: row["Code"] as! String)!,
                color: row["Color"] as! String, description: row["Description"] as? String,
                tags: row["Tags"] as? [String] ?? [])
        }
        let orders = try XCTUnwrap(root["Orders"] as? [[String: Any]]).map { row in
            Order(
                id: row["ID"] as! Int, quantity: row["Quantity"] as! Int, orderDate: row["OrderDate"] as! String,
                productID: row["ProductID"] as! Int)
        }
        let customers = try XCTUnwrap(root["Customers"] as? [[String: Any]]).map { row in
            Customer(code: row["Code"] as! String, name: row["Name"] as! String)
        }
        let pageSizes = root["serverPageSize"] as? [String: Int] ?? [:]
        return ODataFixture(
            products: products, orders: orders, customers: customers, orderPageSize: pageSizes["Orders"] ?? .max)
    }
}
