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
    /// The call's metrics (``CallMetrics``), once the stream ended: its requests with the body's
    /// bytes and the time to its end (a body that came whole has them at once); `nil` before the
    /// end, and when the client collects none. ``WebServiceClient/metricsMonitor`` gets them at
    /// the end too.
    public var metrics: CallMetrics? { session.metrics }

    let session: StreamSession<Element>

    /// Reads the stream. Only one iterator reads it; a second one fails at once.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: StreamReader(session: session)) }

    /// Stops the stream: the connection closes, and an iteration under way ends with
    /// ``WebServiceError/cancelled(reason:)``. Calling it after the end does nothing.
    public func cancel() { session.finish(.failure(.cancelled(reason: nil))) }

    /// Reads the elements of a ``ResponseStream``, one at a time.
    ///
    /// The elements decoded from a piece of the body wait here and are handed out without a call
    /// into the library (the method is inlined into the loop, specialized for `Element`); the
    /// reader refills them when they are all out. Copy an iterator only before the loop.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let reader: StreamReader<Element>
        @usableFromInline var buffer: [Element] = []
        @usableFromInline var position = 0

        init(reader: StreamReader<Element>) { self.reader = reader }

        /// The next element, `nil` after the last one.
        @inlinable
        public mutating func next() async throws(WebServiceError) -> Element? {
            if position < buffer.count {
                defer { position += 1 }
                return buffer[position]
            }
            position = 0
            guard try await reader.refill(&buffer) else { return nil }
            position = 1
            return buffer[0]
        }
    }
}

/// What a ``ResponseStream`` and its iterator share: the head, the body (live, or in memory when
/// the whole body came at once; a reconnected stream's body is the latest connection's), the
/// format, and what happens once at the end.
final class StreamSession<Element: Sendable>: Sendable {
    let statusCode: Int
    let headers: HTTPHeaders
    let url: URL?
    let format: StreamFormat<Element>
    /// Sends the call again with the `Last-Event-ID` given (a reconnecting event stream); `nil`
    /// for a stream that does not reconnect.
    let reconnect: (@Sendable (String) async throws(WebServiceError) -> StreamSession<Element>)?
    /// Names an error of the stream's body with its call, as the client names every error of a
    /// call (``WebServiceClient/failure(_:of:request:)``).
    let naming: @Sendable (WebServiceError) -> WebServiceError
    private let state: Locked<State>

    /// What runs once when the stream ends, with how it ended and the body's bytes: it closes the
    /// call's progress and returns the call's finished metrics, if it has any.
    typealias End = @Sendable (_ outcome: Result<Void, WebServiceError>, _ bodyBytes: Int64) -> CallMetrics?

    enum Source: Sendable {
        case live(LiveBody)
        case memory(Data)
    }

    private struct State {
        var source: Source
        var iterated = false
        var memoryTaken = false
        var ended = false
        var onEnd: End?
        var metrics: CallMetrics?
        /// The wait before a reconnection, which ``finish(_:)`` cuts short.
        var wait: Task<Void, any Error>?
    }

    init(
        statusCode: Int, headers: HTTPHeaders, url: URL?, source: Source, format: StreamFormat<Element>,
        reconnect: (@Sendable (String) async throws(WebServiceError) -> StreamSession<Element>)? = nil,
        metrics: CallMetrics? = nil, naming: @escaping @Sendable (WebServiceError) -> WebServiceError = { $0 },
        onEnd: End? = nil
    ) {
        self.naming = naming
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.format = format
        self.reconnect = reconnect
        state = Locked(State(source: source, onEnd: onEnd, metrics: metrics))
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

    /// The call's metrics, once the stream ended.
    var metrics: CallMetrics? { state.withLock { $0.metrics } }

    /// Whether the stream ended (read to its end, failed or cancelled).
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// The next piece of the body, `nil` at its end.
    func nextChunk() async throws(WebServiceError) -> Data? {
        let live = state.withLock { state -> LiveBody? in
            if case .live(let body) = state.source { return body }
            return nil
        }
        if let live { return try await live.next() }
        return state.withLock { state -> Data? in
            guard case .memory(let data) = state.source, !state.memoryTaken, !data.isEmpty else { return nil }
            state.memoryTaken = true
            return data
        }
    }

    /// Takes over `other`'s body (a reconnection's): from now on the stream reads it, and `other`
    /// ends without stopping it. Returns `false` when this stream ended meanwhile (the new body
    /// is stopped then).
    func adopt(_ other: StreamSession<Element>) -> Bool {
        let source = other.state.withLock { state -> Source in
            state.ended = true
            state.onEnd = nil
            return state.source
        }
        let adopted = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            state.source = source
            state.memoryTaken = false
            return true
        }
        if !adopted, case .live(let body) = source { body.cancel(nil) }
        return adopted
    }

    /// Waits `seconds` before a reconnection; ``finish(_:)`` (a cancellation) and the task's
    /// cancellation end the wait at once.
    func wait(_ seconds: TimeInterval, in environment: any RetryEnvironment) async throws(WebServiceError) {
        let sleeper = Task { try await environment.sleep(seconds: seconds) }
        let cancelled = state.withLock { state -> Bool in
            state.wait = sleeper
            return state.ended
        }
        if cancelled { sleeper.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await sleeper.value
            } onCancel: {
                sleeper.cancel()
            }
        } catch {
            throw .cancelled(reason: nil)
        }
        state.withLock { $0.wait = nil }
        if hasEnded { throw .cancelled(reason: nil) }
    }

    /// The stream ended (its body read to the end, or stopped by `outcome`'s error): the body's
    /// transport is stopped if it still runs, a reconnection's wait cut short, and the call's
    /// progress closed; once.
    func finish(_ outcome: Result<Void, WebServiceError>) {
        let ending = state.withLock {
            state -> (source: Source, onEnd: End?, wait: Task<Void, any Error>?)? in
            guard !state.ended else { return nil }
            state.ended = true
            defer {
                state.onEnd = nil
                state.wait = nil
            }
            return (state.source, state.onEnd, state.wait)
        }
        guard let ending else { return }
        ending.wait?.cancel()
        let bytes: Int64
        switch ending.source {
        case .live(let body):
            switch outcome {
            case .success: body.finish(nil)
            case .failure(let error):
                if case .cancelled(let reason) = error.reason { body.cancel(reason) } else { body.cancel(nil) }
            }
            bytes = body.receivedByteCount
        case .memory(let data):
            bytes = Int64(data.count)
        }
        if let metrics = ending.onEnd?(outcome, bytes) { state.withLock { $0.metrics = metrics } }
    }
}

/// One iteration of a ``ResponseStream``: decodes pieces of the body into elements and hands them
/// out one at a time, and reconnects an event stream that asks for it. Leaving the loop drops it,
/// which stops the stream.
@usableFromInline
final class StreamReader<Element: Sendable> {
    private let session: StreamSession<Element>
    private var decoder: any StreamElementDecoder<Element>
    private var done = false
    /// An error that comes after the elements handed out with the last refill.
    private var failure: WebServiceError?
    /// The connection ended (with the error, if any): reconnect once the elements before it are out.
    private var reconnectAfter: WebServiceError??

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

    /// Replaces `buffer` with the next elements (at least one) and returns `true`, or returns
    /// `false` at the end. An error comes after the elements decoded before it.
    @usableFromInline
    func refill(_ buffer: inout [Element]) async throws(WebServiceError) -> Bool {
        do throws(WebServiceError) {
            return try await refillElements(&buffer)
        } catch {
            throw session.naming(error)
        }
    }

    private func refillElements(_ buffer: inout [Element]) async throws(WebServiceError) -> Bool {
        buffer.removeAll(keepingCapacity: true)
        while buffer.isEmpty {
            if let failure {
                self.failure = nil
                throw failure
            }
            if done { return false }
            if let ended = reconnectAfter {
                reconnectAfter = nil
                do throws(WebServiceError) {
                    if try await reconnect(after: ended) { continue }
                    done = true
                    session.finish(.success(()))
                } catch {
                    done = true
                    failure = error
                    session.finish(.failure(error))
                }
                continue
            }
            do throws(WebServiceError) {
                if let chunk = try await session.nextChunk() {
                    try decoder.decode(chunk, into: &buffer)
                } else {
                    try decoder.finish(into: &buffer)
                    if session.format.reconnection != nil {
                        reconnectAfter = .some(nil)
                    } else {
                        done = true
                        session.finish(.success(()))
                    }
                }
            } catch {
                if session.format.reconnection != nil, EventStreamReconnection.reconnects(after: error),
                    !session.hasEnded
                {
                    // The connection broke: what was decoded before still counts, the event it cut
                    // is dropped with the rest of its body.
                    reconnectAfter = .some(error)
                } else {
                    // Elements decoded before the error come first.
                    done = true
                    failure = error
                    session.finish(.failure(error))
                }
            }
        }
        return true
    }

    /// Sends the call again after the reconnection time, until a connection is accepted; returns
    /// `false` when the server said to stop (204). Throws the error that ends the stream.
    private func reconnect(after ended: WebServiceError?) async throws(WebServiceError) -> Bool {
        guard let policy = session.format.reconnection, let reconnect = session.reconnect,
            let (lastEventID, serverRetry) = decoder.restart()
        else {
            if let ended { throw ended }
            return false
        }
        var failures = 0
        var lastError = ended
        while true {
            try await session.wait(policy.wait(serverRetry: serverRetry, failures: failures), in: policy.environment)
            do throws(WebServiceError) {
                let next = try await reconnect(lastEventID)
                // WHATWG HTML §9.2.3: 204 No Content stops the reconnections.
                if next.statusCode == 204 {
                    next.finish(.success(()))
                    return false
                }
                guard session.adopt(next) else { throw .cancelled(reason: nil) }
                return true
            } catch {
                guard EventStreamReconnection.reconnects(after: error) else { throw error }
                failures += 1
                lastError = error
                if let maximum = policy.maximumFailedAttempts, failures >= maximum {
                    throw lastError ?? error
                }
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
    /// ``init(name:method:relativePath:headers:parameterStyles:successCodes:overridesClientSuccessCodes:serializer:serializationRoot:requestSerializer:bodyCharset:bodyParameter:timeout:cache:cacheIdentifier:progressParameter:urlBuilder:errorHandler:multipartBoundary:logLevel:)``
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
        parameterStyles: [Int: ParameterStyle] = [:],
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
        self.init(
            name: name, method: method, relativePath: relativePath, headers: headers, parameterStyles: parameterStyles,
            successCodes: successCodes, overridesClientSuccessCodes: overridesClientSuccessCodes,
            serializer: StreamSerializer(format: format),
            requestSerializer: requestSerializer, bodyCharset: bodyCharset, bodyParameter: bodyParameter,
            timeout: timeout, progressParameter: progressParameter, urlBuilder: urlBuilder,
            errorHandler: errorHandler, logLevel: logLevel)
    }

    /// Creates a call of `fields` whose response is read as it arrives, in `format`'s elements
    /// (``CallFields/streamBufferSize`` and ``CallFields/maximumStreamedBodySize`` apply to it).
    public init<Element>(_ fields: CallFields, stream format: StreamFormat<Element>)
    where Response == ResponseStream<Element> {
        self.init(fields, serializer: StreamSerializer(format: format))
    }
}
