import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebServiceClient {
    /// One call's walk: bind arguments, build the request, interceptors, authentication,
    /// transport, response interceptors, challenge retry, validation, decoding.
    func execute<Response>(
        _ call: WebServiceCall<Response>, arguments: [any Sendable], prepare: (any WebServiceInterceptor)?
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        let settings = currentSettings
        let descriptor = call.descriptor
        let compiled = try descriptor.compiled.get()
        let prepared = try prepareRequest(descriptor, compiled: compiled, arguments: arguments, settings: settings)
        var interceptors = settings.interceptors
        if let prepare { interceptors.append(prepare) }
        let progress = prepared.progress.map { ProgressReporter(handler: $0, queue: callbackQueue) }
        let uploadLength = prepared.streamedBody?.length ?? prepared.request.httpBody.map { Int64($0.count) }
        progress?.start()
        do throws(WebServiceError) {
            let exchange = try await Exchange(
                descriptor: descriptor, interceptors: interceptors, provider: settings.authenticationProvider,
                transport: settings.cache.map { CachingTransport(base: transport, cache: $0) } ?? transport,
                context: TransportContext(
                    call: descriptor, uploadLength: uploadLength, progress: progress,
                    cacheIdentifier: prepared.cacheIdentifier),
                maximumRedirects: settings.maximumRedirects, body: prepared.streamedBody
            ).run(prepared.request)
            let response = try ResponseValidator(call: call, compiled: compiled, settings: settings).validate(
                exchange.response, for: exchange.request)
            progress?.finish(total: uploadLength ?? Int64(response.body.count))
            return response
        } catch {
            progress?.stop()
            throw error
        }
    }
}

extension WebServiceClient {
    /// The request a call would send, before interceptors and authentication: for debugging,
    /// logging a call you are about to make, or checking an endpoint table in a test.
    ///
    /// ```swift
    /// let request = try client.request(for: .userRepos, arguments: ["octocat", "updated", "abc"])
    /// print(request.url!)   // https://api.example.com/users/octocat/repos?sort=updated
    /// ```
    public func request<Response>(for call: WebServiceCall<Response>, arguments: [any Sendable])
        throws(WebServiceError) -> URLRequest
    {
        let compiled = try call.descriptor.compiled.get()
        return try prepareRequest(call.descriptor, compiled: compiled, arguments: arguments, settings: currentSettings)
            .request
    }

    private func prepareRequest(
        _ descriptor: CallDescriptor, compiled: CompiledCall, arguments: [any Sendable], settings: Settings
    ) throws(WebServiceError) -> PreparedRequest {
        let factory = RequestFactory(
            descriptor: descriptor, compiled: compiled,
            defaults: RequestDefaults(
                serviceRoot: root, sharedHeaders: settings.sharedHeaders,
                requestSerializer: settings.requestSerializer, timeout: settings.timeout))
        return try factory.makeRequest(arguments: arguments)
    }
}
