import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

extension WebServiceClient {
    // MARK: async/await

    /// Calls a JSON-RPC method and returns its typed result.
    ///
    /// ```swift
    /// let difference = try await client.perform(rpc, .subtract, [42, 23])   // 19
    /// ```
    ///
    /// The request goes out as the endpoint's ``JSONRPCEndpoint/call``, through the client's whole
    /// pipeline. A JSON-RPC error in the response throws ``WebServiceError/application(_:statusCode:)``
    /// holding the ``JSONRPCError`` (see ``WebServiceError/jsonRPCError``); a response that is not
    /// the request's throws ``WebServiceError/decoding(_:)`` holding a ``JSONRPCResponseError``.
    ///
    /// - Parameters:
    ///   - endpoint: Where the request goes.
    ///   - method: The method.
    ///   - params: Its params.
    ///   - arguments: Values for the endpoint's `%%N%%` wildcards.
    ///   - progress: Told how the upload and the download go, as in
    ///     ``perform(_:arguments:prepare:progress:)``.
    public func perform<Params, Output>(
        _ endpoint: JSONRPCEndpoint, _ method: JSONRPCMethod<Params, Output>, _ params: Params,
        arguments: [any Sendable] = [], progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Output {
        try await runJSONRPC(endpoint, arguments: arguments, progress: progress, exchange: .request(method, params))
    }

    /// Calls a JSON-RPC method that takes no params and returns its typed result.
    public func perform<Output>(
        _ endpoint: JSONRPCEndpoint, _ method: JSONRPCMethod<JSONRPCNoParams, Output>,
        arguments: [any Sendable] = [], progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> Output {
        try await perform(endpoint, method, JSONRPCNoParams(), arguments: arguments, progress: progress)
    }

    /// Sends a JSON-RPC notification: a request without id, which the server does not answer.
    ///
    /// Returns once the server has accepted the HTTP request (any accepted status, with or
    /// without a body). It throws what the HTTP exchange throws, and
    /// ``WebServiceError/application(_:statusCode:)`` when the server answers with an error object
    /// without id (it could not parse or accept the request); the method's own failures are
    /// never reported for a notification.
    public func notify<Params, Output>(
        _ endpoint: JSONRPCEndpoint, _ method: JSONRPCMethod<Params, Output>, _ params: Params,
        arguments: [any Sendable] = [], progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) {
        try await runJSONRPC(
            endpoint, arguments: arguments, progress: progress, exchange: .notification(method, params))
    }

    /// Sends a JSON-RPC notification of a method that takes no params.
    public func notify<Output>(
        _ endpoint: JSONRPCEndpoint, _ method: JSONRPCMethod<JSONRPCNoParams, Output>,
        arguments: [any Sendable] = [], progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) {
        try await notify(endpoint, method, JSONRPCNoParams(), arguments: arguments, progress: progress)
    }

    /// Sends a batch in one HTTP request and returns the answers, matched to the requests by id.
    ///
    /// Read each request's outcome from the response with its key. The call as a whole throws
    /// when nothing can be matched: ``WebServiceError/invalidArguments(index:reason:)`` for an
    /// empty batch (nothing is sent), ``WebServiceError/application(_:statusCode:)`` when the
    /// server answers the whole batch with one error object (a parse error, an invalid request),
    /// ``WebServiceError/emptyBody(statusCode:)`` when requests expected answers and the body is
    /// empty, and the failures of the HTTP exchange. A batch of notifications only succeeds on
    /// any accepted status, body or not.
    public func perform(
        _ endpoint: JSONRPCEndpoint, _ batch: JSONRPCBatch, arguments: [any Sendable] = [],
        progress: TransferProgressHandler? = nil
    ) async throws(WebServiceError) -> JSONRPCBatchResponse {
        try await runJSONRPC(endpoint, arguments: arguments, progress: progress, exchange: .batch(batch))
    }

    // MARK: Callbacks

    /// Calls a JSON-RPC method and delivers its typed result or error on ``callbackQueue``,
    /// exactly once; `progress` events all come first.
    @discardableResult
    public func perform<Params, Output>(
        _ endpoint: JSONRPCEndpoint, _ method: JSONRPCMethod<Params, Output>, _ params: Params,
        arguments: [any Sendable] = [], progress: TransferProgressHandler? = nil,
        completion: @escaping @Sendable (Swift.Result<Output, WebServiceError>) -> Void
    ) -> WebServiceTask {
        startJSONRPC(
            endpoint, arguments: arguments, progress: progress, exchange: .request(method, params),
            completion: completion)
    }

    /// Sends a JSON-RPC notification and delivers its outcome on ``callbackQueue``, exactly once.
    @discardableResult
    public func notify<Params, Output>(
        _ endpoint: JSONRPCEndpoint, _ method: JSONRPCMethod<Params, Output>, _ params: Params,
        arguments: [any Sendable] = [], progress: TransferProgressHandler? = nil,
        completion: @escaping @Sendable (Swift.Result<Void, WebServiceError>) -> Void
    ) -> WebServiceTask {
        startJSONRPC(
            endpoint, arguments: arguments, progress: progress, exchange: .notification(method, params),
            completion: completion)
    }

    /// Sends a batch and delivers the answers or the error on ``callbackQueue``, exactly once. An
    /// empty batch fails without sending anything.
    @discardableResult
    public func perform(
        _ endpoint: JSONRPCEndpoint, _ batch: JSONRPCBatch, arguments: [any Sendable] = [],
        progress: TransferProgressHandler? = nil,
        completion: @escaping @Sendable (Swift.Result<JSONRPCBatchResponse, WebServiceError>) -> Void
    ) -> WebServiceTask {
        startJSONRPC(
            endpoint, arguments: arguments, progress: progress, exchange: .batch(batch), completion: completion)
    }
}

// MARK: - The shared walk

/// What one JSON-RPC exchange sends and how it reads the answer.
struct JSONRPCExchange<Value: Sendable>: Sendable {
    /// Builds the body, giving ids from the endpoint's generator, and the reader of the answer.
    let prepare: @Sendable (JSONRPCEndpoint) throws(WebServiceError) -> Prepared

    struct Prepared: Sendable {
        let body: Data
        /// Only notifications were sent: a body that is not JSON-RPC is ignored.
        var expectsNoAnswer = false
        let read: @Sendable (JSONRPCPayload, _ statusCode: Int) throws(WebServiceError) -> Value

        /// The value of the call's answer, or of its failure when the failure is a body that
        /// notifications may ignore.
        func read(_ outcome: Swift.Result<WebServiceResponse<JSONRPCPayload>, WebServiceError>) throws(WebServiceError)
            -> Value
        {
            switch outcome {
            case .success(let response):
                return try read(response.value, response.statusCode)
            case .failure(let error):
                if expectsNoAnswer, case .decoding(let failure) = error.reason {
                    return try read(JSONRPCPayload(shape: .empty, body: Data(), decoder: nil), failure.statusCode)
                }
                if case .unacceptableStatus(let code, _, let body) = error.reason,
                    let failure = JSONRPCPayload.errorObject(in: body)
                {
                    // Some servers answer errors with 4xx or 5xx.
                    throw error.replacingReason(.application(failure, statusCode: code))
                }
                throw error
            }
        }
    }

    static func request<Params>(_ method: JSONRPCMethod<Params, Value>, _ params: Params) -> JSONRPCExchange
    where Value: Decodable {
        let entry = JSONRPCRequestEntry(method, params: params, expectsResponse: true)
        return JSONRPCExchange { endpoint throws(WebServiceError) in
            let id = endpoint.ids.next()
            return Prepared(body: try JSONRPCEnvelope.encode(entry, id: id, encoder: endpoint.encoder)) {
                payload, statusCode throws(WebServiceError) in
                try payload.value(of: Value.self, id: id, statusCode: statusCode)
            }
        }
    }

    static func notification<Params, Output>(_ method: JSONRPCMethod<Params, Output>, _ params: Params)
        -> JSONRPCExchange where Value == Void
    {
        let entry = JSONRPCRequestEntry(method, params: params, expectsResponse: false)
        return JSONRPCExchange { endpoint throws(WebServiceError) in
            Prepared(body: try JSONRPCEnvelope.encode(entry, id: nil, encoder: endpoint.encoder), expectsNoAnswer: true)
            {
                payload, statusCode throws(WebServiceError) in
                try payload.checkNotificationsAnswer(statusCode: statusCode)
            }
        }
    }

    static func batch(_ batch: JSONRPCBatch) -> JSONRPCExchange where Value == JSONRPCBatchResponse {
        JSONRPCExchange { endpoint throws(WebServiceError) in
            guard !batch.isEmpty else {
                throw .invalidArguments(
                    index: nil,
                    reason: "a JSON-RPC batch needs at least one request or notification "
                        + "(JSON-RPC 2.0 §6: an empty array is an invalid request)")
            }
            var seen = Set<JSONRPCID>()
            var ids: [JSONRPCID?] = []
            for entry in batch.entries {
                guard entry.expectsResponse else {
                    ids.append(nil)
                    continue
                }
                let id = endpoint.ids.next()
                guard seen.insert(id).inserted else {
                    throw .invalidArguments(
                        index: nil, reason: "the endpoint's id generator gave \(id) twice in one batch")
                }
                ids.append(id)
            }
            let body = try JSONRPCEnvelope.encodeBatch(Array(zip(batch.entries, ids)), encoder: endpoint.encoder)
            return Prepared(body: body, expectsNoAnswer: ids.allSatisfy { $0 == nil }) {
                [ids] payload, statusCode throws(WebServiceError) in
                try JSONRPCBatchResponse(batch: batch, ids: ids, payload: payload, statusCode: statusCode)
            }
        }
    }
}

extension WebServiceClient {
    fileprivate func runJSONRPC<Value>(
        _ endpoint: JSONRPCEndpoint, arguments: [any Sendable], progress: TransferProgressHandler?,
        exchange: JSONRPCExchange<Value>
    ) async throws(WebServiceError) -> Value {
        let (prepared, callArguments) = try prepare(exchange, endpoint, arguments)
        let outcome: Swift.Result<WebServiceResponse<JSONRPCPayload>, WebServiceError>
        do {
            outcome = .success(
                try await self.response(for: endpoint.call, arguments: callArguments, progress: progress))
        } catch {
            outcome = .failure(error)
        }
        return try read(outcome, with: prepared, of: endpoint)
    }

    /// The body of the exchange and the call's arguments with it; an error names the call, as the
    /// call's own errors do.
    private func prepare<Value>(
        _ exchange: JSONRPCExchange<Value>, _ endpoint: JSONRPCEndpoint, _ arguments: [any Sendable]
    ) throws(WebServiceError) -> (JSONRPCExchange<Value>.Prepared, [any Sendable]) {
        do throws(WebServiceError) {
            let prepared = try exchange.prepare(endpoint)
            return (prepared, try endpoint.arguments(arguments, body: prepared.body))
        } catch {
            throw failure(error, of: endpoint.call.descriptor)
        }
    }

    /// The value of a call's outcome; an error the reading makes names the call, as the call's own
    /// errors do.
    private func read<Value>(
        _ outcome: Swift.Result<WebServiceResponse<JSONRPCPayload>, WebServiceError>,
        with prepared: JSONRPCExchange<Value>.Prepared, of endpoint: JSONRPCEndpoint
    ) throws(WebServiceError) -> Value {
        do throws(WebServiceError) {
            return try prepared.read(outcome)
        } catch {
            let request = try? outcome.get().request
            throw failure(error, of: endpoint.call.descriptor, request: request)
        }
    }

    fileprivate func startJSONRPC<Value>(
        _ endpoint: JSONRPCEndpoint, arguments: [any Sendable], progress: TransferProgressHandler?,
        exchange: JSONRPCExchange<Value>,
        completion: @escaping @Sendable (Swift.Result<Value, WebServiceError>) -> Void
    ) -> WebServiceTask {
        let prepared: JSONRPCExchange<Value>.Prepared
        let callArguments: [any Sendable]
        do throws(WebServiceError) {
            (prepared, callArguments) = try prepare(exchange, endpoint, arguments)
        } catch {
            return failedTask(error, completion: completion)
        }
        return perform(endpoint.call, callArguments, progress: progress) { outcome in
            completion(
                Swift.Result { () throws(WebServiceError) in try self.read(outcome, with: prepared, of: endpoint) })
        }
    }
}
