import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

/// A struct that a (stubbed) web API initialises in one line.
private struct Greeting: Decodable, Sendable, Equatable, WebInitializable {
    let message: String

    static let transport = StubTransport()
    static let webServiceClient = WebServiceClient(
        serviceRoot: URL(string: "https://api.example.com/")!, transport: transport)
    static let webServiceCall = WebServiceCall<Greeting>(
        method: .post, relativePath: "greetings/%%0%%",
        errorHandler: DecodableErrorHandler(ServiceFailure.self, inAcceptedResponses: true))
}

/// The service's own error body: `{"error": {"code": 7, "reason": "…"}}`.
private struct ServiceFailure: Error, Decodable, Equatable {
    struct Detail: Decodable, Equatable {
        let code: Int
        let reason: String
    }
    let error: Detail
}

/// A stub answering `text` as a JSON body.
private func rawJSON(_ text: String, status: Int = 200) -> StubTransport.Stub {
    StubTransport.Stub(statusCode: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
}

final class WebInitializableTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Greeting.transport.reset()
    }

    private func answer(_ stub: StubTransport.Stub) {
        Greeting.transport.stub(Greeting.webServiceCall, with: stub)
    }

    func testOneLineInitialisationBlocksAndSendsTheArguments() throws {
        answer(rawJSON(#"{"message": "hello, Ada"}"#))
        let greeting = try Greeting("en", ["name": "Ada"])
        XCTAssertEqual(greeting, Greeting(message: "hello, Ada"))
        let sent = try XCTUnwrap(Greeting.transport.requests.first?.request)
        XCTAssertEqual(sent.url?.absoluteString, "https://api.example.com/greetings/en")
        XCTAssertEqual(sent.httpMethod, "POST")
        let body = try XCTUnwrap(sent.httpBody)
        XCTAssertEqual(try JSONDecoder().decode([String: String].self, from: body), ["name": "Ada"])
    }

    func testAsyncInitialisation() async throws {
        answer(rawJSON(#"{"message": "bonjour"}"#))
        let greeting = try await Greeting(fetching: "fr", ["name": "Ada"])
        XCTAssertEqual(greeting.message, "bonjour")
    }

    func testTheBlockingFormRefusesToRunInsideATask() async {
        answer(rawJSON(#"{"message": "never"}"#))
        do {
            _ = try Greeting("en", ["name": "Ada"])
            XCTFail("a blocking init inside a task must be refused")
        } catch {
            XCTAssertEqual(error.category, .invalidRequest)
        }
        XCTAssertTrue(Greeting.transport.requests.isEmpty)
    }

    /// Each of WebStruct's error cases, from the response that causes it.
    func testWebStructsErrorTaxonomy() throws {
        let cases: [(StubTransport.Stub, WebServiceError.Category)] = [
            (.failure(.cannotConnectToHost), .network),
            (.failure(.timedOut), .network),
            (rawJSON(#"{"message": "gone"}"#, status: 404), .http),
            (.text("<html>not json</html>"), .ignoreData),
            (.status(200), .ignoreData),
            (rawJSON(#"{"text": "no message key"}"#), .parse),
            (rawJSON(#"{"message": 42}"#), .parse),
            (rawJSON(#"{"error": {"code": 7, "reason": "quota"}}"#), .application),
            (rawJSON(#"{"error": {"code": 9, "reason": "bad"}}"#, status: 400), .application),
        ]
        for (stub, expected) in cases {
            Greeting.transport.reset()
            answer(stub)
            do {
                let greeting = try Greeting("en", ["name": "Ada"])
                XCTFail("\(stub.statusCode) decoded as \(greeting)")
            } catch {
                XCTAssertEqual(error.category, expected, "\(error)")
                if expected == .application {
                    guard case .application(let failure as ServiceFailure, _) = error.reason else {
                        XCTFail("expected the service's error, got \(error)")
                        continue
                    }
                    XCTAssertFalse(failure.error.reason.isEmpty)
                }
            }
        }
    }

    func testEveryErrorHasACategory() {
        let samples: [(WebServiceError, WebServiceError.Category)] = [
            (.invalidCall("x"), .invalidRequest), (.invalidArguments(index: 0, reason: "x"), .invalidRequest),
            (.invalidHeader(name: "X", reason: "CR"), .invalidRequest), (.requestSerialization("x"), .invalidRequest),
            (.intercepted(URLError(.unknown)), .invalidRequest), (.transport(URLError(.timedOut)), .network),
            (.unacceptableStatus(code: 500, headers: [:], body: Data()), .http),
            (.emptyBody(statusCode: 200), .ignoreData),
            (.application(URLError(.unknown), statusCode: 200), .application), (.authentication("x"), .authentication),
            (.cancelled(reason: nil), .cancelled),
        ]
        for (error, category) in samples { XCTAssertEqual(error.category, category, "\(error)") }
    }

    func testAcceptedResponsesAreNotErrorsUnlessAsked() throws {
        // Without inAcceptedResponses, an accepted body that looks like an error is decoded as the value.
        let call = WebServiceCall<[String: [String: String]]>(
            relativePath: "x", errorHandler: DecodableErrorHandler(ServiceFailure.self))
        let transport = StubTransport(fallback: rawJSON(#"{"error": {"code": "7", "reason": "quota"}}"#))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: transport)
        let value = try client.performSynchronously(call).value
        XCTAssertEqual(value["error"]?["reason"], "quota")
    }
}
