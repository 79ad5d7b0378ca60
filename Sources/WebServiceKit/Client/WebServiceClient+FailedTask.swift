import Dispatch

extension WebServiceClient {
    /// A task for a call that failed before it could start: `error` reaches `completion` on
    /// ``callbackQueue``, unless ``WebServiceTask/cancel(reason:)`` comes first and delivers
    /// ``WebServiceError/cancelled(reason:)`` instead. Either way `completion` runs exactly once,
    /// as for any task.
    ///
    /// For callback APIs built on the client that check their input before they start a call
    /// (the JSON-RPC product's, or your own): the caller gets a task and a delivery like those of
    /// ``perform(_:_:prepare:progress:completion:)``, never a synchronous callback.
    ///
    /// ```swift
    /// guard let id else {
    ///     return client.failedTask(.invalidArguments(index: 0, reason: "no id"), completion: completion)
    /// }
    /// ```
    public func failedTask<Value>(
        _ error: WebServiceError, completion: @escaping @Sendable (Result<Value, WebServiceError>) -> Void
    ) -> WebServiceTask {
        let queue = callbackQueue
        let task = WebServiceTask { reason in queue.async { completion(.failure(.cancelled(reason: reason))) } }
        queue.async { if task.claimDelivery() { completion(.failure(error)) } }
        return task
    }
}
