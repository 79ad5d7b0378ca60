/// What ``YAMLParser`` reads from the tokens: the serialization events of §3.1.2.
struct YAMLEvent: Sendable {
    enum Kind: Sendable {
        case streamStart
        case streamEnd
        case documentStart(explicit: Bool)
        case documentEnd
        case alias(String)
        case scalar(anchor: String?, tag: String?, text: String, style: YAMLScalarStyle)
        case sequenceStart(anchor: String?, tag: String?)
        case sequenceEnd
        case mappingStart(anchor: String?, tag: String?)
        case mappingEnd
    }

    var kind: Kind
    var start: YAMLMark
}

/// Turns tokens into events with the grammar of §8–§9, as a state machine with an explicit stack
/// (the parser of libyaml and its ports): it never recurses, however deep the document nests.
struct YAMLParser {
    private enum State {
        case streamStart
        case implicitDocumentStart
        case documentStart
        case documentContent
        case documentEnd
        case blockNode
        case blockNodeOrIndentlessSequence
        case flowNode
        case blockSequenceFirstEntry
        case blockSequenceEntry
        case indentlessSequenceEntry
        case blockMappingFirstKey
        case blockMappingKey
        case blockMappingValue
        case flowSequenceFirstEntry
        case flowSequenceEntry
        case flowSequenceEntryMappingKey
        case flowSequenceEntryMappingValue
        case flowSequenceEntryMappingEnd
        case flowMappingFirstKey
        case flowMappingKey
        case flowMappingValue
        case flowMappingEmptyValue
        case end
    }

    private static let defaultTagHandles = ["!": "!", "!!": "tag:yaml.org,2002:"]

    private var scanner: YAMLScanner
    private var state = State.streamStart
    private var states: [State] = []
    /// Where each open collection started, for messages.
    private var marks: [YAMLMark] = []
    private var tagHandles = defaultTagHandles

    init(text: [UInt32]) {
        scanner = YAMLScanner(text: text)
    }

    /// The next event; ``YAMLEvent/Kind/streamEnd`` at the end (and again after it).
    mutating func nextEvent() throws(YAMLError) -> YAMLEvent {
        switch state {
        case .streamStart:
            let token = try scanner.nextToken()
            state = .implicitDocumentStart
            return YAMLEvent(kind: .streamStart, start: token.start)
        case .implicitDocumentStart: return try parseDocumentStart(implicitAllowed: true)
        case .documentStart: return try parseDocumentStart(implicitAllowed: false)
        case .documentContent:
            switch try scanner.peekToken().kind {
            case .versionDirective, .tagDirective, .reservedDirective, .documentStart, .documentEnd, .streamEnd:
                state = popState()
                return emptyScalar(at: try scanner.peekToken().start)
            default:
                return try parseNode(block: true, indentlessSequence: false)
            }
        case .documentEnd: return try parseDocumentEnd()
        case .blockNode: return try parseNode(block: true, indentlessSequence: false)
        case .blockNodeOrIndentlessSequence: return try parseNode(block: true, indentlessSequence: true)
        case .flowNode: return try parseNode(block: false, indentlessSequence: false)
        case .blockSequenceFirstEntry:
            marks.append(try scanner.nextToken().start)
            return try parseBlockSequenceEntry()
        case .blockSequenceEntry: return try parseBlockSequenceEntry()
        case .indentlessSequenceEntry: return try parseIndentlessSequenceEntry()
        case .blockMappingFirstKey:
            marks.append(try scanner.nextToken().start)
            return try parseBlockMappingKey()
        case .blockMappingKey: return try parseBlockMappingKey()
        case .blockMappingValue: return try parseBlockMappingValue()
        case .flowSequenceFirstEntry:
            marks.append(try scanner.nextToken().start)
            return try parseFlowSequenceEntry(first: true)
        case .flowSequenceEntry: return try parseFlowSequenceEntry(first: false)
        case .flowSequenceEntryMappingKey: return try parseFlowSequenceEntryMappingKey()
        case .flowSequenceEntryMappingValue: return try parseFlowSequenceEntryMappingValue()
        case .flowSequenceEntryMappingEnd:
            state = .flowSequenceEntry
            return YAMLEvent(kind: .mappingEnd, start: try scanner.peekToken().start)
        case .flowMappingFirstKey:
            marks.append(try scanner.nextToken().start)
            return try parseFlowMappingKey(first: true)
        case .flowMappingKey: return try parseFlowMappingKey(first: false)
        case .flowMappingValue: return try parseFlowMappingValue()
        case .flowMappingEmptyValue:
            state = .flowMappingKey
            return emptyScalar(at: try scanner.peekToken().start)
        case .end:
            return YAMLEvent(kind: .streamEnd, start: scanner.mark)
        }
    }

    private mutating func popState() -> State { states.popLast() ?? .end }

    private func emptyScalar(at mark: YAMLMark) -> YAMLEvent {
        YAMLEvent(kind: .scalar(anchor: nil, tag: nil, text: "", style: .plain), start: mark)
    }

    private func unexpected(_ token: YAMLToken, expected: String, in context: String? = nil) -> YAMLError {
        let within = context.map { " \($0)" } ?? ""
        return YAMLError("expected \(expected)\(within), found \(token.name)", at: token.start)
    }

    // MARK: Documents

    private mutating func parseDocumentStart(implicitAllowed: Bool) throws(YAMLError) -> YAMLEvent {
        var token = try scanner.peekToken()
        if implicitAllowed {
            switch token.kind {
            case .versionDirective, .tagDirective, .reservedDirective, .documentStart, .streamEnd: break
            default:
                // A bare document.
                tagHandles = Self.defaultTagHandles
                states.append(.documentEnd)
                state = .blockNode
                return YAMLEvent(kind: .documentStart(explicit: false), start: token.start)
            }
        }
        while case .documentEnd = token.kind {
            _ = try scanner.nextToken()
            token = try scanner.peekToken()
        }
        if case .streamEnd = token.kind {
            _ = try scanner.nextToken()
            state = .end
            return YAMLEvent(kind: .streamEnd, start: token.start)
        }
        let sawDirectives = try processDirectives()
        token = try scanner.peekToken()
        guard case .documentStart = token.kind else {
            if sawDirectives { throw unexpected(token, expected: "'---' to start the document after its directives") }
            throw unexpected(
                token,
                expected: "the end of the text after the document's root node (or '---' to start another document)")
        }
        _ = try scanner.nextToken()
        states.append(.documentEnd)
        state = .documentContent
        return YAMLEvent(kind: .documentStart(explicit: true), start: token.start)
    }

    private mutating func parseDocumentEnd() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.peekToken()
        var explicit = false
        if case .documentEnd = token.kind {
            _ = try scanner.nextToken()
            let next = try scanner.peekToken()
            if case .streamEnd = next.kind {
            } else if next.start.line == token.end.line {
                throw YAMLError("expected a comment or a line break after '...', found \(next.name)", at: next.start)
            }
            explicit = true
        }
        state = explicit ? .implicitDocumentStart : .documentStart
        return YAMLEvent(kind: .documentEnd, start: token.start)
    }

    /// Reads `%YAML` and `%TAG` directives into the document's tag handles; tells whether there were any.
    private mutating func processDirectives() throws(YAMLError) -> Bool {
        var sawAny = false
        var sawVersion = false
        var handles: [String: String] = [:]
        while true {
            let token = try scanner.peekToken()
            switch token.kind {
            case .versionDirective(let major, _):
                guard !sawVersion else { throw YAMLError("a second %YAML directive", at: token.start) }
                guard major == 1 else {
                    throw YAMLError(
                        "the document is YAML \(major).x: only YAML 1.x is read (as YAML 1.2)", at: token.start)
                }
                sawVersion = true
            case .tagDirective(let handle, let prefix):
                guard handles[handle] == nil else {
                    throw YAMLError("a second %TAG directive for the handle '\(handle)'", at: token.start)
                }
                handles[handle] = prefix
            case .reservedDirective:
                break  // Ignored, as §6.8 says.
            default:
                tagHandles = Self.defaultTagHandles.merging(handles) { _, directive in directive }
                return sawAny
            }
            sawAny = true
            _ = try scanner.nextToken()
        }
    }

    // MARK: Nodes

    private mutating func parseNode(block: Bool, indentlessSequence: Bool) throws(YAMLError) -> YAMLEvent {
        var token = try scanner.peekToken()
        if case .alias(let name) = token.kind {
            _ = try scanner.nextToken()
            state = popState()
            return YAMLEvent(kind: .alias(name), start: token.start)
        }
        var anchor: String?
        var tag: String?
        var start: YAMLMark?
        for _ in 0..<2 {
            token = try scanner.peekToken()
            if case .anchor(let name) = token.kind, anchor == nil {
                _ = try scanner.nextToken()
                anchor = name
                start = start ?? token.start
            } else if case .tag(let handle, let suffix) = token.kind, tag == nil {
                _ = try scanner.nextToken()
                start = start ?? token.start
                if let handle {
                    guard let prefix = tagHandles[handle] else {
                        throw YAMLError(
                            "the tag handle '\(handle)' is not defined (by a %TAG directive)", at: token.start)
                    }
                    tag = prefix + suffix
                } else {
                    tag = suffix
                }
            }
        }
        token = try scanner.peekToken()
        let nodeStart = start ?? token.start
        switch token.kind {
        case .blockEntry where indentlessSequence:
            state = .indentlessSequenceEntry
            return YAMLEvent(kind: .sequenceStart(anchor: anchor, tag: tag), start: nodeStart)
        case .scalar(let text, let style):
            _ = try scanner.nextToken()
            state = popState()
            return YAMLEvent(kind: .scalar(anchor: anchor, tag: tag, text: text, style: style), start: nodeStart)
        case .flowSequenceStart:
            state = .flowSequenceFirstEntry
            return YAMLEvent(kind: .sequenceStart(anchor: anchor, tag: tag), start: nodeStart)
        case .flowMappingStart:
            state = .flowMappingFirstKey
            return YAMLEvent(kind: .mappingStart(anchor: anchor, tag: tag), start: nodeStart)
        case .blockSequenceStart where block:
            state = .blockSequenceFirstEntry
            return YAMLEvent(kind: .sequenceStart(anchor: anchor, tag: tag), start: nodeStart)
        case .blockMappingStart where block:
            state = .blockMappingFirstKey
            return YAMLEvent(kind: .mappingStart(anchor: anchor, tag: tag), start: nodeStart)
        default:
            if anchor != nil || tag != nil {
                // Properties of an empty node.
                state = popState()
                return YAMLEvent(kind: .scalar(anchor: anchor, tag: tag, text: "", style: .plain), start: nodeStart)
            }
            throw unexpected(
                token, expected: "a node (a scalar, a collection or an alias)",
                in: block ? nil : "in the flow collection")
        }
    }

    // MARK: Block collections

    private mutating func parseBlockSequenceEntry() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.peekToken()
        if case .blockEntry = token.kind {
            _ = try scanner.nextToken()
            switch try scanner.peekToken().kind {
            case .blockEntry, .blockEnd:
                state = .blockSequenceEntry
                return emptyScalar(at: token.end)
            default:
                states.append(.blockSequenceEntry)
                return try parseNode(block: true, indentlessSequence: false)
            }
        }
        guard case .blockEnd = token.kind else {
            throw unexpected(token, expected: "'-' or the end of the block sequence", in: "started at \(startedAt())")
        }
        _ = try scanner.nextToken()
        state = popState()
        _ = marks.popLast()
        return YAMLEvent(kind: .sequenceEnd, start: token.start)
    }

    private func startedAt() -> String {
        guard let mark = marks.last else { return "the start" }
        return "line \(mark.line + 1), column \(mark.column + 1)"
    }

    private mutating func parseIndentlessSequenceEntry() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.peekToken()
        if case .blockEntry = token.kind {
            _ = try scanner.nextToken()
            switch try scanner.peekToken().kind {
            case .blockEntry, .key, .value, .blockEnd:
                state = .indentlessSequenceEntry
                return emptyScalar(at: token.end)
            default:
                states.append(.indentlessSequenceEntry)
                return try parseNode(block: true, indentlessSequence: false)
            }
        }
        state = popState()
        return YAMLEvent(kind: .sequenceEnd, start: token.start)
    }

    private mutating func parseBlockMappingKey() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.peekToken()
        switch token.kind {
        case .key:
            _ = try scanner.nextToken()
            switch try scanner.peekToken().kind {
            case .key, .value, .blockEnd:
                state = .blockMappingValue
                return emptyScalar(at: token.end)
            default:
                states.append(.blockMappingValue)
                return try parseNode(block: true, indentlessSequence: true)
            }
        case .value:
            // A value with an empty key (YAML 1.2).
            state = .blockMappingValue
            return emptyScalar(at: token.start)
        case .blockEnd:
            _ = try scanner.nextToken()
            state = popState()
            _ = marks.popLast()
            return YAMLEvent(kind: .mappingEnd, start: token.start)
        default:
            throw unexpected(token, expected: "a key or the end of the block mapping", in: "started at \(startedAt())")
        }
    }

    private mutating func parseBlockMappingValue() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.peekToken()
        guard case .value = token.kind else {
            state = .blockMappingKey
            return emptyScalar(at: token.start)
        }
        _ = try scanner.nextToken()
        switch try scanner.peekToken().kind {
        case .key, .value, .blockEnd:
            state = .blockMappingKey
            return emptyScalar(at: token.end)
        default:
            states.append(.blockMappingKey)
            return try parseNode(block: true, indentlessSequence: true)
        }
    }

    // MARK: Flow collections

    private mutating func parseFlowSequenceEntry(first: Bool) throws(YAMLError) -> YAMLEvent {
        var token = try scanner.peekToken()
        if !isKind(token, .flowSequenceEnd) {
            if !first {
                guard case .flowEntry = token.kind else {
                    throw unexpected(
                        token, expected: "',' or ']'", in: "in the flow sequence started at \(startedAt())")
                }
                _ = try scanner.nextToken()
                token = try scanner.peekToken()
            }
            if case .key = token.kind {
                // A single pair `? key : value` or `key: value` as an entry.
                state = .flowSequenceEntryMappingKey
                return YAMLEvent(kind: .mappingStart(anchor: nil, tag: nil), start: token.start)
            }
            if !isKind(token, .flowSequenceEnd) {
                states.append(.flowSequenceEntry)
                return try parseNode(block: false, indentlessSequence: false)
            }
        }
        _ = try scanner.nextToken()
        state = popState()
        _ = marks.popLast()
        return YAMLEvent(kind: .sequenceEnd, start: token.start)
    }

    private mutating func parseFlowSequenceEntryMappingKey() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.nextToken()  // KEY
        switch try scanner.peekToken().kind {
        case .value, .flowEntry, .flowSequenceEnd:
            state = .flowSequenceEntryMappingValue
            return emptyScalar(at: token.end)
        default:
            states.append(.flowSequenceEntryMappingValue)
            return try parseNode(block: false, indentlessSequence: false)
        }
    }

    private mutating func parseFlowSequenceEntryMappingValue() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.peekToken()
        guard case .value = token.kind else {
            state = .flowSequenceEntryMappingEnd
            return emptyScalar(at: token.start)
        }
        _ = try scanner.nextToken()
        switch try scanner.peekToken().kind {
        case .flowEntry, .flowSequenceEnd:
            state = .flowSequenceEntryMappingEnd
            return emptyScalar(at: token.end)
        default:
            states.append(.flowSequenceEntryMappingEnd)
            return try parseNode(block: false, indentlessSequence: false)
        }
    }

    private mutating func parseFlowMappingKey(first: Bool) throws(YAMLError) -> YAMLEvent {
        var token = try scanner.peekToken()
        if !isKind(token, .flowMappingEnd) {
            if !first {
                guard case .flowEntry = token.kind else {
                    throw unexpected(token, expected: "',' or '}'", in: "in the flow mapping started at \(startedAt())")
                }
                _ = try scanner.nextToken()
                token = try scanner.peekToken()
            }
            switch token.kind {
            case .key:
                _ = try scanner.nextToken()
                switch try scanner.peekToken().kind {
                case .value, .flowEntry, .flowMappingEnd:
                    state = .flowMappingValue
                    return emptyScalar(at: token.end)
                default:
                    states.append(.flowMappingValue)
                    return try parseNode(block: false, indentlessSequence: false)
                }
            case .value:
                state = .flowMappingValue
                return emptyScalar(at: token.end)
            case .flowMappingEnd:
                break
            default:
                states.append(.flowMappingEmptyValue)
                return try parseNode(block: false, indentlessSequence: false)
            }
        }
        _ = try scanner.nextToken()
        state = popState()
        _ = marks.popLast()
        return YAMLEvent(kind: .mappingEnd, start: token.start)
    }

    private mutating func parseFlowMappingValue() throws(YAMLError) -> YAMLEvent {
        let token = try scanner.peekToken()
        guard case .value = token.kind else {
            state = .flowMappingKey
            return emptyScalar(at: token.start)
        }
        _ = try scanner.nextToken()
        switch try scanner.peekToken().kind {
        case .flowEntry, .flowMappingEnd:
            state = .flowMappingKey
            return emptyScalar(at: token.end)
        default:
            states.append(.flowMappingKey)
            return try parseNode(block: false, indentlessSequence: false)
        }
    }

    private func isKind(_ token: YAMLToken, _ kind: YAMLToken.Kind) -> Bool {
        switch (token.kind, kind) {
        case (.flowSequenceEnd, .flowSequenceEnd), (.flowMappingEnd, .flowMappingEnd): true
        default: false
        }
    }
}
