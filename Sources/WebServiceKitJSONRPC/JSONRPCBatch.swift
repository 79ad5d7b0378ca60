import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Several JSON-RPC requests and notifications sent in one HTTP request (JSON-RPC 2.0 §6).
///
/// Add requests, keep the keys, perform the batch, and read each request's typed result with its
/// key, whatever order the server answered in:
///
/// ```swift
/// var batch = JSONRPCBatch()
/// let difference = batch.add(.subtract, [42, 23])
/// let count = batch.add(.countCharacters, ["text": "hello"])
/// batch.notify(.record, ["channel": "audit", "message": "batch sent"])
/// let responses = try await client.perform(rpc, batch)
/// let value = try responses.value(for: difference)           // 19, or throws this request's error
/// let outcome = responses.result(for: count)                  // Result<Count, WebServiceError>
/// ```
///
/// Ids are given when the batch is performed, by the endpoint's ``JSONRPCIDGenerator``, so one
/// batch value can be performed many times. A batch with nothing in it is refused before anything
/// is sent (the specification makes an empty array an invalid request).
public struct JSONRPCBatch: Sendable {
    /// Reads the result of one request of a batch from the batch's ``JSONRPCBatchResponse``.
    public struct Key<Result: Decodable & Sendable>: Sendable, Hashable {
        let batch: Int
        /// The request's position in the batch, from 0 (notifications count).
        public let index: Int
    }

    private static let counter = Locked(0)

    /// Tells batches apart, so that a key is only used with its own batch's responses.
    let identity: Int
    /// The requests and notifications, in the order they were added.
    private(set) var entries: [JSONRPCRequestEntry] = []

    /// Creates an empty batch.
    public init() {
        identity = Self.counter.withLock { count in
            count += 1
            return count
        }
    }

    /// How many requests and notifications the batch holds.
    public var count: Int { entries.count }

    /// Whether the batch holds nothing (performing it would fail).
    public var isEmpty: Bool { entries.isEmpty }

    /// Adds a request of `method` with `params`; read its result with the key.
    public mutating func add<Params, Result>(_ method: JSONRPCMethod<Params, Result>, _ params: Params) -> Key<Result> {
        entries.append(JSONRPCRequestEntry(method, params: params, expectsResponse: true))
        return Key(batch: identity, index: entries.count - 1)
    }

    /// Adds a request of a method that takes no params; read its result with the key.
    public mutating func add<Result>(_ method: JSONRPCMethod<JSONRPCNoParams, Result>) -> Key<Result> {
        add(method, JSONRPCNoParams())
    }

    /// Adds a notification of `method` with `params`: no id, and the server answers nothing.
    public mutating func notify<Params, Result>(_ method: JSONRPCMethod<Params, Result>, _ params: Params) {
        entries.append(JSONRPCRequestEntry(method, params: params, expectsResponse: false))
    }

    /// Adds a notification of a method that takes no params.
    public mutating func notify<Result>(_ method: JSONRPCMethod<JSONRPCNoParams, Result>) {
        notify(method, JSONRPCNoParams())
    }
}
