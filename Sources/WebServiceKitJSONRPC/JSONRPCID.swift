import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The `id` of a JSON-RPC 2.0 request: a number or a string (JSON-RPC 2.0 §4).
///
/// The client gives every request that expects a response an id from its endpoint's
/// ``JSONRPCIDGenerator`` and matches the response that carries the same id. Notifications have
/// none.
public enum JSONRPCID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral
{
    /// A number without a fractional part.
    case number(Int)
    /// A string.
    case string(String)

    public init(integerLiteral value: Int) { self = .number(value) }

    public init(stringLiteral value: String) { self = .string(value) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a JSON-RPC id is a string or a number without a fraction")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }

    /// The id as it is written in JSON: `7` or `"req-7"`.
    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .string(let string): JSONText.quoted(string)
        }
    }
}
