import Foundation
import WebServiceKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The streaming server (Tests/Servers/stream_server.py) that `Scripts/test` starts on 127.0.0.1:
/// Server-Sent Events and JSON lines, sent slowly and cut at awkward places, and what it saw of
/// each stream under a tag (`/log`, `/stalled`), which the tests wait on instead of sleeping.
enum StreamServer {
    static func url(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        try HTTPBin.serverURL("WEBSERVICEKIT_STREAM_URL", file: file, line: line)
    }

    /// What the server saw under one tag (`/log`).
    struct Log: Decodable, Sendable {
        /// Requests made under the tag.
        let requests: Int
        /// Each request's method.
        let methods: [String]
        /// Each request's body length (0 for none).
        let requestBodies: [Int]
        /// Body bytes the tag's streams sent (framing excluded).
        let bytesSent: Int
        /// Whether a stream ran under the tag and none runs now (the server saw its client leave,
        /// or it finished, and closed the socket).
        let closed: Bool
        /// Streams begun under the tag.
        let streams: Int
    }

    /// What `/stalled` says: whether the tag's running stream stopped making progress (a write
    /// blocked because the client stopped reading), and the body bytes it sent until then.
    struct Stall: Decodable, Sendable {
        let bytesSent: Int
        let stalled: Bool
    }

    /// The client that asks the server for its records: one for the whole run, so that its
    /// first use (which may start the transport's event loops) happens in a warm-up, not while
    /// a test counts the process's descriptors and threads. Every answer says
    /// `Connection: close`: no connection of its stays open between two questions.
    static let recordClient: WebServiceClient? = {
        guard let root = try? url() else { return nil }
        return WebServiceClient(serviceRoot: root)
    }()

    private static func recordCall<Record: Decodable & Sendable>(_ path: String) -> WebServiceCall<Record> {
        var fields = CallFields(relativePath: path)
        // The server waits up to 30 s itself.
        fields.timeout = 60
        return WebServiceCall(fields)
    }

    /// The server's record of `tag`; with `waitingUntilClosed`, once the tag's stream ended and
    /// its socket is closed (the server waits for that up to 30 s).
    static func log(_ tag: String, waitingUntilClosed: Bool = true) async throws -> Log {
        let client = try recordClient ?? WebServiceClient(serviceRoot: url())
        let wait = waitingUntilClosed ? "&wait=closed" : ""
        return try await client.perform(recordCall("log?tag=\(tag)\(wait)"))
    }

    /// Waits (up to 30 s) until the tag's running stream stopped making progress for 0.5 s.
    static func stalled(_ tag: String) async throws -> Stall {
        let client = try recordClient ?? WebServiceClient(serviceRoot: url())
        return try await client.perform(recordCall("stalled?tag=\(tag)"))
    }

    /// A tag no other stream of the run uses.
    static func uniqueTag(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// The events `/sse?count=N&id=…&retry=…` dispatches, as its documentation describes them:
    /// event K has the type `tick` when K is odd (`message` otherwise), the data
    /// `{"n":K,"text":"é…✓"}` (with a second line `{"n":K,"part":2}` on every fifth), the ID `K`
    /// with `id=1` (none otherwise), and the first one the `retry` given. The BOM, the comments
    /// and the line ends do not change them.
    static func expectedEvents(count: Int, ids: Bool, retry: Int?) -> [ServerSentEvent] {
        stride(from: 1, through: count, by: 1).map { k in
            var data = #"{"n":\#(k),"text":"é…✓"}"#
            if k % 5 == 0 { data += "\n" + #"{"n":\#(k),"part":2}"# }
            return ServerSentEvent(
                type: k % 2 == 1 ? "tick" : "message", data: data, id: ids ? "\(k)" : "", retry: k == 1 ? retry : nil)
        }
    }
}
