import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs each attempt as it goes to the wire and what came back (``ExchangeLog``); passes
/// everything through unchanged. A call that logs nothing has no log and costs one branch here.
struct LogStage: CallStage {
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool { call.log != nil }

    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        guard let log = next.call.log else { return try await next.proceed(outgoing) }
        let sent = log.sent(outgoing.request, attempt: outgoing.attempt, streamedLength: outgoing.body?.length)
        // The time and the reuse flag come from the request's record in the call's metrics,
        // the same figures as `WebServiceResponse.metrics`.
        let metrics = next.call.context.metrics
        let before = metrics?.transactionCount ?? 0
        do {
            let answer = try await next.proceed(outgoing)
            log.received(answer.response, for: sent, transaction: metrics?.transaction(after: before))
            return answer
        } catch {
            log.failed(error, for: sent, transaction: metrics?.transaction(after: before))
            throw error
        }
    }
}

extension ExchangeLog {
    /// Logs an answer a stage above the log gave without the network (the cache's stored or
    /// stale answer, its 504 for `only-if-cached`), as a request and its response, the response
    /// marked with its source.
    func answered(_ outgoing: Outgoing, with response: TransportResponse) {
        received(
            response, for: sent(outgoing.request, attempt: outgoing.attempt, streamedLength: outgoing.body?.length))
    }
}
