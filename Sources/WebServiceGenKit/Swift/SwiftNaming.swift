/// The rules that turn names from the input into Swift identifiers.
public enum SwiftNaming {
    /// Swift keywords that a property may still use when written in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "enum", "extension", "fileprivate", "func", "import", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "as", "await", "false", "is", "nil", "throws", "true", "try", "Any", "some", "any",
    ]

    /// Names that backticks do not make usable as a property: they get `Value` appended.
    static let unusableNames: Set<String> = ["self", "super", "init", "deinit", "subscript", "_", "Type", "Protocol"]

    /// Type names that would hide a type the generated code uses: they get `Model` appended.
    static let reservedTypeNames: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Codable", "CodingKey", "CodingKeys", "Data", "Date", "Decodable",
        "Decoder", "Dictionary", "Double", "EmptyResponse", "Encodable", "Encoder", "Equatable", "Error",
        "Float", "FormData", "Foundation", "Int", "Int32", "Int64", "JSONResponseSerializer", "JSONValue",
        "Optional", "Protocol", "Self", "Sendable", "Set", "String", "Type", "UInt32", "UInt64", "URL",
        "Void", "WebServiceCall", "WebServiceKit",
    ]

    /// `UpperCamelCase` for a type: `place_details` → `PlaceDetails`, `HTTPBin` stays; a name that
    /// would hide a standard type gets `Model` appended (`Data` → `DataModel`).
    ///
    /// Only a whole name is checked against the reserved names: a generated name built from
    /// parts (`GetUserData` from `GET /user/data`) gets `Model` only if the whole of it clashes.
    public static func typeName(_ name: String) -> String {
        var result = typeNamePart(name)
        if result.isEmpty { result = "Model" }
        if result.first!.isNumber { result = "_" + result }
        if reservedTypeNames.contains(result) { result += "Model" }
        return result
    }

    /// The UpperCamelCase words of `name` for use inside a longer type name (`data` → `Data`):
    /// no reserved-name check, no `_` before a leading digit. ``typeName(_:)`` applies both to
    /// the whole name once it is put together.
    static func typeNamePart(_ name: String) -> String {
        words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `lowerCamelCase` for a property or call: `formatted_address` → `formattedAddress`,
    /// `URLString` → `urlString`, `ID` → `id`. Keywords come back in backticks (`` `default` ``);
    /// `self`, `init` and the like get `Value` appended.
    public static func memberName(_ name: String) -> String {
        let bare = bareMemberName(name)
        if unusableNames.contains(bare) { return bare + "Value" }
        if keywords.contains(bare) { return "`\(bare)`" }
        return bare
    }

    /// ``memberName(_:)`` without backticks, for `self.name`.
    static func plainMemberName(_ name: String) -> String {
        let bare = bareMemberName(name)
        return unusableNames.contains(bare) ? bare + "Value" : bare
    }

    /// The lowerCamelCase words of a name, before keywords are handled.
    static func bareMemberName(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return "value" }
        var result = lowercasedLeadingCapitals(first)
        for part in parts.dropFirst() { result += part.prefix(1).uppercased() + part.dropFirst() }
        if result.first!.isNumber { result = "_" + result }
        return result
    }

    /// Splits at every character that cannot be in an identifier (`_`, `-`, space, `.`…).
    static func words(_ name: String) -> [String] {
        var parts: [String] = []
        var current = ""
        for character in name {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                parts.append(current)
                current = ""
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// `URLString` → `urlString`, `ID` → `id`, `Name` → `name`, `name` stays.
    static func lowercasedLeadingCapitals(_ word: String) -> String {
        let characters = Array(word)
        var capitals = 0
        while capitals < characters.count, characters[capitals].isUppercase { capitals += 1 }
        if capitals == 0 { return word }
        if capitals == characters.count { return word.lowercased() }
        // Keep the last capital of a run when a lowercase letter follows: it starts the next word.
        let lowered = capitals == 1 ? 1 : capitals - 1
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// A Swift string literal for `text`, with quotes, backslashes and control characters escaped.
    public static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
