import Foundation

/// What the chaos server wrote down about one request it read, or one extra response it sent
/// (`GET /_log?run=R`, a JSON object per line).
public struct ChaosRecord: Decodable, Sendable {
    /// The request's nonce; for an extra response, the nonce of the request it followed plus
    /// `/extra`.
    public let nonce: String
    public let method: String?
    /// The server's number of the connection.
    public let conn: Int
    /// The request's number on its connection (1 for the first).
    public let seq: Int?
    /// What the server did: `length`, `chunked`, … (see the server's BEHAVIOURS), or `sse`.
    public let behaviour: String?
    /// `complete`, `incomplete` (the head came, its body never did) or `absent`.
    public let body: String?
    /// For a POST: whether its body carried the request's own nonce.
    public let bodyOK: Bool?
    /// Whether the whole answer was written.
    public let answered: Bool?
    /// An SSE stream's events written whole, whether it was cut, and its framing.
    public let events: Int?
    public let cut: Bool?
    public let framing: String?
    /// For an extra response: the nonce it carries, and its race with the connection's next
    /// request: `waiting` (the request was there before it: no client can tell it from the
    /// answer), `near` (the request came within the server's grace after it: the client looked at
    /// the connection just before it came, most likely), `closed` (the client closed the
    /// connection instead: it saw it), `clear` (nothing came within the grace: a client that looks
    /// before writing sees it). After `waiting` or `near` the server
    /// ends the connection, so one wrong answer never shifts the next ones.
    public let extra: String?
    public let race: String?

    /// Behaviours after which the call must fail, and how.
    var expectedFailure: ChaosFailure? {
        switch behaviour {
        case "reset-before-head", "close-before-head", "reset-mid-body", "close-mid-body": .connectionLost("")
        case "stall": .timedOut
        case "503": .status(503)
        default: nil
        }
    }
}

/// The server's records of one run, indexed.
struct ChaosServerLog {
    /// The records of each request nonce, in the order the server read them.
    var requests: [String: [ChaosRecord]] = [:]
    /// Extra responses by the nonce they carry.
    var extras: [String: ChaosRecord] = [:]

    init(lines: Data) throws {
        let decoder = JSONDecoder()
        for line in lines.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            let record = try decoder.decode(ChaosRecord.self, from: Data(line))
            if let extra = record.extra {
                extras[extra] = record
            } else {
                requests[record.nonce, default: []].append(record)
            }
        }
    }
}
