/// Cuts a YAML text into tokens (§6–§9 of YAML 1.2.2), the way libyaml and its ports (PyYAML,
/// ruamel.yaml) do: block collections are told by indentation (the scanner adds the starts and
/// ends of block sequences and mappings), and a simple key (one not introduced by `?`) is only
/// known to be a key once its `:` is found, so the scanner keeps the place of a possible key on
/// each flow level and puts the key token in front of it when the `:` comes.
///
/// It reads the text once, front to back, and never recurses: linear time, whatever the input.
struct YAMLScanner {
    /// A place where a simple key may start, on one flow level.
    private struct SimpleKey {
        /// The number the key's first token will have among all tokens.
        var tokenNumber: Int
        /// Whether the key must be one: in block context at the indentation of its mapping.
        var required: Bool
        var mark: YAMLMark
        var flowLevel: Int
    }

    let text: [UInt32]
    private(set) var index = 0
    private(set) var line = 0
    private(set) var column = 0

    /// Whether the end-of-text token was made.
    private var done = false
    /// `[` or `{` for each open flow collection; empty in block context.
    private var flowContext: [UInt32] = []
    /// Tokens made and not taken yet, from `queueHead` on.
    private var queue: [YAMLToken] = []
    private var queueHead = 0
    /// How many tokens were taken.
    private var tokensTaken = 0
    /// The current block indentation (-1 outside any block collection) and the enclosing ones.
    private var indent = -1
    private var indents: [Int] = []
    /// Whether a simple key (or, in block context, a block collection) may start here.
    private var allowSimpleKey = true
    /// The possible simple keys, at most one per flow level, by increasing level (and so by
    /// increasing token number), from `simpleKeysHead` on.
    private var simpleKeys: [SimpleKey] = []
    private var simpleKeysHead = 0
    /// Whether the last token made was a `:` (a `:` right after one is not another in a flow mapping).
    private var lastTokenWasValue = false

    init(text: [UInt32]) {
        self.text = text
        queue.append(YAMLToken(kind: .streamStart, start: .start, end: .start))
    }

    var mark: YAMLMark { YAMLMark(index: index, line: line, column: column) }

    private var flowLevel: Int { flowContext.count }

    private var queuedCount: Int { queue.count - queueHead }

    // MARK: Public methods

    /// The next token, left in place.
    mutating func peekToken() throws(YAMLError) -> YAMLToken {
        while needMoreTokens() { try fetchMoreTokens() }
        guard queueHead < queue.count else {
            throw YAMLError("internal error: no token after the end of the text", at: mark)
        }
        return queue[queueHead]
    }

    /// The next token, taken.
    mutating func nextToken() throws(YAMLError) -> YAMLToken {
        let token = try peekToken()
        queueHead += 1
        tokensTaken += 1
        if queueHead >= 64 && queueHead * 2 >= queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return token
    }

    // MARK: Fetching

    private mutating func needMoreTokens() -> Bool {
        if done { return false }
        if queuedCount == 0 { return true }
        // The next token may be a simple key: its ':' must be seen first.
        return nextPossibleSimpleKeyNumber() == tokensTaken
    }

    private func nextPossibleSimpleKeyNumber() -> Int? {
        simpleKeysHead < simpleKeys.count ? simpleKeys[simpleKeysHead].tokenNumber : nil
    }

    private mutating func fetchMoreTokens() throws(YAMLError) {
        try scanToNextToken()
        try staleSimpleKeys()
        unwindIndent(column)
        let c = peek()
        typealias C = YAMLCharacter
        switch c {
        case C.end: return try fetchStreamEnd()
        case C.percent where column == 0: return try fetchDirective()
        case C.minus where isDocumentIndicator(C.minus): return try fetchDocumentIndicator(.documentStart)
        case C.dot where isDocumentIndicator(C.dot): return try fetchDocumentIndicator(.documentEnd)
        case C.openBracket: return try fetchFlowCollectionStart(.flowSequenceStart, c)
        case C.openBrace: return try fetchFlowCollectionStart(.flowMappingStart, c)
        case C.closeBracket: return try fetchFlowCollectionEnd(.flowSequenceEnd)
        case C.closeBrace: return try fetchFlowCollectionEnd(.flowMappingEnd)
        case C.comma: return try fetchFlowEntry()
        case C.minus where C.isBlankOrEnd(peek(1)): return try fetchBlockEntry()
        case C.question where flowLevel > 0 || C.isBlankOrEnd(peek(1)): return try fetchKey()
        case C.colon where isValueIndicator(): return try fetchValue()
        case C.asterisk: return try fetchAnchorOrAlias(alias: true)
        case C.ampersand: return try fetchAnchorOrAlias(alias: false)
        case C.exclamation: return try fetchTag()
        case C.pipe where flowLevel == 0: return try fetchBlockScalar(folded: false)
        case C.greaterThan where flowLevel == 0: return try fetchBlockScalar(folded: true)
        case C.singleQuote: return try fetchFlowScalar(double: false)
        case C.doubleQuote: return try fetchFlowScalar(double: true)
        default:
            if canStartPlainScalar() { return try fetchPlainScalar() }
            var message = "found \(C.describe(c)), which cannot start any token"
            switch c {
            case C.tab: message += " (tabs cannot indent)"
            case C.at, C.backtick: message += " ('@' and '`' are reserved: quote the scalar)"
            case C.percent: message += " (a directive must start a line)"
            default: break
            }
            throw YAMLError(message, at: mark)
        }
    }

    private mutating func append(_ kind: YAMLToken.Kind, start: YAMLMark, end: YAMLMark) {
        queue.append(YAMLToken(kind: kind, start: start, end: end))
        if case .value = kind { lastTokenWasValue = true } else { lastTokenWasValue = false }
    }

    /// Puts a token `position` places after the next one to be taken.
    private mutating func insert(_ kind: YAMLToken.Kind, at position: Int, mark: YAMLMark) throws(YAMLError) {
        guard position >= 0, position <= queuedCount else {
            throw YAMLError("internal error: a simple key's place was lost", at: mark)
        }
        queue.insert(YAMLToken(kind: kind, start: mark, end: mark), at: queueHead + position)
    }

    // MARK: Simple keys

    /// Drops the possible simple keys that can no longer be keys: a simple key is on one line
    /// and at most 1024 characters long (§7.4.2, §8.2.2). A required one is an error.
    private mutating func staleSimpleKeys() throws(YAMLError) {
        while simpleKeysHead < simpleKeys.count {
            let key = simpleKeys[simpleKeysHead]
            guard key.mark.line != line || index - key.mark.index > 1024 else { break }
            if key.required { throw missingColon(key) }
            simpleKeysHead += 1
        }
        if simpleKeysHead == simpleKeys.count {
            simpleKeys.removeAll(keepingCapacity: true)
            simpleKeysHead = 0
        }
    }

    private func missingColon(_ key: SimpleKey) -> YAMLError {
        YAMLError(
            "expected ':' after the key at line \(key.mark.line + 1), column \(key.mark.column + 1) "
                + "(an implicit key is on one line, at most 1024 characters), found \(YAMLCharacter.describe(peek()))",
            at: mark)
    }

    /// Remembers that a simple key may start at the next token.
    private mutating func saveSimpleKey() throws(YAMLError) {
        guard allowSimpleKey else { return }
        let required = flowLevel == 0 && indent == column
        try removeSimpleKey()
        simpleKeys.append(
            SimpleKey(tokenNumber: tokensTaken + queuedCount, required: required, mark: mark, flowLevel: flowLevel))
    }

    /// Forgets the possible simple key of the current flow level; an error when it was required.
    private mutating func removeSimpleKey() throws(YAMLError) {
        guard simpleKeysHead < simpleKeys.count, let key = simpleKeys.last, key.flowLevel == flowLevel else { return }
        if key.required { throw missingColon(key) }
        simpleKeys.removeLast()
    }

    // MARK: Indentation

    /// Closes the block collections indented more than `column` (block context only).
    private mutating func unwindIndent(_ column: Int) {
        guard flowLevel == 0 else { return }
        while indent > column {
            indent = indents.popLast() ?? -1
            append(.blockEnd, start: mark, end: mark)
        }
    }

    /// Opens a block collection at `column` when it is indented more than the current one.
    private mutating func addIndent(_ column: Int) -> Bool {
        guard indent < column else { return false }
        indents.append(indent)
        indent = column
        return true
    }

    // MARK: Fetchers

    private mutating func fetchStreamEnd() throws(YAMLError) {
        unwindIndent(-1)
        try removeSimpleKey()
        allowSimpleKey = false
        simpleKeys.removeAll()
        simpleKeysHead = 0
        append(.streamEnd, start: mark, end: mark)
        done = true
    }

    private mutating func fetchDirective() throws(YAMLError) {
        unwindIndent(-1)
        try removeSimpleKey()
        allowSimpleKey = false
        let token = try scanDirective()
        append(token.kind, start: token.start, end: token.end)
    }

    private func isDocumentIndicator(_ c: UInt32) -> Bool {
        column == 0 && peek(1) == c && peek(2) == c && YAMLCharacter.isBlankOrEnd(peek(3))
    }

    private mutating func fetchDocumentIndicator(_ kind: YAMLToken.Kind) throws(YAMLError) {
        unwindIndent(-1)
        try removeSimpleKey()
        allowSimpleKey = false
        let start = mark
        forward(3)
        append(kind, start: start, end: mark)
    }

    private mutating func fetchFlowCollectionStart(_ kind: YAMLToken.Kind, _ c: UInt32) throws(YAMLError) {
        try saveSimpleKey()
        flowContext.append(c)
        allowSimpleKey = true
        let start = mark
        forward()
        append(kind, start: start, end: mark)
    }

    private mutating func fetchFlowCollectionEnd(_ kind: YAMLToken.Kind) throws(YAMLError) {
        try removeSimpleKey()
        // An unbalanced bracket is left to the parser.
        _ = flowContext.popLast()
        allowSimpleKey = false
        let start = mark
        forward()
        append(kind, start: start, end: mark)
    }

    private mutating func fetchFlowEntry() throws(YAMLError) {
        allowSimpleKey = true
        try removeSimpleKey()
        let start = mark
        forward()
        append(.flowEntry, start: start, end: mark)
    }

    private mutating func fetchBlockEntry() throws(YAMLError) {
        if flowLevel == 0 {
            guard allowSimpleKey else {
                throw YAMLError(
                    "a block sequence entry '-' is not allowed here (it must start a line, or follow '-', '?' or ':' "
                        + "of a block collection)", at: mark)
            }
            if addIndent(column) { append(.blockSequenceStart, start: mark, end: mark) }
        }
        // '-' in a flow collection is left to the parser.
        allowSimpleKey = true
        try removeSimpleKey()
        let start = mark
        forward()
        append(.blockEntry, start: start, end: mark)
    }

    private mutating func fetchKey() throws(YAMLError) {
        if flowLevel == 0 {
            guard allowSimpleKey else { throw YAMLError("a mapping key '?' is not allowed here", at: mark) }
            if addIndent(column) { append(.blockMappingStart, start: mark, end: mark) }
        }
        allowSimpleKey = flowLevel == 0
        try removeSimpleKey()
        let start = mark
        forward()
        append(.key, start: start, end: mark)
    }

    private mutating func fetchValue() throws(YAMLError) {
        if simpleKeysHead < simpleKeys.count, let key = simpleKeys.last, key.flowLevel == flowLevel {
            // The possible simple key is one: put KEY (and maybe BLOCK-MAPPING-START) before it.
            simpleKeys.removeLast()
            let position = key.tokenNumber - tokensTaken
            try insert(.key, at: position, mark: key.mark)
            if flowLevel == 0 && addIndent(key.mark.column) {
                try insert(.blockMappingStart, at: position, mark: key.mark)
            }
            allowSimpleKey = false
        } else {
            // The value of a complex key (or of an empty key).
            if flowLevel == 0 {
                guard allowSimpleKey else {
                    throw YAMLError(
                        "a mapping value ':' is not allowed here (a block mapping cannot start on the line of "
                            + "another key, and an implicit key is on one line, at most 1024 characters)", at: mark)
                }
                if addIndent(column) { append(.blockMappingStart, start: mark, end: mark) }
            }
            allowSimpleKey = flowLevel == 0
            try removeSimpleKey()
        }
        let start = mark
        forward()
        append(.value, start: start, end: mark)
    }

    private mutating func fetchAnchorOrAlias(alias: Bool) throws(YAMLError) {
        try saveSimpleKey()
        allowSimpleKey = false
        let token = try scanAnchor(alias: alias)
        append(token.kind, start: token.start, end: token.end)
    }

    private mutating func fetchTag() throws(YAMLError) {
        try saveSimpleKey()
        allowSimpleKey = false
        let token = try scanTag()
        append(token.kind, start: token.start, end: token.end)
    }

    private mutating func fetchBlockScalar(folded: Bool) throws(YAMLError) {
        allowSimpleKey = true
        try removeSimpleKey()
        let token = try scanBlockScalar(folded: folded)
        append(token.kind, start: token.start, end: token.end)
    }

    private mutating func fetchFlowScalar(double: Bool) throws(YAMLError) {
        try saveSimpleKey()
        allowSimpleKey = false
        let token = try scanFlowScalar(double: double)
        append(token.kind, start: token.start, end: token.end)
    }

    private mutating func fetchPlainScalar() throws(YAMLError) {
        try saveSimpleKey()
        allowSimpleKey = false
        let token = try scanPlainScalar()
        append(token.kind, start: token.start, end: token.end)
    }

    // MARK: Checks

    /// Whether the `:` here is a value indicator (§7.4, §8.2.2).
    private func isValueIndicator() -> Bool {
        let next = peek(1)
        guard flowLevel > 0 else { return YAMLCharacter.isBlankOrEnd(next) }
        // In a flow sequence a ':' followed by a character is part of a plain scalar; in a flow
        // mapping only right after another ':' ("{a: :b}").
        if flowContext.last == YAMLCharacter.openBracket || lastTokenWasValue {
            return YAMLCharacter.isBlankOrEnd(next)
        }
        return true
    }

    /// Whether a plain scalar may start here (§7.3.3 ns-plain-first).
    private func canStartPlainScalar() -> Bool {
        typealias C = YAMLCharacter
        let c = peek()
        switch c {
        case C.end, C.space, C.tab, C.lineFeed, C.carriageReturn, C.minus, C.question, C.colon, C.comma,
            C.openBracket, C.closeBracket, C.openBrace, C.closeBrace, C.hash, C.ampersand, C.asterisk,
            C.exclamation, C.pipe, C.greaterThan, C.singleQuote, C.doubleQuote, C.percent, C.at, C.backtick:
            break
        default:
            return true
        }
        let next = peek(1)
        if c == C.minus && !C.isBlankOrEnd(next) { return true }
        if c == C.colon && flowLevel > 0 && !C.isBlankOrEnd(next) { return true }
        return !C.isBlankOrEnd(next) && flowLevel == 0 && (c == C.question || c == C.colon)
    }

    // MARK: Reading

    /// The character `offset` places ahead, ``YAMLCharacter/end`` past the end.
    func peek(_ offset: Int = 0) -> UInt32 {
        let position = index + offset
        return position < text.count && position >= 0 ? text[position] : YAMLCharacter.end
    }

    /// Moves `count` characters ahead, counting lines and columns.
    mutating func forward(_ count: Int = 1) {
        for _ in 0..<count {
            guard index < text.count else { return }
            let c = text[index]
            index += 1
            if c == YAMLCharacter.lineFeed || (c == YAMLCharacter.carriageReturn && peek() != YAMLCharacter.lineFeed) {
                line += 1
                column = 0
            } else {
                column += 1
            }
        }
    }

    /// The text of `count` characters from here.
    func prefix(_ count: Int) -> String {
        let end = min(text.count, index + max(0, count))
        var result = String.UnicodeScalarView()
        for c in text[index..<max(index, end)] {
            if let scalar = Unicode.Scalar(c) { result.append(scalar) }
        }
        return String(result)
    }

    /// Moves past a line break (CR LF, LF or CR) and tells whether there was one.
    @discardableResult
    mutating func scanLineBreak() -> Bool {
        let c = peek()
        guard YAMLCharacter.isBreak(c) else { return false }
        if c == YAMLCharacter.carriageReturn && peek(1) == YAMLCharacter.lineFeed { forward(2) } else { forward() }
        return true
    }

    /// Skips white space, comments and line breaks up to the next token. A line break in block
    /// context allows a simple key. Tabs separate tokens (§6.2) but never indent (§6.1): a tab in
    /// a line's leading white space, before a token in block context, is an error.
    private mutating func scanToNextToken() throws(YAMLError) {
        typealias C = YAMLCharacter
        while true {
            let runStart = index
            var firstTab: YAMLMark?
            while peek() == C.space || peek() == C.tab {
                if peek() == C.tab && firstTab == nil { firstTab = mark }
                forward()
            }
            if peek() == C.hash {
                while !C.isBreakOrEnd(peek()) { forward() }
            }
            if scanLineBreak() {
                if flowLevel == 0 { allowSimpleKey = true }
                continue
            }
            if let firstTab, flowLevel == 0, peek() != C.end, startsLine(runStart) {
                throw YAMLError(
                    "a tab in the indentation: YAML indents with spaces only (a tab may only separate tokens "
                        + "on a line)", at: firstTab)
            }
            return
        }
    }

    /// Whether only spaces and tabs precede `position` on its line.
    private func startsLine(_ position: Int) -> Bool {
        var before = position - 1
        while before >= 0, before < text.count, text[before] == YAMLCharacter.space || text[before] == YAMLCharacter.tab
        {
            before -= 1
        }
        return before < 0 || before >= text.count || YAMLCharacter.isBreak(text[before])
    }

    /// Whether a document marker (`---` or `...` followed by white space) starts here, at the start of a line.
    func atDocumentMarker() -> Bool {
        column == 0
            && ((peek() == YAMLCharacter.minus && peek(1) == YAMLCharacter.minus && peek(2) == YAMLCharacter.minus)
                || (peek() == YAMLCharacter.dot && peek(1) == YAMLCharacter.dot && peek(2) == YAMLCharacter.dot))
            && YAMLCharacter.isBlankOrEnd(peek(3))
    }

    /// The current indentation, for the scalar scanners.
    var currentIndent: Int { indent }

    /// Whether the scanner is inside a flow collection, for the scalar scanners.
    var inFlowContext: Bool { flowLevel > 0 }

    /// Sets whether a simple key may start next (a plain scalar that ends at a line break allows one).
    mutating func setAllowSimpleKey(_ allowed: Bool) { allowSimpleKey = allowed }
}
