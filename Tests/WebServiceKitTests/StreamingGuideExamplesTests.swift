import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Swift examples of Docs/Streaming.md, compiled and run against StubTransport. Declarations
// are written here as the page shows them. When you change an example, change the page too.

private struct Token: Decodable, Sendable { let text: String }
private struct Prompt: Encodable, Sendable { let text: String }

extension TypedCall
where
    Arguments == ArgumentList<String>, Body == NoBody,
    Response == ResponseStream<ServerSentEvent>
{
    fileprivate static let ticker = TypedCall(.init(relativePath: "ticker/%%0%%", stream: .serverSentEvents))
}
extension TypedCall where Arguments == ArgumentList<>, Body == Prompt, Response == ResponseStream<Token> {
    fileprivate static let complete = TypedCall(
        .init(method: .post, relativePath: "v1/complete", stream: .jsonLines(Token.self)))
}

final class StreamingGuideExamplesTests: XCTestCase {
    /// The first example: a ticker of events and a completion of JSON lines.
    func testTheOpeningExample() async throws {
        let stubs = StubTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        stubs.stub(
            .ticker,
            with: .text(
                "event: price\ndata: 1.08\n\ndata: closed\n\ndata: never read\n\n", contentType: "text/event-stream"))
        stubs.stub(
            .complete, with: .text("{\"text\":\"Hel\"}\n{\"text\":\"lo\"}\n", contentType: "application/x-ndjson"))

        let events = try await client.stream(.ticker, "EURUSD")
        XCTAssertEqual(events.statusCode, 200)
        XCTAssertEqual(events.headers["Content-Type"], "text/event-stream")
        var seen: [String] = []
        for try await event in events {
            seen.append("\(event.type) \(event.data)")
            if event.data == "closed" { break }
        }
        XCTAssertEqual(seen, ["price 1.08", "message closed"])
        XCTAssertEqual(stubs.requests.first?.request.url?.path, "/ticker/EURUSD")

        var text = ""
        for try await token in try await client.stream(.complete, body: Prompt(text: "Hello")) { text += token.text }
        XCTAssertEqual(text, "Hello")
        XCTAssertEqual(stubs.requests.last?.request.httpMethod, "POST")
    }

    /// "Reconnecting event streams" and "Time, size and ending".
    func testTheFeedAndTheExportDeclarations() async throws {
        let clock = RecordingRetryEnvironment()
        let feed = WebServiceCall<ResponseStream<ServerSentEvent>>(
            relativePath: "feed",
            stream: .serverSentEvents(
                reconnection: EventStreamReconnection(maximumFailedAttempts: 10, environment: clock)))
        var fields = CallFields(relativePath: "export")
        fields.maximumStreamedBodySize = 100 << 20  // 100 MiB in all
        fields.streamBufferSize = 1 << 20  // up to 1 MiB ahead of the consumer
        let export = WebServiceCall<ResponseStream<Data>>(fields, stream: .bytes)
        XCTAssertNoThrow(try export.validate())
        XCTAssertEqual(export.streamBufferSize, 1 << 20)

        let stubs = StubTransport()
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        stubs.stub(feed, with: .text("id: 1\ndata: a\n\n"), .text("data: b\n\n"), .status(204))
        var data: [String] = []
        for try await event in try await client.stream(feed) { data.append(event.data) }
        XCTAssertEqual(data, ["a", "b"])
        XCTAssertEqual(clock.waits, [3, 3], "the default delay, the server sent no retry")
        XCTAssertEqual(stubs.requests.map { $0.request.value(forHTTPHeaderField: "Last-Event-ID") }, [nil, "1", "1"])
    }
}
