/// The one naming rule of the OpenAPI import, applied in the order of the document so that the
/// same document always gives the same names:
///
/// - types are UpperCamelCase from their component key (`pet_status` → `PetStatus`), inline
///   schemas from their place (`Pet`'s property `owner` → `PetOwner`, array elements `…Item`,
///   dictionary values `…Value`, alternatives `…Option1`; an operation's body
///   `CreatePetRequest`, its response `CreatePetResponse`); a name that would hide a Swift,
///   Foundation or WebServiceKit type the file uses gets `Model` appended (`Data` → `DataModel`,
///   `Range` → `RangeModel`);
/// - properties, calls and cases are lowerCamelCase (``SwiftNaming/memberName(_:)``: keywords in
///   backticks, `self` and the like with `Value` appended);
/// - a name an earlier one took gets the first free number appended: `Pet2`, `name2`.
struct GeneratedNames {
    /// The names of the support types a generated file may declare.
    static let supportTypes: Set<String> = [
        "JSONValue", "Indirect", "OpenAPICoding", "OpenAPIDynamicKey", "OpenAPIErrorHandler",
    ]

    /// Standard and library types a generated file's code names, besides
    /// ``SwiftNaming/reservedTypeNames``: a schema named so gets a number.
    static let libraryTypes: Set<String> = [
        "ArgumentList", "Character", "ClosedRange", "Decimal", "Duration", "Hashable", "Hasher", "Identifiable",
        "Int8", "Int16", "UInt", "UInt8", "UInt16", "Never", "NoBody", "ParameterStyle", "Range", "Result",
        "Substring", "Task", "TextRequestSerializer", "StyledFormRequestSerializer", "TypedCall", "UUID",
        "DecodingError", "JSONDecoder",
        "JSONEncoder", "JSONSerialization", "NSNull", "Comparable", "Collection", "Sequence", "ResponseStream",
        "ServerSentEvent", "AuthenticationProvider", "WebServiceRequest", "CallDescriptor", "ResponseErrorHandler",
        "ResponseContext", "WebServiceError", "URLComponents", "URLQueryItem", "HTTPMethod",
    ]

    private var taken: Set<String>

    /// A set of names where `reserved` are taken already.
    init(reserved: Set<String> = []) { taken = reserved }

    /// `base` if free, else `base2`, `base3`…; the name returned is taken from now on.
    mutating func claim(_ base: String) -> String {
        var candidate = base
        var number = 2
        while taken.contains(candidate) {
            candidate = base + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// A type name for `text` (``SwiftNaming/typeName(_:)``; a type the file uses gets `Model`
    /// appended as a standard type's name does), made unique.
    mutating func claimType(_ text: String) -> String {
        let name = SwiftNaming.typeName(text)
        return claim(Self.libraryTypes.contains(name) || Self.supportTypes.contains(name) ? name + "Model" : name)
    }

    /// `name` without the backticks ``claimMember(_:)`` puts around a keyword: for `self.name`,
    /// a string literal or a doc comment.
    static func unescaped(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 1 ? String(name.dropFirst().dropLast()) : name
    }

    /// A member name for `text`, made unique, in backticks when it is a keyword.
    mutating func claimMember(_ text: String) -> String {
        let name = claim(SwiftNaming.plainMemberName(text))
        return SwiftNaming.keywords.contains(name) ? "`\(name)`" : name
    }
}
