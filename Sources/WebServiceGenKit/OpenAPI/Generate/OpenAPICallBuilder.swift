/// Turns the operations of an ``OpenAPIDocument`` into ``GeneratedCall``s, in the order of the
/// document, naming the types they need through the ``OpenAPIModelBuilder``.
///
/// The arguments are the path parameters in the order of the path, then the query, header and
/// cookie parameters in the order of the operation; the body comes after them. A parameter whose
/// default serialization the library already writes (a scalar anywhere, a list in a query item
/// with `form` and `explode`) fills a plain wildcard; every other one gets its OpenAPI style in
/// the call's `parameterStyles`.
struct OpenAPICallBuilder {
    private var callNames = GeneratedNames()

    mutating func calls(of document: OpenAPIDocument, models: inout OpenAPIModelBuilder) -> [GeneratedCall] {
        var calls: [GeneratedCall] = []
        for pathItem in document.paths {
            for operation in pathItem.operations {
                let call = call(for: operation, models: &models)
                calls.append(call)
                // Bytes come in memory, or to a file through the download twin.
                if case .data = call.response {
                    var twin = call
                    twin.name = callNames.claimMember(GeneratedNames.unescaped(call.name) + "ToFile")
                    twin.response = .file
                    twin.documentation += [
                        "", "The body goes to a file: pass a `DownloadDestination` last (or `nil`).",
                    ]
                    calls.append(twin)
                }
            }
        }
        return calls
    }

    private mutating func call(for operation: OpenAPIOperation, models: inout OpenAPIModelBuilder) -> GeneratedCall {
        let base = operation.operationId ?? (operation.method.rawValue + " " + operation.path)
        let name = callNames.claimMember(base)
        let typePrefix = SwiftNaming.typeNamePart(base)

        // Path parameters in the order of the template, then the others in the document's.
        let segments = Self.templateParts(operation.path)
        var ordered: [OpenAPIParameter] = []
        for case .parameter(let parameterName) in segments {
            if let parameter = operation.parameters.first(where: { $0.location == .path && $0.name == parameterName }),
                !ordered.contains(where: { $0.location == .path && $0.name == parameterName })
            {
                ordered.append(parameter)
            }
        }
        for location in [OpenAPIParameterLocation.query, .header, .cookie] {
            ordered += operation.parameters.filter { $0.location == location }
        }

        var arguments: [GeneratedArgument] = []
        var styles: [(index: Int, expression: String)] = []
        var queryItems: [String] = []
        var headers: [(name: String, value: String)] = []
        var cookies: [String] = []
        var pathIndex: [String: Int] = [:]
        for parameter in ordered {
            let index = arguments.count
            let type = argumentType(of: parameter, prefix: typePrefix, models: &models)
            arguments.append(
                GeneratedArgument(
                    key: parameter.name, location: parameter.location, type: type, isOptional: !parameter.required,
                    summary: OpenAPIModelBuilder.oneLine(parameter.description)))
            let style = Self.style(of: parameter, type: type, isText: models.isText(type))
            if let style { styles.append((index, style)) }
            switch parameter.location {
            case .path:
                pathIndex[parameter.name] = index
            case .query:
                queryItems.append(style == nil ? "\(Self.queryName(parameter.name))=%%\(index)%%" : "%%\(index)%%")
            case .header:
                headers.append((parameter.name, "%%\(index)%%"))
            case .cookie:
                cookies.append("%%\(index)%%")
            }
        }
        if !cookies.isEmpty { headers.append(("Cookie", cookies.joined(separator: "; "))) }

        var path = ""
        for segment in segments {
            switch segment {
            case .literal(let text): path += text
            case .parameter(let parameterName): path += pathIndex[parameterName].map { "%%\($0)%%" } ?? ""
            }
        }
        if path.hasPrefix("/") { path.removeFirst() }
        if !queryItems.isEmpty { path += "?" + queryItems.joined(separator: "&") }

        let body = operation.requestBody.flatMap { body in
            requestBody(body, prefix: typePrefix, models: &models)
        }
        let response = successResponse(of: operation, prefix: typePrefix, models: &models)
        if let contentType = body?.contentTypeHeader { headers.append(("Content-Type", contentType)) }
        let failures = failures(of: operation, prefix: typePrefix, models: &models)

        var documentation = ["\(operation.method.rawValue.uppercased()) \(operation.path)"]
        if let summary = OpenAPIModelBuilder.oneLine(operation.summary ?? operation.description) {
            documentation += ["", summary]
        }
        documentation += ["", "From `\(operation.source.pointer)` of \(operation.source.file.lastPathComponent)."]
        if operation.deprecated { documentation.append("Deprecated in the document.") }
        var call = GeneratedCall(
            name: name, method: operation.method.rawValue.uppercased(), relativePath: path, headers: headers,
            arguments: arguments, body: body, response: response, styles: styles, documentation: documentation)
        if !failures.isEmpty {
            call.failures = failures
            call.failureType = models.claimTypeName(typePrefix + "Failure")
        }
        call.security = operation.security.map { $0.entries.map(\.scheme) }
        call.server = operation.servers.first.map(Self.defaultURL)
        return call
    }

    /// A server's URL with every variable at its default.
    static func defaultURL(_ server: OpenAPIServer) -> String {
        var url = server.url
        for variable in server.variables {
            url = url.replacingOccurrences(of: "{\(variable.name)}", with: variable.defaultValue)
        }
        return url
    }

    // MARK: Parameters

    private func argumentType(
        of parameter: OpenAPIParameter, prefix: String, models: inout OpenAPIModelBuilder
    ) -> GeneratedType {
        if let schema = parameter.schema {
            return models.type(of: schema, suggestedName: prefix + SwiftNaming.typeNamePart(parameter.name)).type
        }
        models.warn(
            "the parameter '\(parameter.name)' is described by 'content': pass its serialized text (a String)",
            at: parameter.source)
        return .string
    }

    /// The `ParameterStyle` expression for `parameter`, or `nil` when a plain wildcard writes what
    /// the style would (a scalar, a query list with `form` and `explode`, no `allowReserved`).
    static func style(of parameter: OpenAPIParameter, type: GeneratedType, isText: Bool) -> String? {
        let name = SwiftNaming.stringLiteral(parameter.name)
        let isList: Bool
        if case .array = type { isList = true } else { isList = false }
        switch parameter.location {
        case .path:
            if parameter.style == .simple, isText { return nil }
            switch parameter.style {
            case .label: return ".label(explode: \(parameter.explode))"
            case .matrix: return ".matrix(\(name), explode: \(parameter.explode))"
            default: return ".simple(explode: \(parameter.explode))"
            }
        case .query:
            if parameter.style == .form, parameter.explode, !parameter.allowReserved, isText || isList {
                return nil
            }
            let reserved = parameter.allowReserved ? ", allowReserved: true" : ""
            switch parameter.style {
            case .spaceDelimited: return ".spaceDelimited(\(name)\(reserved))"
            case .pipeDelimited: return ".pipeDelimited(\(name)\(reserved))"
            case .deepObject: return ".deepObject(\(name)\(reserved))"
            default: return ".form(\(name), explode: \(parameter.explode)\(reserved))"
            }
        case .header:
            if isText { return nil }
            return ".simple(explode: \(parameter.explode))"
        case .cookie:
            return ".form(\(name), explode: \(parameter.explode))"
        }
    }

    /// The `ParameterStyle` expression of a form property's `encoding`; `nil` when it is `form`,
    /// exploding (the default), without `allowReserved`.
    static func formStyle(_ encoding: OpenAPIEncoding) -> String? {
        let style = encoding.style ?? .form
        let explode = encoding.explode ?? (style == .form)
        guard style != .form || !explode || encoding.allowReserved else { return nil }
        let name = SwiftNaming.stringLiteral(encoding.property)
        let reserved = encoding.allowReserved ? ", allowReserved: true" : ""
        switch style {
        case .spaceDelimited: return ".spaceDelimited(\(name)\(reserved))"
        case .pipeDelimited: return ".pipeDelimited(\(name)\(reserved))"
        case .deepObject: return ".deepObject(\(name)\(reserved))"
        default: return ".form(\(name), explode: \(explode)\(reserved))"
        }
    }

    /// A query item's name as a template writes it: its own characters percent-encoded, so that
    /// `&`, `=` and `%` in a name stay text.
    static func queryName(_ name: String) -> String { percentEncoded(name, keeping: "-._~") }

    /// A path template's pieces: literal text (percent-encoded where a URL needs it) and
    /// `{name}` expressions.
    enum TemplatePart: Equatable {
        case literal(String)
        case parameter(String)
    }

    static func templateParts(_ path: String) -> [TemplatePart] {
        var parts: [TemplatePart] = []
        var literal = ""
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            if !literal.isEmpty { parts.append(.literal(encodedLiteral(literal))) }
            literal = ""
            parts.append(.parameter(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(encodedLiteral(literal))) }
        return parts
    }

    /// Literal path text with the characters a path may not hold (and `%`, `?`, which would
    /// change its meaning in a template) percent-encoded.
    private static func encodedLiteral(_ text: String) -> String {
        percentEncoded(text, keeping: "-._~!$&'()*+,;=:@/")
    }

    /// `text` with every byte but ASCII letters, digits and `kept` written `%XX`.
    private static func percentEncoded(_ text: String, keeping kept: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || kept.contains(character) {
                result.append(character)
            } else {
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    // MARK: Bodies

    private func requestBody(
        _ body: OpenAPIRequestBody, prefix: String, models: inout OpenAPIModelBuilder
    ) -> GeneratedBody? {
        guard let media = Self.preferredMedia(body.content) else { return nil }
        let type = media.schema.map { models.type(of: $0, suggestedName: prefix + "Request").type } ?? .json
        let mediaType = media.mediaType.lowercased()
        if Self.isJSON(mediaType) { return .json(type, mediaType: media.mediaType) }
        if mediaType == "application/x-www-form-urlencoded" {
            let styles = media.encoding.compactMap { encoding in
                Self.formStyle(encoding).map { (property: encoding.property, expression: $0) }
            }
            return .form(type, styles: styles)
        }
        if mediaType.hasPrefix("multipart/") {
            var contentTypes: [String: String] = [:]
            for encoding in media.encoding { contentTypes[encoding.property] = encoding.contentType }
            return .multipart(media.schema == nil ? nil : type, contentTypes: contentTypes)
        }
        if mediaType.hasPrefix("text/") { return .text(mediaType: media.mediaType) }
        return .data(mediaType: media.mediaType.contains("*") ? "application/octet-stream" : media.mediaType)
    }

    /// JSON first, then a form, multipart, text, and anything else in the document's order.
    static func preferredMedia(_ content: [OpenAPIMediaType]) -> OpenAPIMediaType? {
        let ranks: [(OpenAPIMediaType) -> Bool] = [
            { isJSON($0.mediaType.lowercased()) },
            { $0.mediaType.lowercased() == "application/x-www-form-urlencoded" },
            { $0.mediaType.lowercased().hasPrefix("multipart/") },
            { $0.mediaType.lowercased().hasPrefix("text/") },
            { _ in true },
        ]
        for rank in ranks {
            if let media = content.first(where: rank) { return media }
        }
        return nil
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let essence = mediaType.split(separator: ";").first.map(String.init) ?? mediaType
        return essence == "application/json" || essence.hasSuffix("+json")
    }

    private func successResponse(
        of operation: OpenAPIOperation, prefix: String, models: inout OpenAPIModelBuilder
    ) -> GeneratedResponse {
        let successes = operation.responses.filter { response in
            switch response.status {
            case .code(let code): (200...299).contains(code)
            case .range(let digit): digit == 2
            case .default: false
            }
        }
        guard let first = successes.first(where: { !$0.content.isEmpty }) ?? successes.first else {
            return .empty
        }
        // One Response type per call: the first success with a body gives it; others are said.
        for other in successes where other.source != first.source && !other.content.isEmpty {
            models.warn(
                "the call returns the \(first.status) response's body; the \(other.status) response's is read as that "
                    + "type too", at: other.source)
        }
        guard let media = Self.preferredMedia(first.content) else { return .empty }
        let mediaType = media.mediaType.lowercased()
        if Self.isJSON(mediaType) {
            let type = media.schema.map { models.type(of: $0, suggestedName: prefix + "Response").type } ?? .json
            return .json(type)
        }
        if mediaType == "text/event-stream" { return .eventStream }
        if Self.jsonLinesTypes.contains(mediaType) {
            // 3.1's `itemSchema` is not read; the schema describes one line (one element).
            let type = media.schema.map { models.type(of: $0, suggestedName: prefix + "Item").type } ?? .json
            return .jsonLines(type)
        }
        return mediaType.hasPrefix("text/") ? .text : .data
    }

    static let jsonLinesTypes: Set<String> = ["application/jsonl", "application/x-ndjson", "application/json-seq"]

    /// The documented answers other than successes (1XX, 2XX and 3XX are the library's), each a
    /// case of the call's error enum with its JSON body's type.
    private func failures(
        of operation: OpenAPIOperation, prefix: String, models: inout OpenAPIModelBuilder
    ) -> [GeneratedFailure] {
        var failures: [GeneratedFailure] = []
        for response in operation.responses {
            let name: String
            switch response.status {
            case .code(let code) where code >= 400: name = "status\(code)"
            case .range(let digit) where digit >= 4: name = "status\(digit)XX"
            case .default: name = "other"
            default: continue
            }
            var type: GeneratedType?
            if let media = Self.preferredMedia(response.content), Self.isJSON(media.mediaType.lowercased()) {
                type =
                    media.schema.map {
                        models.type(of: $0, suggestedName: prefix + SwiftNaming.typeNamePart(name)).type
                    } ?? .json
            }
            failures.append(
                GeneratedFailure(
                    status: response.status, name: name, type: type,
                    summary: OpenAPIModelBuilder.oneLine(response.description)))
        }
        return failures
    }
}

extension GeneratedBody {
    /// The `Content-Type` the call declares for bodies the serializer does not type itself.
    var contentTypeHeader: String? {
        switch self {
        case .data(let mediaType): mediaType
        default: nil
        }
    }
}
