import Foundation

/// A text encoding together with its IANA name, used for request bodies and for reading text
/// responses (RFC 9110 §8.3.2 `charset` parameter).
public struct Charset: Sendable, Hashable, CustomStringConvertible {
    /// The registered IANA name sent in `Content-Type` (`utf-8`, `windows-1251`).
    public let ianaName: String
    /// The Foundation encoding that converts text to and from bytes.
    public let encoding: String.Encoding

    /// Creates a charset from an explicit name and encoding.
    public init(ianaName: String, encoding: String.Encoding) {
        self.ianaName = ianaName
        self.encoding = encoding
    }

    /// Looks up a charset by its IANA name or a common alias, ignoring case; `nil` when unknown.
    public init?(ianaName name: String) {
        let key = name.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            .lowercased()
        guard let known = Charset.known.first(where: { $0.names.contains(key) }) else { return nil }
        self = known.charset
    }

    public var description: String { ianaName }

    public static let utf8 = Charset(ianaName: "utf-8", encoding: .utf8)
    public static let utf16 = Charset(ianaName: "utf-16", encoding: .utf16)
    public static let ascii = Charset(ianaName: "us-ascii", encoding: .ascii)
    public static let isoLatin1 = Charset(ianaName: "iso-8859-1", encoding: .isoLatin1)
    public static let isoLatin2 = Charset(ianaName: "iso-8859-2", encoding: .isoLatin2)
    public static let windows1250 = Charset(ianaName: "windows-1250", encoding: .windowsCP1250)
    public static let windows1251 = Charset(ianaName: "windows-1251", encoding: .windowsCP1251)
    public static let windows1252 = Charset(ianaName: "windows-1252", encoding: .windowsCP1252)
    public static let windows1253 = Charset(ianaName: "windows-1253", encoding: .windowsCP1253)
    public static let windows1254 = Charset(ianaName: "windows-1254", encoding: .windowsCP1254)
    public static let shiftJIS = Charset(ianaName: "shift_jis", encoding: .shiftJIS)
    public static let eucJP = Charset(ianaName: "euc-jp", encoding: .japaneseEUC)

    private static let known: [(names: Set<String>, charset: Charset)] = [
        (["utf-8", "utf8"], .utf8),
        (["utf-16", "utf16"], .utf16),
        (["us-ascii", "ascii"], .ascii),
        (["iso-8859-1", "latin1", "iso_8859-1", "l1"], .isoLatin1),
        (["iso-8859-2", "latin2", "iso_8859-2"], .isoLatin2),
        (["windows-1250", "cp1250"], .windows1250),
        (["windows-1251", "cp1251"], .windows1251),
        (["windows-1252", "cp1252"], .windows1252),
        (["windows-1253", "cp1253"], .windows1253),
        (["windows-1254", "cp1254"], .windows1254),
        (["shift_jis", "shift-jis", "sjis"], .shiftJIS),
        (["euc-jp"], .eucJP),
    ]

    /// Encodes `text`; throws when a character has no representation in this charset.
    func encode(_ text: String) throws(SerializationError) -> Data {
        if encoding == .utf8 { return Data(text.utf8) }
        guard let data = text.data(using: encoding, allowLossyConversion: false) else {
            throw SerializationError("the text cannot be represented in \(ianaName)")
        }
        return data
    }

    /// Re-encodes UTF-8 bytes (what Foundation's encoders write) in this charset.
    func transcode(fromUTF8 data: Data) throws(SerializationError) -> Data {
        self == .utf8 ? data : try encode(String(decoding: data, as: UTF8.self))
    }

    /// Decodes `data`; throws when the bytes are not valid in this charset.
    func decode(_ data: Data) throws(SerializationError) -> String {
        guard let text = String(data: data, encoding: encoding) else {
            throw SerializationError("the body is not valid \(ianaName) text")
        }
        return text
    }

    /// The `charset` parameter of a `Content-Type` value (RFC 9110 §8.3.1), if present and known.
    static func fromContentType(_ contentType: String?) -> Charset? {
        guard let contentType, contentType.utf8.contains(UInt8(ascii: ";")) else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                return Charset(ianaName: String(pair[1]))
            }
        }
        return nil
    }
}

/// Why a value could not be turned into a body, or a body into a value.
public struct SerializationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public let reason: String
    /// Creates an error with a reason.
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
