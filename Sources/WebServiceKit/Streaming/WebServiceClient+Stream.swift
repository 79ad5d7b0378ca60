import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebServiceClient {
    /// Performs a streamed call and returns once its response head is there and accepted, with the
    /// body still arriving: read it with `for try await`.
    ///
    /// ```swift
    /// let events = try await client.stream(.ticker, "EURUSD")
    /// for try await event in events { print(event.data) }
    /// ```
    ///
    /// The call goes through every stage as any call does (interceptors, authentication and its
    /// challenges, redirects, retries before the head, the request check, logging, metrics), but
    /// never through the cache. An error status throws here, with its body (within
    /// ``maximumResponseBodySize``), as ``perform(_:_:)-(WebServiceCall<Response>,any Sendable...)``
    /// would; so does a failure before the head. See ``ResponseStream`` for what happens after.
    public func stream<Element>(_ call: WebServiceCall<ResponseStream<Element>>, _ arguments: any Sendable...)
        async throws(WebServiceError) -> ResponseStream<Element>
    {
        try await stream(call, arguments: arguments, prepare: nil, progress: nil)
    }

    /// Performs a streamed call with an argument array, as the callback form of `perform` takes it.
    public func stream<Element>(_ call: WebServiceCall<ResponseStream<Element>>, _ arguments: [any Sendable])
        async throws(WebServiceError) -> ResponseStream<Element>
    {
        try await stream(call, arguments: arguments, prepare: nil, progress: nil)
    }

    /// Performs a streamed call with an argument array; `prepare` changes its request last (as the
    /// innermost interceptor), and `progress` counts the body's bytes as they arrive (it is told of
    /// the end when the stream ends).
    public func stream<Element>(
        _ call: WebServiceCall<ResponseStream<Element>>, arguments: [any Sendable],
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> ResponseStream<Element> {
        guard let serializer = call.responseSerializer as? StreamSerializer<Element> else {
            throw failure(
                .invalidCall("the call was not made with a StreamFormat (init(_:stream:))"), of: call.descriptor)
        }
        // An event stream that reconnects sends the call again, with the last event ID.
        let reconnect: (@Sendable (String) async throws(WebServiceError) -> StreamSession<Element>)? =
            serializer.format.reconnection == nil
            ? nil
            : { @Sendable lastEventID async throws(WebServiceError) in
                let next = try await self.stream(
                    call, arguments: arguments,
                    prepare: { request in
                        try prepare?(&request)
                        if !lastEventID.isEmpty { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
                    }, progress: nil)
                return next.session
            }
        let lifecycle = CallLifecycle(asyncOf: self, progress: progress)
        let reporter = lifecycle.reporter
        let monitor = currentSettings.metricsMonitor
        let result = await lifecycle.run(
            call.descriptor, arguments: arguments, prepare: prepare.map(PrepareInterceptor.init), streaming: true
        ) { validated throws(WebServiceError) in
            let response = validated.response
            // The call's metrics end with the stream, and go to the monitor then.
            let metrics = validated.streamMetrics
            return ResponseStream(
                session: StreamSession(
                    statusCode: response.statusCode, headers: response.headers, url: response.url,
                    source: response.live.map { .live($0) } ?? .memory(response.body), format: serializer.format,
                    reconnect: reconnect, metrics: validated.metrics?.value,
                    naming: { error in
                        WebServiceClient.naming(
                            error, call.descriptor, request: validated.request, settings: validated.settings)
                    },
                    onEnd: { outcome, bytes in
                        var failure: WebServiceError?
                        switch outcome {
                        case .success:
                            reporter.recordSuccess(uploadLength: nil, downloaded: bytes)
                            reporter.close(succeeded: true)
                        case .failure(let error):
                            failure = error
                            reporter.close(succeeded: false)
                        }
                        guard let metrics else { return nil }
                        let finished = metrics.finish(source: response.source, error: failure)
                        monitor?(finished)
                        return finished
                    }))
        }
        await lifecycle.settle()
        guard let result else { throw .cancelled(reason: nil) }
        return try result.get()
    }
}
