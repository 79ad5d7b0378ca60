import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Right above the transport: a body the transport returned in memory (a stub, a custom
/// transport) instead of writing it into the call's ``ResponseBodySink`` is poured into the sink
/// here, so the sink's size limit, the download file and progress apply to the bodies of every
/// transport, before the response check, the log and the cache see them.
struct ResponseBodyStage: InlineStage {
    func response(_ answer: inout Answer, of call: CallExchange) throws(WebServiceError) {
        answer.response = try call.context.responseBody.receive(answer.response)
    }
}
