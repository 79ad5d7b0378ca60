import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Code written against `URLRequest`, from before the stages passed a ``WebServiceRequest``: it
// compiles and runs as it did. Each protocol keeps its `URLRequest` requirement beside the new
// one; the new one's default converts the request and calls the old, so a conformer written
// either way is called. The old one's default goes the other way where that cannot loop; where a
// type may implement neither (an interceptor's two sides, a provider's `handle`), the old default
// passes through, and the type is then known never to need the old method
// (``LegacyPassThrough``).
//
// What still differs: a field set with CR, LF or NUL on a `URLRequest` is dropped by Foundation
// on Linux before the request check can refuse it, and the request is converted on each pass.
// Moving a conformer to ``WebServiceRequest`` means changing the type in its signatures only:
// the members it calls are the same.

extension WebServiceTransport {
    public func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        try await send(request.urlRequest, context: context)
    }

    public func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse {
        try await send(WebServiceRequest(request), context: context)
    }
}

extension WebServiceInterceptor {
    public func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
        guard !LegacyPassThrough.skips(Self.self, .interceptRequest) else { return .proceed(request) }
        return try await LegacyPassThrough.probe(Self.self, .interceptRequest) {
            try await intercept(request.urlRequest, for: call)
        } ?? .proceed(request)
    }

    public func intercept(_ response: TransportResponse, for request: WebServiceRequest, call: CallDescriptor)
        async throws -> TransportResponse
    {
        guard !LegacyPassThrough.skips(Self.self, .interceptResponse) else { return response }
        return try await LegacyPassThrough.probe(Self.self, .interceptResponse) {
            try await intercept(response, for: request.urlRequest, call: call)
        } ?? response
    }

    public func intercept(_ request: URLRequest, for call: CallDescriptor) async throws -> RequestInterception {
        LegacyPassThrough.reached()
        return .proceed(WebServiceRequest(request))
    }

    public func intercept(_ response: TransportResponse, for request: URLRequest, call: CallDescriptor) async throws
        -> TransportResponse
    {
        LegacyPassThrough.reached()
        return response
    }
}

extension RequestInterception {
    /// Deprecated: send this `URLRequest`; use ``proceed(_:)-(WebServiceRequest)``.
    @available(*, deprecated, message: "pass a WebServiceRequest: WebServiceRequest(request)")
    public static func proceed(_ request: URLRequest) -> RequestInterception {
        .proceed(WebServiceRequest(request))
    }
}

extension AuthenticationProvider {
    public func authenticate(_ request: WebServiceRequest, for call: CallDescriptor) async throws
        -> WebServiceRequest
    {
        try await WebServiceRequest(authenticate(request.urlRequest, for: call))
    }

    public func handle(_ response: TransportResponse, to request: WebServiceRequest, for call: CallDescriptor)
        async throws -> AuthenticationDecision
    {
        guard !LegacyPassThrough.skips(Self.self, .handleResponse) else { return .proceed }
        return try await LegacyPassThrough.probe(Self.self, .handleResponse) {
            try await handle(response, to: request.urlRequest, for: call)
        } ?? .proceed
    }

    public func handle(_ failure: WebServiceError, to request: WebServiceRequest, for call: CallDescriptor) async {
        guard !LegacyPassThrough.skips(Self.self, .handleFailure) else { return }
        await LegacyPassThrough.probe(Self.self, .handleFailure) {
            await handle(failure, to: request.urlRequest, for: call)
        }
    }

    public func authenticate(_ request: URLRequest, for call: CallDescriptor) async throws -> URLRequest {
        try await authenticate(WebServiceRequest(request), for: call).urlRequest
    }

    public func handle(_ response: TransportResponse, to request: URLRequest, for call: CallDescriptor) async throws
        -> AuthenticationDecision
    {
        LegacyPassThrough.reached()
        return .proceed
    }

    public func handle(_ failure: WebServiceError, to request: URLRequest, for call: CallDescriptor) async {
        LegacyPassThrough.reached()
    }
}

extension CredentialAuthenticator {
    public func apply(_ credential: Credential, to request: inout WebServiceRequest) {
        var converted = request.urlRequest
        apply(credential, to: &converted)
        request = WebServiceRequest(converted)
    }

    public func apply(_ credential: Credential, to request: inout URLRequest) {
        var converted = WebServiceRequest(request)
        apply(credential, to: &converted)
        request = converted.urlRequest
    }

    /// The default: status 401.
    public func isAuthenticationFailure(_ response: TransportResponse, for request: WebServiceRequest) -> Bool {
        isAuthenticationFailure(response, for: request.urlRequest)
    }

    public func isAuthenticationFailure(_ response: TransportResponse, for request: URLRequest) -> Bool {
        response.statusCode == 401
    }

    /// The default compares the `Authorization` field with what ``apply(_:to:)-(_,inout WebServiceRequest)``
    /// writes.
    public func isRequest(_ request: WebServiceRequest, authenticatedWith credential: Credential) -> Bool {
        isRequest(request.urlRequest, authenticatedWith: credential)
    }

    public func isRequest(_ request: URLRequest, authenticatedWith credential: Credential) -> Bool {
        guard let url = request.url else { return false }
        var probe = WebServiceRequest(url: url)
        apply(credential, to: &probe)
        return probe.value(forHTTPHeaderField: "Authorization") == request.value(forHTTPHeaderField: "Authorization")
    }
}

extension RequestProcessor {
    /// Deprecated: a processor of `URLRequest`s; change the closure's type to
    /// `inout WebServiceRequest` (its body stays the same).
    @available(*, deprecated, message: "take an inout WebServiceRequest: the body of the closure stays the same")
    @_disfavoredOverload
    public init(_ process: @escaping @Sendable (inout URLRequest, CallDescriptor) throws -> Void) {
        self.init { (request: inout WebServiceRequest, call) in
            var converted = request.urlRequest
            try process(&converted, call)
            request = WebServiceRequest(converted)
        }
    }
}

extension ResponseProcessor {
    /// Deprecated: a processor that reads the `URLRequest`; change the closure's type to take a
    /// ``WebServiceRequest``.
    @available(*, deprecated, message: "take a WebServiceRequest: the body of the closure stays the same")
    @_disfavoredOverload
    public init(
        _ process: @escaping @Sendable (TransportResponse, URLRequest, CallDescriptor) throws -> TransportResponse
    ) {
        self.init { (response, request: WebServiceRequest, call) in try process(response, request.urlRequest, call) }
    }
}

/// A `prepare` closure of a `URLRequest`, as a closure of a ``WebServiceRequest``.
private func converting(_ prepare: @escaping @Sendable (inout URLRequest) throws -> Void)
    -> @Sendable (inout WebServiceRequest) throws -> Void
{
    { request in
        var converted = request.urlRequest
        try prepare(&converted)
        request = WebServiceRequest(converted)
    }
}

extension WebServiceClient {
    /// Deprecated: a `prepare` closure typed `inout URLRequest`; leave its type to inference or
    /// write `inout WebServiceRequest` (the body stays the same).
    @available(*, deprecated, message: "type the prepare closure's parameter as inout WebServiceRequest")
    @_disfavoredOverload
    @discardableResult
    public func perform<Response>(
        _ call: WebServiceCall<Response>, _ arguments: [any Sendable] = [],
        prepare: @escaping @Sendable (inout URLRequest) throws -> Void, progress: TransferProgressHandler? = nil,
        success: @escaping @Sendable (Response) -> Void, failure: @escaping @Sendable (WebServiceError) -> Void
    ) -> WebServiceTask {
        perform(call, arguments, prepare: converting(prepare), progress: progress, success: success, failure: failure)
    }

    /// Deprecated: a `prepare` closure typed `inout URLRequest`.
    @available(*, deprecated, message: "type the prepare closure's parameter as inout WebServiceRequest")
    @_disfavoredOverload
    @discardableResult
    public func perform<Response>(
        _ call: WebServiceCall<Response>, _ arguments: [any Sendable] = [],
        prepare: @escaping @Sendable (inout URLRequest) throws -> Void, progress: TransferProgressHandler? = nil,
        completion: @escaping @Sendable (Result<WebServiceResponse<Response>, WebServiceError>) -> Void
    ) -> WebServiceTask {
        perform(call, arguments, prepare: converting(prepare), progress: progress, completion: completion)
    }

    /// Deprecated: a `prepare` closure typed `inout URLRequest`.
    @available(*, deprecated, message: "type the prepare closure's parameter as inout WebServiceRequest")
    @_disfavoredOverload
    public func perform<Response>(
        _ call: WebServiceCall<Response>, arguments: [any Sendable],
        prepare: @escaping @Sendable (inout URLRequest) throws -> Void, progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Response {
        try await perform(call, arguments: arguments, prepare: converting(prepare), progress: progress)
    }

    /// Deprecated: a `prepare` closure typed `inout URLRequest`.
    @available(*, deprecated, message: "type the prepare closure's parameter as inout WebServiceRequest")
    @_disfavoredOverload
    public func response<Response>(
        for call: WebServiceCall<Response>, arguments: [any Sendable],
        prepare: @escaping @Sendable (inout URLRequest) throws -> Void, progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        try await response(for: call, arguments: arguments, prepare: converting(prepare), progress: progress)
    }

    /// Deprecated: a `prepare` closure typed `inout URLRequest`.
    @available(*, deprecated, message: "type the prepare closure's parameter as inout WebServiceRequest")
    @_disfavoredOverload
    public func stream<Element>(
        _ call: WebServiceCall<ResponseStream<Element>>, arguments: [any Sendable],
        prepare: @escaping @Sendable (inout URLRequest) throws -> Void, progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> ResponseStream<Element> {
        try await stream(call, arguments: arguments, prepare: converting(prepare), progress: progress)
    }
}
