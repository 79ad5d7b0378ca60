import Foundation
import WebServiceKit
import WebServiceKitOData
import XCTest

/// Deep and long expressions (issue 19 item 10, issue 25 item 2): written without recursion, in
/// time linear in their size, and released without recursion; nested `$expand` stops at
/// ``ODataQueryOptions/maximumExpandDepth`` with a typed error.
final class ODataDepthTests: XCTestCase {
    /// Far past the 1,000–2,000 levels that crashed a debug build in a Task.
    private let deep = 100_000

    func testLeftDeepAndChainOfManyTermsIsWritten() async throws {
        let count = deep
        let text = try await inTaskAndOnSmallStack {
            var filter = ODataExpression.property("ID") == 0
            for index in 1..<count { filter = filter && ODataExpression.property("ID") == index }
            return try filter.text()
        }
        assertSameText(text, (0..<count).map { "(ID eq \($0))" }.joined(separator: " and "))
    }

    func testFilterCalledManyTimesIsOneAndChain() async throws {
        let count = deep
        let url = try await inTaskAndOnSmallStack {
            var query = ODataQuery("Products")
            for index in 0..<count { query = query.filter(.property("Price") > index) }
            return try query.relativeURL()
        }
        let expected = (0..<count).map { "(Price%20gt%20\($0))" }.joined(separator: "%20and%20")
        assertSameText(url, "Products?$filter=" + expected)
    }

    func testRightNestedExpressionsKeepTheirParentheses() async throws {
        let count = deep
        let (alternating, subtraction) = try await inTaskAndOnSmallStack {
            // a or (b and (c or (d and …))): every level needs parentheses.
            var logical = ODataExpression.property("X") == 0
            var arithmetic = ODataExpression.property("P")
            for index in 1..<count {
                let term = ODataExpression.property("X") == index
                logical = index.isMultiple(of: 2) ? term || logical : term && logical
                arithmetic = ODataExpression.property("P") - arithmetic
            }
            return (try logical.text(), try arithmetic.text())
        }
        var expected = ""
        for index in (1..<count).reversed() {
            expected += "(X eq \(index)) \(index.isMultiple(of: 2) ? "or" : "and") " + (index == 1 ? "" : "(")
        }
        expected += "(X eq 0)" + String(repeating: ")", count: count - 2)
        assertSameText(alternating, expected)
        assertSameText(
            subtraction,
            String(repeating: "P sub (", count: count - 2) + "P sub P" + String(repeating: ")", count: count - 2))
    }

    func testDeepUnaryOperatorsAndFunctions() async throws {
        let count = deep
        let (negations, nots, functions) = try await inTaskAndOnSmallStack {
            var negated = ODataExpression.property("P")
            var inverted = ODataExpression.property("Flag") == true
            var lowered = ODataExpression.property("Name")
            for _ in 0..<count {
                negated = -negated
                inverted = !inverted
                lowered = lowered.toLower
            }
            return (try negated.text(), try inverted.text(), try lowered.text())
        }
        // A double sign is written `-(-P)`.
        assertSameText(
            negations, String(repeating: "-(", count: count - 1) + "-P" + String(repeating: ")", count: count - 1))
        assertSameText(nots, String(repeating: "not ", count: count) + "(Flag eq true)")
        assertSameText(
            functions, String(repeating: "tolower(", count: count) + "Name" + String(repeating: ")", count: count))
    }

    func testDeepLambdasAndCasts() async throws {
        let count = 10_000
        let text = try await inTaskAndOnSmallStack {
            var predicate = ODataExpression.property("x/Done") == true
            for _ in 0..<count {
                predicate = ODataExpression.property("Items").any("x") { _ in predicate.cast(to: "Edm.Boolean") }
            }
            return try predicate.text()
        }
        let opening = "Items/any(x:cast("
        assertSameText(
            text,
            String(repeating: opening, count: count) + "x/Done eq true"
                + String(repeating: ",Edm.Boolean))", count: count))
    }

    func testInWithManyValuesIsWrittenBeforeAndAfterOData401() async throws {
        let count = deep
        let (v401, v4) = try await inTaskAndOnSmallStack {
            let filter = ODataExpression.property("ID").in(Array(0..<count))
            return (try filter.text(), try filter.text(for: .v4))
        }
        assertSameText(v401, "ID in (" + (0..<count).map(String.init).joined(separator: ",") + ")")
        assertSameText(v4, "(" + (0..<count).map { "(ID eq \($0))" }.joined(separator: " or ") + ")")
    }

    func testInRewriteInsideOtherOperators() throws {
        let id = ODataExpression.property("ID")
        XCTAssertEqual(try (!id.in([1])).text(for: .v4), "not (ID eq 1)")
        XCTAssertEqual(try (!id.in([1, 2])).text(for: .v4), "not ((ID eq 1) or (ID eq 2))")
        XCTAssertEqual(try (id.in([1]) && id.in([2, 3])).text(for: .v4), "(ID eq 1) and ((ID eq 2) or (ID eq 3))")
        XCTAssertEqual(try (-ODataExpression.literal(-5)).in([5]).text(for: .v4), "-(-5) eq 5")
        XCTAssertEqual(try (-(ODataExpression.literal(-5).in([5]))).text(for: .v4), "-(-5 eq 5)")
        XCTAssertThrowsError(try id.in([Int]()).text(for: .v4)) { error in
            XCTAssertEqual(
                error as? ODataQueryError, .unsupported("the in operator with a non-list operand", version: .v4))
        }
    }

    func testNegationOfWhatStartsWithAMinus() throws {
        let price = ODataExpression.property("Price")
        XCTAssertEqual(try (-ODataExpression.literal(-5)).text(), "-(-5)")
        XCTAssertEqual(try (-(-price)).text(), "-(-Price)")
        XCTAssertEqual(try (-(ODataExpression.literal(-5) + price)).text(), "-(-5 add Price)")
        XCTAssertEqual(try (-ODataExpression.literal(5)).text(), "-5")
        XCTAssertEqual(try (-ODataExpression.raw("-1")).text(), "-(-1)")
        XCTAssertEqual(try (-(-price).has(ODataEnumMember("A.B", "C"))).text(), "-(-Price) has A.B'C'")
        XCTAssertEqual(
            try (-ODataExpression.literal(-5).has(ODataEnumMember("A.B", "C"))).text(), "-(-5 has A.B'C')")
    }

    func testReleasingALongChainKeepsTheSharedPartsOfOthers() async throws {
        let count = deep
        let text = try await inTaskAndOnSmallStack {
            var filter = ODataExpression.property("ID") == 0
            var middle = filter
            for index in 1..<count {
                filter = filter && ODataExpression.property("ID") == index
                if index == 10 { middle = filter }
            }
            filter = .null  // the chain above index 10 goes; `middle` keeps its part
            return try middle.text()
        }
        assertSameText(text, (0...10).map { "(ID eq \($0))" }.joined(separator: " and "))
    }

    func testErrorDeepInsideAnExpressionIsThrown() async throws {
        let count = deep
        let error = try await inTaskAndOnSmallStack { () -> ODataQueryError? in
            var filter = ODataExpression.property("bad name") == 0
            for index in 1..<count { filter = filter && ODataExpression.property("ID") == index }
            do {
                _ = try filter.text()
                return nil
            } catch {
                return error as? ODataQueryError
            }
        }
        XCTAssertEqual(error, .invalidName("bad name"))
    }

    // MARK: $expand

    /// A query with `levels` levels of `$expand`.
    private static func nestedExpand(levels: Int) -> ODataQuery {
        var options = ODataQueryOptions()
        for _ in 1..<max(levels, 1) {
            let inner = options
            options = ODataQueryOptions().expand("Parent") { _ in inner }
        }
        let innermost = options
        return levels == 0 ? ODataQuery("People") : ODataQuery("People").expand("Parent") { _ in innermost }
    }

    func testExpandAtTheMaximumDepthIsWritten() async throws {
        let levels = ODataQueryOptions.maximumExpandDepth
        // Written and released on a small stack: both recurse once per level.
        let url = try await inTaskAndOnSmallStack { try Self.nestedExpand(levels: levels).relativeURL() }
        assertSameText(
            url,
            "People?$expand=" + Array(repeating: "Parent", count: levels).joined(separator: "($expand=")
                + String(repeating: ")", count: levels - 1))
        XCTAssertEqual(
            try Self.nestedExpand(levels: levels).relativeURL(version: .v3),
            "People?$expand=" + Array(repeating: "Parent", count: levels).joined(separator: "/"))
    }

    func testExpandDeeperThanTheMaximumIsATypedError() async throws {
        for levels in [ODataQueryOptions.maximumExpandDepth + 1, deep] {
            let error = try await inTaskAndOnSmallStack { () -> ODataQueryError? in
                do {
                    _ = try Self.nestedExpand(levels: levels).relativeURL()
                    return nil
                } catch {
                    return error as? ODataQueryError
                }
            }
            XCTAssertEqual(
                error, .invalidValue("$expand nests deeper than the maximum depth of 32"), "\(levels) levels")
        }
    }
}
