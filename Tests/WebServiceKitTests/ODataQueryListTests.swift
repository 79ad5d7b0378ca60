import Foundation
import XCTest

@testable import WebServiceKit
@testable import WebServiceKitOData

/// The array forms of the list options and the consuming chained setters (issue 25, item 3):
/// the same URL as the chained and variadic calls, nothing for an empty array, and value
/// semantics kept when a query is reused.
final class ODataQueryListTests: XCTestCase {
    private func url(_ query: ODataQuery) throws -> String { try query.relativeURL() }

    func testSelectArrayWritesWhatTheVariadicAndChainedFormsWrite() throws {
        let names = ["Name", "Price", "Supplier/Name"]
        let array = try url(ODataQuery("Products").select(names))
        XCTAssertEqual(array, try url(ODataQuery("Products").select("Name", "Price", "Supplier/Name")))
        XCTAssertEqual(array, try url(ODataQuery("Products").select("Name").select("Price").select("Supplier/Name")))
        XCTAssertEqual(array, "Products?$select=Name,Price,Supplier/Name")
        XCTAssertEqual(
            try url(ODataQuery("Products").select("ID").select(names).select("Rating")),
            "Products?$select=ID,Name,Price,Supplier/Name,Rating")
    }

    func testOrderByArraysWriteWhatOneCallPerKeyWrites() throws {
        let keys: [(String, ODataSortOrder)] = [("Price", .descending), ("Name", .ascending)]
        let chained = try url(ODataQuery("Products").orderBy("Price", .descending).orderBy("Name"))
        XCTAssertEqual(try url(ODataQuery("Products").orderBy(keys)), chained)
        // A literal list of names picks the property form, not string literals ('Price').
        XCTAssertEqual(
            try url(ODataQuery("Products").orderBy([("Price", .descending), ("Name", .ascending)])), chained)
        XCTAssertEqual(chained, "Products?$orderby=Price%20desc,Name%20asc")

        let expressions: [(ODataExpression, ODataSortOrder)] = [
            (.property("Name").length, .descending), (.property("ID"), .ascending),
        ]
        XCTAssertEqual(
            try url(ODataQuery("Products").orderBy(expressions)),
            try url(ODataQuery("Products").orderBy(.property("Name").length, .descending).orderBy(.property("ID"))))
    }

    func testComputeAndParameterArraysWriteWhatOneCallPerItemWrites() throws {
        let computed: [(ODataExpression, String)] = [
            (.property("Price") * 2, "Double"), (.property("Name").toUpper, "Loud"),
        ]
        XCTAssertEqual(
            try url(ODataQuery("Products").compute(computed)),
            try url(
                ODataQuery("Products").compute(.property("Price") * 2, as: "Double").compute(
                    .property("Name").toUpper, as: "Loud")))
        let pairs = [("client", "a b"), ("trace", "1")]
        XCTAssertEqual(
            try url(ODataQuery("Products").parameters(pairs)),
            try url(ODataQuery("Products").parameter("client", "a b").parameter("trace", "1")))
        XCTAssertEqual(try url(ODataQuery("Products").parameters(pairs)), "Products?client=a%20b&trace=1")
    }

    func testEmptyArraysChangeNothing() throws {
        let plain = ODataQuery("Products").top(3)
        let emptied = plain.select([]).orderBy([] as [(String, ODataSortOrder)])
            .orderBy([] as [(ODataExpression, ODataSortOrder)]).compute([]).parameters([])
        XCTAssertEqual(try url(emptied), try url(plain))
        XCTAssertEqual(try url(emptied), "Products?$top=3")
        let selected = ODataQuery("Products").select("Name")
        XCTAssertEqual(try url(selected.select([])), "Products?$select=Name")
    }

    func testArrayFormsInsideAnExpand() throws {
        let query = ODataQuery("Customers").expand("Orders") {
            $0.select(["ID", "Total"]).orderBy([("Total", .descending)]).parameters([])
        }
        XCTAssertEqual(
            try url(query),
            try url(ODataQuery("Customers").expand("Orders") { $0.select("ID", "Total").orderBy("Total", .descending) })
        )
    }

    /// The setters consume the value they change; one still in use is copied, never changed.
    func testReusedValuesKeepTheirOwnOptions() throws {
        let base = ODataQuery("Products").select("A")
        let first = base.select("B").orderBy("A").parameter("x", "1")
        let second = base.select(["C"]).navigate("Orders").key(7)
        XCTAssertEqual(try url(base), "Products?$select=A")
        XCTAssertEqual(try url(first), "Products?$select=A,B&$orderby=A%20asc&x=1")
        XCTAssertEqual(try url(second), "Products/Orders(7)?$select=A,C")

        let options = ODataQueryOptions().select("A")
        let wider = options.select("B")
        let nested = ODataQuery("Products").expand("Orders") { _ in options }
        let widerNested = ODataQuery("Products").expand("Orders") { _ in wider }
        XCTAssertEqual(try url(nested), "Products?$expand=Orders($select=A)")
        XCTAssertEqual(try url(widerNested), "Products?$expand=Orders($select=A,B)")

        var looped = ODataQuery("Products")
        var snapshots: [ODataQuery] = []
        for name in ["A", "B", "C"] {
            looped = looped.select(name)
            snapshots.append(looped)
        }
        XCTAssertEqual(
            try snapshots.map(url),
            ["Products?$select=A", "Products?$select=A,B", "Products?$select=A,B,C"])
    }

    /// A long chain built one call at a time: every name arrives, in order (the chain is linear
    /// in time in a release build; see Docs/Performance.md).
    func testTenThousandChainedSelectsKeepEveryName() throws {
        let names = (0..<10_000).map { "P\($0)" }
        var query = ODataQuery("Products")
        for name in names { query = query.select(name) }
        var options = ODataQueryOptions()
        for name in names { options = options.select(name) }
        let expected = "Products?$select=" + names.joined(separator: ",")
        XCTAssertEqual(try url(query), expected)
        XCTAssertEqual(try url(ODataQuery("Products").select(names)), expected)
        XCTAssertEqual(
            try url(ODataQuery("Products").expand("Orders") { _ in options }),
            "Products?$expand=Orders($select=" + names.joined(separator: ",") + ")")
    }
}

/// The shared list behind the option setters: each value keeps exactly its own elements, however
/// the values branch and from whichever thread they are extended.
final class ODataOptionListTests: XCTestCase {
    private func list(_ elements: [Int]) -> OptionList<Int> {
        var list = OptionList<Int>()
        list.append(contentsOf: elements)
        return list
    }

    func testBranchesKeepTheirOwnElements() {
        let base = list([1, 2])
        var first = base
        first.append(contentsOf: [3])
        var second = base
        second.append(contentsOf: [4, 5])
        var third = first
        third.append(contentsOf: [6])
        first.append(contentsOf: [7])
        var empty = base
        empty.append(contentsOf: [])
        XCTAssertEqual(base.elements, [1, 2])
        XCTAssertEqual(first.elements, [1, 2, 3, 7])
        XCTAssertEqual(second.elements, [1, 2, 4, 5])
        XCTAssertEqual(third.elements, [1, 2, 3, 6])
        XCTAssertEqual(empty.elements, [1, 2])
        XCTAssertEqual(OptionList<Int>().elements, [])
    }

    func testConcurrentBranchesFromOneValue() async {
        let base = ODataQuery("Products").select("A")
        let urls = await withTaskGroup(of: (Int, String).self) { group in
            for task in 0..<8 {
                group.addTask {
                    var query = base
                    for step in 0..<200 { query = query.select("T\(task)x\(step)") }
                    return (task, (try? query.relativeURL()) ?? "")
                }
            }
            var urls: [Int: String] = [:]
            for await (task, url) in group { urls[task] = url }
            return urls
        }
        for task in 0..<8 {
            let names = ["A"] + (0..<200).map { "T\(task)x\($0)" }
            XCTAssertEqual(urls[task], "Products?$select=" + names.joined(separator: ","))
        }
        XCTAssertEqual(try base.relativeURL(), "Products?$select=A")
    }
}
