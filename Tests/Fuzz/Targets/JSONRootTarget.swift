import Foundation

/// JSON responses decoded from a `serializationRoot` key path (`RootedValue`), through the
/// response serializer and its charset handling.
///
/// Input: fields separated by 0xFF: the `serializationRoot` as a descriptor writes it
/// (`data.items.0`), the body, and optionally the response's `Content-Type`.
///
/// Beyond not crashing: when the whole document decodes, decoding from the root gives exactly
/// what walking the path through the whole document by hand gives (an all-digit step indexes an
/// array, any other step names an object member), and fails exactly when that walk fails.
enum JSONRootTarget {
    static func run(_ bytes: [UInt8]) {
        let fields = fuzzFields(bytes)
        let rootText = fields[0]
        let body = fields.count > 1 ? Data(fields[1].utf8) : Data()
        var headers: HTTPHeaders = [:]
        if fields.count > 2 { headers["Content-Type"] = fields[2] }
        // The descriptor's rule: split at dots, no empty step.
        let steps = rootText.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !steps.contains(where: \.isEmpty) else { return }

        let serializer = JSONResponseSerializer<JSONValue>()
        let whole: JSONValue?
        do {
            whole = try serializer.deserialize(body, context: ResponseContext(statusCode: 200, headers: headers))
        } catch {
            whole = nil
        }
        let rooted: JSONValue?
        do {
            rooted = try serializer.deserialize(
                body, context: ResponseContext(statusCode: 200, headers: headers, serializationRoot: steps))
        } catch {
            rooted = nil
        }
        // When the whole document does not decode (a number beyond Double elsewhere, say), the
        // part under the root still may: there is nothing to compare then.
        guard let whole else { return }
        let expected = walk(whole, steps[...])
        fuzzCheck(
            rooted == expected,
            "root \(steps) of \(String(decoding: body, as: UTF8.self).debugDescription): "
                + "\(String(describing: rooted)), expected \(String(describing: expected))")
    }

    static func walk(_ value: JSONValue, _ steps: ArraySlice<String>) -> JSONValue? {
        guard let step = steps.first else { return value }
        if step.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard case .array(let elements) = value, let index = Int(step), index < elements.count else { return nil }
            return walk(elements[index], steps.dropFirst())
        }
        guard case .object(let members) = value, let member = members[step] else { return nil }
        return walk(member, steps.dropFirst())
    }
}

/// Any JSON value, compared exactly.
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let value = try? single.decode(Bool.self) {
                self = .bool(value)
                return
            }
            if let value = try? single.decode(Double.self) {
                self = .number(value)
                return
            }
            if let value = try? single.decode(String.self) {
                self = .string(value)
                return
            }
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let object = try decoder.container(keyedBy: Key.self)
        var members: [String: JSONValue] = [:]
        for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
        self = .object(members)
    }
}
