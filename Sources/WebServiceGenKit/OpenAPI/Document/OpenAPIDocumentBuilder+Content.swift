extension OpenAPIDocumentBuilder {
    /// A request body, following its `$ref`.
    mutating func readRequestBody(_ value: YAMLValue, at location: OpenAPILocation) throws(OpenAPIError)
        -> OpenAPIRequestBody
    {
        let resolved = try loader.resolve(value, at: location)
        let body = try OpenAPIObject(resolved.value, at: resolved.location, what: "a request body")
        return OpenAPIRequestBody(
            description: try body.string("description"), required: try body.bool("required") ?? false,
            content: try readContent(body), source: body.location)
    }

    /// A response, following its `$ref`.
    mutating func readResponse(_ value: YAMLValue, status: OpenAPIResponseStatus, at location: OpenAPILocation)
        throws(OpenAPIError) -> OpenAPIResponse
    {
        let resolved = try loader.resolve(value, at: location)
        let response = try OpenAPIObject(resolved.value, at: resolved.location, what: "a response")
        if response["links"] != nil {
            warn("links are not imported", at: response.location.appending("links"))
        }
        return OpenAPIResponse(
            status: status, description: try response.string("description") ?? "",
            headers: try readHeaders(response), content: try readContent(response), source: response.location)
    }

    /// The `content` map of `owner`, in order; empty when it has none.
    mutating func readContent(_ owner: OpenAPIObject) throws(OpenAPIError) -> [OpenAPIMediaType] {
        guard let content = try owner.object("content") else { return [] }
        var mediaTypes: [OpenAPIMediaType] = []
        for member in content.members {
            let mediaType = try OpenAPIObject(
                member.value, at: content.location.appending(member.key), what: "a media type")
            let schema = try mediaType["schema"].map { value throws(OpenAPIError) in
                try readSchema(value, at: mediaType.location.appending("schema"))
            }
            var encodings: [OpenAPIEncoding] = []
            for property in try mediaType.object("encoding")?.members ?? [] {
                let encoding = try OpenAPIObject(
                    property.value, at: mediaType.location.appending("encoding").appending(property.key),
                    what: "an encoding")
                encodings.append(
                    OpenAPIEncoding(
                        property: property.key, contentType: try encoding.string("contentType"),
                        style: try readStyle(encoding), explode: try encoding.bool("explode"),
                        allowReserved: try encoding.bool("allowReserved") ?? false,
                        headers: try readHeaders(encoding)))
            }
            mediaTypes.append(
                OpenAPIMediaType(
                    mediaType: member.key, schema: schema, encoding: encodings, source: mediaType.location))
        }
        return mediaTypes
    }
}
