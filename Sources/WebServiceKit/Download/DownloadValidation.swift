import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ResponseValidator {
    /// Checks a download's response like any other (success codes, error handler), then moves
    /// the file into place. An error response's first 64 KiB are read back from the file for the
    /// error handler and the error; the caller deletes the file when this throws.
    func validateDownload(_ response: TransportResponse, for request: URLRequest, into download: FileDownload)
        throws(WebServiceError) -> ValidatedResponse
    {
        var checked = response
        if response.bodyFileLength != nil, errorHandler != nil || !isAccepted(response.statusCode) {
            checked.body = download.prefix()
        } else if response.bodyFileLength == nil, !isAccepted(response.statusCode) {
            checked.body = response.body.prefix(FileDownload.errorBodyPrefix)
        }
        let context = try check(checked, for: request)
        // A transport that kept the body in memory (a stub, a custom transport): write it now.
        if response.bodyFileLength == nil { try download.write(response.body) }
        let file = try download.commit()
        return ValidatedResponse(
            request: request, response: response, context: context, file: file, settings: settings)
    }
}
