/// How a scalar is written in the text (§7.3, §8.1).
public enum YAMLScalarStyle: Sendable, Hashable, CaseIterable {
    /// Unquoted: `value`, over several lines when they are indented.
    case plain
    /// `'value'`, with `''` for a quote.
    case singleQuoted
    /// `"value"`, with the escapes of §5.7.
    case doubleQuoted
    /// `|`: the lines as they are.
    case literal
    /// `>`: the lines folded into one, except more indented ones and empty ones.
    case folded
}

/// The tags of YAML's core schema (§10), in their full form, as ``YAMLNode/tag`` and
/// ``YAMLNode/resolvedTag`` give them.
public enum YAMLTag {
    /// `!!null`.
    public static let null = "tag:yaml.org,2002:null"
    /// `!!bool`.
    public static let bool = "tag:yaml.org,2002:bool"
    /// `!!int`.
    public static let int = "tag:yaml.org,2002:int"
    /// `!!float`.
    public static let float = "tag:yaml.org,2002:float"
    /// `!!str`.
    public static let string = "tag:yaml.org,2002:str"
    /// `!!seq`.
    public static let sequence = "tag:yaml.org,2002:seq"
    /// `!!map`.
    public static let mapping = "tag:yaml.org,2002:map"
    /// The non-specific tag `!`: a scalar written with it is a string, whatever its text.
    public static let nonSpecific = "!"
}

/// A node of a YAML document, with the place it starts: a scalar, a sequence, or a mapping whose
/// pairs keep the order of the text.
///
/// An alias (`*name`) is replaced by the node its anchor (`&name`) names, which keeps that node's
/// line and column (where its content is written); the storage is shared, so an alias costs no
/// copy. ``YAMLReader`` never gives a mapping two equal keys.
public struct YAMLNode: Sendable, Equatable {
    /// What a node holds.
    public enum Content: Sendable, Equatable {
        /// A scalar's text, escapes and line folding applied, and how it was written.
        case scalar(String, style: YAMLScalarStyle)
        /// A sequence's entries, in order.
        case sequence([YAMLNode])
        /// A mapping's pairs, in the order of the text.
        case mapping([Pair])
    }

    /// A key and its value in a mapping.
    public struct Pair: Sendable, Equatable {
        /// The key: a scalar mostly, any node after `?`.
        public var key: YAMLNode
        /// The value (an empty plain scalar, null, when the text gives none).
        public var value: YAMLNode

        /// Creates a pair.
        public init(key: YAMLNode, value: YAMLNode) {
            self.key = key
            self.value = value
        }
    }

    /// The content.
    public var content: Content
    /// The tag written on the node, in full form (`tag:yaml.org,2002:str` for `!!str`, a
    /// `%TAG` handle expanded, `!custom` as it is, `!` for the non-specific tag), or `nil` when
    /// none is written. ``resolvedTag`` gives the tag of the core schema for untagged nodes.
    public var tag: String?
    /// The anchor written on the node (`&name` gives `name`), if any.
    public var anchor: String?
    /// The line the node starts on (its anchor or tag, if it has one), from 1.
    public var line: Int
    /// The column it starts at, from 1, in Unicode scalars.
    public var column: Int

    /// Creates a node.
    public init(_ content: Content, tag: String? = nil, anchor: String? = nil, line: Int, column: Int) {
        self.content = content
        self.tag = tag
        self.anchor = anchor
        self.line = line
        self.column = column
    }

    /// The text of a scalar; `nil` for a collection.
    public var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The entries of a sequence; `nil` for other nodes.
    public var elements: [YAMLNode]? {
        if case .sequence(let elements) = content { return elements }
        return nil
    }

    /// The pairs of a mapping; `nil` for other nodes.
    public var pairs: [Pair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The value of the pair whose key is a scalar with the text `key`, in a mapping.
    public subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.scalarText == key }?.value
    }

    /// The node's tag under YAML 1.2's core schema (§10.3.2): the tag written on it (a
    /// non-specific `!` read as string, sequence or mapping), else for a plain scalar the type
    /// its text matches (null, bool, int, float, else string), for any other scalar string.
    public var resolvedTag: String {
        switch content {
        case .scalar(let text, let style):
            guard let tag, tag != YAMLTag.nonSpecific else {
                return tag == nil && style == .plain ? YAMLCoreSchema.implicitTag(of: text) : YAMLTag.string
            }
            return tag
        case .sequence: return tag.flatMap { $0 == YAMLTag.nonSpecific ? nil : $0 } ?? YAMLTag.sequence
        case .mapping: return tag.flatMap { $0 == YAMLTag.nonSpecific ? nil : $0 } ?? YAMLTag.mapping
        }
    }

    /// "a scalar", "a sequence" or "a mapping", for messages.
    var kindName: String {
        switch content {
        case .scalar: "a scalar"
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        }
    }
}
