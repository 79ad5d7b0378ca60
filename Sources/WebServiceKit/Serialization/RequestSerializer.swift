import Foundation

/// A request body, serialized: its bytes and the `Content-Type` that describes them.
public struct SerializedBody: Sendable {
    /// The body bytes.
    public var data: Data
    /// The media type with parameters, or `nil` to leave `Content-Type` unset.
    public var contentType: String?

    /// Creates a serialized body.
    public init(data: Data, contentType: String?) {
        self.data = data
        self.contentType = contentType
    }
}

/// Turns the call's body argument into bytes (ROAD's request serializer).
///
/// A `Data` argument is always sent as it is, whatever the serializer; serializers see every
/// other body value.
public protocol RequestSerializer: Sendable {
    /// Serializes `value` into a body, writing text in `charset`.
    func serialize(_ value: Any, charset: Charset) throws -> SerializedBody
}

extension RequestSerializer where Self == JSONRequestSerializer {
    /// JSON through `JSONEncoder`, `Content-Type: application/json; charset=utf-8`.
    public static var json: JSONRequestSerializer { JSONRequestSerializer() }
    /// JSON through the given encoder.
    public static func json(encoder: JSONEncoder) -> JSONRequestSerializer { JSONRequestSerializer(encoder: encoder) }
}

extension RequestSerializer where Self == FormURLEncodedRequestSerializer {
    /// `application/x-www-form-urlencoded` (the WHATWG URL standard's form encoding).
    public static var formURLEncoded: FormURLEncodedRequestSerializer { FormURLEncodedRequestSerializer() }
}

extension RequestSerializer where Self == TextRequestSerializer {
    /// Text (`String` or anything `CustomStringConvertible`) as `text/plain`.
    public static var text: TextRequestSerializer { TextRequestSerializer() }
}

/// Encodes `Encodable` body values as JSON.
public struct JSONRequestSerializer: RequestSerializer {
    /// The encoder; `JSONEncoder` is documented as safe to share once configured.
    public let encoder: JSONEncoder

    /// Creates a serializer with an encoder.
    public init(encoder: JSONEncoder = JSONEncoder()) { self.encoder = encoder }

    public func serialize(_ value: Any, charset: Charset) throws -> SerializedBody {
        let encodable = try SerializationError.encodable(value, for: "a JSON body")
        // RFC 8259 §8.1 asks for UTF-8; a service that wants another charset gets it transcoded.
        let data = try charset.transcode(fromUTF8: try JSONBodyEncoding.encode(encodable, with: encoder))
        return SerializedBody(data: data, contentType: "application/json; charset=\(charset.ianaName)")
    }
}

/// Writes text bodies.
public struct TextRequestSerializer: RequestSerializer {
    /// The media type without parameters.
    public let mediaType: String

    /// Creates a serializer for a text media type.
    public init(mediaType: String = "text/plain") { self.mediaType = mediaType }

    public func serialize(_ value: Any, charset: Charset) throws -> SerializedBody {
        let text: String
        switch value {
        case let string as String: text = string
        case let convertible as CustomStringConvertible: text = convertible.description
        default: throw SerializationError("a text body must be a String; got \(type(of: value))")
        }
        return SerializedBody(data: try charset.encode(text), contentType: "\(mediaType); charset=\(charset.ianaName)")
    }
}

extension SerializationError {
    /// `value` as `Encodable`, or an error naming what needed it.
    static func encodable(_ value: Any, for purpose: String) throws(SerializationError) -> any Encodable {
        guard let encodable = value as? any Encodable else {
            throw SerializationError("\(purpose) must be Encodable; got \(type(of: value))")
        }
        return encodable
    }
}
