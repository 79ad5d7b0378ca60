import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The last stage: the client's transport carries the checked request and gives back the whole
/// response, or, for a streamed call, its head as soon as it arrives with the body still coming
/// (``LiveExchange``). What it throws becomes a ``WebServiceError`` here, once.
struct TransportStage: CallStage {
    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        let context = next.call.context
        // The request's record in the call's metrics: its times, and what the transport reports.
        let start = context.metrics?.beginTransaction()
        do {
            let response =
                if let stream = context.responseBody.stream {
                    try await LiveExchange.send(
                        outgoing.request, transport: next.call.transport, context: context, limits: stream)
                } else {
                    try await next.call.transport.send(outgoing.request, context: context)
                }
            if let start { context.metrics?.endTransaction(outgoing, start: start, response: response, error: nil) }
            // Every response off the wire, a redirect, a challenge or a 304 too, and never an
            // answer from the cache: the cookies it sets (``RequestBridge``).
            next.call.bridge?.store(from: response.headers, for: outgoing.request.url)
            return Answer(request: outgoing.request, response: response)
        } catch {
            let failure = WebServiceError(transportError: error)
            if let start { context.metrics?.endTransaction(outgoing, start: start, response: nil, error: failure) }
            throw failure
        }
    }
}

extension WebServiceError {
    /// Maps what a transport throws: cancellation stays cancellation, `URLError` is kept, and a
    /// certificate failure Foundation reported as `.unknown` (on Linux) gets its own code
    /// (``ServerTrustFailure``), here and nowhere else.
    init(transportError error: any Error) {
        switch error {
        case let error as WebServiceError: self = error
        case is CancellationError: self = .cancelled(reason: nil)
        case let error as URLError where error.code == .cancelled: self = .cancelled(reason: nil)
        case let error as URLError: self = .transport(ServerTrustFailure.refined(error))
        default:
            self = .transport(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)"]))
        }
    }
}
