import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The error object of a JSON-RPC 2.0 response (§5.1): the service's answer that a call failed.
///
/// A call whose response carries one fails with ``WebServiceError/application(_:statusCode:)``
/// holding it; read it with ``WebServiceError/jsonRPCError``:
///
/// ```swift
/// do {
///     _ = try await client.perform(rpc, .subtract, [42, 23])
/// } catch {
///     if let failure = error.jsonRPCError, failure.code == .methodNotFound { … }
/// }
/// ```
public struct JSONRPCError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// An error code: the specification's (§5.1) or the service's own.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByIntegerLiteral,
        CustomStringConvertible
    {
        public let rawValue: Int

        public init(rawValue: Int) { self.rawValue = rawValue }

        public init(integerLiteral value: Int) { rawValue = value }

        public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int.self) }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// -32700: the server could not parse the request as JSON.
        public static let parseError: Code = -32700
        /// -32600: the JSON is not a valid request object (or the batch is empty).
        public static let invalidRequest: Code = -32600
        /// -32601: the method does not exist or is not available.
        public static let methodNotFound: Code = -32601
        /// -32602: the method's parameters are invalid.
        public static let invalidParams: Code = -32602
        /// -32603: an internal JSON-RPC error.
        public static let internalError: Code = -32603

        /// Whether the code is in -32099…-32000, reserved for implementation-defined server errors.
        public var isServerError: Bool { (-32099)...(-32000) ~= rawValue }

        /// Whether the code is in -32768…-32000, the range the specification reserves for itself.
        public var isReserved: Bool { (-32768)...(-32000) ~= rawValue }

        public var description: String {
            let name: String? =
                switch self {
                case .parseError: "parse error"
                case .invalidRequest: "invalid request"
                case .methodNotFound: "method not found"
                case .invalidParams: "invalid params"
                case .internalError: "internal error"
                default: isServerError ? "server error" : nil
                }
            return name.map { "\(rawValue) (\($0))" } ?? String(rawValue)
        }
    }

    /// What kind of error it is.
    public let code: Code
    /// A short description, written by the service.
    public let message: String
    /// More about the error, in a shape the service defines; `nil` when the response has none.
    public let data: JSONRPCValue?

    /// Creates an error, for stubs and tests.
    public init(code: Code, message: String, data: JSONRPCValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// Decodes ``data`` as `type`; `nil` when the error has no data.
    public func decodeData<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws
        -> T?
    {
        try data.map { try $0.decode(T.self, using: decoder) }
    }

    public var description: String {
        "JSON-RPC error \(code): \(message)" + (data.map { "; data: \($0)" } ?? "")
    }
}

extension WebServiceError {
    /// The JSON-RPC error object the service answered with, when the call failed with one
    /// (``WebServiceError/application(_:statusCode:)`` holding a ``JSONRPCError``).
    public var jsonRPCError: JSONRPCError? {
        if case .application(let error as JSONRPCError, _) = reason { return error }
        return nil
    }

    /// The problem with a response that does not follow JSON-RPC 2.0, when the call failed with
    /// one (``WebServiceError/decoding(_:)`` holding a ``JSONRPCResponseError``).
    public var jsonRPCResponseError: JSONRPCResponseError? {
        if case .decoding(let failure) = reason { return failure.underlying as? JSONRPCResponseError }
        return nil
    }
}

/// A response that does not follow JSON-RPC 2.0, or that does not answer the requests sent. The
/// call (or, in a batch, the one request concerned) fails with ``WebServiceError/decoding(_:)``
/// holding it; ``WebServiceError/jsonRPCResponseError`` reads it back.
public enum JSONRPCResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is neither a response object nor an array of them.
    case notAResponse(String)
    /// The `jsonrpc` member is missing or is not `"2.0"` (its value, if it is a string).
    case unsupportedVersion(String?)
    /// A response has both `result` and `error`.
    case resultAndError(id: JSONRPCID?)
    /// A response has neither `result` nor `error`.
    case neitherResultNorError(id: JSONRPCID?)
    /// The response's id is not the request's.
    case idMismatch(expected: JSONRPCID, received: JSONRPCID?)
    /// A batch response has no response for the request with this id.
    case missingResponse(id: JSONRPCID)
    /// A batch response has more than one response for the request with this id.
    case duplicateResponse(id: JSONRPCID)
    /// A single response answered a batch of several requests, or an array answered a single
    /// request.
    case unexpectedShape(String)

    public var description: String {
        switch self {
        case .notAResponse(let reason): "not a JSON-RPC 2.0 response: \(reason)"
        case .unsupportedVersion(let version):
            "not a JSON-RPC 2.0 response: \"jsonrpc\" is " + (version.map { JSONText.quoted($0) } ?? "missing")
        case .resultAndError(let id): "the response to \(Self.name(id)) has both \"result\" and \"error\""
        case .neitherResultNorError(let id): "the response to \(Self.name(id)) has neither \"result\" nor \"error\""
        case .idMismatch(let expected, let received):
            "the response is for id \(received.map(\.description) ?? "null"), not for the request's id \(expected)"
        case .missingResponse(let id): "the batch response has no response for id \(id)"
        case .duplicateResponse(let id): "the batch response has several responses for id \(id)"
        case .unexpectedShape(let reason): reason
        }
    }

    private static func name(_ id: JSONRPCID?) -> String { id.map { "id \($0)" } ?? "a request without id" }
}
