import Foundation

/// A value built from bytes that encodes itself in one of the ways `Encodable` allows, for the
/// checks that the JSON body writer writes what `JSONEncoder` writes (the `json-body` fuzz target
/// and `JSONBodyWriterTests`, which reads this file through a link).
///
/// Besides every primitive and the four Foundation types `JSONEncoder` treats its own way, it
/// covers objects (keys that repeat, members through the concrete `encode` overloads,
/// `encodeIfPresent`, nested containers, the keyed container asked for twice), arrays, single
/// values, values that encode nothing, `superEncoder`, dictionaries, and a container written to
/// after a sibling was started.
indirect enum JSONBodySample: Encodable, Sendable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case int8(Int8)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case uint(UInt)
    case uint8(UInt8)
    case uint16(UInt16)
    case uint32(UInt32)
    case uint64(UInt64)
    case double(Double)
    case float(Float)
    case data(Data)
    case date(Date)
    case decimal(Decimal)
    case url(URL)
    case null
    case object([(key: String, value: JSONBodySample)], asksTwice: Bool)
    case array([JSONBodySample])
    case single(JSONBodySample)
    case nothing
    case superEncoded(JSONBodySample)
    case concreteMembers(Int, Double, String, Bool, UInt8)
    case optionalMembers(Int?, String?)
    case nestedInObject(String, [(key: String, value: JSONBodySample)], [JSONBodySample])
    case nestedInArray([(key: String, value: JSONBodySample)], [JSONBodySample])
    case stringKeyed([String: Int])
    case intKeyed([Int: String])
    case staleContainer(String)

    private enum Key: String, CodingKey {
        case a, b, c, d, e
    }

    private struct TextKey: CodingKey {
        let stringValue: String
        init(_ text: String) { stringValue = text }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value): try Self.single(encoder, value)
        case .bool(let value): try Self.single(encoder, value)
        case .int(let value): try Self.single(encoder, value)
        case .int8(let value): try Self.single(encoder, value)
        case .int16(let value): try Self.single(encoder, value)
        case .int32(let value): try Self.single(encoder, value)
        case .int64(let value): try Self.single(encoder, value)
        case .uint(let value): try Self.single(encoder, value)
        case .uint8(let value): try Self.single(encoder, value)
        case .uint16(let value): try Self.single(encoder, value)
        case .uint32(let value): try Self.single(encoder, value)
        case .uint64(let value): try Self.single(encoder, value)
        case .double(let value): try Self.single(encoder, value)
        case .float(let value): try Self.single(encoder, value)
        case .data(let value): try Self.single(encoder, value)
        case .date(let value): try Self.single(encoder, value)
        case .decimal(let value): try Self.single(encoder, value)
        case .url(let value): try Self.single(encoder, value)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .object(let members, let asksTwice):
            var container = encoder.container(keyedBy: TextKey.self)
            let half = asksTwice ? members.count / 2 : members.count
            for (key, value) in members[..<half] { try container.encode(value, forKey: TextKey(key)) }
            if asksTwice {
                var again = encoder.container(keyedBy: TextKey.self)
                for (key, value) in members[half...] { try again.encode(value, forKey: TextKey(key)) }
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .single(let inner):
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        case .nothing:
            break
        case .superEncoded(let inner):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            try inner.encode(to: container.superEncoder())
        case .concreteMembers(let int, let double, let string, let bool, let byte):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(int, forKey: .a)
            try container.encode(double, forKey: .b)
            try container.encode(string, forKey: .c)
            try container.encode(bool, forKey: .d)
            var list = container.nestedUnkeyedContainer(forKey: .e)
            try list.encode(byte)
            try list.encode(int)
            try list.encodeNil()
        case .optionalMembers(let int, let string):
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(int, forKey: .a)
            try container.encodeIfPresent(string, forKey: .b)
            try container.encodeNil(forKey: .c)
        case .nestedInObject(let key, let members, let elements):
            var container = encoder.container(keyedBy: TextKey.self)
            var inner = container.nestedContainer(keyedBy: TextKey.self, forKey: TextKey(key))
            for (key, value) in members { try inner.encode(value, forKey: TextKey(key)) }
            var list = container.nestedUnkeyedContainer(forKey: TextKey(key + "/list"))
            for element in elements { try list.encode(element) }
        case .nestedInArray(let members, let elements):
            var container = encoder.unkeyedContainer()
            var inner = container.nestedContainer(keyedBy: TextKey.self)
            for (key, value) in members { try inner.encode(value, forKey: TextKey(key)) }
            var list = container.nestedUnkeyedContainer()
            for element in elements { try list.encode(element) }
            try container.encode(container.count)
        case .stringKeyed(let dictionary): try Self.single(encoder, dictionary)
        case .intKeyed(let dictionary): try Self.single(encoder, dictionary)
        case .staleContainer(let text):
            var container = encoder.container(keyedBy: Key.self)
            var first = container.nestedContainer(keyedBy: Key.self, forKey: .a)
            try container.encode(text, forKey: .b)
            try first.encode(text, forKey: .c)
        }
    }

    private static func single(_ encoder: any Encoder, _ value: some Encodable) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    // MARK: From bytes

    /// The sample `bytes` describe: each value starts with a byte choosing its case.
    static func make(_ bytes: [UInt8]) -> JSONBodySample {
        var reader = Reader(bytes: bytes[...])
        return reader.sample(depth: 0)
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

        mutating func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
            var value: T = 0
            for shift in 0..<MemoryLayout<T>.size { value |= T(truncatingIfNeeded: byte()) << (shift * 8) }
            return value
        }

        /// Text of up to 15 bytes, any of them (invalid UTF-8 becomes U+FFFD).
        mutating func text() -> String {
            let count = Int(byte() & 0x0F)
            return String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self)
        }

        /// A key from a small set, so that keys repeat.
        mutating func key() -> String { ["a", "b", "a/b", "é", "\u{1}", "key"][Int(byte()) % 6] }

        mutating func members(depth: Int) -> [(key: String, value: JSONBodySample)] {
            (0..<Int(byte() % 4)).map { _ in (key(), sample(depth: depth + 1)) }
        }

        mutating func elements(depth: Int) -> [JSONBodySample] {
            (0..<Int(byte() % 4)).map { _ in sample(depth: depth + 1) }
        }

        mutating func sample(depth: Int) -> JSONBodySample {
            let choice = byte() % (depth > 12 ? 20 : 33)
            switch choice {
            case 0: return .string(text())
            case 1: return .bool(byte() & 1 == 1)
            case 2: return .int(integer())
            case 3: return .int8(integer())
            case 4: return .int16(integer())
            case 5: return .int32(integer())
            case 6: return .int64(integer())
            case 7: return .uint(integer())
            case 8: return .uint8(integer())
            case 9: return .uint16(integer())
            case 10: return .uint32(integer())
            case 11: return .uint64(integer())
            case 12: return .double(Double(bitPattern: integer()))
            case 13: return .float(Float(bitPattern: integer()))
            case 14: return .double(Double(integer(Int32.self)) / Double(max(1, Int(byte()))))
            case 15: return .data(Data((0..<Int(byte() % 8)).map { _ in byte() }))
            case 16: return .date(Date(timeIntervalSinceReferenceDate: Double(integer(Int32.self)) / 8))
            case 17:
                return .decimal(
                    Decimal(
                        sign: byte() & 1 == 1 ? .minus : .plus, exponent: Int(Int8(truncatingIfNeeded: byte()) / 8),
                        significand: Decimal(integer(UInt32.self))))
            case 18: return URL(string: "https://example.com/" + text()).map(JSONBodySample.url) ?? .null
            case 19: return .null
            case 20: return .object(members(depth: depth), asksTwice: byte() & 1 == 1)
            case 21: return .array(elements(depth: depth))
            case 22: return .single(sample(depth: depth + 1))
            case 23: return .nothing
            case 24: return .superEncoded(sample(depth: depth + 1))
            case 25:
                return .concreteMembers(integer(), Double(integer(Int16.self)) / 4, text(), byte() & 1 == 1, byte())
            case 26: return .optionalMembers(byte() & 1 == 1 ? integer() : nil, byte() & 1 == 1 ? text() : nil)
            case 27: return .nestedInObject(key(), members(depth: depth), elements(depth: depth))
            case 28: return .nestedInArray(members(depth: depth), elements(depth: depth))
            case 29: return .stringKeyed(Dictionary((0..<Int(byte() % 4)).map { _ in (key(), Int(byte())) }) { $1 })
            case 30: return .intKeyed(Dictionary((0..<Int(byte() % 4)).map { _ in (Int(byte()), text()) }) { $1 })
            case 31: return .staleContainer(text())
            default: return .array([sample(depth: depth + 1), .nothing])
            }
        }
    }
}

/// JSON text with every object's members sorted by their key's bytes, every other token kept
/// byte for byte; `nil` when `bytes` are not JSON of the shape `JSONEncoder` writes (no spaces).
///
/// `JSONEncoder` on Linux writes an object's members in the order of a hashed dictionary, which
/// changes from one process to the next (RFC 8259 §4: objects are unordered); the writer keeps
/// the order they were encoded in. Both are compared in this form: member order aside, the same
/// bytes.
func canonicalJSON(_ bytes: [UInt8]) -> [UInt8]? {
    var index = 0
    guard let value = canonicalValue(bytes, &index, depth: 0), index == bytes.count else { return nil }
    return value
}

private func canonicalValue(_ bytes: [UInt8], _ index: inout Int, depth: Int) -> [UInt8]? {
    guard index < bytes.count, depth < 1_000 else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = bytes[index] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        var members: [(key: [UInt8], value: [UInt8])] = []
        while index < bytes.count, bytes[index] != close {
            if !members.isEmpty {
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
            var key: [UInt8] = []
            if isObject {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
                    let text = canonicalValue(bytes, &index, depth: depth + 1),
                    index < bytes.count, bytes[index] == UInt8(ascii: ":")
                else { return nil }
                key = text
                index += 1
            }
            guard let value = canonicalValue(bytes, &index, depth: depth + 1) else { return nil }
            members.append((key, value))
        }
        guard index < bytes.count else { return nil }
        index += 1
        if isObject { members.sort { $0.key.lexicographicallyPrecedes($1.key) } }
        let inner = members.map { isObject ? $0.key + [UInt8(ascii: ":")] + $0.value : $0.value }
        return [isObject ? UInt8(ascii: "{") : UInt8(ascii: "[")]
            + Array(inner.joined(separator: [UInt8(ascii: ",")])) + [close]
    case UInt8(ascii: "\""):
        let start = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard index < bytes.count else { return nil }
        index += 1
        return Array(bytes[start..<index])
    default:
        let start = index
        while index < bytes.count, !",]}:".utf8.contains(bytes[index]) { index += 1 }
        return index > start ? Array(bytes[start..<index]) : nil
    }
}
