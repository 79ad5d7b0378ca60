/// The forms of ``WebServiceClient``'s methods that take a ``TypedCall``: the same calls, with
/// their arguments (and body) checked by the compiler. Each one passes the values on, in order, to
/// the untyped form that takes an argument array, so that the two run the same code.
extension WebServiceClient {
    // MARK: async/await

    /// Performs a typed call without a body and returns its decoded value.
    ///
    /// ```swift
    /// let repos = try await client.perform(.userRepos, "octocat", "updated")
    /// ```
    ///
    /// - Parameters:
    ///   - call: The typed descriptor.
    ///   - arguments: One value for each of the call's declared argument types, in order.
    ///   - prepare: A last change to the request before it is authenticated and sent.
    ///   - progress: Told how the upload and the download go (see ``TransferProgress``).
    @inlinable
    public func perform<each Argument: Sendable, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, NoBody, Response>, _ arguments: repeat each Argument,
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Response {
        try await perform(
            call.call, arguments: positional(repeat each arguments), prepare: prepare, progress: progress)
    }

    /// Performs a typed call with its body and returns its decoded value.
    ///
    /// ```swift
    /// let note = try await client.perform(.createNote, "octocat", body: Note(title: "Hi"))
    /// ```
    @inlinable
    public func perform<each Argument: Sendable, Body, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument,
        body: Body, prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Response {
        try await perform(
            call.call, arguments: positional(repeat each arguments, body: body), prepare: prepare, progress: progress)
    }

    /// Performs a typed call without a body and returns the whole response: status, headers, raw
    /// body and value.
    @inlinable
    public func response<each Argument: Sendable, Response>(
        for call: TypedCall<ArgumentList<repeat each Argument>, NoBody, Response>, _ arguments: repeat each Argument,
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        try await response(
            for: call.call, arguments: positional(repeat each arguments), prepare: prepare, progress: progress)
    }

    /// Performs a typed call with its body and returns the whole response.
    @inlinable
    public func response<each Argument: Sendable, Body, Response>(
        for call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument,
        body: Body, prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        try await response(
            for: call.call, arguments: positional(repeat each arguments, body: body), prepare: prepare,
            progress: progress)
    }

    /// Performs a typed streamed call without a body; see ``stream(_:arguments:prepare:progress:)``.
    ///
    /// ```swift
    /// for try await event in try await client.stream(.ticker, "EURUSD") { print(event.data) }
    /// ```
    @inlinable
    public func stream<each Argument: Sendable, Element>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, NoBody, ResponseStream<Element>>,
        _ arguments: repeat each Argument,
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> ResponseStream<Element> {
        try await stream(call.call, arguments: positional(repeat each arguments), prepare: prepare, progress: progress)
    }

    /// Performs a typed streamed call with its body.
    @inlinable
    public func stream<each Argument: Sendable, Body, Element>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, Body, ResponseStream<Element>>,
        _ arguments: repeat each Argument, body: Body,
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> ResponseStream<Element> {
        try await stream(
            call.call, arguments: positional(repeat each arguments, body: body), prepare: prepare, progress: progress)
    }

    /// A typed call with a body, called without one: this form exists only to say so when
    /// compiling.
    @available(*, unavailable, message: "this call sends a body: pass it as `body:` after the arguments")
    @inlinable
    public func perform<each Argument: Sendable, Body, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument
    ) async throws(WebServiceError) -> Response {
        try await perform(call.call, arguments: positional(repeat each arguments))
    }

    /// A typed call with a body, called without one: this form exists only to say so when
    /// compiling.
    @available(*, unavailable, message: "this call sends a body: pass it as `body:` after the arguments")
    @inlinable
    public func response<each Argument: Sendable, Body, Response>(
        for call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument
    ) async throws(WebServiceError) -> WebServiceResponse<Response> {
        try await response(for: call.call, arguments: positional(repeat each arguments))
    }

    // MARK: Callbacks

    /// Performs a typed call without a body and delivers the whole response or the error on
    /// ``callbackQueue``, exactly once (as
    /// ``perform(_:_:prepare:progress:completion:)-(WebServiceCall<Response>,_,_,_,_)`` does).
    @discardableResult
    @inlinable
    public func perform<each Argument: Sendable, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, NoBody, Response>, _ arguments: repeat each Argument,
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil,
        completion: @escaping @Sendable (Result<WebServiceResponse<Response>, WebServiceError>) -> Void
    ) -> WebServiceTask {
        perform(
            call.call, positional(repeat each arguments), prepare: prepare, progress: progress, completion: completion)
    }

    /// Performs a typed call with its body and delivers the whole response or the error on
    /// ``callbackQueue``, exactly once.
    @discardableResult
    @inlinable
    public func perform<each Argument: Sendable, Body, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument,
        body: Body, prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil,
        completion: @escaping @Sendable (Result<WebServiceResponse<Response>, WebServiceError>) -> Void
    ) -> WebServiceTask {
        perform(
            call.call, positional(repeat each arguments, body: body), prepare: prepare, progress: progress,
            completion: completion)
    }

    /// Performs a typed call without a body and delivers its value or error on
    /// ``callbackQueue``, exactly once.
    @discardableResult
    @inlinable
    public func perform<each Argument: Sendable, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, NoBody, Response>, _ arguments: repeat each Argument,
        prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil,
        success: @escaping @Sendable (Response) -> Void,
        failure: @escaping @Sendable (WebServiceError) -> Void
    ) -> WebServiceTask {
        perform(
            call.call, positional(repeat each arguments), prepare: prepare, progress: progress, success: success,
            failure: failure)
    }

    /// Performs a typed call with its body and delivers its value or error on ``callbackQueue``,
    /// exactly once.
    @discardableResult
    @inlinable
    public func perform<each Argument: Sendable, Body, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument,
        body: Body, prepare: (@Sendable (inout WebServiceRequest) throws -> Void)? = nil,
        progress: TransferProgressHandler? = nil,
        success: @escaping @Sendable (Response) -> Void,
        failure: @escaping @Sendable (WebServiceError) -> Void
    ) -> WebServiceTask {
        perform(
            call.call, positional(repeat each arguments, body: body), prepare: prepare, progress: progress,
            success: success, failure: failure)
    }

    // MARK: The request

    /// The request a typed call without a body would send, before interceptors and
    /// authentication (see ``request(for:arguments:)``).
    @inlinable
    public func request<each Argument: Sendable, Response>(
        for call: TypedCall<ArgumentList<repeat each Argument>, NoBody, Response>, _ arguments: repeat each Argument
    ) throws(WebServiceError) -> WebServiceRequest {
        try request(for: call.call, arguments: positional(repeat each arguments))
    }

    /// The request a typed call with its body would send.
    @inlinable
    public func request<each Argument: Sendable, Body, Response>(
        for call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument,
        body: Body
    ) throws(WebServiceError) -> WebServiceRequest {
        try request(for: call.call, arguments: positional(repeat each arguments, body: body))
    }

    // MARK: Blocking

    /// Performs a typed call without a body and blocks the current thread until the whole
    /// response is there (see ``performSynchronously(_:_:)``).
    @inlinable
    public func performSynchronously<each Argument: Sendable, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, NoBody, Response>, _ arguments: repeat each Argument
    ) throws(WebServiceError) -> WebServiceResponse<Response> {
        try performSynchronously(call.call, positional(repeat each arguments))
    }

    /// Performs a typed call with its body and blocks the current thread until the whole response
    /// is there.
    @inlinable
    public func performSynchronously<each Argument: Sendable, Body, Response>(
        _ call: TypedCall<ArgumentList<repeat each Argument>, Body, Response>, _ arguments: repeat each Argument,
        body: Body
    ) throws(WebServiceError) -> WebServiceResponse<Response> {
        try performSynchronously(call.call, positional(repeat each arguments, body: body))
    }
}

/// The values of a typed call in the order the descriptor reads them: the declared arguments,
/// then the body (the descriptor's `bodyParameter`) when there is one.
///
/// Inlinable, as the typed forms that call it: the caller's module specializes them for its
/// argument types, so that no pack's metadata is made at run time for a call.
@inlinable
func positional<each Argument: Sendable>(_ arguments: repeat each Argument, body: (any Sendable)? = nil)
    -> [any Sendable]
{
    var count = body == nil ? 0 : 1
    for _ in repeat (each Argument).self { count += 1 }
    var values: [any Sendable] = []
    values.reserveCapacity(count)
    for argument in repeat each arguments { values.append(argument) }
    if let body { values.append(body) }
    return values
}
