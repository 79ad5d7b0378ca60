import Foundation
import WebServiceKit
import WebServiceKitOData
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Collection decoding, the OData error handler, the URL builder inside a call, and paging,
/// over a stub transport.
final class ODataResponseTests: XCTestCase {
    struct Item: Decodable, Sendable, Equatable {
        let id: Int
        enum CodingKeys: String, CodingKey { case id = "ID" }
    }

    private func decode(_ json: String) throws -> ODataCollection<Item> {
        try JSONDecoder().decode(ODataCollection<Item>.self, from: Data(json.utf8))
    }

    // MARK: Collections

    func testCollectionShapesOfEveryVersion() throws {
        let v4 = try decode(#"{"@odata.context":"x","@odata.count":12,"value":[{"ID":1}],"@odata.nextLink":"n"}"#)
        XCTAssertEqual(v4.values, [Item(id: 1)])
        XCTAssertEqual(v4.count, 12)
        XCTAssertEqual(v4.nextLink, "n")
        let v401 = try decode(#"{"@count":"3","value":[],"@nextLink":"m"}"#)
        XCTAssertEqual(v401.count, 3, "IEEE754Compatible counts are strings")
        XCTAssertEqual(v401.nextLink, "m")
        let v3 = try decode(#"{"odata.count":"2","value":[{"ID":1},{"ID":2}],"odata.nextLink":"p"}"#)
        XCTAssertEqual(v3.values.count, 2)
        XCTAssertEqual(v3.count, 2)
        XCTAssertEqual(v3.nextLink, "p")
        let v2 = try decode(#"{"d":{"results":[{"ID":7}],"__count":"40","__next":"q"}}"#)
        XCTAssertEqual(v2.values, [Item(id: 7)])
        XCTAssertEqual(v2.count, 40)
        XCTAssertEqual(v2.nextLink, "q")
        let v1 = try decode(#"{"d":[{"ID":8}]}"#)
        XCTAssertEqual(v1.values, [Item(id: 8)])
        XCTAssertNil(v1.count)
        XCTAssertThrowsError(try decode(#"{"@odata.count":"many","value":[]}"#))
        XCTAssertThrowsError(try decode(#"{"values":[]}"#), "a body without value or d is not a collection")
    }

    // MARK: Error handler

    private func handle(_ body: String, status: Int, accepted: Bool = false) -> ODataError? {
        let context = ResponseContext(statusCode: status)
        return ODataErrorHandler().error(for: context, body: Data(body.utf8), statusAccepted: accepted) as? ODataError
    }

    func testVersion4ErrorObject() throws {
        let error = try XCTUnwrap(
            handle(
                #"{"error":{"code":"BadProp","message":"Property 'Nope' is not a property","target":"$filter","details":[{"code":"D1","message":"m1","target":"Nope"}],"innererror":{"trace":["a","b"]}}}"#,
                status: 400))
        XCTAssertEqual(error.statusCode, 400)
        XCTAssertEqual(error.code, "BadProp")
        XCTAssertEqual(error.message, "Property 'Nope' is not a property")
        XCTAssertEqual(error.target, "$filter")
        XCTAssertEqual(error.details, [ODataError.Detail(code: "D1", message: "m1", target: "Nope")])
        XCTAssertEqual(error.innerError, #"{"trace":["a","b"]}"#)
    }

    func testVersion2And3ErrorObjects() throws {
        let v2 = try XCTUnwrap(
            handle(#"{"error":{"code":"005056A5","message":{"lang":"en","value":"Resource not found"}}}"#, status: 404))
        XCTAssertEqual(v2.code, "005056A5")
        XCTAssertEqual(v2.message, "Resource not found")
        XCTAssertEqual(v2.language, "en")
        let v3 = try XCTUnwrap(
            handle(#"{"odata.error":{"code":"","message":{"lang":"en-US","value":"Bad key"}}}"#, status: 400))
        XCTAssertEqual(v3.message, "Bad key")
        XCTAssertEqual(v3.language, "en-US")
    }

    func testXMLErrorDocument() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">
              <m:code>SY/530</m:code><m:message xml:lang="en">Key is missing</m:message>
            </m:error>
            """
        let error = try XCTUnwrap(handle(xml, status: 400))
        XCTAssertEqual(error.code, "SY/530")
        XCTAssertEqual(error.message, "Key is missing")
        XCTAssertEqual(error.language, "en")
    }

    func testNonODataBodiesAreStillErrors() throws {
        let html = try XCTUnwrap(handle("<html><body>Bad Gateway</body></html>", status: 502))
        XCTAssertNil(html.code)
        XCTAssertEqual(html.message, "<html><body>Bad Gateway</body></html>")
        let empty = try XCTUnwrap(handle("", status: 500))
        XCTAssertEqual(empty.message, "HTTP status 500 without a body")
        let long = try XCTUnwrap(handle(String(repeating: "x", count: 5_000), status: 500))
        XCTAssertEqual(long.message.count, ODataErrorHandler.messageLimit)
    }

    func testAcceptedResponses() {
        XCTAssertNil(handle(#"{"value":[]}"#, status: 200, accepted: true))
        XCTAssertNil(handle("not json", status: 200, accepted: true))
        XCTAssertEqual(
            handle(#" { "error" : {"code":"X","message":"failed anyway"}}"#, status: 200, accepted: true)?.message,
            "failed anyway", "a 200 whose body is only an error object is an error")
    }

    // MARK: The builder inside a call

    static let productOrders = WebServiceCall<ODataCollection<Item>>(
        relativePath: "Products(%%0%%)/Orders?client=%%1%%", urlBuilder: ODataURLBuilder(),
        errorHandler: ODataErrorHandler())

    func testWildcardsKeepWorkingNextToTheQuery() async throws {
        let request = try await sentRequest(
            Self.productOrders, [7, "a b", ODataQuery().filter(.property("Quantity") > 1).top(2)]
        ).get()
        XCTAssertEqual(
            request.url?.absoluteString,
            "https://api.example.com/v1/Products(7)/Orders?client=a%20b&$filter=Quantity%20gt%201&$top=2")
    }

    func testQueryAddsThePathAfterTheServiceRoot() async throws {
        let call = WebServiceCall<ODataCollection<Item>>(
            relativePath: "", urlBuilder: ODataURLBuilder(keyAsSegment: true))
        let request = try await sentRequest(call, [ODataQuery("Customers").key("O'Neil").select("Name")]).get()
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/Customers/O'Neil?$select=Name")
    }

    func testBadQueryFailsTheCallWithoutSending() async {
        let result = await sentRequest(Self.productOrders, [7, "x", ODataQuery().top(-3)])
        guard case .invalidArguments(_, let reason) = result.failure?.reason else {
            return XCTFail("expected invalidArguments, got \(result)")
        }
        XCTAssertTrue(reason.contains("$top cannot be negative"), reason)
        let two = await sentRequest(Self.productOrders, [7, "x", ODataQuery(), ODataQuery()])
        XCTAssertNotNil(two.failure)
    }

    func testServiceErrorReachesTheCaller() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(
            Self.productOrders,
            with: .text(
                #"{"error":{"code":"404","message":"Entity not found."}}"#, statusCode: 404,
                contentType: "application/json"))
        do {
            _ = try await client.perform(Self.productOrders, 1, "x", ODataQuery())
            XCTFail("expected an error")
        } catch {
            guard case .application(let underlying, let status) = error.reason, let odata = underlying as? ODataError
            else {
                return XCTFail("expected an ODataError, got \(error)")
            }
            XCTAssertEqual(status, 404)
            XCTAssertEqual(odata.message, "Entity not found.")
        }
    }

    // MARK: Paging

    static let items = WebServiceCall<ODataCollection<Item>>(relativePath: "", urlBuilder: ODataURLBuilder())

    func testPagesFollowAbsoluteAndRelativeNextLinks() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(
            Self.items,
            with: .text(#"{"value":[{"ID":1}],"@odata.nextLink":"https://api.example.com/v1/Items?$skiptoken=1"}"#),
            .text(#"{"value":[{"ID":2}],"@odata.nextLink":"Items?$skiptoken=2"}"#),
            .text(#"{"value":[{"ID":3}]}"#))
        let values = try await client.pages(Self.items, ODataQuery("Items").filter(.property("ID") > 0)).allValues()
        XCTAssertEqual(values.map(\.id), [1, 2, 3])
        XCTAssertEqual(
            stubs.requests.map { $0.request.url?.absoluteString ?? "" },
            [
                "https://api.example.com/v1/Items?$filter=ID%20gt%200",
                "https://api.example.com/v1/Items?$skiptoken=1",
                "https://api.example.com/v1/Items?$skiptoken=2",
            ])
    }

    func testForeignNextLinkIsRefused() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.items, with: .text(#"{"value":[{"ID":1}],"@odata.nextLink":"https://evil.example.net/steal"}"#))
        var pages: [[Int]] = []
        do {
            for try await page in client.pages(Self.items, ODataQuery("Items")) { pages.append(page.values.map(\.id)) }
            XCTFail("expected the foreign link to be refused")
        } catch {
            XCTAssertTrue("\(error)".contains("another origin"), "\(error)")
        }
        XCTAssertEqual(pages, [[1]])
        XCTAssertEqual(stubs.requests.count, 1, "nothing was sent to the other origin")
    }

    func testNextLinkBackToAFetchedPageEndsWithAnError() async throws {
        let (client, stubs) = makeStubClient()
        stubs.stub(Self.items, with: .text(#"{"value":[],"@odata.nextLink":"Items"}"#))
        do {
            _ = try await client.pages(Self.items, ODataQuery("Items")).allValues()
            XCTFail("expected a loop to be refused")
        } catch {
            XCTAssertTrue("\(error)".contains("is not a new page"), "\(error)")
        }
        XCTAssertEqual(stubs.requests.count, 1)
    }
}
