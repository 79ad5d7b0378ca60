import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The last stage: the client's transport carries the checked request and gives back the whole
/// response. What it throws becomes a ``WebServiceError`` here, once.
struct TransportStage: CallStage {
    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        do {
            let response = try await next.call.transport.send(outgoing.request, context: next.call.context)
            return Answer(request: outgoing.request, response: response)
        } catch {
            throw WebServiceError(transportError: error)
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
