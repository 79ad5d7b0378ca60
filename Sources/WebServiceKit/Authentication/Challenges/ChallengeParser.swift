/// Reads `WWW-Authenticate` / `Proxy-Authenticate` field values (RFC 9110 §11.6.1) into
/// ``AuthenticationChallenge`` values.
///
/// The parser works on the UTF-8 bytes of one field value at a time, in a single forward pass
/// (a token is looked at at most twice), so its work is linear in the input, which is bounded by
/// ``AuthenticationChallenge/maximumInputLength``. Grammar:
///
/// ```
/// #challenge     = [ challenge ] *( OWS "," OWS [ challenge ] )           ; §5.6.1, empty elements
/// challenge      = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
/// auth-param     = token BWS "=" BWS ( token / quoted-string )
/// token68        = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
/// quoted-string  = DQUOTE *( qdtext / quoted-pair ) DQUOTE                  ; §5.6.4
/// qdtext         = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
/// quoted-pair    = "\" ( HTAB / SP / VCHAR / obs-text )
/// ```
///
/// Whitespace after the scheme may be spaces or tabs.
struct ChallengeParser {
    private typealias Reason = ChallengeParseError.Reason

    private let bytes: [UInt8]
    private let fieldIndex: Int
    private var index = 0

    private init(bytes: [UInt8], fieldIndex: Int) {
        self.bytes = bytes
        self.fieldIndex = fieldIndex
    }

    /// Parses every field value, in order. See ``AuthenticationChallenge/parse(_:)-([String])``.
    static func parse(_ headerValues: [String]) throws(ChallengeParseError) -> [AuthenticationChallenge] {
        let limit = AuthenticationChallenge.maximumInputLength
        var total = 0
        for (fieldIndex, value) in headerValues.enumerated() {
            let before = total + (fieldIndex > 0 ? 2 : 0)
            total = before + value.utf8.count
            if total > limit {
                throw ChallengeParseError(
                    reason: .inputTooLong(limit: limit), fieldIndex: fieldIndex, byteOffset: max(0, limit - before))
            }
        }
        var challenges: [AuthenticationChallenge] = []
        for (fieldIndex, value) in headerValues.enumerated() {
            var parser = ChallengeParser(bytes: Array(value.utf8), fieldIndex: fieldIndex)
            try parser.parseField(into: &challenges)
        }
        if challenges.isEmpty {
            throw ChallengeParseError(reason: .noChallenge, fieldIndex: 0, byteOffset: 0)
        }
        return challenges
    }

    // MARK: - Challenges

    /// The challenge being read: its scheme, and its parameters or token68 so far.
    private struct PendingChallenge {
        var scheme: String
        var parameters: [String: String] = [:]
        var token68: String?

        var challenge: AuthenticationChallenge {
            AuthenticationChallenge(uncheckedScheme: scheme, parameters: parameters, token68: token68)
        }
    }

    /// Reads the list of challenges in this field value and appends them to `challenges`.
    private mutating func parseField(into challenges: inout [AuthenticationChallenge]) throws(ChallengeParseError) {
        var current: PendingChallenge?
        while true {
            skipListSeparators()
            guard index < bytes.count else { break }
            // An element starts with a token: the name of a parameter of the current challenge
            // when `=` follows, otherwise the scheme of a new challenge.
            let start = index
            guard Self.isTokenCharacter(bytes[start]) else {
                throw unexpectedCharacter(at: start) { .expectedToken(found: $0) }
            }
            let tokenEnd = tokenEnd(from: start)
            let afterWhitespace = whitespaceEnd(from: tokenEnd)
            if afterWhitespace < bytes.count && bytes[afterWhitespace] == Self.equals {
                guard var challenge = current else {
                    throw error(.missingScheme(parameter: lowercasedString(start..<tokenEnd)), at: start)
                }
                guard challenge.token68 == nil else {
                    throw error(.parameterAfterToken68(parameter: lowercasedString(start..<tokenEnd)), at: start)
                }
                current = nil  // keep the dictionary uniquely referenced while it grows
                try parseParameter(into: &challenge)
                current = challenge
                try expectCommaOrEnd()
                continue
            }

            if let finished = current { challenges.append(finished.challenge) }
            var challenge = PendingChallenge(scheme: string(start..<tokenEnd))
            index = afterWhitespace
            if index == bytes.count || bytes[index] == Self.comma {
                current = challenge  // a scheme alone (`Negotiate`)
                continue
            }
            guard afterWhitespace > tokenEnd else {
                throw unexpectedCharacter(at: index) { .expectedComma(found: $0) }
            }
            if let end = token68End(from: index) {
                challenge.token68 = string(index..<end)
                index = end
            } else {
                try parseParameter(into: &challenge)
            }
            current = challenge
            try expectCommaOrEnd()
        }
        if let finished = current { challenges.append(finished.challenge) }
    }

    /// Skips whitespace and commas: the separators of a list and its empty elements (§5.6.1).
    private mutating func skipListSeparators() {
        while index < bytes.count,
            bytes[index] == Self.comma || bytes[index] == Self.space || bytes[index] == Self.tab
        {
            index += 1
        }
    }

    /// After an element: optional whitespace, then a comma (left for ``skipListSeparators()``) or
    /// the end of the value.
    private mutating func expectCommaOrEnd() throws(ChallengeParseError) {
        index = whitespaceEnd(from: index)
        guard index < bytes.count, bytes[index] != Self.comma else { return }
        throw unexpectedCharacter(at: index) { .expectedComma(found: $0) }
    }

    /// The end of the token68 that starts at `start` when it is the whole element (followed by
    /// optional whitespace, then a comma or the end), otherwise `nil`.
    ///
    /// A run that ends in `=` could also be a parameter name and its `=`: it is taken as a token68
    /// only when its length is a multiple of four, as padded base64 and base32 are.
    private func token68End(from start: Int) -> Int? {
        var end = start
        while end < bytes.count && Self.isToken68Character(bytes[end]) { end += 1 }
        guard end > start else { return nil }
        let paddingStart = end
        while end < bytes.count && bytes[end] == Self.equals { end += 1 }
        if end > paddingStart && (end - start) % 4 != 0 { return nil }
        let next = whitespaceEnd(from: end)
        return next == bytes.count || bytes[next] == Self.comma ? end : nil
    }

    // MARK: - Parameters

    /// Reads `token BWS "=" BWS ( token / quoted-string )` at the current position and adds it to
    /// `challenge`.
    private mutating func parseParameter(into challenge: inout PendingChallenge) throws(ChallengeParseError) {
        let nameStart = index
        guard index < bytes.count, Self.isTokenCharacter(bytes[index]) else {
            throw unexpectedCharacter(at: index) { .expectedToken(found: $0) }
        }
        index = tokenEnd(from: index)
        let name = lowercasedString(nameStart..<index)
        index = whitespaceEnd(from: index)
        guard index < bytes.count, bytes[index] == Self.equals else {
            throw unexpectedCharacter(at: index) { _ in .missingEquals(parameter: name) }
        }
        index = whitespaceEnd(from: index + 1)
        let value: String
        if index < bytes.count && bytes[index] == Self.quote {
            value = try parseQuotedString()
        } else if index < bytes.count && Self.isTokenCharacter(bytes[index]) {
            let valueStart = index
            index = tokenEnd(from: index)
            value = string(valueStart..<index)
        } else {
            throw unexpectedCharacter(at: index) { _ in .missingValue(parameter: name) }
        }
        guard challenge.parameters[name] == nil else {
            throw error(.duplicateParameter(name), at: nameStart)
        }
        challenge.parameters[name] = value
    }

    /// Reads the quoted string that starts at the current position and returns its content
    /// without the quotes and with each quoted-pair replaced by the character it escapes.
    private mutating func parseQuotedString() throws(ChallengeParseError) -> String {
        let opening = index
        index += 1
        var segmentStart = index
        var unescaped: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case Self.quote:
                let value: String
                if segmentStart == opening + 1 {
                    value = string(segmentStart..<index)  // nothing was escaped
                } else {
                    unescaped.append(contentsOf: bytes[segmentStart..<index])
                    value = String(decoding: unescaped, as: UTF8.self)
                }
                index += 1
                return value
            case Self.backslash:
                guard index + 1 < bytes.count else { throw error(.unterminatedQuotedString, at: opening) }
                let escaped = bytes[index + 1]
                guard !Self.isControlCharacter(escaped) else {
                    throw unexpectedCharacter(at: index + 1) { .invalidCharacter($0) }
                }
                unescaped.append(contentsOf: bytes[segmentStart..<index])
                unescaped.append(escaped)
                index += 2
                segmentStart = index
            case _ where Self.isControlCharacter(byte):
                throw unexpectedCharacter(at: index) { .invalidCharacter($0) }
            default:
                index += 1
            }
        }
        throw error(.unterminatedQuotedString, at: opening)
    }

    // MARK: - Scanning

    /// The end of the run of token characters that starts at `start`.
    private func tokenEnd(from start: Int) -> Int {
        var end = start
        while end < bytes.count && Self.isTokenCharacter(bytes[end]) { end += 1 }
        return end
    }

    /// The end of the run of spaces and tabs that starts at `start` (OWS, BWS).
    private func whitespaceEnd(from start: Int) -> Int {
        var end = start
        while end < bytes.count && (bytes[end] == Self.space || bytes[end] == Self.tab) { end += 1 }
        return end
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The text of a token, lowercased (tokens are ASCII).
    private func lowercasedString(_ range: Range<Int>) -> String {
        String(
            decoding: bytes[range].lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    // MARK: - Errors

    private func error(_ reason: Reason, at offset: Int) -> ChallengeParseError {
        ChallengeParseError(reason: reason, fieldIndex: fieldIndex, byteOffset: offset)
    }

    /// The error for the character at `offset` (or the end of the value): `invalidCharacter` for a
    /// control character, whatever the context expected, else the reason `describe` gives for the
    /// character found (U+0000 at the end).
    private func unexpectedCharacter(at offset: Int, _ describe: (Unicode.Scalar) -> Reason) -> ChallengeParseError {
        guard offset < bytes.count else { return error(describe("\u{0}"), at: offset) }
        let scalar = self.scalar(at: offset)
        if Self.isControlCharacter(bytes[offset]) {
            return error(.invalidCharacter(scalar), at: offset)
        }
        return error(describe(scalar), at: offset)
    }

    /// The Unicode scalar whose UTF-8 encoding starts at `offset`.
    private func scalar(at offset: Int) -> Unicode.Scalar {
        let byte = bytes[offset]
        if byte < 0x80 { return Unicode.Scalar(byte) }
        let end = min(bytes.count, offset + 4)
        return String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    }

    // MARK: - Character classes

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let comma = UInt8(ascii: ",")
    private static let equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// `tchar` (RFC 9110 §5.6.2).
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The characters of a token68 before its `=` padding (RFC 9110 §11.2).
    private static func isToken68Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// A control character other than horizontal tab: never allowed in a field value.
    private static func isControlCharacter(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != tab) || byte == 0x7F
    }
}
