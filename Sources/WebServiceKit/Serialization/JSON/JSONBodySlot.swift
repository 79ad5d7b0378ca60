import Foundation

/// One position of the output that a value is encoded into: the `Encoder` that
/// ``JSONBodyWriter`` hands to `encode(to:)`.
final class JSONBodySlot: Encoder {
    /// The key of a member: none at the top, a key in an object, an index in an array.
    enum Key {
        case none
        case key(any CodingKey)
        case index(Int)
    }

    /// What the slot holds so far.
    enum Filled: Equatable {
        case none
        case value
        /// An object or array, by its serial number.
        case container(Int)
    }

    let writer: JSONBodyWriter
    /// How many containers enclose the slot.
    let depth: Int
    private let parent: JSONBodySlot?
    private let key: Key
    var filled = Filled.none

    init(writer: JSONBodyWriter, depth: Int, parent: JSONBodySlot?, key: Key) {
        self.writer = writer
        self.depth = depth
        self.parent = parent
        self.key = key
    }

    /// Built only when asked for: most values never read it.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var slot: JSONBodySlot? = self
        while let current = slot {
            switch current.key {
            case .none: break
            case .key(let key): path.append(key)
            case .index(let index): path.append(JSONBodyIndexKey(index))
            }
            slot = current.parent
        }
        return path.reversed()
    }

    /// Always empty: ``JSONBodyEncoding`` writes only for an encoder without user info.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<K: CodingKey>(keyedBy type: K.Type) -> KeyedEncodingContainer<K> {
        KeyedEncodingContainer(
            JSONBodyObject<K>(slot: self, serial: writer.openContainer(in: self, isObject: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONBodyArray(slot: self, serial: writer.openContainer(in: self, isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { JSONBodySingleValue(slot: self) }
}

/// An array index in a coding path, as `JSONEncoder` names it.
struct JSONBodyIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A keyed container: an object of the output.
struct JSONBodyObject<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: JSONBodySlot
    /// The object's serial number, `nil` when the writer could not open it (it failed).
    let serial: Int?
    var codingPath: [any CodingKey] { slot.codingPath }

    private func member(_ key: Key) throws -> JSONBodySlot {
        try slot.writer.beginMember(of: serial, at: slot.depth, key: key.stringValue)
        return slot.writer.memberSlot(at: slot.depth, parent: slot, key: .key(key))
    }

    mutating func encodeNil(forKey key: Key) throws {
        try slot.writer.writeNull(into: try member(key))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try slot.writer.writeMember(
            value, of: serial, at: slot.depth, key: key.stringValue, parent: slot, slotKey: { .key(key) })
    }

    // The common primitives without the generic path.
    mutating func encode(_ value: String, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try primitive(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try primitive(value, key) }

    private func primitive<T: Encodable>(_ value: T, _ key: Key) throws {
        try slot.writer.writeMember(
            value, of: serial, at: slot.depth, key: key.stringValue, parent: slot, slotKey: { .key(key) })
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let inner = (try? member(key)) ?? slot.writer.failedSlot()
        return inner.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let inner = (try? member(key)) ?? slot.writer.failedSlot()
        return inner.unkeyedContainer()
    }

    /// `JSONEncoder` places a superclass's values oddly (its key first): left to it.
    mutating func superEncoder() -> any Encoder { unsupportedEncoder() }

    mutating func superEncoder(forKey key: Key) -> any Encoder { unsupportedEncoder() }

    private func unsupportedEncoder() -> any Encoder { slot.writer.failedSlot() }
}

/// An unkeyed container: an array of the output.
struct JSONBodyArray: UnkeyedEncodingContainer {
    let slot: JSONBodySlot
    let serial: Int?
    var codingPath: [any CodingKey] { slot.codingPath }
    var count: Int { slot.writer.count(of: serial, at: slot.depth) }

    private func element() throws -> JSONBodySlot {
        let index = count
        try slot.writer.beginMember(of: serial, at: slot.depth, key: nil)
        return slot.writer.memberSlot(at: slot.depth, parent: slot, key: .index(index))
    }

    mutating func encodeNil() throws {
        try slot.writer.writeNull(into: try element())
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try slot.writer.writeMember(
            value, of: serial, at: slot.depth, key: nil, parent: slot, slotKey: { .index(index) })
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let inner = (try? element()) ?? slot.writer.failedSlot()
        return inner.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let inner = (try? element()) ?? slot.writer.failedSlot()
        return inner.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { slot.writer.failedSlot() }
}

/// A single value: the slot itself.
struct JSONBodySingleValue: SingleValueEncodingContainer {
    let slot: JSONBodySlot
    var codingPath: [any CodingKey] { slot.codingPath }

    mutating func encodeNil() throws {
        try slot.writer.writeNull(into: slot)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard slot.filled == .none else { throw slot.writer.fail() }
        try slot.writer.write(value, into: slot)
    }
}
