import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The answers to a performed ``JSONRPCBatch``, matched to its requests by id.
///
/// Each request has its own outcome: its typed result, the JSON-RPC error the server answered it
/// with (``WebServiceError/application(_:statusCode:)``, read with
/// ``WebServiceError/jsonRPCError``), or a ``JSONRPCResponseError`` in a
/// ``WebServiceError/decoding(_:)`` failure when the server answered it no response
/// (``JSONRPCResponseError/missingResponse(id:)``), several, or a result that does not decode.
///
/// A response object with a `null` id and an error is the server's answer to a request it could
/// not identify; requests left without a response of their own get that error.
public struct JSONRPCBatchResponse: Sendable {
    /// Where a request's answer is.
    enum Outcome: Sendable {
        /// The result is that of the response object at this position of the batch's array, or of
        /// the single response object when `nil`.
        case result(element: Int?)
        case error(JSONRPCError)
        case failure(JSONRPCResponseError)
    }

    /// The HTTP status code of the response.
    public let statusCode: Int
    let batch: Int
    let entries: [JSONRPCRequestEntry]
    let ids: [JSONRPCID?]
    /// One per entry; `nil` for notifications.
    let outcomes: [Outcome?]
    let payload: JSONRPCPayload

    /// Matches the answers in `payload` to the requests; throws when the response as a whole
    /// answers nothing (no body where responses were due, one error object for the whole batch,
    /// a body of the wrong shape).
    init(batch: JSONRPCBatch, ids: [JSONRPCID?], payload: JSONRPCPayload, statusCode: Int) throws(WebServiceError) {
        self.statusCode = statusCode
        self.batch = batch.identity
        entries = batch.entries
        self.ids = ids
        self.payload = payload
        outcomes = try Self.match(ids: ids, payload: payload, statusCode: statusCode)
    }

    private static func match(ids: [JSONRPCID?], payload: JSONRPCPayload, statusCode: Int) throws(WebServiceError)
        -> [Outcome?]
    {
        let expected = ids.indices.filter { ids[$0] != nil }
        var outcomes = [Outcome?](repeating: nil, count: ids.count)
        guard !expected.isEmpty else {
            try payload.checkNotificationsAnswer(statusCode: statusCode)
            return outcomes
        }
        switch payload.shape {
        case .empty:
            throw .emptyBody(statusCode: statusCode)
        case .single(let head):
            // One error object without id: the server refused the whole batch (parse error,
            // invalid request).
            if head.id == nil, let error = head.error { throw .application(error, statusCode: statusCode) }
            // Some servers answer a batch of one request with a bare response object.
            guard expected.count == 1, let id = head.id, ids[expected[0]] == id else {
                throw payload.failure(
                    JSONRPCResponseError.unexpectedShape(
                        "a single response object answered a batch of \(expected.count) requests"),
                    statusCode: statusCode)
            }
            outcomes[expected[0]] = head.error.map(Outcome.error) ?? .result(element: nil)
        case .batch(let heads):
            var positions: [JSONRPCID: [Int]] = [:]
            for (position, head) in heads.enumerated() {
                if let id = head.id { positions[id, default: []].append(position) }
            }
            let unattributed = heads.first { $0.id == nil && $0.error != nil }?.error
            for index in expected {
                guard let id = ids[index] else { continue }
                let found = positions[id] ?? []
                if found.count > 1 {
                    outcomes[index] = .failure(.duplicateResponse(id: id))
                } else if let position = found.first {
                    outcomes[index] =
                        heads[position].error.map(Outcome.error) ?? .result(element: position)
                } else {
                    outcomes[index] = unattributed.map(Outcome.error) ?? .failure(.missingResponse(id: id))
                }
            }
        }
        return outcomes
    }

    /// The outcome of the request that `key` was given for: its result, or why it has none.
    public func result<Result>(for key: JSONRPCBatch.Key<Result>) -> Swift.Result<Result, WebServiceError> {
        do throws(WebServiceError) {
            return .success(try value(for: key))
        } catch {
            return .failure(error)
        }
    }

    /// The result of the request that `key` was given for; throws the request's JSON-RPC error
    /// (``WebServiceError/application(_:statusCode:)``) or why it has no result.
    public func value<Result>(for key: JSONRPCBatch.Key<Result>) throws(WebServiceError) -> Result {
        guard key.batch == batch, outcomes.indices.contains(key.index),
            entries[key.index].resultType == ObjectIdentifier(Result.self), let outcome = outcomes[key.index]
        else {
            throw .invalidArguments(index: nil, reason: "the key \(key.index) is not one of this batch's requests")
        }
        switch outcome {
        case .result(let position):
            return try payload.result(Result.self, inElement: position, statusCode: statusCode)
        case .error(let error): throw .application(error, statusCode: statusCode)
        case .failure(let reason): throw payload.failure(reason, statusCode: statusCode)
        }
    }

    /// The id the request that `key` was given for was sent with.
    public func id<Result>(for key: JSONRPCBatch.Key<Result>) -> JSONRPCID? {
        guard key.batch == batch, ids.indices.contains(key.index) else { return nil }
        return ids[key.index]
    }

    /// The JSON-RPC errors the server answered the batch's requests with, by request position.
    public var errors: [Int: JSONRPCError] {
        var errors: [Int: JSONRPCError] = [:]
        for (index, outcome) in outcomes.enumerated() {
            if case .error(let error) = outcome { errors[index] = error }
        }
        return errors
    }
}
