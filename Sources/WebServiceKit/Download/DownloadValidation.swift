import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ResponseValidator {
    /// Checks a download's response like any other (success codes, error handler), then moves
    /// the file into place. The body of a file-bound response is in the file; the sink kept its
    /// first 64 KiB with the response, for the error handler and the error. The caller deletes
    /// the file when this throws.
    func validateDownload(
        _ received: TransportResponse, for request: WebServiceRequest, from sink: ResponseBodySink,
        into download: FileDownload
    ) throws(WebServiceError) -> ValidatedResponse {
        // A response that no transport wrote (an interceptor's answer) is poured into the sink
        // now, by the same rules as a transport's.
        let response = try sink.receive(received)
        var checked = response
        if response.bodyFileLength != nil {
            checked.body = response.filePrefix
        } else if !isAccepted(response.statusCode) {
            checked.body = response.body.prefix(ResponseBodySink.keptPrefix)
        }
        let context = try check(checked, for: request)
        let file = try download.commit()
        return ValidatedResponse(
            request: request, response: response, context: context, file: file, settings: settings)
    }
}
