import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's network interceptors (``WebServiceClient/networkInterceptors``), below the cache:
/// each may change a request that goes on the wire or answer it itself; on the way back each sees
/// the response as it came, in reverse order, before the cache stores it.
///
/// They run once per attempt (each redirect and each challenge answered is theirs to see), never
/// for an answer the cache gives. An answer one of them gives goes back through those that ran
/// before it, then up through the cache like any response.
struct NetworkInterceptorStage: CallStage {
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool { !call.networkInterceptors.isEmpty }

    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        try await UserInterceptorStage.intercept(outgoing, through: next.call.networkInterceptors, next: next)
    }
}
