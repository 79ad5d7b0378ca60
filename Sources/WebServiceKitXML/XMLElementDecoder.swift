#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The state one `XMLValueDecoder.decode` call shares between all its decoders and containers.
final class XMLDecodingState {
    let options: XMLValueDecoder
    let userInfo: [CodingUserInfoKey: Any]

    init(options: XMLValueDecoder) {
        self.options = options
        self.userInfo = options.userInfo.mapValues { $0 as Any }
    }

    /// Decodes a `T` from `node`: a scalar directly from its text, anything else through `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type, from node: XMLDecodingNode, codingPath: [any CodingKey]) throws -> T {
        if let scalarType = T.self as? any XMLScalarDecodable.Type {
            let text = try node.scalarText(for: T.self, codingPath: codingPath)
            let value = try scalarType.decode(xmlText: text, using: options, codingPath: codingPath)
            guard let typed = value as? T else {
                throw DecodingError.typeMismatch(
                    T.self,
                    DecodingError.Context(codingPath: codingPath, debugDescription: "Could not convert \(value)."))
            }
            return typed
        }
        // No depth guard is needed here: the parser rejects trees deeper than options.maximumDepth, and
        // every container steps one element down.
        let decoder = XMLElementDecoder(
            state: self, node: node, codingPath: codingPath, kinds: T.self as? any XMLNodeKindProviding.Type)
        return try T(from: decoder)
    }
}

/// What a value is decoded from.
enum XMLDecodingNode: CustomStringConvertible {
    /// The child elements named `name` found for a property: the first is a single value, all are an array.
    case elements([XMLTreeElement], name: String)
    /// One element holding the value: the root, or an item of an array.
    case element(XMLTreeElement)
    /// The value of the attribute `name`.
    case attribute(String, name: String)
    /// The text of `element`.
    case text(of: XMLTreeElement)

    var description: String {
        switch self {
        case .elements(_, let name): "element <\(name)>"
        case .element(let element): "element <\(element.name)>"
        case .attribute(_, let name): "attribute \(name)"
        case .text(let element): "the text of <\(element.name)>"
        }
    }

    /// Whether the node stands for `nil`: no element at all, or an element marked `xsi:nil="true"`.
    var isNil: Bool {
        switch self {
        case .elements(let elements, _): elements.first?.isNil ?? true
        case .element(let element): element.isNil
        case .attribute: false
        case .text(let element): element.text.isEmpty
        }
    }

    /// The single element whose children and attributes hold a keyed value.
    func containerElement(for type: Any.Type, codingPath: [any CodingKey]) throws -> XMLTreeElement {
        let element: XMLTreeElement
        switch self {
        case .elements(let elements, _):
            guard let first = elements.first else { throw missing(type, codingPath: codingPath) }
            element = first
        case .element(let only):
            element = only
        case .attribute, .text:
            throw mismatch(type, codingPath: codingPath, expected: "an element with child elements")
        }
        guard !element.isNil else { throw missing(type, codingPath: codingPath) }
        return element
    }

    /// The elements holding the items of an array.
    func items(codingPath: [any CodingKey]) throws -> [XMLTreeElement] {
        switch self {
        case .elements(let elements, _):
            return elements
        case .element(let element):
            guard !element.isNil else { throw missing([Any].self, codingPath: codingPath) }
            return element.children
        case .attribute, .text:
            throw mismatch([Any].self, codingPath: codingPath, expected: "repeated elements")
        }
    }

    /// The text a single value is read from.
    func scalarText(for type: Any.Type, codingPath: [any CodingKey]) throws -> String {
        let element: XMLTreeElement
        switch self {
        case .elements(let elements, _):
            guard let first = elements.first else { throw missing(type, codingPath: codingPath) }
            element = first
        case .element(let only):
            element = only
        case .attribute(let value, _):
            return value
        case .text(let parent):
            return parent.text
        }
        guard !element.isNil else { throw missing(type, codingPath: codingPath) }
        guard element.children.isEmpty else {
            throw mismatch(type, codingPath: codingPath, expected: "text", found: "child elements")
        }
        return element.text
    }

    private func missing(_ type: Any.Type, codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Expected \(type) in \(self) but found no value."))
    }

    private func mismatch(_ type: Any.Type, codingPath: [any CodingKey], expected: String, found: String? = nil)
        -> DecodingError
    {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "Expected \(expected) for \(type) but found \(found.map { "\($0) in " } ?? "")\(self)."))
    }
}

/// The `Decoder` for one value.
struct XMLElementDecoder: Decoder {
    let state: XMLDecodingState
    let node: XMLDecodingNode
    let codingPath: [any CodingKey]
    /// The value's type, when it places some properties in attributes or text.
    let kinds: (any XMLNodeKindProviding.Type)?

    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let element = try node.containerElement(for: [String: Any].self, codingPath: codingPath)
        return KeyedDecodingContainer(
            XMLKeyedDecodingContainer<Key>(state: state, element: element, kinds: kinds, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        XMLUnkeyedDecodingContainer(state: state, items: try node.items(codingPath: codingPath), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        XMLSingleValueDecodingContainer(decoder: self)
    }
}

/// Reads properties from the child elements, attributes and text of one element.
struct XMLKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: XMLDecodingState
    let element: XMLTreeElement
    let kinds: (any XMLNodeKindProviding.Type)?
    let codingPath: [any CodingKey]

    private func kind(of key: some CodingKey) -> XMLNodeKind { kinds?.xmlNodeKind(for: key) ?? .element }

    /// The child element names, and the attribute names the type reads as attributes.
    var allKeys: [Key] {
        let elementKeys = element.childNames.compactMap(Key.init(stringValue:)).filter { kind(of: $0) == .element }
        let attributeKeys = element.attributes.compactMap { Key(stringValue: $0.name) }.filter {
            kind(of: $0) == .attribute
        }
        return elementKeys + attributeKeys
    }

    /// What `key` is read from, or `nil` when the element or attribute is absent.
    private func node(for key: Key) -> XMLDecodingNode? {
        switch kind(of: key) {
        case .element:
            let elements = element.children(named: key.stringValue)
            return elements.isEmpty ? nil : .elements(elements, name: key.stringValue)
        case .attribute:
            return element.attribute(named: key.stringValue).map { .attribute($0, name: key.stringValue) }
        case .text:
            return .text(of: element)
        }
    }

    private func keyNotFound(_ key: Key) -> DecodingError {
        let place = kind(of: key) == .attribute ? "attribute \(key.stringValue) on" : "element <\(key.stringValue)> in"
        return DecodingError.keyNotFound(
            key, DecodingError.Context(codingPath: codingPath, debugDescription: "No \(place) <\(element.name)>."))
    }

    func contains(_ key: Key) -> Bool { node(for: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { node(for: key)?.isNil ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(type, forKey: key) }

    private func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let node = node(for: key) else {
            if let absent = T.self as? any XMLEmptyWhenAbsent.Type, let value = absent.xmlValueWhenAbsent as? T {
                return value
            }
            throw keyNotFound(key)
        }
        return try state.decode(T.self, from: node, codingPath: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard let node = node(for: key) else { throw keyNotFound(key) }
        let path = codingPath + [key]
        return KeyedDecodingContainer(
            XMLKeyedDecodingContainer<NestedKey>(
                state: state, element: try node.containerElement(for: [String: Any].self, codingPath: path),
                kinds: nil, codingPath: path))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let path = codingPath + [key]
        let node = node(for: key) ?? .elements([], name: key.stringValue)
        return XMLUnkeyedDecodingContainer(state: state, items: try node.items(codingPath: path), codingPath: path)
    }

    func superDecoder() throws -> any Decoder {
        let name = XMLCodingKey.super.stringValue
        return XMLElementDecoder(
            state: state, node: .elements(element.children(named: name), name: name),
            codingPath: codingPath + [XMLCodingKey.super], kinds: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        XMLElementDecoder(
            state: state, node: node(for: key) ?? .elements([], name: key.stringValue),
            codingPath: codingPath + [key], kinds: nil)
    }
}

/// Reads the items of an array from a list of elements, one element per item.
struct XMLUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let state: XMLDecodingState
    let items: [XMLTreeElement]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(state: XMLDecodingState, items: [XMLTreeElement], codingPath: [any CodingKey]) {
        self.state = state
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item's element and coding path; throws `valueNotFound` at the end.
    private func current(_ type: Any.Type) throws -> (element: XMLTreeElement, codingPath: [any CodingKey]) {
        let path = codingPath + [XMLCodingKey(index: currentIndex)]
        guard currentIndex < items.count else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path, debugDescription: "The array has only \(items.count) items."))
        }
        return (items[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Any?.self).element.isNil else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let item = try current(T.self)
        let value = try state.decode(T.self, from: .element(item.element), codingPath: item.codingPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let item = try current([String: Any].self)
        let element = try XMLDecodingNode.element(item.element).containerElement(
            for: [String: Any].self, codingPath: item.codingPath)
        currentIndex += 1
        return KeyedDecodingContainer(
            XMLKeyedDecodingContainer<NestedKey>(
                state: state, element: element, kinds: nil, codingPath: item.codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let item = try current([Any].self)
        let items = try XMLDecodingNode.element(item.element).items(codingPath: item.codingPath)
        currentIndex += 1
        return XMLUnkeyedDecodingContainer(state: state, items: items, codingPath: item.codingPath)
    }

    mutating func superDecoder() throws -> any Decoder {
        let item = try current(Any.self)
        currentIndex += 1
        return XMLElementDecoder(state: state, node: .element(item.element), codingPath: item.codingPath, kinds: nil)
    }
}

/// Reads one value from its decoder's node.
struct XMLSingleValueDecodingContainer: SingleValueDecodingContainer {
    let decoder: XMLElementDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.node.isNil }

    /// Decodes a scalar from the node's text; any other type (a wrapper forwarding to its wrapped
    /// value) is decoded from the same node.
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.state.decode(T.self, from: decoder.node, codingPath: codingPath)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
}
