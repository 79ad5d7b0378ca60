/// A JSON value with the place each part starts, from ``JSONScanner``.
struct JSONNode: Sendable {
    /// A member of an object, with where its key is.
    struct Member: Sendable {
        let key: String
        let keyLocation: SourceLocation
        let value: JSONNode
    }

    enum Value: Sendable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    let value: Value
    let location: SourceLocation

    /// A word for messages: "an object", "a string"…
    var kind: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The member named `key`.
    func member(_ key: String) -> Member? { members?.first { $0.key == key } }
}

/// A strict RFC 8259 JSON parser that remembers the line and column of every value and key,
/// which `JSONSerialization` cannot tell. Duplicate keys in an object are an error, and so is
/// nesting deeper than ``IDLNesting/maximumDepth`` arrays and objects.
struct JSONScanner: SourceScanning {
    let scalars: [Unicode.Scalar]
    let file: String
    var index = 0
    var line = 1
    var column = 1
    /// How many arrays and objects enclose the value being read.
    private var depth = 0

    /// Parses `text`, naming `file` in locations and errors.
    static func parse(_ text: String, file: String) throws(IDLError) -> JSONNode {
        var scanner = JSONScanner(scalars: Array(text.unicodeScalars), file: file)
        scanner.skipByteOrderMark()
        let node = try scanner.parseValue()
        scanner.skipWhitespace()
        if let extra = scanner.peek {
            throw IDLError("unexpected \(describe(extra)) after the JSON document", at: scanner.location)
        }
        return node
    }

    private init(scalars: [Unicode.Scalar], file: String) {
        self.scalars = scalars
        self.file = file
    }

    private mutating func skipByteOrderMark() {
        if peek == "\u{FEFF}" { index += 1 }
    }

    private mutating func skipWhitespace() {
        while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { advance() }
    }

    private static func describe(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "end of file" }
        if scalar.value < 0x20 { return "control character U+\(String(scalar.value, radix: 16, uppercase: true))" }
        return "'\(Character(scalar))'"
    }

    private mutating func parseValue() throws(IDLError) -> JSONNode {
        skipWhitespace()
        let start = location
        guard let scalar = peek else { throw IDLError("expected a JSON value, found end of file", at: start) }
        switch scalar {
        case "{", "[":
            guard depth < IDLNesting.maximumDepth else { throw IDLNesting.tooDeep(at: start) }
            depth += 1
            defer { depth -= 1 }
            return scalar == "{" ? try parseObject() : try parseArray()
        case "\"": return JSONNode(value: .string(try parseString()), location: start)
        case "-", "0"..."9": return JSONNode(value: .number(try parseNumber()), location: start)
        case "t", "f", "n":
            var word = ""
            while let next = peek, ("a"..."z").contains(next) {
                word.unicodeScalars.append(next)
                advance()
            }
            switch word {
            case "true": return JSONNode(value: .bool(true), location: start)
            case "false": return JSONNode(value: .bool(false), location: start)
            case "null": return JSONNode(value: .null, location: start)
            default: throw IDLError("expected a JSON value, found '\(word)'", at: start)
            }
        default:
            throw IDLError("expected a JSON value, found \(Self.describe(scalar))", at: start)
        }
    }

    private mutating func parseObject() throws(IDLError) -> JSONNode {
        let start = location
        advance()  // {
        var members: [JSONNode.Member] = []
        var seen: [String: SourceLocation] = [:]
        skipWhitespace()
        if peek == "}" {
            advance()
            return JSONNode(value: .object([]), location: start)
        }
        while true {
            skipWhitespace()
            let keyLocation = location
            guard peek == "\"" else {
                throw IDLError("expected a string key in the object, found \(Self.describe(peek))", at: keyLocation)
            }
            let key = try parseString()
            if let first = seen[key] {
                throw IDLError(
                    "duplicate key '\(key)' (first at line \(first.line), column \(first.column))", at: keyLocation)
            }
            seen[key] = keyLocation
            skipWhitespace()
            guard peek == ":" else {
                throw IDLError("expected ':' after the key '\(key)', found \(Self.describe(peek))", at: location)
            }
            advance()
            let value = try parseValue()
            members.append(JSONNode.Member(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            switch peek {
            case ",": advance()
            case "}":
                advance()
                return JSONNode(value: .object(members), location: start)
            default:
                throw IDLError("expected ',' or '}' in the object, found \(Self.describe(peek))", at: location)
            }
        }
    }

    private mutating func parseArray() throws(IDLError) -> JSONNode {
        let start = location
        advance()  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if peek == "]" {
            advance()
            return JSONNode(value: .array([]), location: start)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch peek {
            case ",": advance()
            case "]":
                advance()
                return JSONNode(value: .array(elements), location: start)
            default:
                throw IDLError("expected ',' or ']' in the array, found \(Self.describe(peek))", at: location)
            }
        }
    }

    private mutating func parseString() throws(IDLError) -> String {
        let start = location
        advance()  // "
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw IDLError("unterminated string", at: start) }
            switch scalar {
            case "\"":
                advance()
                return String(result)
            case "\\":
                let escapeLocation = location
                advance()
                guard let escaped = peek else { throw IDLError("unterminated string", at: start) }
                advance()
                switch escaped {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "/": result.append("/")
                case "b": result.append("\u{08}")
                case "f": result.append("\u{0C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "u":
                    var code = try parseHexQuad(escapeLocation)
                    if (0xD800..<0xDC00).contains(code), peek == "\\", index + 1 < scalars.count,
                        scalars[index + 1] == "u"
                    {
                        advance()
                        advance()
                        let low = try parseHexQuad(escapeLocation)
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw IDLError("invalid surrogate pair in \\u escape", at: escapeLocation)
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let decoded = Unicode.Scalar(code) else {
                        throw IDLError("invalid \\u escape (a lone surrogate)", at: escapeLocation)
                    }
                    result.append(decoded)
                default:
                    throw IDLError("invalid escape '\\\(Character(escaped))' in string", at: escapeLocation)
                }
            default:
                if scalar.value < 0x20 {
                    throw IDLError("\(Self.describe(scalar)) in string (unterminated string?)", at: location)
                }
                result.append(scalar)
                advance()
            }
        }
    }

    private mutating func parseHexQuad(_ escapeLocation: SourceLocation) throws(IDLError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, let digit = Int(String(scalar), radix: 16) else {
                throw IDLError("invalid \\u escape: expected four hexadecimal digits", at: escapeLocation)
            }
            code = code * 16 + UInt32(digit)
            advance()
        }
        return code
    }

    private mutating func parseNumber() throws(IDLError) -> String {
        let start = location
        var text = ""
        func isDigit(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { ("0"..."9").contains($0) } ?? false }
        func take() {
            text.unicodeScalars.append(peek!)
            advance()
        }
        if peek == "-" { take() }
        guard isDigit(peek) else { throw IDLError("invalid number '\(text)'", at: start) }
        if peek == "0" {
            take()
        } else {
            while isDigit(peek) { take() }
        }
        if peek == "." {
            take()
            guard isDigit(peek) else { throw IDLError("invalid number '\(text)': digits must follow '.'", at: start) }
            while isDigit(peek) { take() }
        }
        if peek == "e" || peek == "E" {
            take()
            if peek == "+" || peek == "-" { take() }
            guard isDigit(peek) else {
                throw IDLError("invalid number '\(text)': the exponent has no digits", at: start)
            }
            while isDigit(peek) { take() }
        }
        return text
    }
}
