extension OpenAPIDocumentBuilder {
    /// The schema `value` at `location`, `depth` inline schemas deep (bounded by
    /// ``OpenAPILimits/maximumSchemaDepth``). A `$ref` is kept as a reference and its target
    /// queued for ``readPendingSchemas()``.
    mutating func readSchema(_ value: YAMLValue, at location: OpenAPILocation, depth: Int = 0) throws(OpenAPIError)
        -> OpenAPISchema
    {
        guard depth < loader.limits.maximumSchemaDepth else {
            throw OpenAPIError(
                "schemas are nested more than \(loader.limits.maximumSchemaDepth) deep", at: location)
        }
        var schema = OpenAPISchema(source: location)
        if case .bool(let flag) = value {
            schema.isFalse = !flag
            return schema
        }
        let object = try OpenAPIObject(value, at: location, what: "a schema")
        if let reference = try object.string("$ref") {
            let target = try loader.target(of: reference, at: location)
            _ = try loader.resolve(value, at: location)  // A cycle of nothing but $refs is an error.
            schema.reference = target
            if queuedSchemas.insert(target).inserted {
                pendingSchemas.append(target)
            }
            guard version.isJSONSchema2020 else { return schema }
        }
        try readTypes(object, into: &schema)
        schema.format = try object.string("format")
        schema.title = try object.string("title")
        schema.description = try object.string("description")
        if let properties = try object.object("properties") {
            for member in properties.members {
                let property = try readSchema(
                    member.value, at: properties.location.appending(member.key), depth: depth + 1)
                schema.properties.append(OpenAPINamed(name: member.key, value: property))
            }
        }
        schema.required = try object.strings("required") ?? []
        switch object["additionalProperties"] {
        case nil: break
        case .bool(let flag)?: schema.additionalProperties = .allowed(flag)
        case let value?:
            schema.additionalProperties = .schema(
                try readSchema(value, at: location.appending("additionalProperties"), depth: depth + 1))
        }
        if let items = object["items"] {
            if case .array = items {
                warn("an array of 'items' (tuple validation) is not imported", at: location.appending("items"))
            } else {
                schema.items = try readSchema(items, at: location.appending("items"), depth: depth + 1)
            }
        }
        if version.isJSONSchema2020 {
            schema.prefixItems = try readSchemas(object, "prefixItems", depth: depth + 1)
        }
        schema.enumValues = try object.array("enum")
        schema.constValue = object["const"]
        schema.allOf = try readSchemas(object, "allOf", depth: depth + 1)
        schema.oneOf = try readSchemas(object, "oneOf", depth: depth + 1)
        schema.anyOf = try readSchemas(object, "anyOf", depth: depth + 1)
        schema.discriminator = try readDiscriminator(object)
        schema.defaultValue = object["default"]
        if let example = object["example"] {
            schema.examples.append(example)
        }
        schema.examples += try object.array("examples") ?? []
        schema.readOnly = try object.bool("readOnly") ?? false
        schema.writeOnly = try object.bool("writeOnly") ?? false
        schema.deprecated = try object.bool("deprecated") ?? false
        for skipped in ["not", "xml"] where object[skipped] != nil {
            warn("'\(skipped)' is ignored", at: location.appending(skipped))
        }
        return schema
    }

    /// `type` (a name, or 3.1's array of names) and 3.0's `nullable`.
    func readTypes(_ object: OpenAPIObject, into schema: inout OpenAPISchema) throws(OpenAPIError) {
        let location = object.location.appending("type")
        var names: [(String, OpenAPILocation)] = []
        switch object["type"] {
        case nil: break
        case .string(let name)?: names = [(name, location)]
        case .array(let elements)?:
            for (index, element) in elements.enumerated() {
                guard case .string(let name) = element else {
                    throw OpenAPIError(
                        "a type must be a string, not \(element.kindName)", at: location.appending(index))
                }
                names.append((name, location.appending(index)))
            }
        case let value?:
            throw OpenAPIError("'type' must be a string or an array, not \(value.kindName)", at: location)
        }
        for (name, place) in names {
            guard let type = OpenAPISchemaType(rawValue: name) else {
                let types = OpenAPISchemaType.allCases.map(\.rawValue).joined(separator: ", ")
                throw OpenAPIError("'\(name.prefix(60))' is not a type (\(types))", at: place)
            }
            if !schema.types.contains(type) {
                schema.types.append(type)
            }
        }
        if try object.bool("nullable") == true && !schema.types.contains(.null) {
            schema.types.append(.null)
        }
    }

    /// The array of schemas `key` (`allOf`, `oneOf`, `anyOf`) of `object`.
    mutating func readSchemas(_ object: OpenAPIObject, _ key: String, depth: Int) throws(OpenAPIError)
        -> [OpenAPISchema]
    {
        var result: [OpenAPISchema] = []
        for (index, element) in (try object.array(key) ?? []).enumerated() {
            result.append(try readSchema(element, at: object.location.appending(key).appending(index), depth: depth))
        }
        return result
    }

    /// `discriminator`, if present.
    func readDiscriminator(_ object: OpenAPIObject) throws(OpenAPIError) -> OpenAPIDiscriminator? {
        guard let discriminator = try object.object("discriminator", what: "a discriminator") else { return nil }
        var mapping: [OpenAPINamed<String>] = []
        if let mappingObject = try discriminator.object("mapping") {
            for member in mappingObject.members {
                mapping.append(
                    OpenAPINamed(name: member.key, value: try mappingObject.requiredString(member.key, of: "")))
            }
        }
        return OpenAPIDiscriminator(
            propertyName: try discriminator.requiredString("propertyName", of: "the discriminator"), mapping: mapping)
    }

    /// Reads the targets of schema `$ref`s not read yet, and theirs, until none is left (a work
    /// list: reference chains through many files never recurse).
    mutating func readPendingSchemas() throws(OpenAPIError) {
        while let location = pendingSchemas.popLast() {
            guard schemas[location] == nil else { continue }
            let value = try loader.value(at: location)
            schemas[location] = try readSchema(value, at: location)
        }
    }
}
