import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebServiceClient {
    /// One call's walk up to decoding: bind arguments, build the request, run it down the stages
    /// (``CallStages``: interceptors, follow-ups, checks, cache, log, transport), validate the
    /// answer (and, for a ``DownloadedFile``, move the file into place).
    /// ``ValidatedResponse/value(decodedBy:)`` finishes it.
    ///
    /// Not generic: this is the same code for every response type, which looks up no generic
    /// metadata per call. Whether the call downloads to a file is the descriptor's to say
    /// (``CallDescriptor/downloadsToFile``).
    ///
    /// `progress` gets the handler bound from the arguments; the caller closes it and delivers
    /// the outcome through it (``ProgressReporter/close(succeeded:then:)``).
    ///
    /// A `streaming` call (``WebServiceClient/stream(_:_:)``) returns once the head of its answer
    /// arrived: the validated response's ``TransportResponse/live`` body is still arriving. The
    /// body of an error status is read first (within ``WebServiceClient/maximumResponseBodySize``)
    /// for its error.
    func execute(
        _ descriptor: CallDescriptor, arguments: [any Sendable],
        prepare: (any WebServiceInterceptor)?, progress: ProgressReporter, streaming: Bool = false
    ) async throws(WebServiceError) -> ValidatedResponse {
        let settings = currentSettings
        // The request once it is built: the stages' errors are named with it (the other places
        // that name a call's errors are listed in Docs/Architecture.md).
        var built: WebServiceRequest?
        do throws(WebServiceError) {
            let compiled = try descriptor.compiled.get()
            let prepared = try prepareRequest(descriptor, compiled: compiled, arguments: arguments, settings: settings)
            built = prepared.request
            var interceptors = settings.interceptors
            if let prepare { interceptors.append(prepare) }
            progress.attach(simple: prepared.progress, rich: prepared.transferProgress)
            let uploadLength = prepared.streamedBody?.length ?? prepared.request.httpBody.map { Int64($0.count) }
            let download = try fileDownload(for: descriptor, destination: prepared.downloadDestination)
            if let download { progress.discardOnFailure(download) }
            // A ProgressHandler follows the upload of calls that send a body, the download otherwise.
            let sendsBody = (uploadLength ?? 0) > 0 || prepared.streamedBody != nil
            progress.start(primary: sendsBody ? .upload : .download, expected: sendsBody ? uploadLength : nil)
            // Every response body of the call goes into its one sink: memory within the limit, or the file.
            let reporter = progress.hasHandlers ? progress : nil
            let sink = ResponseBodySink(
                maximumSize: settings.maximumResponseBodySize, download: download, progress: reporter,
                stream: streaming
                    ? .init(
                        bufferSize: descriptor.streamBufferSize, maximumBodySize: descriptor.maximumStreamedBodySize)
                    : nil)
            // Collected unless the client says not to (Docs/Metrics.md, its cost); a monitor needs them.
            let metrics =
                settings.collectsMetrics || settings.metricsMonitor != nil ? MetricsCollector() : nil
            var source: ResponseSource?
            do throws(WebServiceError) {
                let call = CallExchange(
                    descriptor: descriptor, interceptors: interceptors,
                    networkInterceptors: settings.networkInterceptors, provider: settings.authenticationProvider,
                    maximumRedirects: settings.maximumRedirects,
                    retryPolicy: descriptor.retryPolicy ?? settings.retryPolicy, cache: settings.cache,
                    log: ExchangeLog.make(for: descriptor, settings: settings), transport: transport, bridge: bridge,
                    context: TransportContext(
                        call: descriptor, uploadLength: uploadLength, progress: reporter,
                        cacheIdentifier: prepared.cacheIdentifier, metrics: metrics, responseBody: sink))
                // Every stage of the call, in order: Stages.swift.
                var exchange = try await CallStages.run(prepared.request, body: prepared.streamedBody, call: call)
                source = exchange.response.source
                let validator = ResponseValidator(descriptor: descriptor, compiled: compiled, settings: settings)
                if let live = exchange.response.live, !validator.isAccepted(exchange.response.statusCode) {
                    // A streamed call's error status: its body, within the limit, for the error.
                    exchange.response.body = await live.collect(upTo: settings.maximumResponseBodySize)
                    exchange.response.live = nil
                }
                // Any other live body of the call (a response an interceptor replaced) closes now.
                if streaming { sink.endLive(keeping: exchange.response.live) }
                var validated =
                    if let download {
                        try validator.validateDownload(
                            exchange.response, for: exchange.request, from: sink, into: download)
                    } else {
                        try validator.validate(exchange.response, for: exchange.request)
                    }
                // Counted only if the call succeeds: a body that fails to decode closes it as failed.
                // A stream counts its body when it ends (``ResponseStream``).
                if !streaming {
                    progress.recordSuccess(
                        uploadLength: uploadLength,
                        downloaded: validated.file?.byteCount ?? Int64(validated.response.body.count))
                }
                if streaming, validated.response.live != nil {
                    // A streamed call's metrics end with its body (ResponseStream).
                    validated.streamMetrics = metrics
                } else if let finished = metrics?.finish(source: source, error: nil) {
                    validated.metrics = CallMetricsBox(finished)
                    settings.metricsMonitor?(finished)
                }
                return validated
            } catch {
                download?.discard()
                if streaming { sink.endLive(keeping: nil) }
                if let monitor = settings.metricsMonitor, let metrics {
                    monitor(metrics.finish(source: source, error: error))
                }
                throw error
            }
        } catch {
            throw Self.naming(error, descriptor, request: built, settings: settings)
        }
    }

    /// The file a `WebServiceCall<DownloadedFile>` writes to: its destination argument, or a new
    /// temporary file; `nil` for other calls, which cannot take a destination.
    private func fileDownload(for descriptor: CallDescriptor, destination: DownloadDestination?)
        throws(WebServiceError) -> FileDownload?
    {
        guard descriptor.downloadsToFile else {
            guard destination == nil else {
                throw .invalidArguments(
                    index: nil,
                    reason: "a DownloadDestination needs a WebServiceCall<DownloadedFile>, not \"\(descriptor.name)\"")
            }
            return nil
        }
        if let destination { return try FileDownload(destination) }
        return try FileDownload.temporary()
    }
}

extension WebServiceClient {
    /// The request a call would send, before interceptors, authentication and the cookies of its
    /// attempts, with the transport's session fields (``RequestBridge``): for debugging, logging
    /// a call you are about to make, or checking an endpoint table in a test.
    ///
    /// ```swift
    /// let request = try client.request(for: .userRepos, arguments: ["octocat", "updated", "abc"])
    /// print(request.url!)   // https://api.example.com/users/octocat/repos?sort=updated
    /// ```
    public func request<Response>(for call: WebServiceCall<Response>, arguments: [any Sendable])
        throws(WebServiceError) -> WebServiceRequest
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
                requestSerializer: settings.requestSerializer, timeout: settings.timeout, bridge: bridge))
        return try factory.makeRequest(arguments: arguments)
    }
}
