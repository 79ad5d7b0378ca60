/// Turns HTTPIDL messages and structs into the common model.
///
/// Every HTTPIDL field is optional, as in HTTPIDL's own generated code. A message gives one call
/// per HTTP method: `MESSAGE /my/example { GET REQUEST {…} GET RESPONSE {…} }` becomes
/// `getMyExample`, with `GetMyExampleResponse` as its response. `$name` path segments are
/// `String` arguments (or take the type of a request field of the same name). The request's
/// fields are query arguments for methods without a body (GET, HEAD, DELETE, OPTIONS, TRACE,
/// CONNECT) and a JSON body struct (`PostMyExampleRequest`) for POST, PUT and PATCH; a body with
/// `FILE` or `BLOB` fields is sent as `multipart/form-data`.
struct HTTPIDLReader {
    static let bodyMethods: Set<String> = ["POST", "PUT", "PATCH"]

    static func read(_ text: String, file: String) throws(IDLError) -> IDLModule {
        let syntax = try HTTPIDLParser.parse(text, file: file)
        var module = IDLModule()
        for declaration in syntax.declarations {
            switch declaration {
            case .structure(let declared):
                module.structures.append(
                    IDLStructure(
                        name: declared.name, fields: try fields(declared.body), location: declared.location,
                        summary: "HTTPIDL STRUCT \(declared.name)"))
            case .message(let message):
                module.append(try read(message))
            }
        }
        return module
    }

    static func type(_ expression: HTTPIDLFile.TypeExpression) throws(IDLError) -> IDLType {
        switch expression {
        case .base(let name, _):
            switch name {
            case "INT32": return .int32
            case "UINT32": return .uint32
            case "INT64": return .int64
            case "UINT64": return .uint64
            case "BOOL": return .bool
            case "DOUBLE": return .double
            case "STRING": return .string
            case "FILE": return .file
            case "BLOB": return .blob
            default: return .named(name)
            }
        case .array(let element):
            return .array(try type(element))
        case .dictionary(let keyExpression, let value):
            let key = try type(keyExpression)
            guard [.string, .int32, .int64, .uint32, .uint64].contains(key) else {
                throw IDLError("a DICT's key type must be STRING or an integer type", at: location(of: keyExpression))
            }
            return .dictionary(key: key, value: try type(value))
        }
    }

    static func location(of expression: HTTPIDLFile.TypeExpression) -> SourceLocation {
        switch expression {
        case .base(_, let location): location
        case .array(let element): location(of: element)
        case .dictionary(let key, _): location(of: key)
        }
    }

    static func fields(_ body: HTTPIDLFile.Body) throws(IDLError) -> [IDLField] {
        var fields: [IDLField] = []
        for parameter in body.parameters {
            fields.append(
                IDLField(
                    key: parameter.key ?? parameter.name, name: parameter.name, type: try type(parameter.type),
                    isOptional: true, location: parameter.location, typeLocation: location(of: parameter.type)))
        }
        return fields
    }

    private static func read(_ message: HTTPIDLFile.Message) throws(IDLError) -> IDLModule {
        var module = IDLModule()
        // Parts only: the resolver checks the whole generated name (`GetUserDataResponse`)
        // against the reserved type names, so `/user/data` does not become `GetUserDataModel…`.
        let messageName =
            message.name.map(SwiftNaming.typeNamePart)
            ?? message.uri.map { component in
                switch component {
                case .literal(let text): SwiftNaming.typeNamePart(text)
                case .parameter(let name, _): SwiftNaming.typeNamePart(name)
                }
            }.joined()
        var methods: [String] = []
        for block in message.blocks where !methods.contains(block.method) { methods.append(block.method) }
        for method in methods {
            let blocks = message.blocks.filter { $0.method == method }
            let requests = blocks.filter(\.isRequest)
            let responses = blocks.filter { !$0.isRequest }
            if requests.count > 1 {
                throw IDLError("a second \(method) REQUEST in the same MESSAGE", at: requests[1].location)
            }
            if responses.count > 1 {
                throw IDLError("a second \(method) RESPONSE in the same MESSAGE", at: responses[1].location)
            }
            let typeBase = method.prefix(1) + method.dropFirst().lowercased() + messageName
            let blockLocation = (requests.first ?? responses[0]).location
            var requestFields: [IDLField] = []
            if let request = requests.first { requestFields = try fields(request.body) }

            var path: [IDLPathPart] = []
            var parameters: [IDLParameter] = []
            for (position, component) in message.uri.enumerated() {
                if position > 0 { path.append(.literal("/")) }
                switch component {
                case .literal(let text):
                    path.append(.literal(text))
                case .parameter(let name, let location):
                    path.append(.parameter(name))
                    if parameters.contains(where: { $0.name == name }) { continue }
                    var type = IDLType.string
                    if let index = requestFields.firstIndex(where: { $0.name == name }) {
                        let field = requestFields.remove(at: index)
                        guard field.type.isScalar else {
                            throw IDLError(
                                "the request field '\(name)' fills the URI's $\(name), so it must be a scalar type",
                                at: field.location)
                        }
                        type = field.type
                    }
                    parameters.append(
                        IDLParameter(
                            name: name, key: name, type: type, isOptional: false, place: .path, location: location))
                }
            }
            // Adjacent literals merge, so the path reads as the URI did.
            path = path.reduce(into: []) { merged, part in
                if case .literal(let text) = part, case .literal(let previous)? = merged.last {
                    merged[merged.count - 1] = .literal(previous + text)
                } else {
                    merged.append(part)
                }
            }

            if let request = requests.first {
                if let single = request.body.single {
                    let bodyType = try type(single)
                    if bodyType == .file {
                        throw IDLError(
                            "an unnamed FILE body is not supported: name it ('FILE file;') to send it as a multipart part",
                            at: location(of: single))
                    }
                    parameters.append(
                        IDLParameter(
                            name: "body", key: "", type: bodyType, isOptional: false, place: .body,
                            location: location(of: single)))
                } else if bodyMethods.contains(method) {
                    if !requestFields.isEmpty {
                        var structure = IDLStructure(
                            name: typeBase + "Request", fields: requestFields, location: request.location,
                            summary: "The body of \(method) \(uriText(message.uri))")
                        if requestFields.contains(where: { $0.type == .file || $0.type == .blob }) {
                            for field in requestFields
                            where !(field.type.isScalar || field.type == .file || field.type == .blob) {
                                throw IDLError(
                                    "the multipart field '\(field.name)' must be a scalar, FILE or BLOB",
                                    at: field.location)
                            }
                            structure.isMultipart = true
                        }
                        module.structures.append(structure)
                        parameters.append(
                            IDLParameter(
                                name: "body", key: "", type: .named(structure.name), isOptional: false,
                                place: structure.isMultipart ? .multipartBody : .body, location: request.location))
                    }
                } else {
                    for field in requestFields {
                        guard field.type.isQueryValue else {
                            throw IDLError(
                                "the \(method) request field '\(field.name)' goes in the query, so it must be a scalar or an ARRAY of scalars",
                                at: field.location)
                        }
                        parameters.append(
                            IDLParameter(
                                name: field.name, key: field.key, type: field.type, isOptional: true, place: .query,
                                location: field.location))
                    }
                }
            }

            var response: IDLType?
            var responseLocation: SourceLocation?
            if let block = responses.first {
                if let single = block.body.single {
                    response = try type(single)
                    responseLocation = location(of: single)
                    if response == .file {
                        throw IDLError(
                            "a FILE response is not supported; use BLOB for the body's bytes", at: location(of: single))
                    }
                } else if !block.body.parameters.isEmpty {
                    module.structures.append(
                        IDLStructure(
                            name: typeBase + "Response", fields: try fields(block.body), location: block.location,
                            summary: "The response to \(method) \(uriText(message.uri))"))
                    response = .named(typeBase + "Response")
                }
            }

            module.endpoints.append(
                IDLEndpoint(
                    name: typeBase, method: method, path: path, parameters: parameters, response: response,
                    location: blockLocation, responseLocation: responseLocation,
                    summary: "HTTPIDL \(method) \(uriText(message.uri))"))
        }
        return module
    }

    static func uriText(_ uri: [HTTPIDLFile.URIComponent]) -> String {
        "/"
            + uri.map { component in
                switch component {
                case .literal(let text): text
                case .parameter(let name, _): "$" + name
                }
            }.joined(separator: "/")
    }
}
