import Foundation
import WebServiceKit

/// One step of a fault-server script (`/script`): the answer to the n-th request under a tag.
/// Header fields are sent exactly as written and in order (two lines of one name stay two lines).
/// Fields left `nil` are not sent to the server.
struct ScriptStep: Encodable, Sendable {
    /// The status code.
    var status = 200
    /// Name and value pairs, sent in order.
    var headers: [[String]] = []
    /// The body, as text.
    var body = ""
    /// The body as base64, for bytes that are not text; replaces ``body``.
    var body64: String?
    /// `before-headers` resets the connection without an answer; `mid-body` sends the head and
    /// half the body, then resets.
    var drop: String?
    /// `reset`: the same as `drop: before-headers`.
    var action: String?
    /// Seconds the server waits before it answers.
    var delay: Double?
}

/// The fault server's scripted conversations, for tests that need a real server to send header
/// fields exactly as a test wrote them: `/script?tag=T&steps=S` answers the n-th request tagged
/// `T` with step n (the last one repeats), `/script-log?of=T` gives the header fields each of
/// those requests carried.
enum FaultScript {
    /// A tag no other test uses, so that the server's step counter starts at 1.
    static func newTag(_ prefix: String) -> String { prefix + "-" + UUID().uuidString.lowercased() }

    /// The relative path that plays `steps` for the requests tagged `tag`. The steps are encoded
    /// with sorted keys: the same steps make the same path, which is the cache key.
    static func path(_ steps: [ScriptStep], tag: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let base64URL = try encoder.encode(steps).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "script?tag=\(tag)&steps=\(base64URL)"
    }

    /// The header fields (names in lower case) of each request the server answered for `tag`, in
    /// order.
    static func requests(_ tag: String) async throws -> [[String: String]] {
        let client = WebServiceClient(serviceRoot: try FaultServer.url())
        return try await client.perform(WebServiceCall<[[String: String]]>(relativePath: "script-log?of=\(tag)"))
    }
}
