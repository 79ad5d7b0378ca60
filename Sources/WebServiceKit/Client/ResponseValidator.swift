import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks a response against the call's success codes and error handler.
///
/// Not generic: the pipeline up to decoding is the same code for every `Response` type, so it
/// looks up no generic metadata per call; only ``ValidatedResponse/value(decodedBy:)`` depends
/// on the type.
struct ResponseValidator {
    let descriptor: CallDescriptor
    let compiled: CompiledCall
    let settings: WebServiceClient.Settings

    /// The response, accepted, with what its decoding needs.
    func validate(_ response: TransportResponse, for request: WebServiceRequest) throws(WebServiceError)
        -> ValidatedResponse
    {
        let context = try check(response, for: request)
        return ValidatedResponse(
            request: request, response: response, context: context, file: nil, settings: settings)
    }

    /// Throws for an unaccepted status, or what the error handler makes of the response.
    @discardableResult
    func check(_ response: TransportResponse, for request: WebServiceRequest) throws(WebServiceError) -> ResponseContext
    {
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
                code: status, headers: response.headers, body: settings.secrets(of: request).scrub(body: response.body))
        }
        return context
    }

    /// The call's error handler, or the client's.
    var errorHandler: (any ResponseErrorHandler)? { descriptor.errorHandler ?? settings.errorHandler }

    /// The call's codes replace the client's when it overrides them, and add to them otherwise.
    func isAccepted(_ status: Int) -> Bool {
        guard let codes = descriptor.successCodes else { return settings.successCodes.contains(status) }
        return codes.contains(status)
            || (!descriptor.overridesClientSuccessCodes && settings.successCodes.contains(status))
    }
}

extension WebServiceClient.Settings {
    /// The values the log hides in `request`, to hide them in an error's body too.
    func secrets(of request: WebServiceRequest) -> LogRedaction.Secrets {
        LogRedaction.Matcher(self.logging.redaction).secrets(of: request)
    }
}
