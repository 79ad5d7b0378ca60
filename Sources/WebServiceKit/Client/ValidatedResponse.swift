import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response the call accepts, before its value is decoded: the one generic step of a call
/// comes after this.
struct ValidatedResponse {
    /// The request as it was last sent.
    let request: WebServiceRequest
    let response: TransportResponse
    let context: ResponseContext
    /// The file a `WebServiceCall<DownloadedFile>` wrote, moved into place.
    let file: DownloadedFile?
    let settings: WebServiceClient.Settings
    /// The call's metrics, set by the client once the call's stages ended.
    var metrics: CallMetricsBox? = nil
    /// A streamed call's metrics, still collecting: they end with its body.
    var streamMetrics: MetricsCollector? = nil

    /// The call's value: the downloaded file, the serializer's empty value for a response without
    /// content, or the decoded body.
    func value<Response>(decodedBy serializer: any ResponseSerializer<Response>) throws(WebServiceError)
        -> Response
    {
        if let file {
            // Only a WebServiceCall<DownloadedFile> downloads to a file (decided before sending):
            // its serializer gives the file as the value; no cast.
            var context = context
            context.downloadedFile = file
            do {
                return try serializer.deserialize(Data(), context: context)
            } catch {
                throw .invalidCall("a file was downloaded for a call whose response is \(Response.self)")
            }
        }
        let status = response.statusCode
        // RFC 9110 §6.4.1: HEAD responses, 204 and 304 never have content; 205 must not either.
        if response.body.isEmpty || status == 204 || status == 205 || status == 304 || request.method == "HEAD" {
            guard let empty = serializer.emptyValue() else { throw .emptyBody(statusCode: status) }
            return empty
        }
        do {
            return try serializer.deserialize(response.body, context: context)
        } catch {
            // A body the call could not decode (invalid JSON, an HTML error page with 200) is not
            // kept: a whole, storable response by RFC 9111, but served from the cache it would fail
            // every call until it expires. The next call asks the server again (a cache may always
            // drop what it stores, RFC 9111 §3).
            if let cache = settings.cache, let url = request.url { cache.removeResponse(for: url) }
            // A body that echoes the request (httpbin's /headers, a debug endpoint) would put its
            // credentials in the error's description: they are hidden as the log hides them.
            throw .decoding(
                .init(
                    underlying: error,
                    bodyExcerpt: settings.secrets(of: request).scrub(
                        truncated: WebServiceError.excerpt(of: response.body)),
                    statusCode: status))
        }
    }

    /// The whole response with the call's value.
    func response<Response>(decodedBy serializer: any ResponseSerializer<Response>) throws(WebServiceError)
        -> WebServiceResponse<Response>
    {
        WebServiceResponse(
            value: try value(decodedBy: serializer), statusCode: response.statusCode, headers: response.headers,
            // A file's bytes are in the file, not in memory.
            body: file == nil ? response.body : Data(), request: request, url: response.url,
            source: response.source, attempts: response.attempts, metricsBox: metrics)
    }
}
