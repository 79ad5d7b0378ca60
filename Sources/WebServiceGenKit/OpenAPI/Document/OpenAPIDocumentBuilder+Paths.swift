extension OpenAPIDocumentBuilder {
    /// A path item (or webhook), following its `$ref`, with its operations.
    mutating func readPathItem(
        _ path: String, _ value: YAMLValue, at location: OpenAPILocation, security: [OpenAPISecurityRequirement]?
    ) throws(OpenAPIError) -> OpenAPIPathItem {
        let resolved = try loader.resolve(value, at: location)
        let item = try OpenAPIObject(resolved.value, at: resolved.location, what: "a path item")
        let parameters = try readParameters(item)
        let servers = try readServers(item)
        let templated = Self.templateVariables(in: path)
        var operations: [OpenAPIOperation] = []
        for member in item.members {
            guard let method = OpenAPIHTTPMethod(rawValue: member.key) else { continue }
            let operation = try OpenAPIObject(
                member.value, at: item.location.appending(member.key), what: "an operation")
            var merged = parameters
            for parameter in try readParameters(operation) {
                if let index = merged.firstIndex(where: {
                    $0.name == parameter.name && $0.location == parameter.location
                }) {
                    merged[index] = parameter
                } else {
                    merged.append(parameter)
                }
            }
            try Self.checkPathParameters(merged, of: templated, path: path, at: operation.location)
            let ownServers = try readServers(operation)
            let ownSecurity = try operation["security"].map { value throws(OpenAPIError) in
                try readSecurity(value, at: operation.location.appending("security"))
            }
            let requestBody = try operation["requestBody"].map { value throws(OpenAPIError) in
                try readRequestBody(value, at: operation.location.appending("requestBody"))
            }
            if operation["callbacks"] != nil {
                warn("callbacks are not imported", at: operation.location.appending("callbacks"))
            }
            guard let responses = try operation.object("responses") else {
                throw OpenAPIError("the operation has no 'responses'", at: operation.location)
            }
            operations.append(
                OpenAPIOperation(
                    method: method, path: path, operationId: try operation.string("operationId"),
                    summary: try operation.string("summary"), description: try operation.string("description"),
                    deprecated: try operation.bool("deprecated") ?? false, tags: try operation.strings("tags") ?? [],
                    parameters: merged, requestBody: requestBody, responses: try readResponses(responses),
                    security: ownSecurity ?? security ?? [], servers: ownServers.isEmpty ? servers : ownServers,
                    source: operation.location))
        }
        return OpenAPIPathItem(
            path: path, summary: try item.string("summary"), description: try item.string("description"),
            servers: servers, parameters: parameters, operations: operations, source: item.location)
    }

    /// The names of a path template's expressions (`/users/{id}/repos/{repo}`: `id`, `repo`).
    static func templateVariables(in path: String) -> [String] {
        var names: [String] = []
        var rest = path[...]
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Each template expression of the path has a path parameter, and each path parameter an
    /// expression (OpenAPI 3.1, "Path Templating": "Each template expression in the path
    /// MUST correspond to a path parameter that is included in the Path Item itself and/or in each
    /// of the Path Item's Operations"; the Parameter Object's `name` for `in: path`: "the name field MUST correspond to
    /// a template expression occurring within the path field").
    static func checkPathParameters(
        _ parameters: [OpenAPIParameter], of templated: [String], path: String, at location: OpenAPILocation
    ) throws(OpenAPIError) {
        let named = parameters.filter { $0.location == .path }
        if let missing = templated.first(where: { name in !named.contains { $0.name == name } }) {
            throw OpenAPIError(
                "the path '\(path.prefix(100))' has '{\(missing.prefix(60))}', and the operation no path parameter "
                    + "of that name", at: location)
        }
        if let extra = named.first(where: { !templated.contains($0.name) }) {
            throw OpenAPIError(
                "the path parameter '\(extra.name.prefix(60))' is not in the path '\(path.prefix(100))'",
                at: extra.source)
        }
    }

    /// The `responses` of an operation, in order.
    mutating func readResponses(_ responses: OpenAPIObject) throws(OpenAPIError) -> [OpenAPIResponse] {
        var result: [OpenAPIResponse] = []
        for member in responses.members where !member.key.hasPrefix("x-") {
            let location = responses.location.appending(member.key)
            guard let status = OpenAPIResponseStatus(member.key) else {
                throw OpenAPIError(
                    "'\(member.key.prefix(60))' is not a response status (a code such as 200, a range such as 2XX, "
                        + "or default)", at: location)
            }
            result.append(try readResponse(member.value, status: status, at: location))
        }
        return result
    }
}
