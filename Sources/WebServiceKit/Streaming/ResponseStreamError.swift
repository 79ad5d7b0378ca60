/// Why a streamed response stopped before its end, other than a transport failure, a timeout
/// (``WebServiceError/transport(_:)``), a cancellation, an element that did not decode
/// (``WebServiceError/decoding(_:)``) or a body over the call's
/// ``CallFields/maximumStreamedBodySize`` (``WebServiceError/responseTooLarge(limit:statusCode:)``).
///
/// Every limit is checked as bytes arrive: a server that never ends a line or an event cannot make
/// the client hold more than the limit in memory.
public enum ResponseStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A line (``StreamFormat/lines``, ``StreamFormat/jsonLines(_:decoder:maximumLineLength:)``,
    /// or a line of an event stream) grew past `limit` bytes before it ended.
    case lineTooLong(limit: Int)
    /// One Server-Sent Event's data grew past `limit` bytes of UTF-8.
    case eventTooLarge(limit: Int)
    /// The consumer fell more than `limit` bytes behind a transport that cannot stop reading
    /// (`URLSession` on Linux: FoundationNetworking has no way to pause a task's input). The
    /// client's own HTTP/1.1 transport, and `URLSession` on Apple platforms, stop reading at the
    /// call's ``CallFields/streamBufferSize`` instead and never reach this.
    case consumerTooSlow(limit: Int)

    public var description: String {
        switch self {
        case .lineTooLong(let limit): return "a line longer than \(limit) bytes"
        case .eventTooLarge(let limit): return "an event with more than \(limit) bytes of data"
        case .consumerTooSlow(let limit):
            return "the consumer fell more than \(limit) bytes behind a transport that cannot pause"
        }
    }

    /// The error for a parser's `error`.
    init(_ error: StreamParseError) {
        switch error {
        case .lineTooLong(let limit): self = .lineTooLong(limit: limit)
        case .eventTooLarge(let limit): self = .eventTooLarge(limit: limit)
        // Never for a stream format here: every format accepts an unterminated last line (event
        // streams discard it, lines and JSON lines deliver it).
        case .unterminatedLine(let length): self = .lineTooLong(limit: length)
        }
    }
}
