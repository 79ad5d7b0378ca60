import Foundation

/// A JSON pointer (RFC 6901): the path of reference tokens from a document's root to one of its
/// values, such as `/paths/~1pets/get` (the operation `get` of the path `/pets`).
///
/// It is parsed from its plain form (`/a/b`) or from the URI fragment form of `$ref`s
/// (`#/components/schemas/Pet`, percent-decoded first), built by appending tokens, rendered in
/// both forms, and evaluated on a ``YAMLValue``.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped (`~1` is `/` here); empty for the whole document.
    public var tokens: [String]

    /// The pointer to the whole document.
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from unescaped tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses `text`: the plain form (`""` or `/a/b`) or the fragment form (`#`, `#/a/b`), whose
    /// percent escapes are decoded before the tokens are split and their `~0` and `~1` unescaped.
    public init(parsing text: String) throws(JSONPointerError) {
        var body = text
        if text.hasPrefix("#") {
            guard let decoded = String(text.dropFirst()).removingPercentEncoding else {
                throw JSONPointerError.invalidPercentEncoding(text)
            }
            body = decoded
        }
        if body.isEmpty {
            self.init(tokens: [])
            return
        }
        guard body.hasPrefix("/") else { throw JSONPointerError.missingLeadingSlash(text) }
        var tokens: [String] = []
        for escaped in body.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = Self.unescape(escaped) else { throw JSONPointerError.invalidEscape(text) }
            tokens.append(token)
        }
        self.init(tokens: tokens)
    }

    /// This pointer with `token` appended.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// This pointer with the array index `index` appended.
    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// The plain form: `/paths/~1pets/get`; the empty string for the root.
    public var description: String {
        tokens.map { "/" + Self.escape($0) }.joined()
    }

    /// The URI fragment form, as `$ref`s write it: `#/paths/~1pets/get`, with the characters a
    /// fragment may not hold percent-encoded.
    public var fragment: String {
        "#" + (description.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? description)
    }

    /// The value this pointer designates in `document`. Array elements are designated by decimal
    /// indexes without leading zeros; `-` (the element past the end) designates nothing.
    public func evaluate(in document: YAMLValue) throws(JSONPointerError) -> YAMLValue {
        var current = document
        for (depth, token) in tokens.enumerated() {
            let parent = JSONPointer(tokens: Array(tokens[..<depth]))
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else {
                    throw JSONPointerError.noMember(parent, token)
                }
                current = member.value
            case .array(let elements):
                guard let index = Self.index(token) else { throw JSONPointerError.invalidIndex(parent, token) }
                guard index < elements.count else {
                    throw JSONPointerError.indexOutOfRange(parent, index, count: elements.count)
                }
                current = elements[index]
            default:
                throw JSONPointerError.notAContainer(parent, token)
            }
        }
        return current
    }

    /// A token's array index: `0`, or digits without a leading zero (within `Int`).
    static func index(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }

    /// `token` with `~` written `~0` and `/` written `~1`.
    static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `escaped` with `~1` and `~0` unescaped; `nil` when a `~` is followed by anything else.
    static func unescape(_ escaped: Substring) -> String? {
        guard escaped.contains("~") else { return String(escaped) }
        var result = ""
        var iterator = escaped.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: return nil
            }
        }
        return result
    }
}
