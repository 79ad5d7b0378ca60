import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The push half of reading a response: takes the bytes of the response as they arrive from
/// wherever they come (a blocking read, or an event loop's readable event), parses them with an
/// ``HTTP1ResponseParser``, and writes the final response's body into the call's
/// ``ResponseBodySink`` as it arrives (memory within the size limit, or the call's file; the sink
/// counts progress), decoding it on the way when it has a content coding this path reads.
///
/// It does no I/O of its own: the event loop's ``HTTP1Exchange`` feeds it from its readable
/// events, ``BlockingExchange`` with what it reads from a ``SocketConnection``.
struct ResponseIntake {
    let context: TransportContext
    /// The request's method.
    let method: String
    var parser: HTTP1ResponseParser
    /// How the final response's body is kept, decided when its head arrives (``ResponseDecoding``);
    /// `nil` until then. The sink's body is begun at the same moment.
    private var coding: Coding?
    /// The bytes of a coded body as they came on the wire, for its progress.
    private var wireBytes: Int64 = 0
    private let url: URL?

    private enum Coding {
        /// The body is kept as it came.
        case asIs
        /// The body is decoded as it comes; the response has these fields.
        case decoded(ContentDecoder, HTTPHeaders)
    }

    /// An intake for the response to a `method` request of `url` (the URL a streamed call's head
    /// carries).
    init(method: String, url: URL? = nil, context: TransportContext) {
        self.context = context
        self.method = method
        self.url = url
        parser = HTTP1ResponseParser(requestMethod: method)
    }

    /// Parses `bytes`, the next ones of the response, and moves the body parsed so far into the
    /// sink. A malformed response throws `URLError(.badServerResponse)`; a body over the size
    /// limit, the sink's error; a body that does not decode, the decoder's.
    ///
    /// Errors come in the order of the bytes that cause them, whatever pieces the bytes arrive
    /// in: the body parsed before a framing fault goes to the sink (and its decoder) first, so a
    /// body that passed the limit, or did not decode, before the fault fails for that, as it does
    /// when the fault arrives in a later piece.
    mutating func take(_ bytes: some Sequence<UInt8>) throws {
        var fault: HTTP1ParseError?
        do {
            _ = try parser.feed(bytes)
        } catch {
            fault = error
        }
        try keepBody()
        if let fault { throw URLError(.badServerResponse, reason: fault.description) }
    }

    /// Moves the body parsed so far into the call's sink, decoded on the way when it has a
    /// content coding this path reads. The sink refuses a body over the size limit (a
    /// `Content-Length` over it at once, before the body is read); the connection is then closed
    /// unread.
    private mutating func keepBody() throws {
        guard let head = parser.head else { return }
        let sink = context.responseBody
        let coding: Coding
        if let decided = self.coding {
            coding = decided
        } else {
            // The decoder stops a bomb at the sink's limit in each of its stages, not only the last.
            let limit = sink.limit(statusCode: head.statusCode) ?? Int.max
            coding =
                try ResponseDecoding.decoder(
                    method: method, statusCode: head.statusCode, headers: head.headers,
                    transferCodings: parser.transferCodings, outputLimit: limit
                )
                .map(Coding.decoded) ?? .asIs
            self.coding = coding
            // A decoded body's length is known only at its end: its progress is that of its bytes
            // on the wire, against its Content-Length.
            let headers: HTTPHeaders
            if case .decoded(_, let decoded) = coding { headers = decoded } else { headers = head.headers }
            let asIs = if case .asIs = coding { true } else { false }
            try sink.begin(
                statusCode: head.statusCode, expectedLength: asIs ? parser.bodyLength.map(Int64.init) : nil,
                countsAppendedBytes: asIs,
                head: TransportResponse(statusCode: head.statusCode, headers: headers, url: url))
        }
        switch coding {
        case .asIs:
            try parser.drainBody { (bytes) throws(WebServiceError) in try sink.append(bytes) }
        case .decoded(let decoder, _):
            try decode(with: decoder, statusCode: head.statusCode)
        }
    }

    /// Decodes the body parsed so far into the sink; at the end of the body (`finishing`),
    /// checks that the coded stream ended too.
    private mutating func decode(with decoder: ContentDecoder, statusCode: Int, finishing: Bool = false) throws {
        let sink = context.responseBody
        wireBytes += Int64(parser.body.count)
        let keep = { (bytes: UnsafeBufferPointer<UInt8>) throws in try sink.append(UnsafeRawBufferPointer(bytes)) }
        do {
            try parser.drainBody { bytes in try decoder.feed(bytes, keep) }
            if finishing { try decoder.finish(keep) }
        } catch {
            let limit = sink.limit(statusCode: statusCode) ?? Int.max
            throw ResponseDecoding.failure(error, statusCode: statusCode, limit: limit)
        }
        sink.advance(to: wireBytes, expected: parser.bodyLength.map(Int64.init))
    }

    /// The response, once the parser is complete or the connection ended (a body delimited by
    /// the close ends there; any other cut is `URLError(.networkConnectionLost)`).
    mutating func finish(url: URL) throws -> TransportResponse {
        if !parser.isComplete {
            do {
                try parser.finish()
            } catch {
                throw URLError(.networkConnectionLost, reason: error.description)
            }
        }
        guard let head = parser.head else { throw URLError(.badServerResponse) }
        try keepBody()
        var response = TransportResponse(statusCode: head.statusCode, headers: head.headers, url: url)
        if case .decoded(let decoder, let headers) = coding {
            try decode(with: decoder, statusCode: head.statusCode, finishing: true)
            response.headers = headers
        }
        return try context.responseBody.finish(response)
    }
}

extension ResponseIntake {
    /// What the parser knows, for ``HTTP1ConnectionMachine``.
    var progress: HTTP1ConnectionMachine.Response {
        HTTP1ConnectionMachine.Response(
            finalStatus: parser.head?.statusCode, isComplete: parser.isComplete,
            leavesConnectionReusable: parser.leavesConnectionReusable)
    }
}
