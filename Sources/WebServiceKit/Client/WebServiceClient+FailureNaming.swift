extension WebServiceClient {
    /// `error` as the failure of the call of `descriptor` that sent `request`, named as the client
    /// names every error it delivers: the descriptor's name, the method and the URL, redacted as
    /// the log redacts it (``logRedaction``), with the request's secrets hidden in the error's
    /// text. An error that names a call already is returned as it is.
    ///
    /// For code that makes a call's error itself, before the call or after it returned (a product
    /// that reads the body further, as the JSON-RPC product does; a check of arguments before
    /// ``failedTask(_:completion:)``): its errors then read as the client's do. `request` is `nil`
    /// when no request was built; the descriptor's relative path stands for the URL then.
    public func failure(
        _ error: WebServiceError, of descriptor: CallDescriptor, request: WebServiceRequest? = nil
    ) -> WebServiceError {
        Self.naming(error, descriptor, request: request, settings: currentSettings)
    }

    /// ``failure(_:of:request:)`` with the settings of the call.
    static func naming(
        _ error: WebServiceError, _ descriptor: CallDescriptor, request: WebServiceRequest?, settings: Settings
    ) -> WebServiceError {
        guard error.call == nil else { return error }
        let matcher = LogRedaction.Matcher(settings.logging.redaction)
        var secrets = request.map { matcher.secrets(of: $0) } ?? LogRedaction.Secrets()
        let url = request?.url.map { matcher.redact($0, secrets: &secrets) } ?? descriptor.relativePath
        let summary = WebServiceError.CallSummary(
            name: descriptor.name, method: request?.httpMethod ?? descriptor.method.rawValue, url: url,
            isNamed: descriptor.fields.name != nil)
        return error.naming(summary, hiding: secrets)
    }
}
