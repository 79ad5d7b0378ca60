import Foundation

/// Decodes the value found at a key path inside a document, without decoding the rest of it.
///
/// The path travels in the decoder's `userInfo`; each step descends through a keyed container
/// (object member) or, for a decimal step, an unkeyed container (array element).
struct RootedValue<Value: Decodable>: Decodable {
    static var pathKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "WebServiceKit.serializationRoot")! }

    let value: Value

    init(from decoder: any Decoder) throws {
        let path = decoder.userInfo[Self.pathKey] as? [String] ?? []
        value = try Self.descend(decoder, path: path[...])
    }

    private static func descend(_ decoder: any Decoder, path: ArraySlice<String>) throws -> Value {
        guard let step = path.first else { return try Value(from: decoder) }
        // A step of decimal digits only is an array index; `-0` or `+1` name object members
        // (`Int` would read them as numbers). An index too large for `Int` is past any end.
        if !step.isEmpty, step.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            let index = Int(step) ?? Int.max
            var array = try decoder.unkeyedContainer()
            for _ in 0..<index {
                guard !array.isAtEnd else { break }
                _ = try array.decode(Skipped.self)
            }
            guard !array.isAtEnd else {
                throw DecodingError.valueNotFound(
                    Value.self,
                    .init(
                        codingPath: array.codingPath,
                        debugDescription: "serializationRoot index \(index) is past the end"))
            }
            // The last step decodes through the container, so the decoder's own strategies
            // (dates, data, non-conforming floats) apply to the rooted value too.
            return path.count == 1
                ? try array.decode(Value.self) : try descend(try array.superDecoder(), path: path.dropFirst())
        }
        let object = try decoder.container(keyedBy: PathKey.self)
        let key = PathKey(stringValue: step)
        guard object.contains(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: object.codingPath, debugDescription: "serializationRoot step \"\(step)\" is missing"))
        }
        return path.count == 1
            ? try object.decode(Value.self, forKey: key)
            : try descend(try object.superDecoder(forKey: key), path: path.dropFirst())
    }

    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    private struct PathKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension JSONDecoder {
    /// Decodes the value at `root` inside the document.
    ///
    /// `userInfo` is per decoder, so a private copy carries the path; the shared decoder is never mutated.
    func decode<Value: Decodable>(_: RootedValue<Value>.Type, from data: Data, root: [String]) throws -> Value {
        let rooted = JSONDecoder()
        rooted.dateDecodingStrategy = dateDecodingStrategy
        rooted.dataDecodingStrategy = dataDecodingStrategy
        rooted.keyDecodingStrategy = keyDecodingStrategy
        rooted.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        rooted.allowsJSON5 = allowsJSON5
        rooted.userInfo = userInfo.merging([RootedValue<Value>.pathKey: root]) { $1 }
        return try rooted.decode(RootedValue<Value>.self, from: data).value
    }
}
