import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A decoded value with the response it came from: status, headers and raw body.
///
/// ROAD users needed `returnHeadersInBody` hacks to see headers; here every call can return
/// the whole response (``WebServiceClient/response(for:_:)`` or the `completion:` callback).
public struct WebServiceResponse<Value: Sendable>: Sendable {
    /// The decoded value.
    public let value: Value
    /// The HTTP status code.
    public let statusCode: Int
    /// The response header fields.
    public let headers: HTTPHeaders
    /// The raw body the value was decoded from.
    public let body: Data
    /// The request as it was last sent (after interceptors and authentication).
    public let request: WebServiceRequest
    /// The URL of the response, after redirects.
    public let url: URL?
    /// Where the response came from: the network, or the client's ``HTTPCache`` (fresh,
    /// revalidated with 304, or stale).
    public let source: ResponseSource
    /// How many times the call was sent: 1, or more when its ``RetryPolicy`` retried it
    /// (redirects and answered challenges within an attempt are not counted).
    public let attempts: Int
    /// Where the call's time went: each request it sent (route, connection reuse, connect time,
    /// time to the first byte, total, bytes), its retries, redirects and authentication round
    /// trips, and the cache's outcome (Docs/Metrics.md).
    public var metrics: CallMetrics { metricsBox?.value ?? CallMetrics() }
    /// The metrics, shared by copies of the response (one reference to copy, not every figure).
    var metricsBox: CallMetricsBox? = nil

    /// The same response with another value.
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> WebServiceResponse<Other> {
        WebServiceResponse<Other>(
            value: try transform(value), statusCode: statusCode, headers: headers, body: body, request: request,
            url: url, source: source, attempts: attempts, metricsBox: metricsBox)
    }
}

extension WebServiceResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// The status, URL, body size, source and header fields, without secrets: a password in the
    /// URL and the values of ``LogRedaction/alwaysRedactedHeaders`` are shown as
    /// ``LogRedaction/placeholder``. The value and the body are not shown.
    public var description: String {
        ResponseDescription.text(
            statusCode: statusCode, url: url ?? request.url, byteCount: body.count, source: source, headers: headers)
    }

    /// The same as ``description``.
    public var debugDescription: String { description }
}

extension TransportResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// The status, URL, body size, source and header fields, without secrets: a password in the
    /// URL and the values of ``LogRedaction/alwaysRedactedHeaders`` are shown as
    /// ``LogRedaction/placeholder``. The body is not shown.
    public var description: String {
        ResponseDescription.text(
            statusCode: statusCode, url: url, byteCount: body.count, source: source, headers: headers)
    }

    /// The same as ``description``.
    public var debugDescription: String { description }
}

/// The one-line summary and redacted fields that describe a response.
enum ResponseDescription {
    static func text(statusCode: Int, url: URL?, byteCount: Int, source: ResponseSource, headers: HTTPHeaders)
        -> String
    {
        var secrets = LogRedaction.Secrets()
        let shownURL = url.map { LogRedaction.Matcher(LogRedaction()).redact($0, secrets: &secrets) } ?? "(no URL)"
        let head = "\(statusCode) \(shownURL) (\(byteCount)-byte body, \(source))"
        return headers.fields.isEmpty ? head : head + "\n" + headers.description
    }
}
