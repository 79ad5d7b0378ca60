/// A JSON-like value: what a YAML document means under YAML 1.2's core schema, in the shape the
/// OpenAPI reader takes (JSON documents included).
///
/// A mapping becomes an ``object(_:)`` whose members keep the order of the text; its keys must
/// be scalars, and each becomes its text as written (`200:` gives the key `"200"`, `~:` the key
/// `"~"`), escapes applied. An integer beyond `Int64` becomes a ``double(_:)`` (the nearest one;
/// beyond `Double`'s range it is an error); `.inf`, `-.inf` and `.nan` are `Double`s too.
public enum YAMLValue: Sendable, Equatable {
    /// `null`, `~`, nothing.
    case null
    /// `true` or `false` in any of their three spellings.
    case bool(Bool)
    /// A decimal, `0o` octal or `0x` hexadecimal integer within `Int64`.
    case int(Int64)
    /// A float, or an integer beyond `Int64`.
    case double(Double)
    /// Any other scalar, and every quoted or block scalar.
    case string(String)
    /// A sequence's values, in order.
    case array([YAMLValue])
    /// An object's members in the order of the text; no two have the same key.
    case object([Member])

    /// A member of an ``object(_:)``.
    public struct Member: Sendable, Equatable {
        /// The key's text.
        public var key: String
        /// The value.
        public var value: YAMLValue

        /// Creates a member.
        public init(key: String, value: YAMLValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the member named `key` of an object; `nil` for other values.
    public subscript(key: String) -> YAMLValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

extension YAMLNode {
    /// The node's value under YAML 1.2's core schema (see ``YAMLValue``): plain scalars resolved
    /// by their text, other scalars strings, tags applied (`!!str 12` is a string, `!!float 1` a
    /// double; a tag outside the core schema leaves a scalar a string and a collection as it is).
    ///
    /// A ``YAMLError`` at the node concerned when a mapping key is a collection, when two keys
    /// have the same text (`1` and `"1"`), or when an integer is beyond `Double`'s range. The
    /// walk keeps its own stack (no recursion).
    public func value() throws(YAMLError) -> YAMLValue {
        /// A collection being converted: its node, the next entry, and the values so far.
        struct Frame {
            var node: YAMLNode
            var next = 0
            var elements: [YAMLValue] = []
            var members: [YAMLValue.Member] = []
            var keys: [String: YAMLNode] = [:]

            /// Checks that `key` can be a member's name: a scalar whose text no earlier key has.
            mutating func claim(_ key: YAMLNode) throws(YAMLError) {
                guard let text = key.scalarText else {
                    throw YAMLError(
                        "a mapping key that is \(key.kindName) has no JSON form (an object's keys are text)",
                        line: key.line, column: key.column)
                }
                if let first = keys[text] {
                    throw YAMLError(
                        "the key '\(text.prefix(60))' is the text of another key of this mapping, at line \(first.line), "
                            + "column \(first.column) (they differ in YAML, not as JSON keys)", line: key.line,
                        column: key.column)
                }
                keys[text] = key
            }
        }
        var stack: [Frame] = []
        var current = self
        while true {
            // Down: a scalar's value, or a collection's first entry.
            var result: YAMLValue
            switch current.content {
            case .scalar:
                result = try Self.scalarValue(current)
            case .sequence(let elements):
                guard let first = elements.first else {
                    result = .array([])
                    break
                }
                stack.append(Frame(node: current))
                current = first
                continue
            case .mapping(let pairs):
                guard let first = pairs.first else {
                    result = .object([])
                    break
                }
                var frame = Frame(node: current)
                try frame.claim(first.key)
                stack.append(frame)
                current = first.value
                continue
            }
            // Up: put the value in its collection, and go on with the next entry or finish it.
            while true {
                guard var frame = stack.popLast() else { return result }
                switch frame.node.content {
                case .sequence(let elements):
                    frame.elements.append(result)
                    frame.next += 1
                    if frame.next < elements.count {
                        current = elements[frame.next]
                        stack.append(frame)
                    } else {
                        result = .array(frame.elements)
                        continue
                    }
                case .mapping(let pairs):
                    if let key = pairs[frame.next].key.scalarText {
                        frame.members.append(YAMLValue.Member(key: key, value: result))
                    }
                    frame.next += 1
                    if frame.next < pairs.count {
                        try frame.claim(pairs[frame.next].key)
                        current = pairs[frame.next].value
                        stack.append(frame)
                    } else {
                        result = .object(frame.members)
                        continue
                    }
                case .scalar:
                    result = .null  // Not a collection: never on the stack.
                    continue
                }
                break
            }
        }
    }

    private static func scalarValue(_ node: YAMLNode) throws(YAMLError) -> YAMLValue {
        switch try YAMLCoreSchema.value(of: node) {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .float(let value): return .double(value)
        case .string(let value): return .string(value)
        case .bigInteger(let value):
            guard value.approximation.isFinite else {
                throw YAMLError(
                    "the integer '\(node.scalarText?.prefix(40) ?? "")' is beyond the range of a Double",
                    line: node.line, column: node.column)
            }
            return .double(value.approximation)
        }
    }
}
