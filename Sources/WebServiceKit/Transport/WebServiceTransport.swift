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

    /// Tells the call's progress handler, if it has one, how many body bytes were sent so far.
    /// Transports call it as they go; coalescing and delivery on the callback queue happen here.
    /// An `expected` of 0 or less (a chunked upload) falls back to ``uploadLength``.
    public func reportUploadProgress(sent: Int64, expected: Int64) {
        progress?.report(completed: sent, expected: expected > 0 ? expected : uploadLength ?? -1)
    }
}

/// Sends a request and returns its response: `URLSession` by default, a stub in tests.
///
/// Implementations throw `URLError` for failures to get a response and `CancellationError`
/// (or `URLError.cancelled`) when the surrounding task is cancelled.
public protocol WebServiceTransport: Sendable {
    /// Sends `request` and waits for the complete response.
    func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse
}
