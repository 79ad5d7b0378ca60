import Foundation
import WebServiceKit

/// One tick of the stream server's JSON lines.
private struct Item: Decodable, Sendable {
    let n: Int
    let name: String
}

/// What the stream server saw of a tag's requests.
private struct StreamLog: Decodable, Sendable {
    let requests: Int
    let lastEventIDs: [String?]
    let bytesSent: Int
    let closed: Bool
}

private struct Stall: Decodable, Sendable {
    let bytesSent: Int
    let stalled: Bool
}

extension WebServiceCall where Response == ResponseStream<ServerSentEvent> {
    /// Events that arrive 150 ms apart, cut at awkward places on the wire.
    fileprivate static let ticks = WebServiceCall(
        relativePath: "sse?count=5&interval=150&split=awkward&id=1&crlf=mixed", stream: .serverSentEvents)
    /// A feed whose server closes the connection every 2 events: the stream reconnects with
    /// Last-Event-ID after the server's `retry` (100 ms), until the server answers 204.
    fileprivate static let feed = WebServiceCall(
        relativePath: "reconnect?tag=%%0%%&per=2&total=5&retry=100",
        stream: .serverSentEvents(reconnection: EventStreamReconnection()))
    /// 64 MiB of events, as fast as the socket takes them.
    fileprivate static let firehose = WebServiceCall(relativePath: "firehose?tag=%%0%%", stream: .serverSentEvents)
}

extension WebServiceCall where Response == ResponseStream<Item> {
    fileprivate static let items = WebServiceCall(
        relativePath: "jsonl?count=3&interval=100", stream: .jsonLines(Item.self))
}

extension WebServiceCall where Response == ResponseStream<String> {
    fileprivate static let failing = WebServiceCall(relativePath: "status?code=503", stream: .lines)
}

/// Streams from the local stream server: events printed as they arrive, JSON lines, a feed that
/// reconnects, a slow consumer that holds the server back, and an error status.
func demonstrateStreaming(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    let start = Date()
    func elapsed() -> String { String(format: "%4.0f ms", Date().timeIntervalSince(start) * 1000) }
    do {
        let events = try await client.stream(.ticks)
        print("\(elapsed()) head: \(events.statusCode) \(events.headers["Content-Type"] ?? "")")
        for try await event in events {
            print(
                "\(elapsed()) event \(event.type) id \(event.id): \(event.data.replacingOccurrences(of: "\n", with: " / "))"
            )
        }

        for try await item in try await client.stream(.items) {
            print("\(elapsed()) JSON line: n=\(item.n) name=\(item.name)")
        }

        let tag = UUID().uuidString
        var received: [String] = []
        for try await event in try await client.stream(.feed, tag) { received.append(event.data) }
        let log = try await client.perform(WebServiceCall<StreamLog>(relativePath: "log?tag=%%0%%"), tag)
        print(
            "reconnecting feed: events \(received.joined(separator: ", ")) over \(log.requests) connections;"
                + " Last-Event-ID sent: \(log.lastEventIDs.map { $0 ?? "none" }.joined(separator: ", "))")

        let hose = UUID().uuidString
        let stream = try await client.stream(.firehose, hose)
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        let stall = try await client.perform(WebServiceCall<Stall>(relativePath: "stalled?tag=%%0%%"), hose)
        print(
            "slow consumer: the server stalled (\(stall.stalled)) after \(stall.bytesSent / 1024) KiB of 65,536 KiB;"
                + " at most \(CallFields(relativePath: "").streamBufferSize / 1024) KiB wait in the client")
        stream.cancel()
        let closed = try await client.perform(
            WebServiceCall<StreamLog>(relativePath: "log?tag=%%0%%&wait=closed"), hose)
        print("cancelled: the server saw the connection closed: \(closed.closed)")
    } catch {
        print("stream failed: \(error)")
    }
    do {
        _ = try await client.stream(.failing)
    } catch {
        print("error status before any element: \(error)")
    }
}
