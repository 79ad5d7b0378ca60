import Foundation
import WebServiceKit
import XCTest

/// What httpbin's `/anything` echoes of a JSON request, as a WebStruct-style one-line struct.
private struct EchoedOrder: Decodable, Sendable, WebInitializable {
    struct Order: Codable, Sendable, Equatable {
        let item: String
        let quantity: Int
    }
    let json: Order
    let url: String

    static let webServiceClient = WebServiceClient(serviceRoot: httpbinRoot)
    static let webServiceCall = WebServiceCall<EchoedOrder>(
        method: .post, relativePath: "anything/orders/%%0%%",
        errorHandler: DecodableErrorHandler(EchoedFailure.self, inAcceptedResponses: true))
}

/// The service's error, as `/anything` echoes it when the request body is one.
private struct EchoedFailure: Error, Decodable {
    struct Body: Decodable {
        struct Detail: Decodable {
            let code: Int
            let reason: String
        }
        let error: Detail
    }
    let json: Body
}

/// A request body that the echo turns into the service's error.
private struct ServiceErrorBody: Encodable, Sendable {
    struct Detail: Encodable, Sendable {
        let code: Int
        let reason: String
    }
    let error: Detail
}

/// A call whose response is not JSON at all, and one whose JSON does not fit.
private struct NotJSON: Decodable, Sendable, WebInitializable {
    let value: String
    static let webServiceClient = WebServiceClient(serviceRoot: httpbinRoot)
    static let webServiceCall = WebServiceCall<NotJSON>(relativePath: "html")
}

private struct MisfitJSON: Decodable, Sendable, WebInitializable {
    let missing: String
    static let webServiceClient = WebServiceClient(serviceRoot: httpbinRoot)
    static let webServiceCall = WebServiceCall<MisfitJSON>(relativePath: "json")
}

private struct Teapot: Decodable, Sendable, WebInitializable {
    // A stored property: a struct without one has its own `init()`, which `Teapot()` would call.
    let origin: String?
    static let webServiceClient = WebServiceClient(serviceRoot: httpbinRoot)
    static let webServiceCall = WebServiceCall<Teapot>(relativePath: "status/418")
}

private struct Unreachable: Decodable, Sendable, WebInitializable {
    let origin: String?
    static let webServiceClient = WebServiceClient(
        serviceRoot: URL(string: "http://127.0.0.1:\(closedLocalPort())/")!)
    static let webServiceCall = WebServiceCall<Unreachable>(relativePath: "nothing")
}

/// The local httpbin (each test first checks it is there with `HTTPBin.url()`).
private let httpbinRoot =
    ProcessInfo.processInfo.environment["WEBSERVICEKIT_HTTPBIN_URL"].flatMap(URL.init(string:))
    ?? URL(string: "http://127.0.0.1:1/")!

final class WebInitializableIntegrationTests: XCTestCase {
    func testAStructInitialisedInOneLine() throws {
        _ = try HTTPBin.url()
        let order = EchoedOrder.Order(item: "tea", quantity: 2)
        let echoed = try EchoedOrder("42", order)
        XCTAssertEqual(echoed.json, order)
        XCTAssertTrue(echoed.url.hasSuffix("/anything/orders/42"), echoed.url)
    }

    func testTheAsyncForm() async throws {
        _ = try HTTPBin.url()
        let order = EchoedOrder.Order(item: "coffee", quantity: 1)
        let echoed = try await EchoedOrder(fetching: "7", order)
        XCTAssertEqual(echoed.json, order)
    }

    func testWebStructsErrorCasesFromARealServer() async throws {
        _ = try HTTPBin.url()
        @Sendable func category(_ body: () throws -> Void) -> WebServiceError.Category? {
            do {
                try body()
                return nil
            } catch {
                return (error as? WebServiceError)?.category
            }
        }
        // The blocking form refuses to run inside a task: run the cases on a thread of their own.
        let categories = await withCheckedContinuation {
            (done: CheckedContinuation<[WebServiceError.Category?], Never>) in
            Thread {
                done.resume(returning: [
                    category { _ = try Unreachable() },
                    category { _ = try Teapot() },
                    category { _ = try NotJSON() },
                    category { _ = try MisfitJSON() },
                    category { _ = try EchoedOrder("1", ServiceErrorBody(error: .init(code: 7, reason: "quota"))) },
                ])
            }.start()
        }
        XCTAssertEqual(categories, [.network, .http, .ignoreData, .parse, .application])
    }
}
