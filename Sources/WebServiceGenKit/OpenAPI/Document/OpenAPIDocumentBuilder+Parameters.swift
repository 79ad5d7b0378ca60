extension OpenAPIDocumentBuilder {
    /// The `parameters` of a path item or operation, resolved, in order. A name may appear once
    /// per location (OpenAPI 3.1, the Path Item's and the Operation's `parameters`: "The list MUST
    /// NOT include duplicated parameters. A unique parameter is defined by a combination of a name
    /// and location").
    mutating func readParameters(_ owner: OpenAPIObject) throws(OpenAPIError) -> [OpenAPIParameter] {
        var parameters: [OpenAPIParameter] = []
        for (index, element) in (try owner.array("parameters") ?? []).enumerated() {
            let location = owner.location.appending("parameters").appending(index)
            let parameter = try readParameter(element, at: location)
            if parameters.contains(where: { $0.name == parameter.name && $0.location == parameter.location }) {
                throw OpenAPIError(
                    "the \(parameter.location.rawValue) parameter '\(parameter.name.prefix(60))' is listed twice "
                        + "(a parameter is one name in one location)", at: location)
            }
            parameters.append(parameter)
        }
        return parameters
    }

    /// A parameter, following its `$ref`.
    mutating func readParameter(_ value: YAMLValue, at location: OpenAPILocation) throws(OpenAPIError)
        -> OpenAPIParameter
    {
        let resolved = try loader.resolve(value, at: location)
        let parameter = try OpenAPIObject(resolved.value, at: resolved.location, what: "a parameter")
        let name = try parameter.requiredString("name", of: "the parameter")
        let locationText = try parameter.requiredString("in", of: "the parameter '\(name)'")
        guard let place = OpenAPIParameterLocation(rawValue: locationText) else {
            throw OpenAPIError(
                "'\(locationText.prefix(60))' is not a parameter location (path, query, header, cookie)",
                at: parameter.location.appending("in"))
        }
        let required = try parameter.bool("required") ?? false
        if place == .path && !required {
            throw OpenAPIError(
                "the path parameter '\(name)' must have 'required: true'", at: parameter.location.appending("required"))
        }
        let style = try readStyle(parameter) ?? OpenAPIParameterStyle.defaultStyle(for: place)
        let allowed = OpenAPIParameterStyle.allowed(in: place)
        guard allowed.contains(style) else {
            throw OpenAPIError(
                "the style '\(style.rawValue)' is not one of a \(place.rawValue) parameter's "
                    + "(\(allowed.map(\.rawValue).joined(separator: ", ")))", at: parameter.location.appending("style"))
        }
        let (schema, content) = try readSchemaOrContent(parameter)
        return OpenAPIParameter(
            name: name, location: place, description: try parameter.string("description"), required: required,
            deprecated: try parameter.bool("deprecated") ?? false, style: style,
            explode: try parameter.bool("explode") ?? (style == .form),
            allowReserved: try parameter.bool("allowReserved") ?? false, schema: schema, content: content,
            source: parameter.location)
    }

    /// A header named `name`, following its `$ref`.
    mutating func readHeader(_ name: String, _ value: YAMLValue, at location: OpenAPILocation) throws(OpenAPIError)
        -> OpenAPIHeader
    {
        let resolved = try loader.resolve(value, at: location)
        let header = try OpenAPIObject(resolved.value, at: resolved.location, what: "a header")
        let (schema, content) = try readSchemaOrContent(header)
        return OpenAPIHeader(
            name: name, description: try header.string("description"), required: try header.bool("required") ?? false,
            deprecated: try header.bool("deprecated") ?? false, explode: try header.bool("explode") ?? false,
            schema: schema, content: content, source: header.location)
    }

    /// The `headers` map of `owner`, in order.
    mutating func readHeaders(_ owner: OpenAPIObject) throws(OpenAPIError) -> [OpenAPIHeader] {
        var headers: [OpenAPIHeader] = []
        for member in try owner.object("headers")?.members ?? [] {
            headers.append(
                try readHeader(member.key, member.value, at: owner.location.appending("headers").appending(member.key)))
        }
        return headers
    }

    /// `style`, if given.
    func readStyle(_ object: OpenAPIObject) throws(OpenAPIError) -> OpenAPIParameterStyle? {
        guard let text = try object.string("style") else { return nil }
        guard let style = OpenAPIParameterStyle(rawValue: text) else {
            let styles = OpenAPIParameterStyle.allCases.map(\.rawValue).joined(separator: ", ")
            throw OpenAPIError(
                "'\(text.prefix(60))' is not a style (\(styles))", at: object.location.appending("style"))
        }
        return style
    }

    /// The `schema` and `content` of a parameter or header (one of the two is expected).
    mutating func readSchemaOrContent(_ object: OpenAPIObject) throws(OpenAPIError) -> (
        OpenAPISchema?, [OpenAPIMediaType]
    ) {
        let schema = try object["schema"].map { value throws(OpenAPIError) in
            try readSchema(value, at: object.location.appending("schema"))
        }
        return (schema, try readContent(object))
    }
}
