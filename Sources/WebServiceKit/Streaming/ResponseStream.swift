import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response read as it arrives: its head, checked already, and its body as an asynchronous
/// sequence of elements (``StreamFormat``: bytes, lines, JSON lines, Server-Sent Events).
///
/// ```swift
/// extension WebServiceCall where Response == ResponseStream<ServerSentEvent> {
///     static let ticker = WebServiceCall(relativePath: "ticker/%%0%%", stream: .serverSentEvents)
/// }
///
/// let events = try await client.stream(.ticker, "EURUSD")   // status and headers checked here
/// for try await event in events {
///     print(event.type, event.data)
///     if event.data == "closed" { break }                  // closes the connection
/// }
/// ```
///
/// - The stream is read once; a second iteration fails with ``WebServiceError/invalidCall(_:)``.
/// - Its failures are ``WebServiceError``s: a transport failure or an idle timeout (no byte for the
///   call's timeout while the loop waits), ``WebServiceError/responseStream(_:)`` for a limit,
///   ``WebServiceError/decoding(_:)`` for a JSON line that does not decode.
/// - Leaving the loop (`break`, an error, the task cancelled), ``cancel()``, or dropping the stream
///   without reading it closes the connection: it never goes back to a pool half-read.
/// - A slow consumer holds the server back: at most ``CallFields/streamBufferSize`` bytes wait
///   for it before the transport stops reading (see ``ResponseStreamError/consumerTooSlow(limit:)``
///   for the one transport that cannot stop).
/// - Streams are never cached; a call's progress handler counts the body's bytes as they come.
public struct ResponseStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = WebServiceError

    /// The response's status code, one of the call's success codes.
    public var statusCode: Int { session.statusCode }
    /// The response's header fields.
    public var headers: HTTPHeaders { session.headers }
    /// The URL of the response, after redirects.
    public var url: URL? { session.url }

    let session: StreamSession<Element>

    /// Reads the stream. Only one iterator reads it; a second one fails at once.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: StreamReader(session: session)) }

    /// Stops the stream: the connection closes, and an iteration under way ends with
    /// ``WebServiceError/cancelled(reason:)``. Calling it after the end does nothing.
    public func cancel() { session.finish(.failure(.cancelled(reason: nil))) }

    /// Reads the elements of a ``ResponseStream``, one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: StreamReader<Element>

        /// The next element, `nil` after the last one.
        public mutating func next() async throws(WebServiceError) -> Element? { try await reader.next() }
    }
}

/// What a ``ResponseStream`` and its iterator share: the head, the body (live, or in memory when
/// the whole body came at once), the format, and what happens once at the end.
final class StreamSession<Element: Sendable>: Sendable {
    let statusCode: Int
    let headers: HTTPHeaders
    let url: URL?
    let format: StreamFormat<Element>
    private let source: Source
    private let state = Locked(State())

    enum Source: Sendable {
        case live(LiveBody)
        case memory(Data)
    }

    private struct State {
        var iterated = false
        var memoryTaken = false
        var ended = false
        var onEnd: (@Sendable (_ succeeded: Bool, _ bodyBytes: Int64) -> Void)?
    }

    init(
        statusCode: Int, headers: HTTPHeaders, url: URL?, source: Source, format: StreamFormat<Element>,
        onEnd: (@Sendable (_ succeeded: Bool, _ bodyBytes: Int64) -> Void)? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.source = source
        self.format = format
        state.withLock { $0.onEnd = onEnd }
    }

    deinit {
        // Never read, or read only in part: the connection closes now.
        finish(.failure(.cancelled(reason: nil)))
    }

    /// Whether this is the first iterator (the body can be read once).
    func claim() -> Bool {
        state.withLock { state in
            defer { state.iterated = true }
            return !state.iterated
        }
    }

    /// The next piece of the body, `nil` at its end.
    func nextChunk() async throws(WebServiceError) -> Data? {
        switch source {
        case .live(let body):
            return try await body.next()
        case .memory(let data):
            return state.withLock { state in
                defer { state.memoryTaken = true }
                return state.memoryTaken || data.isEmpty ? nil : data
            }
        }
    }

    /// The stream ended (its body read to the end, or stopped by `outcome`'s error): the body's
    /// transport is stopped if it still runs, and the call's progress closed; once.
    func finish(_ outcome: Result<Void, WebServiceError>) {
        let onEnd = state.withLock { state -> (@Sendable (Bool, Int64) -> Void)?? in
            guard !state.ended else { return nil }
            state.ended = true
            defer { state.onEnd = nil }
            return .some(state.onEnd)
        }
        guard let onEnd else { return }
        let bytes: Int64
        switch source {
        case .live(let body):
            switch outcome {
            case .success: body.finish(nil)
            case .failure(let error):
                if case .cancelled(let reason) = error { body.cancel(reason) } else { body.cancel(nil) }
            }
            bytes = body.receivedByteCount
        case .memory(let data):
            bytes = Int64(data.count)
        }
        if case .success = outcome { onEnd?(true, bytes) } else { onEnd?(false, bytes) }
    }
}

/// One iteration of a ``ResponseStream``: decodes pieces of the body into elements and hands them
/// out one at a time. Leaving the loop drops it, which stops the stream.
final class StreamReader<Element: Sendable> {
    private let session: StreamSession<Element>
    private var decoder: any StreamElementDecoder<Element>
    private var pending: [Element] = []
    private var index = 0
    private var done = false
    /// An error that comes after the elements already in `pending`.
    private var failure: WebServiceError?

    init(session: StreamSession<Element>) {
        self.session = session
        decoder = session.format.makeDecoder(session.statusCode)
        if !session.claim() {
            done = true
            failure = .invalidCall("a ResponseStream is read once; this one was read already")
        }
    }

    deinit {
        // The loop was left before the end: the connection closes.
        session.finish(.failure(.cancelled(reason: nil)))
    }

    func next() async throws(WebServiceError) -> Element? {
        while true {
            if index < pending.count {
                let element = pending[index]
                index += 1
                return element
            }
            pending.removeAll(keepingCapacity: true)
            index = 0
            if let failure {
                self.failure = nil
                throw failure
            }
            if done { return nil }
            do throws(WebServiceError) {
                if let chunk = try await session.nextChunk() {
                    try decoder.decode(chunk, into: &pending)
                } else {
                    try decoder.finish(into: &pending)
                    done = true
                    session.finish(.success(()))
                }
            } catch {
                // Elements decoded before the error come first.
                done = true
                failure = error
                session.finish(.failure(error))
            }
        }
    }
}

/// The serializer of a `WebServiceCall<ResponseStream<Element>>`. ``WebServiceClient/stream(_:_:)``
/// reads the body as it arrives; the other ways to perform the call read it whole first and give
/// a stream over it.
struct StreamSerializer<Element: Sendable>: ResponseSerializer {
    let format: StreamFormat<Element>

    func deserialize(_ body: Data, context: ResponseContext) throws -> ResponseStream<Element> {
        ResponseStream(
            session: StreamSession(
                statusCode: context.statusCode, headers: context.headers, url: nil, source: .memory(body),
                format: format))
    }

    func emptyValue() -> ResponseStream<Element>? {
        ResponseStream(
            session: StreamSession(statusCode: 204, headers: [:], url: nil, source: .memory(Data()), format: format))
    }
}

/// Tells a descriptor from its serializer that its response is a stream, without a generic test.
protocol StreamingSerializer {}
extension StreamSerializer: StreamingSerializer {}

extension WebServiceCall {
    /// Creates a call whose response is read as it arrives, in `format`'s elements: perform it
    /// with ``WebServiceClient/stream(_:_:)``. Parameters are those of
    /// ``init(name:method:relativePath:headers:successCodes:overridesClientSuccessCodes:serializer:serializationRoot:requestSerializer:bodyCharset:bodyParameter:timeout:cache:cacheIdentifier:progressParameter:urlBuilder:errorHandler:multipartBoundary:logLevel:)``
    /// that apply to a stream (a stream is never cached). `timeout` bounds the wait for the
    /// response head, then the wait between two pieces of the body.
    ///
    /// ```swift
    /// extension WebServiceCall where Response == ResponseStream<Completion> {
    ///     static let complete = WebServiceCall(
    ///         method: .post, relativePath: "v1/completions", stream: .jsonLines(Completion.self))
    /// }
    /// ```
    public init<Element>(
        name: String? = nil,
        method: HTTPMethod = .get,
        relativePath: String,
        headers: [String: String] = [:],
        successCodes: StatusCodes? = nil,
        overridesClientSuccessCodes: Bool = false,
        requestSerializer: (any RequestSerializer)? = nil,
        bodyCharset: Charset = .utf8,
        bodyParameter: Int? = nil,
        timeout: TimeInterval? = nil,
        progressParameter: Int? = nil,
        urlBuilder: (any URLBuilder)? = nil,
        errorHandler: (any ResponseErrorHandler)? = nil,
        logLevel: LogLevel? = nil,
        stream format: StreamFormat<Element>
    ) where Response == ResponseStream<Element> {
        var fields = CallFields(method: method, relativePath: relativePath)
        fields.name = name
        fields.headers = headers
        fields.successCodes = successCodes
        fields.overridesClientSuccessCodes = overridesClientSuccessCodes
        fields.requestSerializer = requestSerializer
        fields.bodyCharset = bodyCharset
        fields.bodyParameter = bodyParameter
        fields.timeout = timeout
        fields.progressParameter = progressParameter
        fields.urlBuilder = urlBuilder
        fields.errorHandler = errorHandler
        fields.logLevel = logLevel
        self.init(fields, stream: format)
    }

    /// Creates a call of `fields` whose response is read as it arrives, in `format`'s elements
    /// (``CallFields/streamBufferSize`` and ``CallFields/maximumStreamedBodySize`` apply to it).
    public init<Element>(_ fields: CallFields, stream format: StreamFormat<Element>)
    where Response == ResponseStream<Element> {
        self.init(fields, serializer: StreamSerializer(format: format))
    }
}
