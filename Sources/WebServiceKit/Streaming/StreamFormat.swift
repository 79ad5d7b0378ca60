import Foundation

/// How the bytes of a streamed response become the elements of its ``ResponseStream``: raw
/// chunks, lines, JSON lines or Server-Sent Events.
///
/// ```swift
/// extension WebServiceCall where Response == ResponseStream<ServerSentEvent> {
///     static let ticker = WebServiceCall(relativePath: "ticker", stream: .serverSentEvents)
/// }
/// extension WebServiceCall where Response == ResponseStream<LogRecord> {
///     static let tail = WebServiceCall(relativePath: "logs/%%0%%", stream: .jsonLines(LogRecord.self))
/// }
/// ```
///
/// Every format bounds what it holds: a line (or an event) that does not end within its limit is a
/// ``ResponseStreamError``, however long the server keeps sending.
public struct StreamFormat<Element: Sendable>: Sendable {
    /// A decoder for the body of a response with the status code given.
    let makeDecoder: @Sendable (Int) -> any StreamElementDecoder<Element>
    /// For Server-Sent Events that reconnect: how (``EventStreamReconnection``).
    let reconnection: EventStreamReconnection?

    init(
        reconnection: EventStreamReconnection? = nil,
        _ makeDecoder: @escaping @Sendable (Int) -> any StreamElementDecoder<Element>
    ) {
        self.makeDecoder = makeDecoder
        self.reconnection = reconnection
    }
}

extension StreamFormat where Element == Data {
    /// The body's bytes as they arrive, in pieces of whatever size the transport read.
    public static var bytes: StreamFormat<Data> { StreamFormat { _ in BytesDecoder() } }
}

extension StreamFormat where Element == String {
    /// The body's lines, decoded as UTF-8 (an invalid sequence becomes U+FFFD), without their line
    /// ends (LF or CRLF; a lone CR is part of the line). A last line without a line end is
    /// delivered too.
    public static var lines: StreamFormat<String> { lines(maximumLength: 1 << 20) }

    /// The body's lines, each at most `maximumLength` bytes long (past it:
    /// ``ResponseStreamError/lineTooLong(limit:)``).
    public static func lines(maximumLength: Int) -> StreamFormat<String> {
        StreamFormat { _ in LinesDecoder(maximumLength: maximumLength) }
    }
}

extension StreamFormat where Element == ServerSentEvent {
    /// Server-Sent Events, interpreted as the WHATWG HTML standard says (§9.2.6): comments, `event`,
    /// multi-line `data`, `id`, `retry`, a BOM, CR, LF and CRLF line ends. An event not ended by an
    /// empty line when the body ends is discarded.
    public static var serverSentEvents: StreamFormat<ServerSentEvent> { serverSentEvents() }

    /// Server-Sent Events whose lines are at most `maximumLineLength` bytes and whose events carry
    /// at most `maximumEventSize` bytes of data; with a `reconnection`, the stream reconnects when
    /// its connection ends, as `EventSource` does (``EventStreamReconnection``).
    public static func serverSentEvents(
        maximumLineLength: Int = 1 << 20, maximumEventSize: Int = 16 << 20,
        reconnection: EventStreamReconnection? = nil
    ) -> StreamFormat<ServerSentEvent> {
        StreamFormat(reconnection: reconnection) { _ in
            EventsDecoder(
                parser: ServerSentEventParser(maximumLineLength: maximumLineLength, maximumDataSize: maximumEventSize))
        }
    }
}

extension StreamFormat where Element: Decodable {
    /// JSON lines (also called NDJSON): each line of the body is one JSON value, decoded into
    /// `Element` as soon as it ends. Empty (or blank) lines are skipped; a line that does not decode
    /// ends the stream with ``WebServiceError/decoding(_:)``.
    public static func jsonLines(
        _ type: Element.Type = Element.self, decoder: JSONDecoder = JSONDecoder(), maximumLineLength: Int = 1 << 20
    ) -> StreamFormat<Element> {
        let decoder = UncheckedDecoder(decoder: decoder)
        return StreamFormat { status in
            JSONLinesDecoder<Element>(decoder: decoder, maximumLength: maximumLineLength, statusCode: status)
        }
    }
}

/// Turns the pieces of a body into elements; one per stream, fed in order.
protocol StreamElementDecoder<Element> {
    associatedtype Element
    /// The elements `chunk` completes, in order, appended to `elements`.
    mutating func decode(_ chunk: Data, into elements: inout [Element]) throws(WebServiceError)
    /// The elements the end of the body completes.
    mutating func finish(into elements: inout [Element]) throws(WebServiceError)
    /// For a stream that reconnects: starts the next connection's body, and returns the last event
    /// ID and the server's reconnection time (milliseconds) to reconnect with; `nil` for a format
    /// that does not reconnect.
    mutating func restart() -> (lastEventID: String, reconnectionTime: Int?)?
}

extension StreamElementDecoder {
    mutating func restart() -> (lastEventID: String, reconnectionTime: Int?)? { nil }
}

struct BytesDecoder: StreamElementDecoder {
    mutating func decode(_ chunk: Data, into elements: inout [Data]) throws(WebServiceError) {
        elements.append(chunk)
    }
    mutating func finish(into elements: inout [Data]) throws(WebServiceError) {}
}

struct LinesDecoder: StreamElementDecoder {
    private var splitter: LineSplitter

    init(maximumLength: Int) {
        splitter = LineSplitter(maximumLineLength: maximumLength, splitsAtLoneCR: false)
    }

    mutating func decode(_ chunk: Data, into elements: inout [String]) throws(WebServiceError) {
        do {
            try splitter.scan(chunk) { line in elements.append(String(decoding: line, as: UTF8.self)) }
        } catch {
            throw .responseStream(ResponseStreamError(error))
        }
    }

    mutating func finish(into elements: inout [String]) throws(WebServiceError) {
        do {
            if let line = try splitter.finish(allowingUnterminatedLine: true) {
                elements.append(String(decoding: line, as: UTF8.self))
            }
        } catch {
            throw .responseStream(ResponseStreamError(error))
        }
    }
}

struct EventsDecoder: StreamElementDecoder {
    var parser: ServerSentEventParser

    mutating func decode(_ chunk: Data, into elements: inout [ServerSentEvent]) throws(WebServiceError) {
        do {
            try parser.append(chunk, into: &elements)
        } catch {
            throw .responseStream(ResponseStreamError(error))
        }
    }

    mutating func finish(into elements: inout [ServerSentEvent]) throws(WebServiceError) {
        do {
            try parser.finish()
        } catch {
            throw .responseStream(ResponseStreamError(error))
        }
    }

    mutating func restart() -> (lastEventID: String, reconnectionTime: Int?)? {
        parser.restart()
        return (parser.lastEventID, parser.reconnectionTime)
    }
}

/// `JSONDecoder` is a class that Foundation does not mark `Sendable`; it is only read here, once
/// configured, as the client's own decoders are.
struct UncheckedDecoder: @unchecked Sendable {
    let decoder: JSONDecoder
}

struct JSONLinesDecoder<Element: Decodable>: StreamElementDecoder {
    let decoder: UncheckedDecoder
    let statusCode: Int
    private var splitter: LineSplitter

    init(decoder: UncheckedDecoder, maximumLength: Int, statusCode: Int) {
        self.decoder = decoder
        self.statusCode = statusCode
        splitter = LineSplitter(maximumLineLength: maximumLength, splitsAtLoneCR: false)
    }

    mutating func decode(_ chunk: Data, into elements: inout [Element]) throws(WebServiceError) {
        // Gathered first, then decoded: an error decoding one is not the splitter's to keep.
        var lines: [Data] = []
        do {
            try splitter.scan(chunk) { lines.append(Data($0)) }
        } catch {
            // The lines before the one that is too long still count.
            for line in lines { try decodeLine(line, into: &elements) }
            throw .responseStream(ResponseStreamError(error))
        }
        for line in lines { try decodeLine(line, into: &elements) }
    }

    mutating func finish(into elements: inout [Element]) throws(WebServiceError) {
        let last: [UInt8]?
        do {
            last = try splitter.finish(allowingUnterminatedLine: true)
        } catch {
            throw .responseStream(ResponseStreamError(error))
        }
        if let last { try decodeLine(Data(last), into: &elements) }
    }

    private func decodeLine(_ data: Data, into elements: inout [Element]) throws(WebServiceError) {
        // Blank lines (spaces, tabs, a CR a lone-CR-less splitter kept) carry no value.
        guard data.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        do {
            elements.append(try decoder.decoder.decode(Element.self, from: data))
        } catch {
            throw .decoding(.init(underlying: error, body: data, statusCode: statusCode))
        }
    }
}
