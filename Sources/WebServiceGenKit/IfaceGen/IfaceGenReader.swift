import Foundation

/// Reads ifacegen's JSON IDL (`{"iface": [...]}`): `import`, `struct` with `typedef` and
/// `extends`, and remote methods (`procedure` or an HTTP method key) with `endpoint`, `url_params`,
/// `request` and `response`. Imports are followed relative to the importing file; each file is
/// read once, and a file that imports itself, directly or not, is an error naming the cycle.
struct IfaceGenReader {
    /// The HTTP method keys ifacegen accepts, and `procedure` ("automatic mode").
    static let methodKeys = ["procedure", "get", "head", "post", "put", "delete", "patch", "options", "trace"]
    static let methodItemKeys: Set<String> = ["endpoint", "url_params", "request", "response", "prefix"]

    private let source: any SourceReading
    private var loaded: Set<String> = []
    private var importStack: [(identity: String, path: String)] = []

    init(source: any SourceReading) { self.source = source }

    /// Reads `path` and everything it imports; imported declarations come first.
    mutating func read(path: String) throws(IDLError) -> IDLModule {
        try load(path: path, importedAt: nil)
    }

    private mutating func load(path: String, importedAt: SourceLocation?) throws(IDLError) -> IDLModule {
        let identity = source.identity(of: path)
        if let start = importStack.firstIndex(where: { $0.identity == identity }) {
            let chain = (importStack[start...].map(\.path) + [path]).joined(separator: " -> ")
            throw IDLError("import cycle: \(chain)", at: importedAt)
        }
        if loaded.contains(identity) { return IDLModule() }
        // One call per file of the chain, each holding its file's tree.
        guard importStack.count < IDLNesting.maximumImportDepth else {
            throw IDLError(
                "imports nest deeper than the maximum depth of \(IDLNesting.maximumImportDepth) files", at: importedAt)
        }
        let text = try source.contents(of: path, importedAt: importedAt)
        importStack.append((identity, path))
        defer { importStack.removeLast() }
        let root = try JSONScanner.parse(text, file: path)
        guard let iface = root.member("iface") else {
            throw IDLError("not an ifacegen IDL file: the top level needs an \"iface\" array", at: root.location)
        }
        guard let items = iface.value.elements else {
            throw IDLError("\"iface\" must be an array, not \(iface.value.kind)", at: iface.value.location)
        }
        var module = IDLModule()
        for item in items {
            guard let members = item.members else {
                throw IDLError("an item of \"iface\" must be an object, not \(item.kind)", at: item.location)
            }
            if let imported = item.member("import") {
                guard members.count == 1, let name = imported.value.string else {
                    throw IDLError("an import is {\"import\": \"File.json\"}", at: item.location)
                }
                let importedPath =
                    name.hasPrefix("/")
                    ? name
                    : ((path as NSString).deletingLastPathComponent as NSString)
                        .appendingPathComponent(name)
                module.append(try load(path: importedPath, importedAt: imported.value.location))
            } else if item.member("struct") != nil {
                module.structures += try readStruct(item)
            } else if members.contains(where: { Self.methodKeys.contains($0.key) }) {
                let (endpoint, structures) = try readMethod(item)
                module.structures += structures
                module.endpoints.append(endpoint)
            } else {
                throw IDLError(
                    "an item of \"iface\" needs \"import\", \"struct\", \"procedure\" or an HTTP method key (\"get\", \"post\"…)",
                    at: item.location)
            }
        }
        loaded.insert(identity)
        return module
    }

    // MARK: Structures

    private func readStruct(_ item: JSONNode) throws(IDLError) -> [IDLStructure] {
        let nameMember = item.member("struct")!
        guard let name = nameMember.value.string, !name.isEmpty else {
            throw IDLError("\"struct\" must be a non-empty string", at: nameMember.value.location)
        }
        for member in item.members! where !["struct", "typedef", "extends"].contains(member.key) {
            throw IDLError("unknown key '\(member.key)' in the declaration of struct '\(name)'", at: member.keyLocation)
        }
        guard let typedef = item.member("typedef") else {
            throw IDLError("the struct '\(name)' has no \"typedef\"", at: item.location)
        }
        guard typedef.value.members != nil else {
            throw IDLError(
                "the \"typedef\" of '\(name)' must be an object, not \(typedef.value.kind)", at: typedef.value.location)
        }
        var structures: [IDLStructure] = []
        var structure = try readStructBody(
            typedef.value, name: name, location: nameMember.value.location, summary: "ifacegen struct \(name)",
            into: &structures)
        if let extends = item.member("extends") {
            guard let parent = extends.value.string, !parent.isEmpty else {
                throw IDLError("\"extends\" must name a struct", at: extends.value.location)
            }
            structure.parent = (parent, extends.value.location)
        }
        return [structure] + structures
    }

    /// Reads an object of fields as a structure called `name`; nested objects become structures
    /// named after their owner and key, appended to `nested`.
    private func readStructBody(
        _ node: JSONNode, name: String, location: SourceLocation, summary: String, into nested: inout [IDLStructure]
    ) throws(IDLError) -> IDLStructure {
        var fields: [IDLField] = []
        for member in node.members ?? [] {
            let (type, optional) = try readType(
                member.value, nestedName: name + SwiftNaming.typeNamePart(member.key),
                context: "`\(member.key)` of \(name)", into: &nested)
            fields.append(
                IDLField(
                    key: member.key, name: member.key, type: type, isOptional: optional, location: member.keyLocation,
                    typeLocation: member.value.location))
        }
        return IDLStructure(name: name, fields: fields, location: location, summary: summary)
    }

    /// A field's type: a type name (`"int32"`, `"GoogleLocation"`, `"string?"` for an optional),
    /// an object (a nested structure named `nestedName`), or a one-element array of either.
    private func readType(
        _ node: JSONNode, nestedName: String, context: String, into nested: inout [IDLStructure]
    ) throws(IDLError) -> (IDLType, optional: Bool) {
        switch node.value {
        case .string(let text):
            var name = text
            let optional = name.hasSuffix("?")
            if optional { name.removeLast() }
            guard !name.isEmpty else { throw IDLError("empty type name", at: node.location) }
            return (Self.primitive(name) ?? .named(name), optional)
        case .object:
            let structure = try readStructBody(
                node, name: nestedName, location: node.location,
                summary: context.hasPrefix("An item") ? context : "The object in " + context, into: &nested)
            nested.insert(structure, at: 0)
            return (.named(nestedName), false)
        case .array(let elements):
            guard elements.count == 1 else {
                throw IDLError(
                    "an array type has exactly one element, the item type; this one has \(elements.count)",
                    at: node.location)
            }
            let (element, optional) = try readType(
                elements[0], nestedName: nestedName + "Item", context: "An item of " + context, into: &nested)
            guard !optional else {
                throw IDLError("array items cannot be optional", at: elements[0].location)
            }
            return (.array(element), false)
        default:
            throw IDLError(
                "a type is a type name, an object or a one-element array, not \(node.kind)", at: node.location)
        }
    }

    static func primitive(_ name: String) -> IDLType? {
        switch name {
        case "int32": .int32
        case "int64": .int64
        case "bool": .bool
        case "double": .double
        case "string": .string
        case "raw": .json
        case "rawstr": .rawString
        default: nil
        }
    }

    // MARK: Methods

    private func readMethod(_ item: JSONNode) throws(IDLError) -> (IDLEndpoint, [IDLStructure]) {
        let members = item.members!
        let kinds = members.filter { Self.methodKeys.contains($0.key) }
        if kinds.count > 1 {
            throw IDLError(
                "a method declares one of \"procedure\" or an HTTP method, not both '\(kinds[0].key)' and '\(kinds[1].key)'",
                at: kinds[1].keyLocation)
        }
        let kind = kinds[0]
        guard let name = kind.value.string, !SwiftNaming.words(name).isEmpty else {
            throw IDLError("\"\(kind.key)\" must name the method", at: kind.value.location)
        }
        for member in members where member.key != kind.key && !Self.methodItemKeys.contains(member.key) {
            throw IDLError(
                "custom parameter section '\(member.key)' of method '\(name)' is not supported (use url_params or request)",
                at: member.keyLocation)
        }
        var structures: [IDLStructure] = []
        let typeBase = SwiftNaming.typeNamePart(name)

        // The body.
        var body: (type: IDLType, location: SourceLocation)?
        if let request = item.member("request") {
            let type: IDLType
            if request.value.members != nil {
                let structure = try readStructBody(
                    request.value, name: typeBase + "Request", location: request.value.location,
                    summary: "The request body of \(name)", into: &structures)
                structures.insert(structure, at: 0)
                type = .named(structure.name)
            } else {
                let (read, optional) = try readType(
                    request.value, nestedName: typeBase + "Request", context: "the request body of \(name)",
                    into: &structures)
                guard !optional else {
                    throw IDLError("the request body cannot be optional", at: request.value.location)
                }
                type = read
            }
            body = (type, request.value.location)
        }

        let method = kind.key == "procedure" ? (body == nil ? "GET" : "POST") : kind.key.uppercased()

        // The path.
        var pathText: String
        var pathLocation: SourceLocation
        if let endpoint = item.member("endpoint") {
            guard let text = endpoint.value.string else {
                throw IDLError("\"endpoint\" must be a string, not \(endpoint.value.kind)", at: endpoint.value.location)
            }
            pathText = text
            pathLocation = endpoint.value.location.advanced(by: 1)
        } else {
            var prefix = ""
            if let prefixMember = item.member("prefix") {
                guard let text = prefixMember.value.string else {
                    throw IDLError("\"prefix\" must be a string", at: prefixMember.value.location)
                }
                prefix = text.hasSuffix("/") || text.isEmpty ? text : text + "/"
            }
            pathText = prefix + name
            pathLocation = kind.value.location
        }
        while pathText.hasPrefix("/") {
            pathText.removeFirst()
            pathLocation = pathLocation.advanced(by: 1)
        }
        let path = try Self.parseTemplate(pathText, at: pathLocation)

        // url_params.
        var urlParams: [IDLParameter] = []
        var declaresURLParams = false
        if let params = item.member("url_params") {
            guard let paramMembers = params.value.members else {
                throw IDLError("\"url_params\" must be an object, not \(params.value.kind)", at: params.value.location)
            }
            declaresURLParams = true
            for member in paramMembers {
                var nested: [IDLStructure] = []
                let (type, optional) = try readType(member.value, nestedName: "", context: "", into: &nested)
                guard nested.isEmpty, type.isQueryValue else {
                    throw IDLError(
                        "the url parameter '\(member.key)' must have a scalar type or a list of one, such as \"string\" or [\"int32\"]",
                        at: member.value.location)
                }
                urlParams.append(
                    IDLParameter(
                        name: member.key, key: member.key, type: type, isOptional: optional, place: .query,
                        location: member.keyLocation))
            }
        }

        var parameters: [IDLParameter] = []
        for part in path {
            guard case .parameter(let parameterName) = part.part else { continue }
            if parameters.contains(where: { $0.name == parameterName }) { continue }
            if let index = urlParams.firstIndex(where: { $0.name == parameterName }) {
                var parameter = urlParams.remove(at: index)
                guard parameter.type.isScalar, !parameter.isOptional else {
                    throw IDLError(
                        "the url parameter '\(parameterName)' fills a path segment, so it must be a non-optional scalar",
                        at: parameter.location)
                }
                parameter.place = .path
                parameters.append(parameter)
            } else if declaresURLParams {
                throw IDLError(
                    "the endpoint refers to ${\(parameterName)}, which is not among the url_params of '\(name)'",
                    at: part.location)
            } else {
                parameters.append(
                    IDLParameter(
                        name: parameterName, key: parameterName, type: .string, isOptional: false, place: .path,
                        location: part.location))
            }
        }
        parameters += urlParams
        if let body {
            parameters.append(
                IDLParameter(
                    name: "body", key: "", type: body.type, isOptional: false, place: .body, location: body.location))
        }

        // The response.
        var response: IDLType?
        var responseRoot: String?
        var responseLocation: SourceLocation?
        if let responseMember = item.member("response") {
            let value = responseMember.value
            responseLocation = value.location
            if let responseMembers = value.members {
                if responseMembers.count == 1 {
                    // ifacegen's flattening: a one-key object returns that key's value.
                    let only = responseMembers[0]
                    let (type, optional) = try readType(
                        only.value, nestedName: typeBase + SwiftNaming.typeNamePart(only.key),
                        context: "`\(only.key)` of the response of \(name)", into: &structures)
                    guard !optional else {
                        throw IDLError("the response value cannot be optional", at: only.value.location)
                    }
                    response = type
                    responseRoot = only.key
                    responseLocation = only.value.location
                } else if !responseMembers.isEmpty {
                    let structure = try readStructBody(
                        value, name: typeBase + "Response", location: value.location,
                        summary: "The response of \(name)", into: &structures)
                    structures.insert(structure, at: 0)
                    response = .named(structure.name)
                }
            } else {
                let (type, optional) = try readType(
                    value, nestedName: typeBase + "Response", context: "the response of \(name)", into: &structures)
                guard !optional else { throw IDLError("the response cannot be optional", at: value.location) }
                response = type
            }
        }

        let endpoint = IDLEndpoint(
            name: name, method: method, path: path.map(\.part), parameters: parameters, response: response,
            responseRoot: responseRoot, location: kind.value.location, responseLocation: responseLocation,
            summary: "ifacegen \(kind.key == "procedure" ? "procedure" : kind.key) \(name)")
        return (endpoint, structures)
    }

    /// Splits an endpoint at its `${name}` parameters. `at` is where the text starts, so errors
    /// point at the `$` (exactly, when no escape sequence comes before it in the JSON string).
    static func parseTemplate(
        _ text: String, at start: SourceLocation
    ) throws(IDLError) -> [(part: IDLPathPart, location: SourceLocation)] {
        let scalars = Array(text.unicodeScalars)
        var parts: [(IDLPathPart, SourceLocation)] = []
        var literal = ""
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%", index + 1 < scalars.count, scalars[index + 1] == "%" {
                throw IDLError(
                    "'%%' in an endpoint would be read as a WebServiceKit wildcard", at: start.advanced(by: index))
            }
            guard scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "{" else {
                literal.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            let location = start.advanced(by: index)
            guard let close = scalars[(index + 2)...].firstIndex(of: "}") else {
                throw IDLError("unterminated '${' in the endpoint: no closing '}'", at: location)
            }
            let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
            guard isIdentifier(name) else {
                throw IDLError(
                    name.isEmpty
                        ? "empty parameter '${}' in the endpoint" : "invalid parameter name '\(name)' in the endpoint",
                    at: location)
            }
            if !literal.isEmpty { parts.append((.literal(literal), location)) }
            literal = ""
            parts.append((.parameter(name), location))
            index = close + 1
        }
        if !literal.isEmpty { parts.append((.literal(literal), start)) }
        return parts
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
