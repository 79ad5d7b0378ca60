import Foundation
import WebServiceKitTesting
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The argument plan: what the declaration decides once per descriptor, and the bindings that
/// follow from it.
final class ArgumentPlanTests: XCTestCase {
    private struct Payload: Codable, Equatable, Sendable { let title: String }

    private func plan(_ call: WebServiceCall<Data>) throws -> ArgumentPlan {
        try call.descriptor.compiled.get().arguments
    }

    func testTheDeclarationFixesTheRoleOfEveryPositionItNames() throws {
        let call = WebServiceCall<Data>(
            method: .post, relativePath: "a/%%0%%?q=%%2%%", headers: ["X": "%%5%%"], bodyParameter: 4,
            cacheIdentifier: "c-%%6%%", progressParameter: 1)
        let plan = try plan(call)
        XCTAssertEqual(plan.firstSearched, 3)
        XCTAssertEqual(
            (0..<9).map { plan.role($0) },
            [.declared, .declared, .declared, .open, .body, .declared, .declared, .open, .open])
        XCTAssertEqual(plan.progressParameter, 1)
        XCTAssertEqual(plan.bodyParameter, 4)
    }

    func testABodyParameterAWildcardNamesIsTheWildcards() throws {
        let plan = try plan(WebServiceCall<Data>(method: .put, relativePath: "a/%%0%%", bodyParameter: 0))
        XCTAssertEqual(plan.role(0), .declared)
        XCTAssertEqual(plan.firstSearched, 1)
        let far = try self.plan(WebServiceCall<Data>(method: .put, relativePath: "a", bodyParameter: 3))
        XCTAssertEqual((0..<5).map { far.role($0) }, [.open, .open, .open, .body, .open])
        XCTAssertEqual(far.firstSearched, 0)
    }

    func testACallWithoutArgumentsHasNothingToSearch() throws {
        let plan = try plan(WebServiceCall<Data>(relativePath: "items?sort=name"))
        XCTAssertEqual(plan.firstSearched, 0)
        XCTAssertEqual(plan.role(0), .open)
        let binder = ArgumentBinder([], plan: plan)
        let open = try binder.searchOpenPositions(urlBuilder: nil)
        XCTAssertNil(open.destination)
        XCTAssertNil(open.unusedPosition(besides: nil))
    }

    func testTheOpenSearchDecidesEachPositionOnceInOrder() throws {
        struct Page: Sendable { let number: Int }
        struct PageBuilder: URLBuilder {
            func accepts(_ argument: Any) -> Bool { argument is Page }
            func buildURL(from url: URL, arguments: [Any]) throws -> URL { url }
        }
        let plan = try plan(WebServiceCall<Data>(method: .post, relativePath: "x/%%0%%"))
        let destination = DownloadDestination(URL(fileURLWithPath: "/tmp/unused"))
        let part = FormData(name: "a", value: "1")
        let arguments: [any Sendable] = [
            "x", Page(number: 1), part, destination, "left", [part, part], Payload(title: "t"),
        ]
        let open = try ArgumentBinder(arguments, plan: plan).searchOpenPositions(urlBuilder: PageBuilder())
        XCTAssertEqual(open.destination, destination)
        XCTAssertEqual(open.builderArguments.count, 1)
        XCTAssertEqual(open.parts.count, 3)
        XCTAssertEqual(open.unusedPosition(besides: nil), 4)
        XCTAssertEqual(open.unusedPosition(besides: 4), 6)
        XCTAssertEqual(open.unusedPosition(besides: 6), 4)
    }

    func testASecondDestinationIsRefusedAtItsPosition() throws {
        let plan = try plan(WebServiceCall<Data>(relativePath: "x"))
        let destination = DownloadDestination(URL(fileURLWithPath: "/tmp/unused"))
        XCTAssertThrowsError(
            try ArgumentBinder(["a", destination, destination], plan: plan).searchOpenPositions(urlBuilder: nil)
        ) { error in
            guard case .invalidArguments(2, let reason)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(reason, "a call downloads to one DownloadDestination only")
        }
    }

    // MARK: Bindings

    private let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!)

    /// A wildcard's position is the wildcard's whatever its value: a `nil` name that drops a query
    /// item still uses the value's argument (before the plan, that argument was left over and
    /// became an unused-argument error, or the body of a POST).
    func testAWildcardUsesItsArgumentEvenWhenANilDropsTheItem() throws {
        let get = WebServiceCall<Data>(relativePath: "s?%%0%%=%%1%%&k=%%2%%")
        let request = try client.request(for: get, arguments: [String?.none, "x", "kept"])
        XCTAssertEqual(request.url?.query, "k=kept")
        let post = WebServiceCall<Data>(method: .post, relativePath: "s?%%0%%=%%1%%")
        let posted = try client.request(for: post, arguments: [String?.none, "x", Payload(title: "body")])
        XCTAssertEqual(posted.url?.query, nil)
        XCTAssertEqual(try JSONDecoder().decode(Payload.self, from: posted.httpBody ?? Data()), Payload(title: "body"))
    }

    /// A header wildcard's argument is the header's: the URL builder is not offered it.
    func testTheURLBuilderIsOfferedOnlyOpenPositions() throws {
        struct TextBuilder: URLBuilder {
            func accepts(_ argument: Any) -> Bool { argument is String }
            func buildURL(from url: URL, arguments: [Any]) throws -> URL {
                URL(string: url.absoluteString + "?b=" + arguments.map { "\($0)" }.joined(separator: ","))!
            }
        }
        let call = WebServiceCall<Data>(relativePath: "a", headers: ["X-H": "%%0%%"], urlBuilder: TextBuilder())
        let request = try client.request(for: call, arguments: ["header", "built"])
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/a?b=built")
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-H"), "header")
    }

    func testAFormDataBodyParameterMakesAMultipartBody() throws {
        let call = WebServiceCall<Data>(method: .post, relativePath: "up/%%0%%", bodyParameter: 1)
        let request = try client.request(for: call, arguments: ["id", FormData(name: "a", value: "1")])
        XCTAssertTrue(
            request.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=") ?? false)
        XCTAssertEqual(request.url?.path, "/v1/up/id")
    }

    func testWhatIsLeftBesideTheBodyIsUnused() {
        let implicit = WebServiceCall<Data>(method: .post, relativePath: "items")
        XCTAssertThrowsError(try client.request(for: implicit, arguments: [Payload(title: "a"), "extra"])) { error in
            guard case .invalidArguments(1, let reason)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(
                reason,
                "a String that nothing uses: no %%1%% wildcard refers to it and the call already has a body")
        }
        let explicit = WebServiceCall<Data>(method: .post, relativePath: "items", bodyParameter: 1)
        XCTAssertThrowsError(try client.request(for: explicit, arguments: ["extra", Payload(title: "a")])) { error in
            guard case .invalidArguments(0, _)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
        }
        let multipart = WebServiceCall<Data>(method: .post, relativePath: "items")
        XCTAssertThrowsError(
            try client.request(for: multipart, arguments: [FormData(name: "a", value: "1"), Payload(title: "a")])
        ) { error in
            guard case .invalidArguments(1, _)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
        }
        let get = WebServiceCall<Data>(relativePath: "items")
        XCTAssertThrowsError(try client.request(for: get, arguments: [1])) { error in
            guard case .invalidArguments(0, let reason)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(
                reason,
                "a Int that nothing uses: no %%0%% wildcard refers to it and a GET call sends no body unless "
                    + "bodyParameter names one")
        }
    }

    func testAMissingBodyParameterIsNamed() {
        let call = WebServiceCall<Data>(method: .post, relativePath: "items", bodyParameter: 2)
        XCTAssertThrowsError(try client.request(for: call, arguments: ["a"])) { error in
            guard case .invalidArguments(2, let reason)? = (error as? WebServiceError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(reason, "missing: the body uses argument 2 but only 1 were passed")
        }
    }
}
