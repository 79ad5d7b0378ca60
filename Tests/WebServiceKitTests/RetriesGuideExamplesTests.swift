import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Swift examples of Docs/Retries.md, compiled and run against StubTransport. Declarations
// are written here as the page shows them. When you change an example, change the page too.

final class RetriesGuideExamplesTests: XCTestCase {
    private struct Report: Decodable, Sendable { let id: Int }

    /// "A descriptor's own policy wins over the client's" and the idempotency-key POST.
    func testTheDescriptorExamples() async throws {
        let stubs = StubTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let environment = RecordingRetryEnvironment()
        client.retryPolicy = RetryPolicy(maximumAttempts: 3, environment: environment)

        var fields = CallFields(relativePath: "reports/%%0%%")
        fields.retryPolicy = RetryPolicy(maximumAttempts: 5, maximumTotalTime: 600, environment: environment)
        let report = WebServiceCall<Report>(fields)

        var once = CallFields(method: .delete, relativePath: "sessions/current")
        once.retryPolicy = .never

        var payment = CallFields(method: .post, relativePath: "payments")
        payment.headers = ["Idempotency-Key": "%%1%%"]
        payment.isIdempotent = true

        stubs.stub(report, with: .status(503), .status(503), .status(503), .status(503), .json(["id": 7]))
        let fetched = try await client.response(for: report, 7)
        XCTAssertEqual(fetched.value.id, 7)
        XCTAssertEqual(fetched.attempts, 5)

        let end = WebServiceCall<EmptyResponse>(once)
        stubs.stub(end, with: .status(503), .status(204))
        do {
            _ = try await client.perform(end)
            XCTFail("never retried")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
        }

        let pay = WebServiceCall<EmptyResponse>(payment)
        stubs.stub(pay, with: .status(502), .status(204))
        let paid = try await client.response(for: pay, ["amount": 5], "key-1")
        XCTAssertEqual(paid.attempts, 2)
        XCTAssertEqual(stubs.requests.last?.request.value(forHTTPHeaderField: "Idempotency-Key"), "key-1")
        // Waits at the upper bound: 0.5, 1, 2, 4 s for the report; 0.5 s for the payment.
        XCTAssertEqual(environment.waits, [0.5, 1, 2, 4, 0.5])
    }

    /// The testing example: `RecordingRetryEnvironment` records the waits, `[0.5, 1.0]` after two
    /// retries with the default base delay and jitter 1.
    func testTheTestingExample() async throws {
        let stubs = StubTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        let call = WebServiceCall<String>(relativePath: "report")
        stubs.stub(call, with: .status(503), .status(503), .text("ok"))

        let environment = RecordingRetryEnvironment()
        client.retryPolicy = RetryPolicy(maximumAttempts: 3, environment: environment)
        let answer = try await client.perform(call)
        XCTAssertEqual(answer, "ok")
        XCTAssertEqual(environment.waits, [0.5, 1.0])
        XCTAssertEqual(environment.uptime(), 1.5)
    }

    /// The `catch .retryAfterTooLong(let refusal)` example.
    func testTheRefusalExample() async throws {
        let stubs = StubTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        client.retryPolicy = RetryPolicy(maximumAttempts: 3, environment: RecordingRetryEnvironment())
        let search = WebServiceCall<String>(relativePath: "search?q=%%0%%")
        stubs.stub(search, with: .status(429, headers: ["Retry-After": "90"]))
        var scheduled: TimeInterval?
        func scheduleLater(after seconds: TimeInterval) { scheduled = seconds }
        do {
            _ = try await client.perform(search, "books")
        } catch {
            if case .retryAfterTooLong(let refusal) = error.reason { scheduleLater(after: refusal.retryAfter) }
            XCTAssertEqual(
                "\(error)",
                "GET https://api.example.com/search?q=books: retry refused: the server asked "
                    + "to wait 90 s before retrying (status 429, after 1 attempt), longer than the 30 s the retry "
                    + "policy allows")
        }
        XCTAssertEqual(scheduled, 90)
    }
}
