import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Gives the ids of the JSON-RPC requests sent through one ``JSONRPCEndpoint``.
///
/// An endpoint keeps one generator for all its calls, which may run at once from any thread, so
/// ``next()`` must be safe to call concurrently and should not repeat itself: responses are
/// matched to requests by id. A batch whose generator repeats an id is refused before it is sent.
///
/// ```swift
/// let numbered = JSONRPCEndpoint(relativePath: "rpc")                              // 1, 2, 3…
/// let named = JSONRPCEndpoint(relativePath: "rpc", ids: .strings(prefix: "app-"))   // "app-1"…
/// let random = JSONRPCEndpoint(relativePath: "rpc", ids: .uuids)                    // "6F9619FF-…"
/// ```
public protocol JSONRPCIDGenerator: Sendable {
    /// The id of the next request.
    func next() -> JSONRPCID
}

extension JSONRPCIDGenerator where Self == JSONRPCNumberIDGenerator {
    /// Numbers counting up from 1 (the default).
    public static var numbers: JSONRPCNumberIDGenerator { JSONRPCNumberIDGenerator() }

    /// Numbers counting up from `first`.
    public static func numbers(from first: Int) -> JSONRPCNumberIDGenerator { JSONRPCNumberIDGenerator(first: first) }
}

extension JSONRPCIDGenerator where Self == JSONRPCStringIDGenerator {
    /// Strings made of `prefix` and a number counting up from 1: `"req-1"`, `"req-2"`…
    public static func strings(prefix: String) -> JSONRPCStringIDGenerator { JSONRPCStringIDGenerator(prefix: prefix) }

    /// Random UUID strings, unique across clients and processes.
    public static var uuids: JSONRPCStringIDGenerator { JSONRPCStringIDGenerator.uuids() }
}

/// Number ids counting up: 1, 2, 3… Safe to share between threads.
public final class JSONRPCNumberIDGenerator: JSONRPCIDGenerator {
    private let counter: Locked<Int>

    /// Creates a generator whose first id is `first`.
    public init(first: Int = 1) { counter = Locked(first) }

    public func next() -> JSONRPCID {
        .number(
            counter.withLock { value in
                defer { value = value == .max ? 1 : value + 1 }
                return value
            })
    }
}

/// String ids: a prefix and a counter (`"req-1"`, `"req-2"`…), or random UUIDs. Safe to share
/// between threads.
public final class JSONRPCStringIDGenerator: JSONRPCIDGenerator {
    private enum Kind: Sendable {
        case counter(prefix: String, Locked<Int>)
        case uuid
    }

    private let kind: Kind

    /// Creates a generator of `prefix` followed by a number counting up from 1.
    public init(prefix: String) { kind = .counter(prefix: prefix, Locked(1)) }

    private init(kind: Kind) { self.kind = kind }

    /// A generator of random UUID strings.
    public static func uuids() -> JSONRPCStringIDGenerator { JSONRPCStringIDGenerator(kind: .uuid) }

    public func next() -> JSONRPCID {
        switch kind {
        case .counter(let prefix, let counter):
            let number = counter.withLock { value in
                defer { value = value == .max ? 1 : value + 1 }
                return value
            }
            return .string(prefix + String(number))
        case .uuid:
            return .string(UUID().uuidString)
        }
    }
}
