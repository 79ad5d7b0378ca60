/// The syntax tree of an HTTPIDL `.http` file.
struct HTTPIDLFile: Sendable {
    indirect enum TypeExpression: Sendable {
        case base(String, SourceLocation)  // INT32…BLOB or a struct name
        case array(TypeExpression)
        case dictionary(key: TypeExpression, value: TypeExpression)
    }

    struct Parameter: Sendable {
        let type: TypeExpression
        let name: String
        /// The key after `=`, when given.
        let key: String?
        let location: SourceLocation
    }

    /// `{ … }`: named parameters, or one unnamed `TYPE;` for a whole body.
    struct Body: Sendable {
        var parameters: [Parameter] = []
        var single: TypeExpression?
        let location: SourceLocation
    }

    enum URIComponent: Sendable {
        case literal(String)
        case parameter(String, SourceLocation)
    }

    struct Block: Sendable {
        let method: String
        let isRequest: Bool
        let body: Body
        let location: SourceLocation
    }

    struct Message: Sendable {
        let name: String?
        let uri: [URIComponent]
        let blocks: [Block]
        let location: SourceLocation
    }

    struct Struct: Sendable {
        let name: String
        let body: Body
        let location: SourceLocation
    }

    enum Declaration: Sendable {
        case message(Message)
        case structure(Struct)
    }

    var declarations: [Declaration] = []
}

/// A recursive-descent parser for HTTPIDL: `MESSAGE [(Name)] /uri/$param { METHOD REQUEST {…}
/// METHOD RESPONSE {…} }` and `STRUCT Name {…}`, with `/* */` comments. Parameters are
/// `TYPE name [= key];` where the key is raw text up to `;` (`\` escapes one character, and a
/// double-quoted key is also accepted); types are `INT32 UINT32 INT64 UINT64 BOOL DOUBLE STRING
/// FILE BLOB`, struct names, `ARRAY<T>` and `DICT<K, V>`.
struct HTTPIDLParser: SourceScanning {
    static let methods: Set<String> = ["GET", "POST", "DELETE", "PUT", "PATCH", "HEAD", "TRACE", "CONNECT", "OPTIONS"]
    static let baseTypes: Set<String> = [
        "INT32", "UINT32", "INT64", "UINT64", "BOOL", "DOUBLE", "STRING", "FILE", "BLOB",
    ]

    let scalars: [Unicode.Scalar]
    let file: String
    var index = 0
    var line = 1
    var column = 1

    static func parse(_ text: String, file: String) throws(IDLError) -> HTTPIDLFile {
        var parser = HTTPIDLParser(scalars: Array(text.unicodeScalars), file: file)
        return try parser.parseFile()
    }

    private init(scalars: [Unicode.Scalar], file: String) {
        self.scalars = scalars
        self.file = file
        if scalars.first == "\u{FEFF}" { index = 1 }
    }

    // MARK: Scanning

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
    }

    /// Skips whitespace and `/* … */` comments.
    private mutating func skipTrivia() throws(IDLError) {
        while let scalar = peek {
            if Self.isSpace(scalar) {
                advance()
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let start = location
                advance()
                advance()
                while true {
                    guard let next = peek else { throw IDLError("unterminated comment", at: start) }
                    if next == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    /// What comes next, for "found …" in messages.
    private func describeNext() -> String {
        guard let scalar = peek else { return "end of file" }
        if Self.isIdentifierStart(scalar) {
            var end = index
            while end < scalars.count, Self.isIdentifierPart(scalars[end]) { end += 1 }
            return "'\(String(String.UnicodeScalarView(scalars[index..<end])))'"
        }
        return "'\(Character(scalar))'"
    }

    /// Reads an identifier or keyword, or returns nil (without moving) when none is next.
    private mutating func word() throws(IDLError) -> (String, SourceLocation)? {
        try skipTrivia()
        guard let scalar = peek, Self.isIdentifierStart(scalar) else { return nil }
        let start = location
        var text = ""
        while let next = peek, Self.isIdentifierPart(next) {
            text.unicodeScalars.append(next)
            advance()
        }
        return (text, start)
    }

    private mutating func expectWord(_ what: String) throws(IDLError) -> (String, SourceLocation) {
        try skipTrivia()
        let start = location
        let found = describeNext()
        guard let result = try word() else { throw IDLError("expected \(what), found \(found)", at: start) }
        return result
    }

    private mutating func expect(_ symbol: Unicode.Scalar, _ what: String) throws(IDLError) {
        try skipTrivia()
        guard peek == symbol else { throw IDLError("expected \(what), found \(describeNext())", at: location) }
        advance()
    }

    private mutating func isNext(_ symbol: Unicode.Scalar) throws(IDLError) -> Bool {
        try skipTrivia()
        return peek == symbol
    }

    // MARK: Grammar

    private mutating func parseFile() throws(IDLError) -> HTTPIDLFile {
        var result = HTTPIDLFile()
        while true {
            try skipTrivia()
            if peek == nil { return result }
            let start = location
            let found = describeNext()
            switch try word()?.0 {
            case "MESSAGE": result.declarations.append(.message(try parseMessage(start)))
            case "STRUCT": result.declarations.append(.structure(try parseStruct(start)))
            default: throw IDLError("expected MESSAGE or STRUCT, found \(found)", at: start)
            }
        }
    }

    private mutating func parseStruct(_ start: SourceLocation) throws(IDLError) -> HTTPIDLFile.Struct {
        let (name, nameLocation) = try expectWord("a struct name after STRUCT")
        guard !Self.isKeyword(name) else {
            throw IDLError("'\(name)' is a keyword and cannot name a struct", at: nameLocation)
        }
        let body = try parseBody()
        if body.single != nil {
            throw IDLError("a STRUCT declares named fields: TYPE name [= key];", at: body.location)
        }
        return HTTPIDLFile.Struct(name: name, body: body, location: nameLocation)
    }

    private mutating func parseMessage(_ start: SourceLocation) throws(IDLError) -> HTTPIDLFile.Message {
        var name: String?
        if try isNext("(") {
            advance()
            name = try expectWord("a message name in '(…)'").0
            try expect(")", "')' after the message name")
        }
        let uri = try parseURI()
        try expect("{", "'{' after the message's URI")
        var blocks: [HTTPIDLFile.Block] = []
        while true {
            if try isNext("}") {
                advance()
                break
            }
            try skipTrivia()
            let blockStart = location
            let found = describeNext()
            guard let (method, _) = try word(), Self.methods.contains(method) else {
                throw IDLError("expected an HTTP method (GET, POST…) or '}', found \(found)", at: blockStart)
            }
            let (kind, kindLocation) = try expectWord("REQUEST or RESPONSE after \(method)")
            guard kind == "REQUEST" || kind == "RESPONSE" else {
                throw IDLError("expected REQUEST or RESPONSE after \(method), found '\(kind)'", at: kindLocation)
            }
            let body = try parseBody()
            blocks.append(
                HTTPIDLFile.Block(method: method, isRequest: kind == "REQUEST", body: body, location: blockStart))
        }
        return HTTPIDLFile.Message(name: name, uri: uri, blocks: blocks, location: start)
    }

    /// `/a/b/$param/c`: raw text up to white space or `{`; `\` escapes the next character.
    private mutating func parseURI() throws(IDLError) -> [HTTPIDLFile.URIComponent] {
        try skipTrivia()
        guard peek == "/" else {
            throw IDLError("expected the message's URI starting with '/', found \(describeNext())", at: location)
        }
        var components: [HTTPIDLFile.URIComponent] = []
        var current = ""
        var currentStart = location
        var currentEscaped = false
        func finish() {
            if !currentEscaped, current.hasPrefix("$"), HTTPIDLParser.isIdentifier(String(current.dropFirst())) {
                components.append(.parameter(String(current.dropFirst()), currentStart))
            } else {
                components.append(.literal(current))
            }
        }
        advance()  // the first /
        currentStart = location
        while let scalar = peek, !Self.isSpace(scalar), scalar != "{" {
            if scalar == "\\" {
                advance()
                guard let escaped = peek else { break }
                current.unicodeScalars.append(escaped)
                currentEscaped = true
                advance()
            } else if scalar == "/" {
                finish()
                advance()
                current = ""
                currentEscaped = false
                currentStart = location
            } else {
                if scalar == "%", index + 1 < scalars.count, scalars[index + 1] == "%" {
                    throw IDLError("'%%' in a URI would be read as a WebServiceKit wildcard", at: location)
                }
                current.unicodeScalars.append(scalar)
                advance()
            }
        }
        finish()
        return components
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isIdentifierStart(first) else { return false }
        return text.unicodeScalars.allSatisfy(isIdentifierPart)
    }

    static func isKeyword(_ word: String) -> Bool {
        methods.contains(word) || baseTypes.contains(word)
            || ["MESSAGE", "STRUCT", "REQUEST", "RESPONSE", "ARRAY", "DICT"].contains(word)
    }

    private mutating func parseBody() throws(IDLError) -> HTTPIDLFile.Body {
        try skipTrivia()
        var body = HTTPIDLFile.Body(location: location)
        try expect("{", "'{'")
        while true {
            if try isNext("}") {
                advance()
                return body
            }
            try skipTrivia()
            let parameterStart = location
            let type = try parseType()
            if try isNext(";") {
                advance()
                guard body.parameters.isEmpty, body.single == nil else {
                    throw IDLError(
                        "an unnamed parameter ('TYPE;') must be the only one in its block", at: parameterStart)
                }
                body.single = type
                continue
            }
            if body.single != nil {
                throw IDLError("an unnamed parameter ('TYPE;') must be the only one in its block", at: parameterStart)
            }
            let (name, nameLocation) = try expectWord("a parameter name")
            var key: String?
            if try isNext("=") {
                advance()
                key = try parseKey()
            } else {
                try expect(";", "';' or '= key;' after the parameter '\(name)'")
            }
            body.parameters.append(HTTPIDLFile.Parameter(type: type, name: name, key: key, location: nameLocation))
        }
    }

    /// The key after `=`: raw text to the next unescaped `;`, trimmed, or a double-quoted string.
    private mutating func parseKey() throws(IDLError) -> String {
        try skipTrivia()
        let start = location
        var key = ""
        if peek == "\"" {
            advance()
            while true {
                guard let scalar = peek, scalar != "\n" else { throw IDLError("unterminated quoted key", at: start) }
                advance()
                if scalar == "\"" { break }
                if scalar == "\\", let escaped = peek {
                    key.unicodeScalars.append(escaped)
                    advance()
                } else {
                    key.unicodeScalars.append(scalar)
                }
            }
            try expect(";", "';' after the key")
        } else {
            var trailingSpace = 0
            while true {
                guard let scalar = peek, scalar != "\n", scalar != "}" else {
                    throw IDLError("expected ';' after the key '\(key)'", at: location)
                }
                advance()
                if scalar == ";" { break }
                if scalar == "\\", let escaped = peek {
                    key.unicodeScalars.append(escaped)
                    advance()
                    trailingSpace = 0
                } else {
                    key.unicodeScalars.append(scalar)
                    trailingSpace = Self.isSpace(scalar) ? trailingSpace + 1 : 0
                }
            }
            key = String(key.unicodeScalars.dropLast(trailingSpace))
        }
        guard !key.isEmpty else { throw IDLError("empty key after '='", at: start) }
        return key
    }

    /// A type; `depth` counts the `ARRAY<`/`DICT<` around it, at most ``IDLNesting/maximumDepth``.
    private mutating func parseType(depth: Int = 0) throws(IDLError) -> HTTPIDLFile.TypeExpression {
        let (name, start) = try expectWord("a type")
        if name == "ARRAY" || name == "DICT", depth >= IDLNesting.maximumDepth { throw IDLNesting.tooDeep(at: start) }
        switch name {
        case "ARRAY":
            try expect("<", "'<' after ARRAY")
            let element = try parseType(depth: depth + 1)
            try expect(">", "'>' to close ARRAY<…>")
            return .array(element)
        case "DICT":
            try expect("<", "'<' after DICT")
            let key = try parseType(depth: depth + 1)
            try expect(",", "',' between the DICT's key and value types")
            let value = try parseType(depth: depth + 1)
            try expect(">", "'>' to close DICT<…>")
            return .dictionary(key: key, value: value)
        default:
            if Self.isKeyword(name), !Self.baseTypes.contains(name) {
                throw IDLError("expected a type, found '\(name)'", at: start)
            }
            return .base(name, start)
        }
    }
}
