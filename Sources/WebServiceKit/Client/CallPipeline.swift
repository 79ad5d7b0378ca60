import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebServiceClient {
    /// One call's walk: bind arguments, build the request, interceptors, authentication,
    /// transport, response interceptors, challenge retry, validation, decoding (or, for a
    /// ``DownloadedFile``, the file moved into place).
    ///
    /// `progress` gets the handler bound from the arguments; the caller closes it and delivers
    /// the outcome through it (``ProgressReporter/close(succeeded:then:)``).
    func execute<Response>(
        _ call: WebServiceCall<Response>, arguments: [any Sendable], prepare: (any WebServiceInterceptor)?,
        progress: ProgressReporter
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        let settings = currentSettings
        let descriptor = call.descriptor
        let compiled = try descriptor.compiled.get()
        let prepared = try prepareRequest(descriptor, compiled: compiled, arguments: arguments, settings: settings)
        var interceptors = settings.interceptors
        if let prepare { interceptors.append(prepare) }
        progress.attach(simple: prepared.progress, rich: prepared.transferProgress)
        let uploadLength = prepared.streamedBody?.length ?? prepared.request.httpBody.map { Int64($0.count) }
        let download = try fileDownload(for: call, destination: prepared.downloadDestination)
        if let download { progress.discardOnFailure(download) }
        // A ProgressHandler follows the upload of calls that send a body, the download otherwise.
        let sendsBody = (uploadLength ?? 0) > 0 || prepared.streamedBody != nil
        progress.start(primary: sendsBody ? .upload : .download)
        do throws(WebServiceError) {
            let exchange = try await Exchange(
                descriptor: descriptor, interceptors: interceptors, provider: settings.authenticationProvider,
                transport: settings.cache.map { CachingTransport(base: transport, cache: $0) } ?? transport,
                context: TransportContext(
                    call: descriptor, uploadLength: uploadLength, progress: progress.hasHandlers ? progress : nil,
                    cacheIdentifier: prepared.cacheIdentifier, download: download,
                    maximumBodySize: settings.maximumResponseBodySize),
                maximumRedirects: settings.maximumRedirects, body: prepared.streamedBody,
                log: ExchangeLog.make(for: descriptor, settings: settings)
            ).run(prepared.request)
            let response: WebServiceResponse<Response>
            let downloaded: Int64
            if let download, let fileCall = call as? WebServiceCall<DownloadedFile> {
                let file = try ResponseValidator(call: fileCall, compiled: compiled, settings: settings)
                    .validateDownload(exchange.response, for: exchange.request, into: download)
                // Response is DownloadedFile here.
                response = file as! WebServiceResponse<Response>
                downloaded = file.value.byteCount
            } else {
                do throws(WebServiceError) {
                    response = try ResponseValidator(call: call, compiled: compiled, settings: settings).validate(
                        exchange.response, for: exchange.request)
                } catch {
                    // A body the call could not decode (invalid JSON, an HTML error page with
                    // 200) is not kept: a whole, storable response by RFC 9111, but served from
                    // the cache it would fail every call until it expires. The next call asks the
                    // server again (a cache may always drop what it stores, RFC 9111 §3).
                    if case .decoding = error, let cache = settings.cache, let url = exchange.request.url {
                        cache.removeResponse(for: url)
                    }
                    throw error
                }
                downloaded = Int64(response.body.count)
            }
            progress.recordSuccess(uploadLength: uploadLength, downloaded: downloaded)
            return response
        } catch {
            download?.discard()
            throw error
        }
    }

    /// The file a `WebServiceCall<DownloadedFile>` writes to: its destination argument, or a new
    /// temporary file; `nil` for other calls, which cannot take a destination.
    private func fileDownload<Response>(for call: WebServiceCall<Response>, destination: DownloadDestination?)
        throws(WebServiceError) -> FileDownload?
    {
        guard Response.self == DownloadedFile.self else {
            guard destination == nil else {
                throw .invalidArguments(
                    index: nil,
                    reason: "a DownloadDestination needs a WebServiceCall<DownloadedFile>, not <\(Response.self)>")
            }
            return nil
        }
        if let destination { return try FileDownload(destination) }
        return try FileDownload.temporary()
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
