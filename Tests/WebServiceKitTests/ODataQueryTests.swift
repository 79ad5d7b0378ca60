import Foundation
import WebServiceKit
import WebServiceKitOData
import XCTest

/// Expressions, query options and their percent-encoding (OData 4.01 Part 2 §2, §5).
final class ODataQueryTests: XCTestCase {
    private let nameProperty = ODataExpression.property("Name")
    private let cost = ODataExpression.property("TotalCost")
    private let price = ODataExpression.property("Price")

    private func url(_ query: ODataQuery, _ version: ODataVersion = .v401, keyAsSegment: Bool = false) throws
        -> String
    {
        try query.relativeURL(version: version, keyAsSegment: keyAsSegment)
    }

    // MARK: Expressions

    func testComparisonAndLogicalOperators() throws {
        XCTAssertEqual(try (nameProperty == "Paul" || cost <= 32).text(), "(Name eq 'Paul') or (TotalCost le 32)")
        XCTAssertEqual(try (nameProperty != "Paul").text(), "Name ne 'Paul'")
        XCTAssertEqual(
            try (price > 1 && price >= 2 && price < 3).text(), "(Price gt 1) and (Price ge 2) and (Price lt 3)")
        XCTAssertEqual(try (!(price > 5)).text(), "not (Price gt 5)", "not binds tighter than gt")
        XCTAssertEqual(try (!nameProperty.contains("x")).text(), "not contains(Name,'x')")
        XCTAssertEqual(
            try ((price > 1 || price < 0) && nameProperty == "a").text(),
            "((Price gt 1) or (Price lt 0)) and (Name eq 'a')")
        XCTAssertEqual(try (price == ODataExpression.null).text(), "Price eq null")
        XCTAssertEqual(try (ODataExpression.property("InStock") == true).text(), "InStock eq true")
        XCTAssertEqual(
            try ODataExpression.property("Color").has(ODataEnumMember("Demo.Color", "Blue")).text(),
            "Color has Demo.Color'Blue'")
        XCTAssertEqual(try ODataExpression.property("ID").in([1, 3, 5]).text(), "ID in (1,3,5)")
        XCTAssertEqual(
            try ODataExpression.property("ID").in([1, 3]).text(for: .v4), "((ID eq 1) or (ID eq 3))",
            "no in before 4.01")
    }

    func testArithmeticPrecedence() throws {
        XCTAssertEqual(try (price + 1 > 20).text(), "Price add 1 gt 20")
        XCTAssertEqual(try ((price - 5) * 2 > 10).text(), "(Price sub 5) mul 2 gt 10")
        XCTAssertEqual(try (price - (price - 1)).text(), "Price sub (Price sub 1)", "left-associative")
        XCTAssertEqual(try (price * 2 + 1).text(), "Price mul 2 add 1")
        XCTAssertEqual(try (price / 2 == 50).text(), "Price div 2 eq 50")
        XCTAssertEqual(try price.divby(4).text(), "Price divby 4")
        XCTAssertThrowsError(try price.divby(4).text(for: .v4))
        XCTAssertEqual(try (price % 5 == 2).text(), "Price mod 5 eq 2")
        XCTAssertEqual(try (-price).text(), "-Price")
        XCTAssertEqual(try (-(price + 1)).text(), "-(Price add 1)")
    }

    func testFunctions() throws {
        XCTAssertEqual(try nameProperty.contains("Salt").text(), "contains(Name,'Salt')")
        XCTAssertEqual(try nameProperty.contains("Salt").text(for: .v2), "substringof('Salt',Name)")
        XCTAssertEqual(try nameProperty.startsWith("Ba").text(), "startswith(Name,'Ba')")
        XCTAssertEqual(try nameProperty.endsWith("Pie").text(), "endswith(Name,'Pie')")
        XCTAssertEqual(try (nameProperty.length == 5).text(), "length(Name) eq 5")
        XCTAssertEqual(try (nameProperty.indexOf("a") == 1).text(), "indexof(Name,'a') eq 1")
        XCTAssertEqual(try (nameProperty.substring(1, 3) == "ake").text(), "substring(Name,1,3) eq 'ake'")
        XCTAssertEqual(try nameProperty.toLower.toUpper.trim.text(), "trim(toupper(tolower(Name)))")
        XCTAssertEqual(try nameProperty.concat("-").concat("x").text(), "concat(concat(Name,'-'),'x')")
        let released = ODataExpression.property("Released")
        XCTAssertEqual(try (released.year == 2020).text(), "year(Released) eq 2020")
        XCTAssertEqual(
            try (ODataExpression.property("LastModified").date == .literal(ODataDate(year: 2023, month: 12, day: 31)))
                .text(),
            "date(LastModified) eq 2023-12-31")
        XCTAssertEqual(try (released < ODataExpression.now).text(), "Released lt now()")
        XCTAssertEqual(try (price.rounded == 3).text(), "round(Price) eq 3")
        XCTAssertEqual(try price.cast(to: "Edm.Int32").text(), "cast(Price,Edm.Int32)")
        XCTAssertEqual(
            try ODataExpression.function("matchesPattern", nameProperty, "^[A-C]").text(),
            "matchesPattern(Name,'^[A-C]')")
        XCTAssertThrowsError(try ODataExpression.function("bad name", nameProperty).text())
    }

    func testLambdas() throws {
        let orders = ODataExpression.property("Orders")
        XCTAssertEqual(try orders.any("o") { $0.property("Quantity") > 5 }.text(), "Orders/any(o:o/Quantity gt 5)")
        XCTAssertEqual(try orders.all("o") { $0.property("Quantity") < 3 }.text(), "Orders/all(o:o/Quantity lt 3)")
        XCTAssertEqual(try orders.any().text(), "Orders/any()")
        XCTAssertEqual(
            try ODataExpression.property("Tags").any("t") { $0.value == "bakery" }.text(), "Tags/any(t:t eq 'bakery')")
        XCTAssertThrowsError(try orders.any().text(for: .v2))
        XCTAssertThrowsError(try (nameProperty + 1).any().text(), "a lambda needs a collection property")
    }

    func testNamesAreChecked() {
        XCTAssertThrowsError(try ODataExpression.property("Name eq 1").text()) { error in
            XCTAssertEqual(error as? ODataQueryError, .invalidName("Name eq 1"))
        }
        XCTAssertThrowsError(try url(ODataQuery("Products").select("Name,Price")))
        XCTAssertThrowsError(try url(ODataQuery("Prod ucts")))
        XCTAssertNoThrow(try ODataExpression.property("Address/City").text())
        XCTAssertNoThrow(try ODataExpression.property("Orders/$count").text())
        XCTAssertNoThrow(try ODataExpression.property("Zoë").text())
    }

    func testRawExpressionIsParenthesisedAsOperand() throws {
        XCTAssertEqual(try ODataExpression.raw("A eq 1 or B eq 2").text(), "A eq 1 or B eq 2")
        XCTAssertEqual(
            try (ODataExpression.raw("A eq 1 or B eq 2") && nameProperty == "x").text(),
            "(A eq 1 or B eq 2) and (Name eq 'x')")
    }

    // MARK: Resource paths and keys

    func testKeys() throws {
        XCTAssertEqual(try url(ODataQuery("Products").key(3)), "Products(3)")
        XCTAssertEqual(try url(ODataQuery("Customers").key("O'Neil")), "Customers('O''Neil')")
        XCTAssertEqual(try url(ODataQuery("Customers").key("A/B")), "Customers('A%2FB')", "a / in a key is data")
        XCTAssertEqual(try url(ODataQuery("Customers").key("C+D")), "Customers('C%2BD')")
        XCTAssertEqual(try url(ODataQuery("Customers").key("R&D #1 100%")), "Customers('R%26D%20%231%20100%25')")
        XCTAssertEqual(try url(ODataQuery("Customers").key("Zoë")), "Customers('Zo%C3%AB')")
        XCTAssertEqual(
            try url(ODataQuery("OrderLines").key(["OrderID": 1, "LineNo": 2])), "OrderLines(OrderID=1,LineNo=2)")
        XCTAssertEqual(try url(ODataQuery("Products").key(3), keyAsSegment: true), "Products/3")
        XCTAssertEqual(try url(ODataQuery("Customers").key("O'Neil"), keyAsSegment: true), "Customers/O'Neil")
        XCTAssertEqual(
            try url(ODataQuery("OrderLines").key(["OrderID": 1, "LineNo": 2]), keyAsSegment: true), "OrderLines/1/2")
        XCTAssertEqual(
            try url(ODataQuery("Products").key(UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000003")!), .v2),
            "Products(guid'0a1b2c3d-0000-4000-8000-000000000003')")
    }

    func testNavigationAndCount() throws {
        XCTAssertEqual(try url(ODataQuery("Products").key(1).navigate("Orders")), "Products(1)/Orders")
        XCTAssertEqual(
            try url(ODataQuery("Products").key(1).navigate("Orders").countOnly()), "Products(1)/Orders/$count")
        XCTAssertEqual(
            try url(ODataQuery("Orders").key(4).navigate("Product").navigate("Name")), "Orders(4)/Product/Name")
        XCTAssertEqual(try url(ODataQuery().key(3)), "(3)", "the call's path names the entity set")
        XCTAssertEqual(try url(ODataQuery().countOnly()), "$count")
    }

    // MARK: Options and encoding

    func testROADExpectationsWithCorrectQuoting() throws {
        let query = ODataQuery("TestEntity").orderBy("TotalCost")
        XCTAssertEqual(try url(query), "TestEntity?$orderby=TotalCost%20asc")
        XCTAssertEqual(
            try url(ODataQuery("TestEntity").filter(nameProperty == "Paul" || cost <= 32)),
            "TestEntity?$filter=(Name%20eq%20'Paul')%20or%20(TotalCost%20le%2032)")
        XCTAssertEqual(try url(ODataQuery("TestEntity").top(3).skip(2)), "TestEntity?$top=3&$skip=2")
        XCTAssertEqual(
            try url(ODataQuery("TestEntity").expand("A").expand("B").expand("C")), "TestEntity?$expand=A,B,C")
        XCTAssertEqual(
            try url(ODataQuery("TestEntity").expand("A") { $0.expand("B") { $0.expand("C") } }),
            "TestEntity?$expand=A($expand=B($expand=C))")
        XCTAssertEqual(
            try url(ODataQuery("TestEntity").expand("A") { $0.expand("B") { $0.expand("C") } }, .v2),
            "TestEntity?$expand=A/B/C")
    }

    func testNestedExpandOptions() throws {
        let query = ODataQuery("Products").expand("Orders") {
            $0.filter(.property("Quantity") > 1).select("Quantity").top(2)
        }
        XCTAssertEqual(try url(query), "Products?$expand=Orders($filter=Quantity%20gt%201;$select=Quantity;$top=2)")
        XCTAssertThrowsError(try url(query, .v3)) { error in
            XCTAssertEqual(error as? ODataQueryError, .unsupported("options inside $expand", version: .v3))
        }
        XCTAssertEqual(
            try url(ODataQuery("Employees").expand("Reports") { $0.levels(nil) }),
            "Employees?$expand=Reports($levels=max)")
        XCTAssertThrowsError(try url(ODataQuery("Employees").levels(2)), "$levels only inside $expand")
    }

    func testEveryOption() throws {
        let query = ODataQuery("Products")
            .filter(price > 10).filter(nameProperty.startsWith("B"))
            .select("ID", "Name").orderBy("Price", .descending).orderBy(nameProperty.length)
            .top(3).skip(2).count().search("blue OR green").compute(price * 2, as: "Double")
            .format("json").parameter("debug", "a b&c")
        XCTAssertEqual(
            try url(query),
            "Products?$filter=(Price%20gt%2010)%20and%20startswith(Name,'B')&$select=ID,Name"
                + "&$orderby=Price%20desc,length(Name)%20asc&$top=3&$skip=2&$count=true&$search=blue%20OR%20green"
                + "&$compute=Price%20mul%202%20as%20Double&$format=json&debug=a%20b%26c")
    }

    func testEncodingTraps() throws {
        func filter(_ value: String) throws -> String { try url(ODataQuery("P").filter(nameProperty == value)) }
        XCTAssertEqual(try filter("C+ Compiler"), "P?$filter=Name%20eq%20'C%2B%20Compiler'", "+ is %2B, space %20")
        XCTAssertEqual(try filter("Milk & Honey"), "P?$filter=Name%20eq%20'Milk%20%26%20Honey'")
        XCTAssertEqual(try filter("Gadget #1"), "P?$filter=Name%20eq%20'Gadget%20%231'")
        XCTAssertEqual(try filter("100% Juice"), "P?$filter=Name%20eq%20'100%25%20Juice'")
        XCTAssertEqual(try filter("%20"), "P?$filter=Name%20eq%20'%2520'", "nothing is decoded or encoded twice")
        XCTAssertEqual(try filter("a=b?c"), "P?$filter=Name%20eq%20'a=b%3Fc'")
        XCTAssertEqual(try filter("\"q\""), "P?$filter=Name%20eq%20'%22q%22'")
        let offset = ODataExpression.property("LastModified") > .raw("2024-01-01T00:00:00+01:00")
        XCTAssertEqual(
            try url(ODataQuery("P").filter(offset)), "P?$filter=LastModified%20gt%20(2024-01-01T00:00:00%2B01:00)")
    }

    func testVersionSpecificOptions() throws {
        XCTAssertEqual(try url(ODataQuery("P").count(), .v2), "P?$inlinecount=allpages")
        XCTAssertEqual(try url(ODataQuery("P").count(false), .v3), "P?$inlinecount=none")
        XCTAssertThrowsError(try url(ODataQuery("P").search("x"), .v3))
        XCTAssertThrowsError(try url(ODataQuery("P").compute(price, as: "X"), .v4))
        XCTAssertEqual(
            try url(ODataQuery("P").filter(.property("When") > Date(timeIntervalSince1970: 0)), .v2),
            "P?$filter=When%20gt%20datetime'1970-01-01T00:00:00'")
    }

    func testInvalidOptionValues() {
        XCTAssertThrowsError(try url(ODataQuery("P").top(-1))) { error in
            XCTAssertEqual(error as? ODataQueryError, .invalidValue("$top cannot be negative (-1)"))
        }
        XCTAssertThrowsError(try url(ODataQuery("P").skip(-1)))
        XCTAssertThrowsError(
            try url(ODataQuery("P").parameter("$filter", "x")), "system options have their own setters")
        XCTAssertThrowsError(try url(ODataQuery("P").compute(price, as: "bad alias")))
    }
}
