import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks a response against the call's success codes and error handler, then decodes it.
struct ResponseValidator<Response: Sendable> {
    let call: WebServiceCall<Response>
    let compiled: CompiledCall
    let settings: WebServiceClient.Settings

    func validate(_ response: TransportResponse, for request: URLRequest) throws(WebServiceError)
        -> WebServiceResponse<Response>
    {
        let status = response.statusCode
        let context = try check(response, for: request)
        let value: Response
        // RFC 9110 §6.4.1: HEAD responses, 204 and 304 never have content; 205 must not either.
        if response.body.isEmpty || request.httpMethod == "HEAD" || status == 204 || status == 205 || status == 304 {
            guard let empty = call.responseSerializer.emptyValue() else { throw .emptyBody(statusCode: status) }
            value = empty
        } else {
            do {
                value = try call.responseSerializer.deserialize(response.body, context: context)
            } catch {
                // A body that echoes the request (httpbin's /headers, a debug endpoint) would put its
                // credentials in the error's description: they are hidden as the log hides them.
                throw .decoding(
                    .init(
                        underlying: error,
                        bodyExcerpt: secrets(of: request).scrub(truncated: WebServiceError.excerpt(of: response.body)),
                        statusCode: status))
            }
        }
        return WebServiceResponse(
            value: value, statusCode: status, headers: response.headers, body: response.body, request: request,
            url: response.url, source: response.source)
    }

    /// Throws for an unaccepted status, or what the error handler makes of the response.
    @discardableResult
    func check(_ response: TransportResponse, for request: URLRequest) throws(WebServiceError) -> ResponseContext {
        let status = response.statusCode
        let context = ResponseContext(
            statusCode: status, headers: response.headers, serializationRoot: compiled.serializationRoot,
            defaultJSONDecoder: settings.jsonDecoder)
        let accepted = isAccepted(status)
        if let handler = errorHandler,
            let error = handler.error(for: context, body: response.body, statusAccepted: accepted)
        {
            throw .application(error, statusCode: status)
        }
        guard accepted else {
            // An error body that echoes the request's credentials (a debug page, a proxy's
            // report) keeps them out of the error, which is logged and shown far more often than
            // a response: they are replaced as the log replaces them.
            throw .unacceptableStatus(
                code: status, headers: response.headers, body: secrets(of: request).scrub(body: response.body))
        }
        return context
    }

    /// The values the log hides in `request`, to hide them in an error's body too.
    private func secrets(of request: URLRequest) -> LogRedaction.Secrets {
        LogRedaction.Matcher(settings.logging.redaction).secrets(of: request)
    }

    /// The call's error handler, or the client's.
    var errorHandler: (any ResponseErrorHandler)? { call.descriptor.errorHandler ?? settings.errorHandler }

    /// The call's codes replace the client's when it overrides them, and add to them otherwise.
    func isAccepted(_ status: Int) -> Bool {
        guard let codes = call.descriptor.successCodes else { return settings.successCodes.contains(status) }
        return codes.contains(status)
            || (!call.descriptor.overridesClientSuccessCodes && settings.successCodes.contains(status))
    }
}
