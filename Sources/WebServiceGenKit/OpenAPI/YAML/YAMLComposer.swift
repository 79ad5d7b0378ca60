/// Builds the ``YAMLNode`` tree of the one document of a text from the parser's events (§3.1.2
/// composition), with explicit stacks rather than recursion: anchors and aliases resolved
/// (an alias of a node that contains it is an error, YAML values being trees here), duplicate
/// keys refused, the tags of the core schema checked against the text, and the bounds of
/// ``YAMLLimits`` kept.
struct YAMLComposer {
    /// An open collection.
    private struct Frame {
        var event: YAMLEvent
        var anchor: String?
        var tag: String?
        var isMapping: Bool
        var elements: [YAMLNode] = []
        var pairs: [YAMLNode.Pair] = []
        var pendingKey: YAMLNode?
        /// The identities of the keys so far, with where each is.
        var keys: [String: YAMLNode] = [:]
        /// The node count when the collection started.
        var startCount: Int
        /// The height of the highest entry so far (0 for scalars only).
        var childHeight = 0
        var id: Int
    }

    /// An anchor's node, or the id of the collection it is on while that is still open.
    private enum Anchored {
        case open(Int)
        case node(YAMLNode, size: Int, height: Int)
    }

    private var parser: YAMLParser
    private let limits: YAMLLimits
    private var anchors: [String: Anchored] = [:]
    /// Nodes made so far, aliases counted as the size of what they stand for.
    private var nodeCount = 0
    /// Nodes added by aliases.
    private var aliasExpansion = 0
    private var nextFrameID = 0

    init(text: [UInt32], limits: YAMLLimits) {
        parser = YAMLParser(text: text)
        self.limits = limits
    }

    /// The document's root node: an empty plain scalar (null) at 1:1 for a text with no document.
    mutating func composeDocument() throws(YAMLError) -> YAMLNode {
        _ = try parser.nextEvent()  // stream start
        let first = try parser.nextEvent()
        switch first.kind {
        case .streamEnd: return YAMLNode(.scalar("", style: .plain), line: 1, column: 1)
        case .documentStart: break
        default: throw YAMLError("internal error: expected a document", at: first.start)
        }
        let root = try composeNode()
        _ = try parser.nextEvent()  // document end
        let next = try parser.nextEvent()
        switch next.kind {
        case .streamEnd: return root
        case .documentStart:
            throw YAMLError(
                "a second document starts here: an OpenAPI document is one YAML document (no '---' after the first)",
                at: next.start)
        default: throw YAMLError("internal error: expected the end of the text", at: next.start)
        }
    }

    private mutating func composeNode() throws(YAMLError) -> YAMLNode {
        var stack: [Frame] = []
        while true {
            let event = try parser.nextEvent()
            var completed: YAMLNode
            var height = 0
            switch event.kind {
            case .alias(let name):
                switch anchors[name] {
                case nil:
                    throw YAMLError(
                        "the alias '*\(name)' names no anchor defined before it ('&\(name)')", at: event.start)
                case .open?:
                    throw YAMLError(
                        "the alias '*\(name)' is inside the node anchored '&\(name)': a recursive node has no "
                            + "JSON form", at: event.start)
                case .node(let node, let size, let nodeHeight)?:
                    let (expansion, overflow) = aliasExpansion.addingReportingOverflow(size)
                    guard !overflow, expansion <= limits.maximumAliasExpansion else {
                        throw YAMLError(
                            "the aliases expand to more than \(limits.maximumAliasExpansion) nodes (a \"billion "
                                + "laughs\" document?)", at: event.start)
                    }
                    guard stack.count + nodeHeight <= limits.maximumDepth else { throw tooDeep(event.start) }
                    aliasExpansion = expansion
                    count(size)
                    completed = node
                    height = nodeHeight
                }
            case .scalar(let anchor, let tag, let text, let style):
                completed = YAMLNode(
                    .scalar(text, style: style), tag: tag, anchor: anchor, line: event.start.line + 1,
                    column: event.start.column + 1)
                if tag != nil { _ = try YAMLCoreSchema.value(of: completed) }
                count(1)
                if let anchor { anchors[anchor] = .node(completed, size: 1, height: 0) }
            case .sequenceStart(let anchor, let tag), .mappingStart(let anchor, let tag):
                guard stack.count < limits.maximumDepth else { throw tooDeep(event.start) }
                var isMapping = false
                if case .mappingStart = event.kind { isMapping = true }
                nextFrameID += 1
                stack.append(
                    Frame(
                        event: event, anchor: anchor, tag: tag, isMapping: isMapping, startCount: nodeCount,
                        id: nextFrameID))
                count(1)
                if let anchor { anchors[anchor] = .open(nextFrameID) }
                continue
            case .sequenceEnd, .mappingEnd:
                guard let frame = stack.popLast() else {
                    throw YAMLError("internal error: the end of a collection that did not start", at: event.start)
                }
                let content: YAMLNode.Content = frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.elements)
                completed = YAMLNode(
                    content, tag: frame.tag, anchor: frame.anchor, line: frame.event.start.line + 1,
                    column: frame.event.start.column + 1)
                try YAMLCoreSchema.checkCollectionTag(of: completed)
                height = frame.childHeight + 1
                if let anchor = frame.anchor, case .open(frame.id)? = anchors[anchor] {
                    anchors[anchor] = .node(completed, size: nodeCount - frame.startCount, height: height)
                }
            case .streamStart, .streamEnd, .documentStart, .documentEnd:
                throw YAMLError("internal error: expected a node", at: event.start)
            }
            guard var top = stack.popLast() else { return completed }
            top.childHeight = max(top.childHeight, height)
            if !top.isMapping {
                top.elements.append(completed)
            } else if let key = top.pendingKey {
                top.pairs.append(YAMLNode.Pair(key: key, value: completed))
                top.pendingKey = nil
            } else {
                let identity = try Self.identity(of: completed)
                if let first = top.keys[identity] {
                    throw YAMLError(
                        "the key \(Self.describeKey(completed)) is already in this mapping, at line \(first.line), "
                            + "column \(first.column) (keys must be unique)", line: completed.line,
                        column: completed.column)
                }
                top.keys[identity] = completed
                top.pendingKey = completed
            }
            stack.append(top)
        }
    }

    /// Adds `size` nodes to the count (which stops at `Int.max`).
    private mutating func count(_ size: Int) {
        let (sum, overflow) = nodeCount.addingReportingOverflow(size)
        nodeCount = overflow ? .max : sum
    }

    private func tooDeep(_ mark: YAMLMark) -> YAMLError {
        YAMLError("the document nests deeper than \(limits.maximumDepth) sequences and mappings", at: mark)
    }

    private static func describeKey(_ key: YAMLNode) -> String {
        if let text = key.scalarText { return "'\(text.prefix(60))'" }
        return "(\(key.kindName))"
    }

    /// A text equal for two nodes exactly when YAML takes them as equal keys: the same tag and
    /// the same canonical value (`1`, `0x1` and `+1` are one int; `1`, `'1'` and `1.0` are three
    /// keys; mappings compare without regard to the order of their pairs).
    /// (Walked with its own stack: a key may nest as deep as the limit allows.)
    static func identity(of root: YAMLNode) throws(YAMLError) -> String {
        struct Frame {
            var node: YAMLNode
            var children: [YAMLNode]
            var next = 0
            var parts: [String] = []
        }
        var stack: [Frame] = []
        var current = root
        while true {
            var result: String
            switch current.content {
            case .scalar(let text, _):
                result = try scalarIdentity(current, text)
            case .sequence(let elements):
                guard let first = elements.first else {
                    result = collectionIdentity(current, parts: [])
                    break
                }
                stack.append(Frame(node: current, children: elements))
                current = first
                continue
            case .mapping(let pairs):
                guard let first = pairs.first else {
                    result = collectionIdentity(current, parts: [])
                    break
                }
                stack.append(Frame(node: current, children: pairs.flatMap { [$0.key, $0.value] }))
                current = first.key
                continue
            }
            while true {
                guard var frame = stack.popLast() else { return result }
                frame.parts.append("\(result.unicodeScalars.count):" + result)
                frame.next += 1
                if frame.next < frame.children.count {
                    current = frame.children[frame.next]
                    stack.append(frame)
                    break
                }
                result = collectionIdentity(frame.node, parts: frame.parts)
            }
        }
    }

    private static func scalarIdentity(_ node: YAMLNode, _ text: String) throws(YAMLError) -> String {
        switch try YAMLCoreSchema.value(of: node) {
        case .null: return "n"
        case .bool(let value): return value ? "b1" : "b0"
        case .int(let value): return "i\(value)"
        case .bigInteger(let value): return "I" + value.canonical
        case .float(let value): return value.isNaN ? "fnan" : "f\(value == 0 ? 0 : value)"
        case .string:
            let tag = node.resolvedTag
            return tag == YAMLTag.string ? "s" + text : "t\(tag.unicodeScalars.count):\(tag)" + text
        }
    }

    /// A collection's identity from its entries' (length-prefixed), a mapping's pairs in sorted order.
    private static func collectionIdentity(_ node: YAMLNode, parts: [String]) -> String {
        let tag = node.resolvedTag
        let header = "\(tag.unicodeScalars.count):\(tag)"
        guard case .mapping = node.content else { return "q" + header + "\(parts.count)[" + parts.joined() + "]" }
        var entries: [String] = []
        var index = 0
        while index + 1 < parts.count {
            entries.append(parts[index] + parts[index + 1])
            index += 2
        }
        return "m" + header + "\(entries.count){" + entries.sorted().joined() + "}"
    }
}
