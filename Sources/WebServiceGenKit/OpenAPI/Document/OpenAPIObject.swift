/// An object of the document being read, with its location: typed access to its members, each
/// wrong type an error at the member's pointer.
struct OpenAPIObject {
    /// The members, in order.
    let members: [YAMLValue.Member]
    /// Where the object is.
    let location: OpenAPILocation

    /// `value` as an object; an error naming `what` when it is something else.
    init(_ value: YAMLValue, at location: OpenAPILocation, what: String) throws(OpenAPIError) {
        guard case .object(let members) = value else {
            throw OpenAPIError("\(what) must be an object, not \(value.kindName)", at: location)
        }
        self.members = members
        self.location = location
    }

    /// The member named `key`.
    subscript(key: String) -> YAMLValue? {
        members.first { $0.key == key }?.value
    }

    /// The member `key`, a string, if present.
    func string(_ key: String) throws(OpenAPIError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let text) = value else {
            throw OpenAPIError("'\(key)' must be a string, not \(value.kindName)", at: location.appending(key))
        }
        return text
    }

    /// The member `key`, a string; an error naming `what` when it is missing.
    func requiredString(_ key: String, of what: String) throws(OpenAPIError) -> String {
        guard let text = try string(key) else { throw OpenAPIError("\(what) has no '\(key)'", at: location) }
        return text
    }

    /// The member `key`, a scalar written as text (a version `1.0` is a number in YAML), if present.
    func scalarText(_ key: String) throws(OpenAPIError) -> String? {
        switch self[key] {
        case nil: return nil
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        case .double(let number)?: return String(number)
        case .bool(let flag)?: return String(flag)
        case let value?:
            throw OpenAPIError("'\(key)' must be a string, not \(value.kindName)", at: location.appending(key))
        }
    }

    /// The member `key`, a Boolean, if present.
    func bool(_ key: String) throws(OpenAPIError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard case .bool(let flag) = value else {
            throw OpenAPIError("'\(key)' must be true or false, not \(value.kindName)", at: location.appending(key))
        }
        return flag
    }

    /// The member `key`, an object, if present.
    func object(_ key: String, what: String? = nil) throws(OpenAPIError) -> OpenAPIObject? {
        guard let value = self[key] else { return nil }
        return try OpenAPIObject(value, at: location.appending(key), what: what ?? "'\(key)'")
    }

    /// The member `key`, an array, if present.
    func array(_ key: String) throws(OpenAPIError) -> [YAMLValue]? {
        guard let value = self[key] else { return nil }
        guard case .array(let elements) = value else {
            throw OpenAPIError("'\(key)' must be an array, not \(value.kindName)", at: location.appending(key))
        }
        return elements
    }

    /// The member `key`, an array of strings, if present.
    func strings(_ key: String) throws(OpenAPIError) -> [String]? {
        guard let elements = try array(key) else { return nil }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw OpenAPIError(
                    "'\(key)' must hold strings, not \(element.kindName)", at: location.appending(key).appending(index))
            }
            strings.append(text)
        }
        return strings
    }
}

extension YAMLValue {
    /// What the value is, for messages: `a string`, `an array`, ….
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
