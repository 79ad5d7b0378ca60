extension OpenAPIDocumentBuilder {
    /// `components`; empty when the document has none.
    mutating func readComponents(_ components: OpenAPIObject?) throws(OpenAPIError) -> OpenAPIComponents {
        var result = OpenAPIComponents()
        guard let components else { return result }
        for member in try components.object("schemas")?.members ?? [] {
            let location = components.location.appending("schemas").appending(member.key)
            let schema = try readSchema(member.value, at: location)
            schemas[location] = schema
            queuedSchemas.insert(location)
            result.schemas.append(OpenAPINamed(name: member.key, value: schema))
        }
        for member in try components.object("parameters")?.members ?? [] {
            let location = components.location.appending("parameters").appending(member.key)
            result.parameters.append(
                OpenAPINamed(name: member.key, value: try readParameter(member.value, at: location)))
        }
        for member in try components.object("requestBodies")?.members ?? [] {
            let location = components.location.appending("requestBodies").appending(member.key)
            result.requestBodies.append(
                OpenAPINamed(name: member.key, value: try readRequestBody(member.value, at: location)))
        }
        for member in try components.object("responses")?.members ?? [] {
            let location = components.location.appending("responses").appending(member.key)
            result.responses.append(
                OpenAPINamed(name: member.key, value: try readResponse(member.value, status: .default, at: location)))
        }
        for member in try components.object("headers")?.members ?? [] {
            let location = components.location.appending("headers").appending(member.key)
            result.headers.append(
                OpenAPINamed(name: member.key, value: try readHeader(member.key, member.value, at: location)))
        }
        for member in try components.object("securitySchemes")?.members ?? [] {
            let location = components.location.appending("securitySchemes").appending(member.key)
            result.securitySchemes.append(
                OpenAPINamed(name: member.key, value: try readSecurityScheme(member.value, at: location)))
        }
        for skipped in ["callbacks", "links"] where components[skipped] != nil {
            warn("\(skipped) are not imported", at: components.location.appending(skipped))
        }
        return result
    }

    /// A security scheme, following its `$ref`.
    mutating func readSecurityScheme(_ value: YAMLValue, at location: OpenAPILocation) throws(OpenAPIError)
        -> OpenAPISecurityScheme
    {
        let resolved = try loader.resolve(value, at: location)
        let scheme = try OpenAPIObject(resolved.value, at: resolved.location, what: "a security scheme")
        let type = try scheme.requiredString("type", of: "the security scheme")
        let kind: OpenAPISecurityScheme.Kind
        switch type {
        case "http":
            kind = .http(
                scheme: try scheme.requiredString("scheme", of: "the http security scheme").lowercased(),
                bearerFormat: try scheme.string("bearerFormat"))
        case "apiKey":
            let name = try scheme.requiredString("name", of: "the apiKey security scheme")
            let placeText = try scheme.requiredString("in", of: "the apiKey security scheme")
            guard let place = OpenAPIParameterLocation(rawValue: placeText), place != .path else {
                throw OpenAPIError(
                    "'\(placeText.prefix(60))' is not an API key location (header, query, cookie)",
                    at: scheme.location.appending("in"))
            }
            kind = .apiKey(name: name, location: place)
        case "oauth2":
            guard let flows = try scheme.object("flows") else {
                throw OpenAPIError("the oauth2 security scheme has no 'flows'", at: scheme.location)
            }
            kind = .oauth2(
                OpenAPIOAuthFlows(
                    implicit: try readFlow(flows, "implicit"), password: try readFlow(flows, "password"),
                    clientCredentials: try readFlow(flows, "clientCredentials"),
                    authorizationCode: try readFlow(flows, "authorizationCode")))
        case "openIdConnect":
            kind = .openIdConnect(
                url: try scheme.requiredString("openIdConnectUrl", of: "the openIdConnect security scheme"))
        case "mutualTLS":
            kind = .mutualTLS
        default:
            throw OpenAPIError(
                "'\(type.prefix(60))' is not a security scheme type (apiKey, http, oauth2, openIdConnect, mutualTLS)",
                at: scheme.location.appending("type"))
        }
        return OpenAPISecurityScheme(kind: kind, description: try scheme.string("description"), source: scheme.location)
    }

    /// The OAuth 2 flow `name` of `flows`, if present.
    func readFlow(_ flows: OpenAPIObject, _ name: String) throws(OpenAPIError) -> OpenAPIOAuthFlow? {
        guard let flow = try flows.object(name, what: "an OAuth flow") else { return nil }
        var scopes: [OpenAPINamed<String>] = []
        if let scopesObject = try flow.object("scopes") {
            for member in scopesObject.members {
                scopes.append(OpenAPINamed(name: member.key, value: try scopesObject.string(member.key) ?? ""))
            }
        }
        return OpenAPIOAuthFlow(
            authorizationURL: try flow.string("authorizationUrl"), tokenURL: try flow.string("tokenUrl"),
            refreshURL: try flow.string("refreshUrl"), scopes: scopes)
    }
}
