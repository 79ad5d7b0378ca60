/// Checks a module and readies it for Swift: every structure gets its Swift name (unique),
/// references must name declared structures, `extends` copies the parent's fields into the
/// child, and field and call names must stay distinct once written as Swift.
enum IDLResolver {
    static func resolve(_ module: IDLModule) throws(IDLError) -> IDLModule {
        // Swift names, unique.
        var swiftNames: [String: String] = [:]
        var firstDeclaration: [String: IDLStructure] = [:]
        for structure in module.structures {
            let swiftName = SwiftNaming.typeName(structure.name)
            if let first = firstDeclaration[swiftName] {
                let same =
                    first.name == structure.name
                    ? "'\(structure.name)'" : "'\(structure.name)' (Swift name \(swiftName), as '\(first.name)')"
                throw IDLError("duplicate struct \(same); first declared at \(first.location)", at: structure.location)
            }
            firstDeclaration[swiftName] = structure
            swiftNames[structure.name] = swiftName
        }

        func check(_ type: IDLType, at location: SourceLocation) throws(IDLError) {
            for name in type.structureNames where swiftNames[name] == nil {
                throw IDLError("unknown type '\(name)'", at: location)
            }
        }

        // References and fields.
        var byName: [String: IDLStructure] = [:]
        for structure in module.structures {
            var seenKeys: [String: SourceLocation] = [:]
            var seenNames: [String: IDLField] = [:]
            for field in structure.fields {
                try check(field.type, at: field.typeLocation)
                if let first = seenKeys[field.key] {
                    throw IDLError(
                        "duplicate key '\(field.key)' in '\(structure.name)'; first at \(first)", at: field.location)
                }
                seenKeys[field.key] = field.location
                let property = SwiftNaming.bareMemberName(field.name)
                if let first = seenNames[property] {
                    throw IDLError(
                        "the fields '\(first.name)' and '\(field.name)' of '\(structure.name)' would both be the Swift property '\(property)'",
                        at: field.location)
                }
                seenNames[property] = field
            }
            if let parent = structure.parent, swiftNames[parent.name] == nil {
                throw IDLError("'\(structure.name)' extends the unknown struct '\(parent.name)'", at: parent.location)
            }
            byName[structure.name] = structure
        }

        // extends: the parent's fields first.
        func allFields(of structure: IDLStructure, chain: [String]) throws(IDLError) -> [IDLField] {
            guard let parent = structure.parent else { return structure.fields }
            if chain.contains(parent.name) {
                let cycle = (chain + [parent.name]).joined(separator: " extends ")
                throw IDLError("'extends' cycle: \(cycle)", at: parent.location)
            }
            // One call per struct of the chain, each copying the fields inherited so far. The error
            // points at the `extends` of the struct whose chain is too long.
            guard chain.count < IDLNesting.maximumDepth else {
                throw IDLError(
                    "'extends' chains more than the maximum depth of \(IDLNesting.maximumDepth) structs",
                    at: byName[chain[0]]?.parent?.location ?? parent.location)
            }
            let inherited = try allFields(of: byName[parent.name]!, chain: chain + [parent.name])
            for field in structure.fields {
                if let clash = inherited.first(where: {
                    $0.key == field.key || SwiftNaming.bareMemberName($0.name) == SwiftNaming.bareMemberName(field.name)
                }) {
                    throw IDLError(
                        "the field '\(field.name)' of '\(structure.name)' is also declared in its parent '\(parent.name)' (at \(clash.location))",
                        at: field.location)
                }
            }
            return inherited + structure.fields
        }

        var resolved = IDLModule()
        for structure in module.structures {
            var copy = structure
            copy.fields = try allFields(of: structure, chain: [structure.name]).map { field in
                var renamed = field
                renamed.type = field.type.renamingStructures { swiftNames[$0]! }
                return renamed
            }
            copy.name = swiftNames[structure.name]!
            resolved.structures.append(copy)
        }

        // Endpoints.
        var callNames: [String: IDLEndpoint] = [:]
        for endpoint in module.endpoints {
            let callName = SwiftNaming.bareMemberName(endpoint.name)
            if let first = callNames[callName] {
                throw IDLError(
                    "duplicate call '\(callName)' (from '\(endpoint.name)'); first declared at \(first.location)",
                    at: endpoint.location)
            }
            callNames[callName] = endpoint
            var copy = endpoint
            for index in copy.parameters.indices {
                try check(copy.parameters[index].type, at: copy.parameters[index].location)
                copy.parameters[index].type = copy.parameters[index].type.renamingStructures { swiftNames[$0]! }
            }
            if let response = endpoint.response {
                try check(response, at: endpoint.responseLocation)
                copy.response = response.renamingStructures { swiftNames[$0]! }
            }
            resolved.endpoints.append(copy)
        }
        return resolved
    }
}
