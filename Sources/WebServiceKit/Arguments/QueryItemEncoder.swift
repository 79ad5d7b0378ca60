import Foundation

/// Turns a ``QueryParameters`` argument into query items: its values into a tree of text, lists
/// and objects (an `Encoder` for `Encodable` values, each leaf given the text it would take
/// filling a wildcard), then the tree's top level into items.
enum QueryItemEncoder {
    /// What a value is in a query.
    indirect enum Node {
        case text(String)
        case list([Node])
        case object([(String, Node)])
        /// `nil`: its item is dropped.
        case absent
    }

    /// Why a value has no query form, and where.
    struct Failure: Error, CustomStringConvertible {
        var path: [String] = []
        let reason: String

        func at(_ name: String) -> Failure { Failure(path: [name] + path, reason: reason) }

        var description: String { path.isEmpty ? reason : "\(path.joined(separator: ".")): \(reason)" }
    }

    /// Nesting past this fails: a query is flat, and a recursive value must not recurse forever.
    static let maximumDepth = 32

    /// The node of a value of a ``QueryParameters`` pair: text as a wildcard has it, else an
    /// `Encodable` encoded.
    static func node(of value: Any) -> Result<Node, Failure> {
        let box = NodeBox()
        do {
            try TreeEncoder.encode(value, into: box, depth: 0)
            return .success(box.node)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(reason: "it could not be encoded: \(error)"))
        }
    }

    /// The members of `value`, which must encode as an object (a structure, a class, a dictionary).
    static func members(of value: Any) -> Result<[(String, Node)], Failure> {
        switch node(of: value) {
        case .success(.object(let members)): .success(members)
        case .success(.absent): .success([])
        case .success: .failure(Failure(reason: "a \(type(of: value)) is not a set of named values (an object)"))
        case .failure(let failure): .failure(failure)
        }
    }

    /// The items of `members`, as text not yet percent-encoded: one value each, or the elements
    /// of a comma-separated list (encoded one by one, then joined by a literal comma).
    static func flatten(_ members: [(String, Node)], lists: QueryParameters.ListStyle)
        -> Result<[(name: String, values: [String])], Failure>
    {
        var items: [(name: String, values: [String])] = []
        for (name, node) in members {
            switch node {
            case .absent: continue
            case .text(let text): items.append((name, [text]))
            case .object: return .failure(Failure(path: [name], reason: "a nested object has no query form"))
            case .list(let elements):
                var texts: [String] = []
                for element in elements {
                    switch element {
                    case .text(let text): texts.append(text)
                    case .absent: continue
                    case .list, .object:
                        return .failure(Failure(path: [name], reason: "a list of lists or objects has no query form"))
                    }
                }
                switch lists {
                case .repeated: items += texts.map { (name, [$0]) }
                case .commaSeparated: if !texts.isEmpty { items.append((name, texts)) }
                }
            }
        }
        return .success(items)
    }
}

/// One node while the tree is built: containers fill their children in place.
private final class NodeBox {
    enum Kind {
        case undecided
        case text(String)
        case absent
        case list([NodeBox])
        case object([(String, NodeBox)])
    }

    var kind = Kind.undecided

    /// The finished node (an undecided one, a value that encoded nothing, is absent).
    var node: QueryItemEncoder.Node {
        switch kind {
        case .undecided, .absent: .absent
        case .text(let text): .text(text)
        case .list(let boxes): .list(boxes.map(\.node))
        case .object(let members): .object(members.map { ($0.0, $0.1.node) })
        }
    }
}

/// The `Encoder` of one node.
private struct TreeEncoder: Encoder {
    let box: NodeBox
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Puts `value` into `box`: as text where a wildcard would take it, its members sorted by name
    /// for a dictionary, else by its own `encode(to:)`.
    static func encode(_ value: Any, into box: NodeBox, depth: Int, path: [any CodingKey] = []) throws {
        guard depth <= QueryItemEncoder.maximumDepth else {
            throw QueryItemEncoder.Failure(reason: "nested deeper than \(QueryItemEncoder.maximumDepth)")
        }
        switch WildcardConversion.value(of: value) {
        case .text(let text): box.kind = .text(text)
        case .absent: box.kind = .absent
        case .list(let texts): box.kind = .list(texts.map { text in NodeBox().with(.text(text)) })
        case .preEncodedPath:
            throw QueryItemEncoder.Failure(reason: "a PreEncodedPath can only fill a path wildcard")
        case nil:
            if let dictionary = value as? [String: Any] {
                var members: [(String, NodeBox)] = []
                for (name, member) in dictionary.sorted(by: { $0.key < $1.key }) {
                    let child = NodeBox()
                    do {
                        try encode(member, into: child, depth: depth + 1)
                    } catch let failure as QueryItemEncoder.Failure {
                        throw failure.at(name)
                    }
                    members.append((name, child))
                }
                box.kind = .object(members)
            } else if let encodable = value as? any Encodable {
                try encodable.encode(to: TreeEncoder(box: box, depth: depth, codingPath: path))
            } else {
                throw QueryItemEncoder.Failure(
                    reason: "a \(type(of: value)) has no query form: pass text, a number, a Bool, a date, a list "
                        + "of these, or an Encodable value")
            }
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = box.kind {} else { box.kind = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = box.kind {} else { box.kind = .list([]) }
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    /// A child node of this one, filled with `value`.
    func child(_ value: some Encodable, key: (any CodingKey)?) throws -> NodeBox {
        let child = NodeBox()
        let path = key.map { codingPath + [$0] } ?? codingPath
        do {
            try Self.encode(value, into: child, depth: depth + 1, path: path)
        } catch let failure as QueryItemEncoder.Failure {
            throw key.map { failure.at($0.stringValue) } ?? failure
        }
        return child
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: TreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func append(_ name: String, _ child: NodeBox) {
            guard case .object(var members) = encoder.box.kind else { return }
            members.append((name, child))
            encoder.box.kind = .object(members)
        }

        mutating func encodeNil(forKey key: Key) throws { append(key.stringValue, NodeBox().with(.absent)) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            append(key.stringValue, try encoder.child(value, key: key))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = NodeBox()
            append(key.stringValue, child)
            return TreeEncoder(box: child, depth: encoder.depth + 1, codingPath: codingPath + [key])
                .container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = NodeBox()
            append(key.stringValue, child)
            return TreeEncoder(box: child, depth: encoder.depth + 1, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = NodeBox()
            append(key.stringValue, child)
            return TreeEncoder(box: child, depth: encoder.depth + 1, codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: TreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int {
            if case .list(let elements) = encoder.box.kind { return elements.count }
            return 0
        }

        private func append(_ child: NodeBox) {
            guard case .list(var elements) = encoder.box.kind else { return }
            elements.append(child)
            encoder.box.kind = .list(elements)
        }

        mutating func encodeNil() throws { append(NodeBox().with(.absent)) }
        mutating func encode<T: Encodable>(_ value: T) throws { append(try encoder.child(value, key: nil)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = NodeBox()
            append(child)
            return TreeEncoder(box: child, depth: encoder.depth + 1, codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = NodeBox()
            append(child)
            return TreeEncoder(box: child, depth: encoder.depth + 1, codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { encoder }
    }

    private struct SingleContainer: SingleValueEncodingContainer {
        let encoder: TreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.box.kind = .absent }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try TreeEncoder.encode(value, into: encoder.box, depth: encoder.depth + 1, path: codingPath)
        }
    }
}

extension NodeBox {
    fileprivate func with(_ kind: Kind) -> NodeBox {
        self.kind = kind
        return self
    }
}
