import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request/response exchange of one call, through interceptors and authentication.
struct Exchange {
    let descriptor: CallDescriptor
    let interceptors: [any WebServiceInterceptor]
    let provider: (any AuthenticationProvider)?
    let transport: any WebServiceTransport
    let context: TransportContext
    let maximumRedirects: Int
    /// A streamed body, attached to each send (it is opened anew every time).
    let body: RequestBody?
    /// Logs each request sent and its answer; `nil` when the call logs nothing.
    let log: ExchangeLog?

    func run(_ initialRequest: URLRequest) async throws(WebServiceError) -> (
        request: URLRequest, response: TransportResponse
    ) {
        var request = initialRequest
        for (position, interceptor) in interceptors.enumerated() {
            let interception = try await guarded(as: WebServiceError.intercepted) {
                try await interceptor.intercept(request, for: descriptor)
            }
            switch interception {
            case .proceed(let changed): request = changed
            case .respond(let response):
                // A short-circuit answer goes back through the interceptors that ran before it.
                return (request, try await interceptResponse(response, to: request, through: interceptors[..<position]))
            }
        }
        var authenticationRetries = 0
        var redirects = 0
        var sendCount = 0
        var body = self.body
        while true {
            var sending = request
            if let provider {
                sending = try await guarded(as: { .authentication("\($0)") }) {
                    try await provider.authenticate(request, for: descriptor)
                }
            }
            var response: TransportResponse
            do throws(WebServiceError) {
                // The one check, after every interceptor and the provider changed the request:
                // no transport (the cache included) sees a request that could be misread.
                try RequestCheck.check(sending)
                if Task.isCancelled { throw .cancelled(reason: nil) }
                try body?.attach(to: &sending, sendCount: sendCount)
                sendCount += 1
                response = try await send(sending, attempt: sendCount, streamedLength: body?.length)
            } catch {
                // A body that failed while being read (a file that changed size, a broken stream)
                // is the real cause, whatever the transport reported.
                let failure =
                    sending.httpBodyStream?.reportedError.map {
                        .requestSerialization("the body could not be sent: \($0)")
                    }
                    ?? error
                // The provider learns that this request got no answer, so calls waiting on it go on.
                await provider?.handle(failure, to: sending, for: descriptor)
                throw failure
            }
            // The provider sees the raw response first: a challenge it answers is retried before
            // any interceptor sees it.
            if let provider {
                let decision = try await guarded(as: { .authentication("\($0)") }) {
                    try await provider.handle(response, to: sending, for: descriptor)
                }
                if case .retry = decision {
                    authenticationRetries += 1
                    guard authenticationRetries <= Self.maximumAuthenticationRetries else {
                        throw .authentication(
                            "still refused after \(Self.maximumAuthenticationRetries) retries (status \(response.statusCode))"
                        )
                    }
                    continue
                }
            }
            if !interceptors.isEmpty {
                response = try await interceptResponse(response, to: sending, through: interceptors[...])
            }
            guard maximumRedirects > 0, let next = RedirectRule.nextRequest(after: response, to: request) else {
                return (sending, response)
            }
            redirects += 1
            guard redirects <= maximumRedirects else {
                throw .transport(
                    URLError(
                        .httpTooManyRedirects,
                        userInfo: [NSLocalizedDescriptionKey: "more than \(maximumRedirects) redirects"]))
            }
            // A redirect that turned the request into a GET (RFC 9110 §15.4) drops the body.
            if next.httpMethod != request.httpMethod { body = nil }
            request = next
        }
    }

    /// A hard cap whatever providers answer: a server that keeps challenging (or keeps saying
    /// `stale=true`) never makes a call loop.
    static let maximumAuthenticationRetries = 3

    private func send(
        _ request: URLRequest, attempt: Int, streamedLength: Int64?
    ) async throws(WebServiceError) -> TransportResponse {
        let sent = log?.sent(request, attempt: attempt, streamedLength: streamedLength)
        do {
            let response = try await transport.send(request, context: context)
            if let sent { log?.received(response, for: sent) }
            return response
        } catch {
            let failure = WebServiceError(transportError: error)
            if let sent { log?.failed(failure, for: sent) }
            throw failure
        }
    }

    private func interceptResponse(
        _ response: TransportResponse, to request: URLRequest, through chain: ArraySlice<any WebServiceInterceptor>
    ) async throws(WebServiceError) -> TransportResponse {
        var response = response
        for interceptor in chain.reversed() {
            response = try await guarded(as: WebServiceError.intercepted) {
                try await interceptor.intercept(response, for: request, call: descriptor)
            }
        }
        return response
    }

    /// Runs user code, keeping a `WebServiceError` it throws and wrapping anything else.
    private func guarded<T>(
        as wrap: (any Error) -> WebServiceError, _ body: () async throws -> T
    ) async throws(WebServiceError) -> T {
        do {
            return try await body()
        } catch let error as WebServiceError {
            throw error
        } catch is CancellationError {
            throw .cancelled(reason: nil)
        } catch {
            throw wrap(error)
        }
    }
}

extension WebServiceError {
    /// Maps what a transport throws: cancellation stays cancellation, `URLError` is kept.
    init(transportError error: any Error) {
        switch error {
        case let error as WebServiceError: self = error
        case is CancellationError: self = .cancelled(reason: nil)
        case let error as URLError where error.code == .cancelled: self = .cancelled(reason: nil)
        case let error as URLError: self = .transport(error)
        default:
            self = .transport(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)"]))
        }
    }
}
