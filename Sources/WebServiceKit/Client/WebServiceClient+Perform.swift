import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebServiceClient {
    // MARK: Callbacks

    /// Performs a call and delivers its value or error on ``callbackQueue``, exactly once.
    ///
    /// ```swift
    /// let task = client.perform(.userRepos, ["octocat", "updated", "abc"],
    ///                           success: { repos in print(repos) },
    ///                           failure: { error in print(error) })
    /// task.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - call: The descriptor.
    ///   - arguments: Values for the wildcards, the body, the progress handler…; `arguments[N]` fills `%%N%%`.
    ///   - prepare: A last change to the request before it is authenticated and sent.
    ///   - progress: Told how the upload and the download go, on ``callbackQueue``, always before
    ///     `success` or `failure`; after a cancellation, nothing. See ``TransferProgress``.
    @discardableResult
    public func perform<Response>(
        _ call: WebServiceCall<Response>, _ arguments: [any Sendable] = [],
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil,
        success: @escaping @Sendable (Response) -> Void,
        failure: @escaping @Sendable (WebServiceError) -> Void
    ) -> WebServiceTask {
        perform(call, arguments, prepare: prepare, progress: progress) { result in
            switch result {
            case .success(let response): success(response.value)
            case .failure(let error): failure(error)
            }
        }
    }

    /// Performs a call and delivers the whole response (status, headers, value) or the error on
    /// ``callbackQueue``, exactly once.
    ///
    /// Progress events (of `progress` and of the descriptor's `progressParameter` argument) all
    /// run before `completion`; after a cancellation, none runs.
    @discardableResult
    public func perform<Response>(
        _ call: WebServiceCall<Response>, _ arguments: [any Sendable] = [],
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil,
        completion: @escaping @Sendable (Result<WebServiceResponse<Response>, WebServiceError>) -> Void
    ) -> WebServiceTask {
        let lifecycle = CallLifecycle(callbacksOf: self, progress: progress) { reason in
            completion(.failure(self.failure(.cancelled(reason: reason), of: call.descriptor)))
        }
        let interceptor = prepare.map(PrepareInterceptor.init)
        return lifecycle.start {
            let result = await lifecycle.run(
                call.descriptor, arguments: arguments, prepare: interceptor,
                decode: { (validated) throws(WebServiceError) in
                    try validated.response(decodedBy: call.responseSerializer)
                })
            if let result { lifecycle.deliver { completion(result) } }
        }
    }

    /// Starts `operation` on the calling thread, up to its first suspension (the transport's wait
    /// for the response): building the request there, as `URLSession.dataTask` does, saves a
    /// thread hop per call. Where `Task.immediate` does not exist, a plain `Task`.
    @discardableResult
    func startImmediately(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }

    // MARK: async/await

    /// Performs a call and returns its decoded value.
    ///
    /// ```swift
    /// let repos = try await client.perform(.userRepos, "octocat", "updated", "abc")
    /// ```
    /// Cancelling the surrounding task cancels the request and throws
    /// ``WebServiceError/cancelled(reason:)``.
    @_disfavoredOverload
    public func perform<Response>(_ call: WebServiceCall<Response>, _ arguments: any Sendable...)
        async throws(WebServiceError) -> Response
    {
        try await value(of: call, arguments: arguments, prepare: nil, progress: nil)
    }

    /// Performs a call with an argument array, as the callback form takes it.
    ///
    /// `try await client.perform(.userRepos, ["octocat", "updated", "abc"])` passes three
    /// arguments, like the callback form; to pass one list argument (for a repeated query item),
    /// nest it: `[[1, 2, 3]]`.
    public func perform<Response>(_ call: WebServiceCall<Response>, _ arguments: [any Sendable])
        async throws(WebServiceError) -> Response
    {
        try await value(of: call, arguments: arguments, prepare: nil, progress: nil)
    }

    /// Performs a call with an argument array and returns its decoded value.
    ///
    /// `progress` is told how the upload and the download go, on ``callbackQueue``; the call
    /// returns (or throws) only after every progress event has run.
    ///
    /// ```swift
    /// let file = try await client.perform(
    ///     .quarterlyReport, arguments: ["2024-q4", destination],
    ///     progress: { progress in print(progress.direction, progress.completedBytes, progress.fraction) })
    /// ```
    public func perform<Response>(
        _ call: WebServiceCall<Response>, arguments: [any Sendable],
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Response {
        try await value(
            of: call, arguments: arguments, prepare: prepare.map(PrepareInterceptor.init), progress: progress)
    }

    /// Performs a call and returns the whole response: status, headers, raw body and value.
    @_disfavoredOverload
    public func response<Response>(for call: WebServiceCall<Response>, _ arguments: any Sendable...)
        async throws(WebServiceError) -> WebServiceResponse<Response>
    {
        try await response(of: call, arguments: arguments, prepare: nil, progress: nil)
    }

    /// Performs a call with an argument array, as the callback form takes it, and returns the
    /// whole response.
    public func response<Response>(for call: WebServiceCall<Response>, _ arguments: [any Sendable])
        async throws(WebServiceError) -> WebServiceResponse<Response>
    {
        try await response(of: call, arguments: arguments, prepare: nil, progress: nil)
    }

    /// Performs a call with an argument array and returns the whole response; `progress` as in
    /// ``perform(_:arguments:prepare:progress:)``.
    public func response<Response>(
        for call: WebServiceCall<Response>, arguments: [any Sendable],
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        try await response(
            of: call, arguments: arguments, prepare: prepare.map(PrepareInterceptor.init), progress: progress)
    }

    // MARK: Blocking

    /// Performs a call and blocks the current thread until the whole response is there (ROAD's
    /// `syncCall`, which lost the body; this one returns it).
    ///
    /// For scripts and tests. It refuses to run on ``callbackQueue`` or inside a Swift task,
    /// where waiting could deadlock, with ``WebServiceError/invalidCall(_:)``.
    public func performSynchronously<Response>(
        _ call: WebServiceCall<Response>, _ arguments: [any Sendable] = []
    ) throws(WebServiceError) -> WebServiceResponse<Response> {
        if isOnCallbackQueue {
            throw failure(
                .invalidCall("performSynchronously would deadlock on the client's callback queue"), of: call.descriptor)
        }
        if withUnsafeCurrentTask(body: { $0 != nil }) {
            throw failure(
                .invalidCall("performSynchronously would block a Swift concurrency thread; use `await perform`"),
                of: call.descriptor)
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<WebServiceResponse<Response>, WebServiceError>?>(nil)
        // A call that never suspends (a cache hit) runs to its end right here: no hop to another
        // thread and back.
        startImmediately {
            let result: Result<WebServiceResponse<Response>, WebServiceError>
            do throws(WebServiceError) {
                result = .success(try await self.response(of: call, arguments: arguments, prepare: nil, progress: nil))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.current else { throw failure(.cancelled(reason: nil), of: call.descriptor) }
        return try result.get()
    }
}

extension WebServiceClient {
    /// A call's value, for the `async` forms.
    fileprivate func value<Response>(
        of call: WebServiceCall<Response>, arguments: [any Sendable], prepare: (any WebServiceInterceptor)?,
        progress: TransferProgressHandler?
    ) async throws(WebServiceError) -> Response {
        try await run(
            call.descriptor, arguments: arguments, prepare: prepare, progress: progress
        ) { validated throws(WebServiceError) in try validated.value(decodedBy: call.responseSerializer) }
    }

    /// A call's whole response, for the `async` and blocking forms.
    fileprivate func response<Response>(
        of call: WebServiceCall<Response>, arguments: [any Sendable], prepare: (any WebServiceInterceptor)?,
        progress: TransferProgressHandler?
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        try await run(
            call.descriptor, arguments: arguments, prepare: prepare, progress: progress
        ) { validated throws(WebServiceError) in try validated.response(decodedBy: call.responseSerializer) }
    }

    /// A call for the `async` and blocking forms (``CallLifecycle``): returns or throws only after
    /// every progress event has run on the callback queue. `decode` makes the result of the
    /// validated response.
    private func run<Result>(
        _ descriptor: CallDescriptor, arguments: [any Sendable],
        prepare: (any WebServiceInterceptor)?, progress handler: TransferProgressHandler?,
        decode: (ValidatedResponse) throws(WebServiceError) -> Result
    ) async throws(WebServiceError) -> Result {
        let lifecycle = CallLifecycle(asyncOf: self, progress: handler)
        // Without a task nothing else can deliver: the run always has a result.
        let result = await lifecycle.run(descriptor, arguments: arguments, prepare: prepare, decode: decode)
        await lifecycle.settle()
        guard let result else { throw .cancelled(reason: nil) }
        return try result.get()
    }
}

/// The per-call `prepare` closure, as the innermost interceptor.
struct PrepareInterceptor: WebServiceInterceptor {
    let prepare: @Sendable (inout WebServiceRequest) throws -> Void

    func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
        var request = request
        try prepare(&request)
        return .proceed(request)
    }
}
