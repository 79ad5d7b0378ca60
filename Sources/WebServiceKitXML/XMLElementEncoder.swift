#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The state one `XMLValueEncoder.encode` call shares between all its encoders and containers.
final class XMLEncodingState {
    let options: XMLValueEncoder
    let userInfo: [CodingUserInfoKey: Any]
    /// The first error found where `Encoder` cannot throw (asking for a container); thrown as soon
    /// as control returns to a throwing method.
    private(set) var deferredError: EncodingError?

    init(options: XMLValueEncoder) {
        self.options = options
        self.userInfo = options.userInfo.mapValues { $0 as Any }
    }

    /// Remembers `error` unless an earlier one is already waiting.
    func deferError(_ error: EncodingError) {
        if deferredError == nil { deferredError = error }
    }

    /// Throws the waiting error, if any.
    func throwDeferredError() throws {
        if let deferredError { throw deferredError }
    }

    /// Encodes `value` into `slot`: a scalar directly as text, anything else through its `encode(to:)`.
    func encode<T: Encodable>(_ value: T, into slot: XMLEncodingSlot, codingPath: [any CodingKey]) throws {
        if let scalar = value as? any XMLScalarEncodable {
            let text = try scalar.xmlText(using: options, codingPath: codingPath)
            slot.write(try checkedText(text, codingPath: codingPath))
            return
        }
        guard codingPath.count < options.maximumDepth else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "The value nests deeper than the maximum depth of \(options.maximumDepth)."))
        }
        let encoder = XMLElementEncoder(
            state: self, codingPath: codingPath, slot: slot, kinds: T.self as? any XMLNodeKindProviding.Type)
        try value.encode(to: encoder)
        try throwDeferredError()
    }

    /// `text`, if XML can carry every character of it.
    func checkedText(_ text: String, codingPath: [any CodingKey]) throws -> String {
        guard let invalid = XMLSyntax.firstInvalidCharacter(in: text) else { return text }
        let hex = String(invalid.value, radix: 16, uppercase: true)
        let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        throw EncodingError.invalidValue(
            text,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "The text contains U+\(code), which XML 1.0 cannot represent."))
    }

    /// The error for a name that is not a valid XML element or attribute name.
    func invalidName(_ name: String, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            name,
            EncodingError.Context(
                codingPath: codingPath, debugDescription: "\"\(name)\" is not a valid XML element or attribute name."))
    }

    /// The error for a nested value or an array where only a single value can go.
    func notASingleValue(_ slot: XMLEncodingSlot, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            slot.description,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Only a single value (string, number, date…) can be stored as "
                    + "\(slot.description)."))
    }
}

/// Where an encoded value goes.
enum XMLEncodingSlot: CustomStringConvertible {
    /// Into an element that already exists: the document's root.
    case existing(XMLTreeElement)
    /// Into a new child element `name` of `parent`. With `repeatsForArrays`, an array becomes
    /// repeated `name` elements in `parent` (a property); without, one `name` element with an
    /// `<element>` child per item (an item of an array).
    case child(of: XMLTreeElement, name: String, repeatsForArrays: Bool)
    /// Into attribute `name` of `parent`.
    case attribute(of: XMLTreeElement, name: String)
    /// Into the text of `parent`.
    case text(of: XMLTreeElement)

    var description: String {
        switch self {
        case .existing(let element): "the content of <\(element.name)>"
        case .child(_, let name, _): "element <\(name)>"
        case .attribute(_, let name): "attribute \(name)"
        case .text(let parent): "the text of <\(parent.name)>"
        }
    }

    /// Writes a single value's text.
    func write(_ text: String) {
        switch self {
        case .existing(let element): element.text = text
        case .child(let parent, let name, _): parent.append(XMLTreeElement(name: name, text: text))
        case .attribute(let parent, let name):
            // Writing an attribute twice keeps the last value: a repeated attribute is not well-formed.
            if let index = parent.attributes.firstIndex(where: { $0.name == name }) {
                parent.attributes[index].value = text
            } else {
                parent.attributes.append((name, text))
            }
        case .text(let parent): parent.text = text
        }
    }
}

/// The `Encoder` for one value; it creates the value's element only when the value asks for a container.
final class XMLElementEncoder: Encoder {
    let state: XMLEncodingState
    let codingPath: [any CodingKey]
    let slot: XMLEncodingSlot
    /// The value's type, when it places some properties in attributes or text.
    let kinds: (any XMLNodeKindProviding.Type)?
    private var element: XMLTreeElement?

    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    init(
        state: XMLEncodingState, codingPath: [any CodingKey], slot: XMLEncodingSlot,
        kinds: (any XMLNodeKindProviding.Type)?
    ) {
        self.state = state
        self.codingPath = codingPath
        self.slot = slot
        self.kinds = kinds
    }

    /// The element the value fills, created on first use; `nil` when the slot is an attribute or text.
    func valueElement() -> XMLTreeElement? {
        if let element { return element }
        switch slot {
        case .existing(let existing): element = existing
        case .child(let parent, let name, _): element = parent.appendChild(named: name)
        case .attribute, .text: return nil
        }
        return element
    }

    /// The slot a value forwarded through `singleValueContainer().encode(_:)` goes to.
    var forwardingSlot: XMLEncodingSlot { element.map { .existing($0) } ?? slot }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let element = valueElement() else {
            state.deferError(state.notASingleValue(slot, codingPath: codingPath))
            return KeyedEncodingContainer(
                XMLKeyedEncodingContainer(
                    state: state, element: XMLTreeElement(name: "detached"), kinds: nil, codingPath: codingPath))
        }
        return KeyedEncodingContainer(
            XMLKeyedEncodingContainer(state: state, element: element, kinds: kinds, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch slot {
        case .child(let parent, let name, true):
            return XMLUnkeyedEncodingContainer(state: state, parent: parent, itemName: name, codingPath: codingPath)
        case .existing, .child:
            let wrapper = valueElement() ?? XMLTreeElement(name: "detached")
            return XMLUnkeyedEncodingContainer(
                state: state, parent: wrapper, itemName: "element", codingPath: codingPath)
        case .attribute, .text:
            state.deferError(state.notASingleValue(slot, codingPath: codingPath))
            return XMLUnkeyedEncodingContainer(
                state: state, parent: XMLTreeElement(name: "detached"), itemName: "element", codingPath: codingPath)
        }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        XMLSingleValueEncodingContainer(encoder: self)
    }

    /// Writes a single value's text into the slot (or into the element already created for it).
    func write(_ text: String) throws {
        let checked = try state.checkedText(text, codingPath: codingPath)
        if let element {
            element.text = checked
        } else {
            slot.write(checked)
        }
    }

    /// Writes `nil`: nothing for a property, an `xsi:nil="true"` element for an array item or the root.
    func writeNil() {
        switch slot {
        case .existing, .child(_, _, false): valueElement()?.markNil()
        case .child(_, _, true), .attribute, .text: break
        }
    }
}

/// Writes properties as child elements, attributes or text of one element.
struct XMLKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: XMLEncodingState
    let element: XMLTreeElement
    let kinds: (any XMLNodeKindProviding.Type)?
    let codingPath: [any CodingKey]

    /// Where the property with `key` goes.
    private func slot(for key: Key) throws -> XMLEncodingSlot {
        let kind = kinds?.xmlNodeKind(for: key) ?? .element
        if kind != .text && !XMLSyntax.isValidName(key.stringValue) {
            throw state.invalidName(key.stringValue, codingPath: codingPath + [key])
        }
        switch kind {
        case .element: return .child(of: element, name: key.stringValue, repeatsForArrays: true)
        case .attribute: return .attribute(of: element, name: key.stringValue)
        case .text: return .text(of: element)
        }
    }

    /// `nil` is written as nothing: the element or attribute is left out.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encodeValue(value, forKey: key) }

    private func encodeValue<T: Encodable>(_ value: T, forKey key: Key) throws {
        try state.encode(value, into: slot(for: key), codingPath: codingPath + [key])
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeValue(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeValue(value, forKey: key) }

    /// The slot of `key` when it is a child element; otherwise records the error and returns `nil`.
    private func elementSlot(for key: Key) -> (parent: XMLTreeElement, name: String)? {
        do {
            let slot = try slot(for: key)
            guard case .child(let parent, let name, _) = slot else {
                throw state.notASingleValue(slot, codingPath: codingPath + [key])
            }
            return (parent, name)
        } catch let error as EncodingError {
            state.deferError(error)
        } catch {
            // slot(for:) throws only EncodingError
        }
        return nil
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = elementSlot(for: key).map { $0.parent.appendChild(named: $0.name) }
        return KeyedEncodingContainer(
            XMLKeyedEncodingContainer<NestedKey>(
                state: state, element: nested ?? XMLTreeElement(name: "detached"), kinds: nil,
                codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let target = elementSlot(for: key) ?? (XMLTreeElement(name: "detached"), "element")
        return XMLUnkeyedEncodingContainer(
            state: state, parent: target.parent, itemName: target.name, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        XMLElementEncoder(
            state: state, codingPath: codingPath + [XMLCodingKey.super],
            slot: .child(of: element, name: XMLCodingKey.super.stringValue, repeatsForArrays: true), kinds: nil)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let path = codingPath + [key]
        do {
            return XMLElementEncoder(state: state, codingPath: path, slot: try slot(for: key), kinds: nil)
        } catch {
            if let error = error as? EncodingError { state.deferError(error) }
            return XMLElementEncoder(
                state: state, codingPath: path, slot: .existing(XMLTreeElement(name: "detached")), kinds: nil)
        }
    }
}

/// Writes the items of an array as repeated elements named `itemName` in `parent`.
struct XMLUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let state: XMLEncodingState
    let parent: XMLTreeElement
    let itemName: String
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(state: XMLEncodingState, parent: XMLTreeElement, itemName: String, codingPath: [any CodingKey]) {
        self.state = state
        self.parent = parent
        self.itemName = itemName
        self.codingPath = codingPath
    }

    /// The slot of the next item, and its coding path.
    private mutating func nextItem() -> (slot: XMLEncodingSlot, codingPath: [any CodingKey]) {
        defer { count += 1 }
        return (.child(of: parent, name: itemName, repeatsForArrays: false), codingPath + [XMLCodingKey(index: count)])
    }

    mutating func encodeNil() throws {
        _ = nextItem()
        parent.appendChild(named: itemName).markNil()
    }

    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }

    private mutating func encodeValue<T: Encodable>(_ value: T) throws {
        let item = nextItem()
        try state.encode(value, into: item.slot, codingPath: item.codingPath)
    }

    mutating func encode(_ value: Bool) throws { try encodeValue(value) }
    mutating func encode(_ value: String) throws { try encodeValue(value) }
    mutating func encode(_ value: Double) throws { try encodeValue(value) }
    mutating func encode(_ value: Float) throws { try encodeValue(value) }
    mutating func encode(_ value: Int) throws { try encodeValue(value) }
    mutating func encode(_ value: Int8) throws { try encodeValue(value) }
    mutating func encode(_ value: Int16) throws { try encodeValue(value) }
    mutating func encode(_ value: Int32) throws { try encodeValue(value) }
    mutating func encode(_ value: Int64) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt8) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt16) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt32) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt64) throws { try encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let item = nextItem()
        return KeyedEncodingContainer(
            XMLKeyedEncodingContainer<NestedKey>(
                state: state, element: parent.appendChild(named: itemName), kinds: nil, codingPath: item.codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let item = nextItem()
        return XMLUnkeyedEncodingContainer(
            state: state, parent: parent.appendChild(named: itemName), itemName: "element",
            codingPath: item.codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let item = nextItem()
        return XMLElementEncoder(state: state, codingPath: item.codingPath, slot: item.slot, kinds: nil)
    }
}

/// Writes one value into its encoder's slot.
struct XMLSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: XMLElementEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.writeNil() }

    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }

    private func encodeValue<T: Encodable>(_ value: T) throws {
        if let scalar = value as? any XMLScalarEncodable {
            try encoder.write(scalar.xmlText(using: encoder.state.options, codingPath: codingPath))
            return
        }
        // A wrapper forwarding to its wrapped value: the value takes the wrapper's place.
        let forwarded = XMLElementEncoder(
            state: encoder.state, codingPath: codingPath, slot: encoder.forwardingSlot,
            kinds: T.self as? any XMLNodeKindProviding.Type)
        try value.encode(to: forwarded)
        try encoder.state.throwDeferredError()
    }

    mutating func encode(_ value: Bool) throws { try encodeValue(value) }
    mutating func encode(_ value: String) throws { try encodeValue(value) }
    mutating func encode(_ value: Double) throws { try encodeValue(value) }
    mutating func encode(_ value: Float) throws { try encodeValue(value) }
    mutating func encode(_ value: Int) throws { try encodeValue(value) }
    mutating func encode(_ value: Int8) throws { try encodeValue(value) }
    mutating func encode(_ value: Int16) throws { try encodeValue(value) }
    mutating func encode(_ value: Int32) throws { try encodeValue(value) }
    mutating func encode(_ value: Int64) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt8) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt16) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt32) throws { try encodeValue(value) }
    mutating func encode(_ value: UInt64) throws { try encodeValue(value) }
}
