import Foundation

/// Writes `application/x-www-form-urlencoded` bodies.
///
/// Accepts `[String: String]` (keys sorted, so bodies are reproducible), `[(String, String)]`
/// pairs in order, `KeyValuePairs<String, String>`, or any `Encodable` value, whose properties
/// become fields (nested objects as `parent[child]`, arrays as `name[]`, `nil`s omitted).
/// Names and values are encoded with the WHATWG URL standard's form rules: space becomes `+`,
/// `*-._` and alphanumerics stay, every other byte of the text in the call's charset is `%XX`.
public struct FormURLEncodedRequestSerializer: RequestSerializer {
    /// The encoder used to turn `Encodable` values into fields.
    public let encoder: JSONEncoder

    /// Creates a serializer; the default encoder writes dates as ISO 8601.
    public init(encoder: JSONEncoder = FormURLEncodedRequestSerializer.defaultEncoder()) { self.encoder = encoder }

    /// A `JSONEncoder` that writes `Date` values as ISO 8601 text, as form fields expect.
    public static func defaultEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public func serialize(_ value: Any, charset: Charset) throws -> SerializedBody {
        let fields = try self.fields(of: value)
        var body: [String] = []
        body.reserveCapacity(fields.count)
        for (name, fieldValue) in fields {
            body.append("\(try Self.encode(name, charset: charset))=\(try Self.encode(fieldValue, charset: charset))")
        }
        return SerializedBody(
            data: Data(body.joined(separator: "&").utf8),
            contentType: "application/x-www-form-urlencoded; charset=\(charset.ianaName)")
    }

    private func fields(of value: Any) throws -> [(String, String)] {
        switch value {
        case let dictionary as [String: String]: return dictionary.sorted { $0.key < $1.key }
        case let pairs as [(String, String)]: return pairs
        case let pairs as KeyValuePairs<String, String>: return pairs.map { ($0.key, $0.value) }
        case let encodable as any Encodable:
            let json = try JSONSerialization.jsonObject(
                with: try encoder.encode(encodable), options: [.fragmentsAllowed])
            guard let object = json as? [String: Any] else {
                throw SerializationError("a form body must encode to an object with named fields")
            }
            var fields: [(String, String)] = []
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                Self.flatten(member, name: key, into: &fields)
            }
            return fields
        default:
            throw SerializationError("a form body must be [String: String], pairs or Encodable; got \(type(of: value))")
        }
    }

    private static func flatten(_ value: Any, name: String, into fields: inout [(String, String)]) {
        switch value {
        case let object as [String: Any]:
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                flatten(member, name: "\(name)[\(key)]", into: &fields)
            }
        case let array as [Any]:
            for element in array { flatten(element, name: "\(name)[]", into: &fields) }
        case is NSNull:
            return
        case let number as NSNumber:
            // JSONSerialization reads true/false as NSNumber; keep them words, not 1/0.
            if String(cString: number.objCType) == "c" {
                fields.append((name, number.boolValue ? "true" : "false"))
            } else {
                fields.append((name, number.stringValue))
            }
        default:
            fields.append((name, "\(value)"))
        }
    }

    private static let unescaped = URLEncoding.ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")

    /// The WHATWG `application/x-www-form-urlencoded` byte serializer.
    static func encode(_ text: String, charset: Charset) throws -> String {
        let bytes = try charset.encode(text)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes {
            if byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else if unescaped.contains(byte) {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
