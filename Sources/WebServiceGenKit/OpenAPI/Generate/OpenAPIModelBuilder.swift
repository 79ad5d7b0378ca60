import Foundation

/// Turns the schemas of an ``OpenAPIDocument`` into ``GeneratedDeclaration``s: one per component
/// schema (in the order of the document) and one per inline schema that needs a type of its own.
///
/// A `$ref` becomes the name of its target's declaration, made when it is first met, so
/// recursive schemas are named, never expanded. Inline schemas nest no deeper than the reader
/// allowed (``OpenAPILimits/maximumSchemaDepth``); `allOf` chains are followed once each.
struct OpenAPIModelBuilder {
    let document: OpenAPIDocument
    private(set) var names: GeneratedNames
    private(set) var declarations: [GeneratedDeclaration] = [] {
        didSet {
            if case .enumeration(let name, _, _, _)? = declarations.last { enumerationNames.insert(name) }
        }
    }
    /// The names of the enums of values declared so far.
    private var enumerationNames: Set<String> = []
    private(set) var warnings: [OpenAPIWarning] = []
    /// The Swift name of each schema location that has (or is getting) a declaration.
    private var declared: [OpenAPILocation: String] = [:]
    /// The component key of each component schema's location.
    private var componentKeys: [OpenAPILocation: String] = [:]
    /// The schemas whose declarations are built (or being built).
    private var built: Set<OpenAPILocation> = []
    /// Schemas a `$ref` named that are still to build (``buildPending()``).
    private var pending: [OpenAPILocation] = []

    /// The Swift type of each component schema, by its key, in the document's order.
    var componentTypes: [OpenAPINamed<String>] {
        document.components.schemas.compactMap { component in
            declared[component.value.source].map { OpenAPINamed(name: component.name, value: $0) }
        }
    }

    init(document: OpenAPIDocument, reserved: Set<String>) {
        self.document = document
        names = GeneratedNames(
            reserved: reserved.union(SwiftNaming.reservedTypeNames).union(GeneratedNames.supportTypes)
                .union(GeneratedNames.libraryTypes))
        for component in document.components.schemas {
            componentKeys[component.value.source] = component.name
        }
    }

    /// Declares every component schema, in the order of the document. Component names are
    /// claimed first, so an inline schema never takes a component's name.
    mutating func declareComponents() {
        for component in document.components.schemas where declared[component.value.source] == nil {
            declared[component.value.source] = names.claimType(component.name)
        }
        for component in document.components.schemas where built.insert(component.value.source).inserted {
            build(component.value, named: declared[component.value.source] ?? component.name)
        }
        buildPending()
    }

    /// Builds the schemas `$ref`s named since the last time, and those they name, in the order
    /// they were named: a worklist, so a long chain of references recurses no deeper than one.
    mutating func buildPending() {
        var next = 0
        while next < pending.count {
            let location = pending[next]
            next += 1
            guard built.insert(location).inserted, let name = declared[location] else { continue }
            if let schema = document.schemas[location] {
                build(schema, named: name)
            } else {
                warn("the schema '\(location.pointer)' was not read; its values are JSONValue", at: location)
                declarations.append(.alias(name: name, summary: summary(nil, at: location), type: .json))
            }
        }
        pending.removeAll()
    }

    /// Whether `type` fills a wildcard as text: a scalar, or a generated enum of values (its raw
    /// value).
    func isText(_ type: GeneratedType) -> Bool {
        if type.isScalar { return true }
        guard case .named(let name) = type else { return false }
        return enumerationNames.contains(name)
    }

    /// A type name for `text`, made unique among the file's types (an error enum, the servers).
    mutating func claimTypeName(_ text: String) -> String { names.claimType(text) }

    mutating func warn(_ message: String, at location: OpenAPILocation) {
        warnings.append(OpenAPIWarning(message, at: location))
    }

    // MARK: Types

    /// The type of a value described by `schema`, and whether `null` is one of its values. An
    /// inline schema that needs a declaration gets one named `suggestedName` (made unique).
    mutating func type(of schema: OpenAPISchema, suggestedName: String) -> (type: GeneratedType, isNullable: Bool) {
        if let reference = schema.reference, !hasOwnShape(schema) {
            let target = document.schemas[reference]
            return (.named(declaration(for: reference)), schema.isNullable || (target?.isNullable ?? false))
        }
        // `allOf` of one schema and nothing else: 3.0's way to give a `$ref` siblings (`nullable`).
        if schema.allOf.count == 1, let only = schema.allOf.first, schema.properties.isEmpty, schema.reference == nil,
            schema.oneOf.isEmpty, schema.anyOf.isEmpty, schema.enumValues == nil
        {
            let inner = type(of: only, suggestedName: suggestedName)
            return (inner.type, inner.isNullable || schema.isNullable)
        }
        // One alternative and `null` (3.1's nullable `$ref`): that alternative, nullable.
        let options = alternatives(of: schema)
        if options.count == 1, let only = options.first, schema.properties.isEmpty, schema.allOf.isEmpty,
            schema.discriminator == nil
        {
            return (type(of: only, suggestedName: suggestedName).type, true)
        }
        let nullable =
            schema.isNullable || (schema.enumValues?.contains(.null) ?? false)
            || schema.oneOf.contains(where: isNullSchema) || schema.anyOf.contains(where: isNullSchema)
        if needsDeclaration(schema) {
            // An inline schema read twice (a property merged into another struct by allOf) is
            // declared once, where it is.
            if let name = declared[schema.source] { return (.named(name), nullable) }
            let name = names.claimType(suggestedName)
            declared[schema.source] = name
            build(schema, named: name)
            return (.named(name), nullable)
        }
        return (inlineType(of: schema, suggestedName: suggestedName), nullable)
    }

    /// Whether a schema with a `$ref` (3.1 keeps its siblings) says more than the reference does:
    /// then it is read as an `allOf` of the reference and itself.
    private func hasOwnShape(_ schema: OpenAPISchema) -> Bool {
        !schema.properties.isEmpty || !schema.allOf.isEmpty || !schema.oneOf.isEmpty || !schema.anyOf.isEmpty
    }

    private func isNullSchema(_ schema: OpenAPISchema) -> Bool {
        schema.reference == nil && schema.types == [.null]
    }

    /// Whether `schema` is a struct, an enum of values or a union: a declaration of its own.
    private func needsDeclaration(_ schema: OpenAPISchema) -> Bool {
        if enumKind(schema) != nil { return true }
        if !alternatives(of: schema).isEmpty { return true }
        if !schema.allOf.isEmpty || (schema.reference != nil && hasOwnShape(schema)) { return true }
        return !schema.properties.isEmpty
    }

    /// The name of the declaration of the schema at `location`, named on first use and built by
    /// the next ``buildPending()``.
    mutating func declaration(for location: OpenAPILocation) -> String {
        if let name = declared[location] { return name }
        let base = componentKeys[location] ?? location.pointer.tokens.last ?? "Schema"
        let name = names.claimType(base)
        declared[location] = name
        pending.append(location)
        return name
    }

    /// The type of a schema that gets no declaration of its own: scalars, arrays, dictionaries.
    private mutating func inlineType(of schema: OpenAPISchema, suggestedName: String) -> GeneratedType {
        if schema.isFalse {
            warn("the schema 'false' admits no value; it is read as any JSON value", at: schema.source)
            return .json
        }
        if let constant = schema.constValue {
            return scalarType(of: constant) ?? .json
        }
        let types = schema.types.filter { $0 != .null }
        guard types.count == 1, let only = types.first else {
            if types.isEmpty, schema.items != nil { return arrayType(of: schema, suggestedName: suggestedName) }
            if types.isEmpty, schema.additionalProperties != nil {
                return dictionaryType(of: schema, suggestedName: suggestedName)
            }
            return .json
        }
        switch only {
        case .string: return stringType(format: schema.format)
        case .integer:
            switch schema.format {
            case "int32": return .int32
            case "int64": return .int64
            default: return .int
            }
        case .number:
            switch schema.format {
            case "float": return .float
            default: return .double
            }
        case .boolean: return .bool
        case .array: return arrayType(of: schema, suggestedName: suggestedName)
        case .object: return dictionaryType(of: schema, suggestedName: suggestedName)
        case .null: return .json
        }
    }

    private func stringType(format: String?) -> GeneratedType {
        switch format {
        case "date-time": .date
        case "uuid": .uuid
        case "uri": .url
        case "byte", "binary": .data
        default: .string
        }
    }

    private func scalarType(of value: YAMLValue) -> GeneratedType? {
        switch value {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        default: nil
        }
    }

    private mutating func arrayType(of schema: OpenAPISchema, suggestedName: String) -> GeneratedType {
        if !schema.prefixItems.isEmpty {
            warn("'prefixItems' (a tuple) is read as an array of any JSON values", at: schema.source)
            return .array(.json)
        }
        guard let items = schema.items else { return .array(.json) }
        let element = type(of: items, suggestedName: suggestedName + "Item")
        return .array(element.type)
    }

    private mutating func dictionaryType(of schema: OpenAPISchema, suggestedName: String) -> GeneratedType {
        switch schema.additionalProperties {
        case .schema(let values)?:
            return .dictionary(type(of: values, suggestedName: suggestedName + "Value").type)
        default:
            return .dictionary(.json)
        }
    }

    // MARK: Declarations

    /// Builds the declaration of `schema` named `name` (already claimed) and appends it.
    private mutating func build(_ schema: OpenAPISchema, named name: String) {
        let summary = summary(schema, at: schema.source)
        if let kind = enumKind(schema) {
            declarations.append(enumeration(schema, named: name, isInteger: kind, summary: summary))
            return
        }
        let options = alternatives(of: schema)
        if !options.isEmpty {
            declarations.append(union(schema, options: options, named: name, summary: summary))
            return
        }
        if !schema.allOf.isEmpty || (schema.reference != nil && hasOwnShape(schema)) || !schema.properties.isEmpty {
            declarations.append(structure(schema, named: name, summary: summary))
            return
        }
        if let reference = schema.reference {
            declarations.append(.alias(name: name, summary: summary, type: .named(declaration(for: reference))))
            return
        }
        let type = inlineType(of: schema, suggestedName: name)
        declarations.append(.alias(name: name, summary: summary, type: type))
    }

    /// `true` for an integer enum, `false` for a string enum, `nil` when the schema is no enum
    /// (or its values are of several kinds: then it is read as its type).
    private func enumKind(_ schema: OpenAPISchema) -> Bool? {
        guard let values = schema.enumValues?.filter({ $0 != .null }), !values.isEmpty else { return nil }
        let types = schema.types.filter { $0 != .null }
        if types == [.integer] || (types.isEmpty && values.allSatisfy({ if case .int = $0 { true } else { false } })) {
            return true
        }
        if types == [.string] || types.isEmpty { return false }
        return nil
    }

    private mutating func enumeration(_ schema: OpenAPISchema, named name: String, isInteger: Bool, summary: String)
        -> GeneratedDeclaration
    {
        var caseNames = GeneratedNames(reserved: ["undocumented", "rawValue", "init"])
        var cases: [GeneratedEnumCase] = []
        var seen: Set<String> = []
        for (index, value) in (schema.enumValues ?? []).enumerated() {
            let text: String
            switch (value, isInteger) {
            case (.null, _): continue
            case (.string(let string), false): text = string
            case (.int(let integer), true): text = String(integer)
            default:
                warn(
                    "the enum value \(index) is not \(isInteger ? "an integer" : "a string"); it is left out",
                    at: schema.source.appending("enum").appending(index))
                continue
            }
            guard seen.insert(text).inserted else { continue }
            let base =
                isInteger
                ? "value" + (text.hasPrefix("-") ? "Minus" + text.dropFirst() : text)
                : (text.isEmpty ? "empty" : text)
            cases.append(GeneratedEnumCase(name: caseNames.claimMember(base), value: text))
        }
        return .enumeration(name: name, summary: summary, isInteger: isInteger, cases: cases)
    }

    /// The alternatives of a `oneOf` (else an `anyOf`), `null` left out.
    private func alternatives(of schema: OpenAPISchema) -> [OpenAPISchema] {
        let options = schema.oneOf.isEmpty ? schema.anyOf : schema.oneOf
        return options.filter { !isNullSchema($0) }
    }

    private mutating func union(
        _ schema: OpenAPISchema, options: [OpenAPISchema], named name: String, summary: String
    ) -> GeneratedDeclaration {
        var caseNames = GeneratedNames(reserved: ["undocumented"])
        var cases: [GeneratedUnionCase] = []
        for (index, option) in options.enumerated() {
            let type = type(of: option, suggestedName: name + "Option\(index + 1)").type
            let base: String
            switch type {
            case .named(let typeName): base = typeName
            case .array: base = "list"
            case .dictionary: base = "object"
            default: base = SwiftNaming.bareMemberName(Self.swiftName(of: type))
            }
            var values: [String] = []
            if let discriminator = schema.discriminator, let target = option.reference {
                values = discriminator.mapping.filter { mappingTarget($0.value, from: schema.source) == target }
                    .map(\.name)
                if values.isEmpty, let key = componentKeys[target] { values = [key] }
            }
            cases.append(GeneratedUnionCase(name: caseNames.claimMember(base), type: type, discriminatorValues: values))
        }
        if let discriminator = schema.discriminator, cases.contains(where: { $0.discriminatorValues.isEmpty }) {
            warn(
                "an alternative is not a $ref, so the discriminator '\(discriminator.propertyName)' cannot name it; "
                    + "the alternatives are told apart by decoding each in order", at: schema.source)
            return .union(name: name, summary: summary, cases: cases, discriminator: nil, isIndirect: false)
        }
        return .union(
            name: name, summary: summary, cases: cases, discriminator: schema.discriminator?.propertyName,
            isIndirect: false)
    }

    /// Where a discriminator mapping's value leads: a `$ref` text, or a component schema's name.
    private func mappingTarget(_ text: String, from site: OpenAPILocation) -> OpenAPILocation? {
        if !text.contains("#"), !text.contains("/") {
            return OpenAPILocation(file: document.file, pointer: JSONPointer(tokens: ["components", "schemas", text]))
        }
        let hash = text.firstIndex(of: "#")
        let path = String(text[..<(hash ?? text.endIndex)])
        guard let pointer = try? JSONPointer(parsing: hash.map { String(text[$0...]) } ?? "#") else { return nil }
        let file =
            path.isEmpty
            ? site.file
            : OpenAPILoader.canonical(URL(fileURLWithPath: path, relativeTo: site.file.deletingLastPathComponent()))
        return OpenAPILocation(file: file, pointer: pointer)
    }

    /// An object: its properties, those of its `allOf` parts (followed through `$ref`s) first.
    private mutating func structure(_ schema: OpenAPISchema, named name: String, summary: String)
        -> GeneratedDeclaration
    {
        var collected: [(property: OpenAPINamed<OpenAPISchema>, required: Bool)] = []
        var additional: OpenAPIAdditionalProperties?
        var visited: Set<OpenAPILocation> = []
        collect(schema, into: &collected, additional: &additional, visited: &visited)
        var memberNames = GeneratedNames(reserved: additional.isSchema ? ["additionalProperties"] : [])
        var properties: [GeneratedProperty] = []
        for (property, required) in collected {
            let value = property.value
            let resolved = value.reference.flatMap { document.schemas[$0] } ?? value
            let found = type(of: value, suggestedName: name + SwiftNaming.typeNamePart(property.name))
            let flagged = value.readOnly || value.writeOnly || resolved.readOnly || resolved.writeOnly
            properties.append(
                GeneratedProperty(
                    key: property.name, name: memberNames.claimMember(property.name), type: found.type,
                    // A readOnly property is not sent, a writeOnly one not received: either may be missing.
                    isOptional: !required || found.isNullable || flagged,
                    writesNull: required && found.isNullable && !flagged,
                    summary: Self.oneLine(value.description ?? resolved.description),
                    access: value.readOnly || resolved.readOnly
                        ? "read-only: sent by the server, never in a request"
                        : (value.writeOnly || resolved.writeOnly
                            ? "write-only: sent in requests, never returned" : nil),
                    deprecated: value.deprecated,
                    defaultText: (value.defaultValue ?? resolved.defaultValue).map(Self.jsonText)))
        }
        var additionalType: GeneratedType?
        if case .schema(let values)? = additional {
            additionalType = type(of: values, suggestedName: name + "Value").type
        }
        return .structure(name: name, summary: summary, properties: properties, additional: additionalType)
    }

    static let maximumAllOfDepth = 256

    /// Gathers the properties of `schema` and of its `allOf` parts, each key once (a later part's
    /// schema replaces an earlier one's; `required` in any part makes it required).
    private mutating func collect(
        _ schema: OpenAPISchema, into collected: inout [(property: OpenAPINamed<OpenAPISchema>, required: Bool)],
        additional: inout OpenAPIAdditionalProperties?, visited: inout Set<OpenAPILocation>, depth: Int = 0
    ) {
        // Each `$ref` is followed once; a chain of `allOf`s deeper than this is cut, with a warning.
        guard depth < Self.maximumAllOfDepth else {
            warn("allOf nests deeper than \(Self.maximumAllOfDepth); the parts below are left out", at: schema.source)
            return
        }
        if let reference = schema.reference {
            if visited.insert(reference).inserted, let target = document.schemas[reference] {
                collect(target, into: &collected, additional: &additional, visited: &visited, depth: depth + 1)
            }
        }
        for part in schema.allOf {
            if part.reference == nil, !part.oneOf.isEmpty || !part.anyOf.isEmpty {
                warn("a oneOf/anyOf inside allOf is not merged; its properties are left out", at: part.source)
            }
            collect(part, into: &collected, additional: &additional, visited: &visited, depth: depth + 1)
        }
        for property in schema.properties {
            if let index = collected.firstIndex(where: { $0.property.name == property.name }) {
                collected[index].property = property
            } else {
                collected.append((property, false))
            }
        }
        for key in schema.required {
            if let index = collected.firstIndex(where: { $0.property.name == key }) { collected[index].required = true }
        }
        if let own = schema.additionalProperties { additional = own }
    }

    // MARK: Text

    /// The doc comment's line: the title or description's first line, and where it was read.
    func summary(_ schema: OpenAPISchema?, at location: OpenAPILocation) -> String {
        let text = Self.oneLine(schema?.title ?? schema?.description)
        let place = location.file.lastPathComponent + location.pointer.fragment
        return text.map { "\($0) (\(place))" } ?? place
    }

    /// The first line of `text`, trimmed, at most 200 characters; `nil` for none.
    static func oneLine(_ text: String?) -> String? {
        guard let line = text?.split(whereSeparator: \.isNewline).first else { return nil }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }

    /// A value as compact JSON text, for doc comments.
    static func jsonText(_ value: YAMLValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .int(let integer): return String(integer)
        case .double(let double): return "\(double)"
        case .string(let string): return SwiftNaming.stringLiteral(string)
        case .array(let elements): return "[" + elements.map(jsonText).joined(separator: ", ") + "]"
        case .object(let members):
            return "{"
                + members.map { SwiftNaming.stringLiteral($0.key) + ": " + jsonText($0.value) }
                .joined(separator: ", ") + "}"
        }
    }

    /// The Swift spelling of a type that is no declaration (for case names).
    static func swiftName(of type: GeneratedType) -> String {
        switch type {
        case .string: "String"
        case .int: "Int"
        case .int32: "Int32"
        case .int64: "Int64"
        case .float: "Float"
        case .double: "Double"
        case .bool: "Bool"
        case .date: "Date"
        case .data: "Data"
        case .uuid: "UUID"
        case .url: "URL"
        case .json: "JSONValue"
        case .array(let element): "[\(swiftName(of: element))]"
        case .dictionary(let value): "[String: \(swiftName(of: value))]"
        case .named(let name): name
        }
    }
}

extension Optional where Wrapped == OpenAPIAdditionalProperties {
    /// Whether `additionalProperties` is a schema (not `true`, `false` or missing).
    fileprivate var isSchema: Bool {
        if case .schema? = self { return true }
        return false
    }
}
