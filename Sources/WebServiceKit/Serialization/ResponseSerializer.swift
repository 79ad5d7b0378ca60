import Foundation

/// What a response serializer knows about the response it reads.
public struct ResponseContext: Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The response header fields.
    public let headers: HTTPHeaders
    /// The descriptor's `serializationRoot`, split at dots (`"coord.lon"` → `["coord", "lon"]`).
    public let serializationRoot: [String]?
    /// The client's JSON decoder, used by serializers that were not given one.
    public let defaultJSONDecoder: JSONDecoder
    /// The file a call that downloads to one wrote, moved into place: the value of
    /// `WebServiceCall<DownloadedFile>`.
    var downloadedFile: DownloadedFile? = nil

    /// Creates a context, for testing a serializer or an error handler on its own.
    public init(
        statusCode: Int, headers: HTTPHeaders = [:], serializationRoot: [String]? = nil,
        defaultJSONDecoder: JSONDecoder = JSONDecoder()
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.serializationRoot = serializationRoot
        self.defaultJSONDecoder = defaultJSONDecoder
    }
}

/// Turns a response body into the call's `Response` value.
public protocol ResponseSerializer<Output>: Sendable {
    /// The value the serializer produces.
    associatedtype Output: Sendable

    /// Decodes a non-empty body.
    func deserialize(_ body: Data, context: ResponseContext) throws -> Output

    /// The value for an empty body (204, 205, HEAD, or zero bytes), or `nil` when an empty body
    /// is an error (``WebServiceError/emptyBody(statusCode:)``). The default accepts an empty body
    /// when `Output` is an `Optional` (giving `nil`) or ``EmptyResponse``.
    func emptyValue() -> Output?

    /// Whether the serializer honours the descriptor's `serializationRoot`.
    var supportsSerializationRoot: Bool { get }
}

extension ResponseSerializer {
    public func emptyValue() -> Output? {
        (Output.self as? any EmptyBodyRepresentable.Type)?.emptyBodyValue as? Output
    }

    public var supportsSerializationRoot: Bool { false }
}

/// A type that has a value meaning "the response had no body".
public protocol EmptyBodyRepresentable {
    /// The value that stands for an empty body.
    static var emptyBodyValue: Self { get }
}

extension Optional: EmptyBodyRepresentable {
    public static var emptyBodyValue: Wrapped? { nil }
}

/// The response type of calls that expect no body; any body is ignored.
public struct EmptyResponse: Codable, Sendable, Hashable, EmptyBodyRepresentable {
    /// Creates the empty value.
    public init() {}
    public static var emptyBodyValue: EmptyResponse { EmptyResponse() }
}

/// Decodes JSON with `JSONDecoder`, from the descriptor's `serializationRoot` when it has one.
public struct JSONResponseSerializer<Output: Decodable & Sendable>: ResponseSerializer {
    /// The decoder; `nil` uses the client's ``WebServiceClient/jsonDecoder``.
    public let decoder: JSONDecoder?

    /// Creates a serializer.
    public init(decoder: JSONDecoder? = nil) { self.decoder = decoder }

    public var supportsSerializationRoot: Bool { true }

    public func deserialize(_ body: Data, context: ResponseContext) throws -> Output {
        let decoder = decoder ?? context.defaultJSONDecoder
        let data = try TextBody.utf8(body, headers: context.headers)
        guard let root = context.serializationRoot, !root.isEmpty else {
            return try decoder.decode(Output.self, from: data)
        }
        return try decoder.decode(RootedValue<Output>.self, from: data, root: root)
    }
}

/// Hands the body over untouched (serialization disabled).
public struct DataResponseSerializer: ResponseSerializer {
    /// Creates a serializer.
    public init() {}
    public func deserialize(_ body: Data, context: ResponseContext) throws -> Data { body }
    public func emptyValue() -> Data? { Data() }
}

/// Reads the body as text in the `charset` of its `Content-Type`, or `defaultCharset` without one.
public struct StringResponseSerializer: ResponseSerializer {
    /// The charset used when the response names none (RFC 9110 leaves the default to the media type).
    public let defaultCharset: Charset

    /// Creates a serializer.
    public init(defaultCharset: Charset = .utf8) { self.defaultCharset = defaultCharset }

    public func deserialize(_ body: Data, context: ResponseContext) throws -> String {
        let charset = Charset.fromContentType(context.headers["Content-Type"]) ?? defaultCharset
        return try charset.decode(body)
    }

    public func emptyValue() -> String? { "" }
}

/// Ignores the body.
public struct EmptyResponseSerializer: ResponseSerializer {
    /// Creates a serializer.
    public init() {}
    public func deserialize(_ body: Data, context: ResponseContext) throws -> EmptyResponse { EmptyResponse() }
}

/// Builds a serializer from a closure, for one-off formats.
public struct ClosureResponseSerializer<Output: Sendable>: ResponseSerializer {
    private let body: @Sendable (Data, ResponseContext) throws -> Output

    /// Creates a serializer that runs `deserialize` on each non-empty body.
    public init(_ deserialize: @escaping @Sendable (Data, ResponseContext) throws -> Output) { body = deserialize }

    public func deserialize(_ body: Data, context: ResponseContext) throws -> Output { try self.body(body, context) }
}

/// Text bodies that JSON decoders need as UTF-8.
enum TextBody {
    /// Transcodes a body whose `Content-Type` names a charset other than UTF-8.
    static func utf8(_ body: Data, headers: HTTPHeaders) throws -> Data {
        guard let charset = Charset.fromContentType(headers["Content-Type"]), charset != .utf8, charset != .ascii
        else { return body }
        return Data(try charset.decode(body).utf8)
    }
}
