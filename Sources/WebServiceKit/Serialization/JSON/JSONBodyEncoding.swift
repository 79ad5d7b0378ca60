import Foundation

/// Encodes a JSON body with ``JSONBodyWriter`` when `JSONEncoder` would write the same bytes:
/// the encoder has every setting at its default (no output formatting, dates as their own
/// `Encodable` form, data as Base64, keys as they are, non-finite numbers refused, no user info).
/// Otherwise, and for any value the writer does not follow, `JSONEncoder` encodes it.
enum JSONBodyEncoding {
    static func encode(_ value: any Encodable, with encoder: JSONEncoder) throws -> Data {
        if hasDefaultSettings(encoder), let bytes = JSONBodyWriter.write(value) { return Data(bytes) }
        return try encoder.encode(value)
    }

    /// Whether `encoder` writes as a `JSONEncoder()` does.
    static func hasDefaultSettings(_ encoder: JSONEncoder) -> Bool {
        guard encoder.outputFormatting.isEmpty, encoder.userInfo.isEmpty,
            case .deferredToDate = encoder.dateEncodingStrategy, case .base64 = encoder.dataEncodingStrategy,
            case .useDefaultKeys = encoder.keyEncodingStrategy, case .throw = encoder.nonConformingFloatEncodingStrategy
        else { return false }
        return true
    }
}
