import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response as the transport received it, before validation and decoding.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The whole body.
    public var body: Data
    /// The URL of the response, after redirects.
    public var url: URL?
    /// Where the response came from: the network, or the client's ``HTTPCache``.
    public var source: ResponseSource
    /// For a response whose body went to the call's file (a call that downloads to one): the
    /// file's length; ``body`` is then empty. `nil` for a body in memory. Set by
    /// ``ResponseBodySink/finish(_:)``.
    public internal(set) var bodyFileLength: Int64?
    /// How many times the call was sent to get this response: 1, or more when its
    /// ``RetryPolicy`` retried it. Set by the client.
    public internal(set) var attempts = 1
    /// For a response whose body went to the call's file: its first bytes (up to 64 KiB), kept by
    /// the sink for the error handler and the error, so that the file is never read back.
    var filePrefix = Data()
    /// Whether the body went through the call's ``ResponseBodySink`` (written into it by the
    /// transport, or poured into it by the client): it is not poured again.
    var passedSink = false
    /// For a streamed call: the body as it still arrives, which ``body`` then leaves empty.
    var live: LiveBody?

    /// Creates a response.
    public init(
        statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL? = nil,
        source: ResponseSource = .network
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.source = source
    }
}

/// What a transport knows about the call it carries.
public struct TransportContext: Sendable {
    /// The descriptor of the call.
    public let call: CallDescriptor
    /// The body's length, when the client knows it.
    public let uploadLength: Int64?
    let progress: ProgressReporter?
    /// The call's rendered cache identifier, stored with its responses.
    var cacheIdentifier: String? = nil
    /// The call's metrics as its stages learn them; `nil` for an exchange no call waits for (a
    /// background revalidation).
    var metrics: MetricsCollector? = nil
    /// Where the body of each response goes: memory within the size limit, or the call's file;
    /// it counts download progress too. A transport writes each response's body into it
    /// (``ResponseBodySink/begin(statusCode:expectedLength:)``, ``ResponseBodySink/append(_:)-(Data)``,
    /// ``ResponseBodySink/finish(_:)``); one that returns its body in memory instead has it
    /// poured in by the client.
    public let responseBody: ResponseBodySink

    /// The file a download call's body goes to; `nil` for every other call.
    var download: FileDownload? { responseBody.download }

    /// The most bytes a response body kept in memory may have
    /// (``WebServiceClient/maximumResponseBodySize``); `nil` for no limit. It does not apply to
    /// bodies that go to a file. ``responseBody`` enforces it.
    public var maximumBodySize: Int? { responseBody.maximumSize }

    /// Throws ``WebServiceError/responseTooLarge(limit:statusCode:)`` when `byteCount` (bytes
    /// received so far, or a `Content-Length`) is over ``maximumBodySize`` for a body that stays
    /// in memory.
    @available(*, deprecated, message: "write the body into responseBody, which enforces the limit")
    public func checkBodySize(_ byteCount: Int64, statusCode: Int) throws(WebServiceError) {
        let limit = responseBody.limit(statusCode: statusCode)
        if let refusal = ResponseBodySink.refusal(byteCount, limit: limit, statusCode: statusCode) {
            throw refusal
        }
    }

    /// Tells the call's progress handlers, if it has any, how many body bytes were sent so far.
    /// Transports call it as they go; coalescing and delivery on the callback queue happen here.
    /// An `expected` of 0 or less (a chunked upload) falls back to ``uploadLength``.
    public func reportUploadProgress(sent: Int64, expected: Int64) {
        progress?.report(.upload, completed: sent, expected: expected > 0 ? expected : uploadLength)
    }

    /// Tells the call's progress handlers, if it has any, how many bytes of the response body
    /// arrived so far, and how many are expected (`Content-Length`; 0 or less when unknown).
    ///
    /// A transport that writes its bodies into ``responseBody`` does not call this: the sink
    /// counts them. One that keeps its body itself may: report the body of the response that
    /// answers the call, not that of a redirect (3xx) or an authentication challenge (401, 407)
    /// (``ResponseBodySink/countsAsDownload(statusCode:)``). Counts are cumulative and must not go
    /// back.
    public func reportDownloadProgress(received: Int64, expected: Int64) {
        responseBody.reportProgress(received: received, expected: expected)
    }

    /// Whether the body of a response with `statusCode` counts as the call's download: every
    /// status but redirects (3xx) and authentication challenges (401, 407).
    @available(*, deprecated, renamed: "ResponseBodySink.countsAsDownload(statusCode:)")
    public static func countsAsDownload(statusCode: Int) -> Bool {
        ResponseBodySink.countsAsDownload(statusCode: statusCode)
    }

    /// Tells the call's ``CallMetrics`` what the transport knows about the request it is carrying:
    /// its route, connection reuse, connect time, time to the first response byte and bytes. Call
    /// it once per request, before returning its response or throwing; a later report replaces an
    /// earlier one. Without a report, the request's record has `nil` for these figures.
    public func report(_ transportMetrics: TransportMetrics) {
        metrics?.record(transportMetrics)
    }

    /// Whether a transport may report progress: a transport can skip counting bytes otherwise.
    public var reportsProgress: Bool { progress != nil }
}

/// Sends a request and returns its response: `URLSession` by default, a stub in tests.
///
/// A transport writes each response's body into the call's sink (``TransportContext/responseBody``):
/// ``ResponseBodySink/begin(statusCode:expectedLength:)`` when the head arrives, then
/// ``ResponseBodySink/append(_:)-(Data)`` as bytes come, then ``ResponseBodySink/finish(_:)`` to
/// give the response its body. The sink keeps it in memory within the size limit, or writes it to
/// the call's file, and counts progress; when it throws, stop reading and throw its error. A
/// transport may instead return the whole body in memory (``TransportResponse/body``): the
/// client then pours it into the sink itself, with the same rules.
///
/// Implementations throw `URLError` for failures to get a response and `CancellationError`
/// (or `URLError.cancelled`) when the surrounding task is cancelled.
///
/// A transport adds nothing to a request but what its connection needs (`Host`, `Connection`,
/// framing): what its session would add (`Accept`, `User-Agent`, `Accept-Encoding`, cookies, the
/// configuration's additional fields) it names as its ``bridge``, which the client adds above its
/// cache and log. A transport that wraps another forwards the other's:
///
/// ```swift
/// struct Counting: WebServiceTransport {
///     let base: RoutingTransport
///     func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
///         try await base.send(request, context: context)
///     }
///     var bridge: RequestBridge? { base.bridge }
/// }
/// ```
public protocol WebServiceTransport: Sendable {
    /// Sends `request` and waits for the complete response.
    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse

    /// Deprecated: a transport written against `URLRequest` still compiles and is still called
    /// (the default of ``send(_:context:)-(WebServiceRequest,_)`` forwards to it). Implement
    /// ``send(_:context:)-(WebServiceRequest,_)`` instead: one of the two must be implemented.
    func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse

    /// The fields and cookies the client adds to every request it sends through this transport
    /// (its bridge stage); `nil`, the default, for none: the request goes as the call built it.
    var bridge: RequestBridge? { get }
}

extension WebServiceTransport {
    public var bridge: RequestBridge? { nil }
}
