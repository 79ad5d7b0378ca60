import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A declared JSON-RPC method: its name, the type of its params and the type of its result.
///
/// Declare methods once, as static values, the way ``WebServiceCall`` endpoints are declared,
/// then call them through a ``JSONRPCEndpoint``:
///
/// ```swift
/// struct Subtraction: Encodable, Sendable { let minuend: Int; let subtrahend: Int }
///
/// extension JSONRPCMethod where Params == [Int], Result == Int {
///     static let subtract = JSONRPCMethod("subtract")                  // positional params
/// }
/// extension JSONRPCMethod where Params == Subtraction, Result == Int {
///     static let subtractNamed = JSONRPCMethod("subtract")             // named params
/// }
/// let difference = try await client.perform(rpc, .subtract, [42, 23])
/// ```
///
/// Params travel as whatever `Params` encodes to: an array (`[Int]`, `[JSONRPCValue]`, a type
/// that encodes through an unkeyed container) is sent as positional params, an object (a
/// struct, a `[String: …]` dictionary) as named params. ``JSONRPCNoParams`` leaves `params` out.
/// JSON-RPC 2.0 (§4.2) allows nothing else: params that encode to a string, a number or `null`
/// fail the call with ``WebServiceError/requestSerialization(_:)`` before it is sent.
///
/// `Result` is decoded from the response's `result` with the endpoint's decoder (or the
/// client's ``WebServiceClient/jsonDecoder``). Use `JSONRPCValue` for a result of no fixed
/// shape, and an `Optional` when the method may answer `null`.
public struct JSONRPCMethod<Params: Encodable & Sendable, Result: Decodable & Sendable>: Sendable, Hashable {
    /// The method's name, as the service knows it.
    public let name: String

    /// Declares a method.
    public init(_ name: String) { self.name = name }
}

/// The params of a method that takes none: the request leaves `params` out.
///
/// ```swift
/// extension JSONRPCMethod where Params == JSONRPCNoParams, Result == [String] {
///     static let listMethods = JSONRPCMethod("system.listMethods")
/// }
/// let names = try await client.perform(rpc, .listMethods)
/// ```
public struct JSONRPCNoParams: Encodable, Sendable, Hashable {
    /// The only value.
    public init() {}

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
