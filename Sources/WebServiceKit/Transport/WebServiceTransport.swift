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
    /// For a call that downloads to a file: the body went to the call's file (this many bytes)
    /// instead of ``body``. A transport that keeps the body in memory leaves it `nil`.
    var bodyFileLength: Int64?

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
    /// The file a download call's body goes to; `nil` for every other call.
    var download: FileDownload? = nil
    /// The most bytes a response body kept in memory may have
    /// (``WebServiceClient/maximumResponseBodySize``); `nil` for no limit. It does not apply to
    /// calls that download to a file.
    ///
    /// A transport should stop reading once a body passes it (at once when `Content-Length`
    /// does) and throw ``WebServiceError/responseTooLarge(limit:statusCode:)``
    /// (``checkBodySize(_:statusCode:)``); the client checks the bodies transports return too.
    public internal(set) var maximumBodySize: Int? = nil

    /// Throws ``WebServiceError/responseTooLarge(limit:statusCode:)`` when `byteCount` (bytes
    /// received so far, or a `Content-Length`) is over ``maximumBodySize``.
    public func checkBodySize(_ byteCount: Int64, statusCode: Int) throws(WebServiceError) {
        guard let limit = maximumBodySize, download == nil, byteCount > Int64(limit) else { return }
        throw .responseTooLarge(limit: limit, statusCode: statusCode)
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
    /// Report the body of the response that answers the call, not that of a redirect (3xx) or an
    /// authentication challenge (401, 407), which the client follows or answers with another
    /// request (``countsAsDownload(statusCode:)``). Counts are cumulative and must not go back.
    public func reportDownloadProgress(received: Int64, expected: Int64) {
        progress?.report(.download, completed: received, expected: expected > 0 ? expected : nil)
    }

    /// Whether the body of a response with `statusCode` counts as the call's download: every
    /// status but redirects (3xx) and authentication challenges (401, 407).
    public static func countsAsDownload(statusCode: Int) -> Bool {
        !(300..<400).contains(statusCode) && statusCode != 401 && statusCode != 407
    }

    /// Whether a transport may report progress: a transport can skip counting bytes otherwise.
    public var reportsProgress: Bool { progress != nil }
}

/// Sends a request and returns its response: `URLSession` by default, a stub in tests.
///
/// Implementations throw `URLError` for failures to get a response and `CancellationError`
/// (or `URLError.cancelled`) when the surrounding task is cancelled.
public protocol WebServiceTransport: Sendable {
    /// Sends `request` and waits for the complete response.
    func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse
}
