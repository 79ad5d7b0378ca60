import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

extension RequestSerializer where Self == XMLRequestSerializer {
    /// XML through ``XMLValueEncoder``, `Content-Type: application/xml`.
    public static var xml: XMLRequestSerializer { XMLRequestSerializer() }
}

/// Encodes `Encodable` body values as XML through ``XMLValueEncoder``.
public struct XMLRequestSerializer: RequestSerializer {
    /// The encoder.
    public let encoder: XMLValueEncoder

    /// Creates a serializer.
    public init(encoder: XMLValueEncoder = XMLValueEncoder()) { self.encoder = encoder }

    public func serialize(_ value: Any, charset: Charset) throws -> SerializedBody {
        guard let encodable = value as? any Encodable else {
            throw SerializationError("an XML body must be Encodable; got \(type(of: value))")
        }
        // The declaration names the charset the document is really written in.
        var encoder = encoder
        let declares = encoder.includesDeclaration
        encoder.includesDeclaration = false
        var text = String(decoding: try encoder.encode(encodable), as: UTF8.self)
        if declares { text = "<?xml version=\"1.0\" encoding=\"\(charset.ianaName)\"?>" + text }
        let data: Data
        if charset.encoding == .utf8 {
            data = Data(text.utf8)
        } else if let encoded = text.data(using: charset.encoding, allowLossyConversion: false) {
            data = encoded
        } else {
            throw SerializationError("the text cannot be represented in \(charset.ianaName)")
        }
        return SerializedBody(data: data, contentType: "application/xml; charset=\(charset.ianaName)")
    }
}

/// Decodes XML with ``XMLValueDecoder``, from the descriptor's `serializationRoot` when it has one
/// (element names below the document element).
public struct XMLResponseSerializer<Output: Decodable & Sendable>: ResponseSerializer {
    /// The decoder.
    public let decoder: XMLValueDecoder

    /// Creates a serializer.
    public init(decoder: XMLValueDecoder = XMLValueDecoder()) { self.decoder = decoder }

    public var supportsSerializationRoot: Bool { true }

    public func deserialize(_ body: Data, context: ResponseContext) throws -> Output {
        try decoder.decode(Output.self, from: body, at: context.serializationRoot ?? [])
    }
}
