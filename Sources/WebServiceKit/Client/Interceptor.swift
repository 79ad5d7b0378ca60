import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an interceptor decides about an outgoing request.
public enum RequestInterception: Sendable {
    /// Send this request (the same one or a changed one).
    case proceed(WebServiceRequest)
    /// Do not send anything; answer the call with this response.
    case respond(TransportResponse)
}

/// One link of the client's interceptor chain: ROAD's request processors, HTTPIDL's request and
/// response rewriters and observers, and the per-call `prepare` closure are all interceptors.
///
/// On the way out, interceptors run in order (client's first, then the call's `prepare`); each
/// may change the request, answer it with a response, or throw to fail the call with
/// ``WebServiceError/intercepted(_:)``. On the way back, they run in reverse order and may
/// replace the response or throw. Both methods have pass-through defaults, so an observer
/// implements only what it watches.
public protocol WebServiceInterceptor: Sendable {
    /// Called before the request is authenticated and sent.
    func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception

    /// Called with each response before it is validated and decoded.
    func intercept(_ response: TransportResponse, for request: WebServiceRequest, call: CallDescriptor) async throws
        -> TransportResponse

    /// Deprecated: an interceptor written against `URLRequest` still compiles and is still
    /// called (the default of the ``WebServiceRequest`` method forwards to it, converting the
    /// request both ways). Implement the ``WebServiceRequest`` method instead: a field it sets
    /// with CR, LF or NUL is refused rather than dropped by Foundation on Linux.
    func intercept(_ request: URLRequest, for call: CallDescriptor) async throws -> RequestInterception

    /// Deprecated: see ``intercept(_:for:)-(URLRequest,_)``.
    func intercept(_ response: TransportResponse, for request: URLRequest, call: CallDescriptor) async throws
        -> TransportResponse
}

/// An interceptor made of a closure that changes outgoing requests (ROAD's `requestProcessor`).
///
/// ```swift
/// client.interceptors.append(RequestProcessor { request, call in
///     request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
/// })
/// ```
public struct RequestProcessor: WebServiceInterceptor {
    private let process: @Sendable (inout WebServiceRequest, CallDescriptor) throws -> Void

    /// Creates a processor; throwing from `process` fails the call.
    public init(_ process: @escaping @Sendable (inout WebServiceRequest, CallDescriptor) throws -> Void) {
        self.process = process
    }

    public func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
        var request = request
        try process(&request, call)
        return .proceed(request)
    }
}

/// An interceptor made of a closure that sees, and may replace, each response.
public struct ResponseProcessor: WebServiceInterceptor {
    private let process: @Sendable (TransportResponse, WebServiceRequest, CallDescriptor) throws -> TransportResponse

    /// Creates a processor; return the response (or another one), or throw to fail the call.
    public init(
        _ process:
            @escaping @Sendable (TransportResponse, WebServiceRequest, CallDescriptor) throws -> TransportResponse
    ) {
        self.process = process
    }

    public func intercept(_ response: TransportResponse, for request: WebServiceRequest, call: CallDescriptor)
        async throws
        -> TransportResponse
    {
        try process(response, request, call)
    }
}
