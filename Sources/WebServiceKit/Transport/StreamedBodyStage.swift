import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Attaches a call's streamed body to each attempt, opened anew (a one-shot stream refuses a
/// second attempt), and makes a failure reading it the call's error, whatever the transport
/// reported (a file that changed size, a broken stream).
struct StreamedBodyStage: CallStage {
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool { outgoing.body != nil }

    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        var outgoing = outgoing
        try outgoing.body?.attach(to: &outgoing.request, sendCount: outgoing.attempt - 1)
        do {
            return try await next.proceed(outgoing)
        } catch {
            throw outgoing.request.httpBodyStream?.reportedError.map {
                .requestSerialization("the body could not be sent: \($0)")
            } ?? error
        }
    }
}
