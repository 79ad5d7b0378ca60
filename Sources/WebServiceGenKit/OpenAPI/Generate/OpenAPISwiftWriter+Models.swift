/// The model declarations: structs, enums of values, unions, and the support types they use.
extension OpenAPISwiftWriter {
    // MARK: Structs

    mutating func writeStructure(
        name: String, summary: String, properties: [GeneratedProperty], additional: GeneratedType?
    ) {
        documentation([summary])
        block("\(access)struct \(name): Codable, Sendable, Hashable") { writer in
            for property in properties {
                writer.writeProperty(property)
            }
            if let additional {
                writer.documentation(["The members `properties` does not name (`additionalProperties`)."])
                writer.line(
                    "\(writer.access)var additionalProperties: [String: \(writer.swiftType(additional, qualified: false))]"
                )
            }
            if !properties.isEmpty || additional != nil { writer.line() }
            writer.writeInitializer(properties, additional: additional)
            if !properties.isEmpty {
                writer.line()
                writer.block("private enum CodingKeys: String, CodingKey") { writer in
                    for property in properties {
                        writer.line("case \(property.name) = \(SwiftNaming.stringLiteral(property.key))")
                    }
                }
            }
            writer.line()
            writer.writeDecoding(properties, additional: additional)
            writer.line()
            writer.writeEncoding(properties, additional: additional)
        }
    }

    private func plain(_ name: String) -> String { GeneratedNames.unescaped(name) }

    private func propertyType(_ property: GeneratedProperty) -> String {
        swiftType(property.type, qualified: false) + (property.isOptional ? "?" : "")
    }

    private mutating func writeProperty(_ property: GeneratedProperty) {
        var docs: [String] = []
        if let summary = property.summary { docs.append(summary) }
        if plain(property.name) != property.key { docs.append("JSON key `\(property.key)`.") }
        if let access = property.access { docs.append(access.prefix(1).uppercased() + access.dropFirst() + ".") }
        if let defaultText = property.defaultText { docs.append("Default: `\(defaultText)`.") }
        if property.deprecated { docs.append("Deprecated in the document.") }
        documentation(docs)
        let type = propertyType(property)
        if property.isIndirect {
            let stored = "_" + plain(property.name)
            block("\(access)var \(property.name): \(type)") { writer in
                writer.line("get { \(stored).value }")
                writer.line("set { \(stored) = Indirect(newValue) }")
            }
            line("private var \(stored): Indirect<\(type)>")
        } else {
            line("\(access)var \(property.name): \(type)")
        }
    }

    private mutating func writeInitializer(_ properties: [GeneratedProperty], additional: GeneratedType?) {
        documentation(["Creates a value from its properties."])
        var parameters = properties.map { property in
            "\(property.name): \(propertyType(property))\(property.isOptional ? " = nil" : "")"
        }
        if let additional {
            parameters.append("additionalProperties: [String: \(swiftType(additional, qualified: false))] = [:]")
        }
        let opening = "\(access)init(\(parameters.joined(separator: ", ")))"
        if opening.count + 4 * indent <= 110 {
            line(opening + " {")
        } else {
            line("\(access)init(")
            for (position, parameter) in parameters.enumerated() {
                line("    " + parameter + (position == parameters.count - 1 ? "" : ","))
            }
            line(") {")
        }
        indent += 1
        for property in properties {
            let stored = plain(property.name)
            if property.isIndirect {
                line("self._\(stored) = Indirect(\(property.name))")
            } else {
                line("self.\(stored) = \(property.name)")
            }
        }
        if additional != nil { line("self.additionalProperties = additionalProperties") }
        indent -= 1
        line("}")
    }

    private mutating func writeDecoding(_ properties: [GeneratedProperty], additional: GeneratedType?) {
        documentation(["Reads the value from its JSON object."])
        block("\(access)init(from decoder: any Decoder) throws") { writer in
            if !properties.isEmpty {
                writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            }
            for property in properties {
                let type = writer.swiftType(property.type, qualified: false)
                let read =
                    property.isOptional
                    ? "try container.decodeIfPresent(\(type).self, forKey: .\(writer.plain(property.name)))"
                    : "try container.decode(\(type).self, forKey: .\(writer.plain(property.name)))"
                if property.isIndirect {
                    writer.line("self._\(writer.plain(property.name)) = Indirect(\(read))")
                } else {
                    writer.line("self.\(writer.plain(property.name)) = \(read)")
                }
            }
            if let additional {
                let type = writer.swiftType(additional, qualified: false)
                writer.line("let others = try decoder.container(keyedBy: OpenAPIDynamicKey.self)")
                writer.line("var additional: [String: \(type)] = [:]")
                let known = properties.isEmpty ? "" : " where CodingKeys(rawValue: key.stringValue) == nil"
                writer.block("for key in others.allKeys\(known)") { writer in
                    writer.line("additional[key.stringValue] = try others.decode(\(type).self, forKey: key)")
                }
                writer.line("self.additionalProperties = additional")
            } else if properties.isEmpty {
                writer.line("_ = try decoder.container(keyedBy: OpenAPIDynamicKey.self)")
            }
        }
    }

    private mutating func writeEncoding(_ properties: [GeneratedProperty], additional: GeneratedType?) {
        documentation(["Writes the value as a JSON object."])
        block("\(access)func encode(to encoder: any Encoder) throws") { writer in
            if !properties.isEmpty {
                writer.line("var container = encoder.container(keyedBy: CodingKeys.self)")
            }
            for property in properties {
                let key = writer.plain(property.name)
                let write = property.isOptional && !property.writesNull ? "encodeIfPresent" : "encode"
                writer.line("try container.\(write)(self.\(key), forKey: .\(key))")
            }
            if additional != nil {
                writer.line("var others = encoder.container(keyedBy: OpenAPIDynamicKey.self)")
                let known = properties.isEmpty ? "" : " where CodingKeys(rawValue: key) == nil"
                writer.line("let extra = additionalProperties.sorted(by: { $0.key < $1.key })")
                writer.block("for (key, value) in extra\(known)") {
                    writer in
                    writer.line("try others.encode(value, forKey: OpenAPIDynamicKey(key))")
                }
            } else if properties.isEmpty {
                writer.line("_ = encoder.container(keyedBy: OpenAPIDynamicKey.self)")
            }
        }
    }

    // MARK: Enums of values

    mutating func writeEnumeration(name: String, summary: String, isInteger: Bool, cases: [GeneratedEnumCase]) {
        let raw = isInteger ? "Int" : "String"
        documentation([
            summary, "",
            "A value the document does not list decodes as `undocumented`, so a newer server's value is read.",
        ])
        block("\(access)enum \(name): Codable, Sendable, Hashable, RawRepresentable") { writer in
            for value in cases { writer.line("case \(value.name)") }
            writer.documentation(["A value the document does not list."])
            writer.line("case undocumented(\(raw))")
            writer.line()
            writer.documentation(["The case of `rawValue`."])
            writer.block("\(writer.access)init(rawValue: \(raw))") { writer in
                writer.line("switch rawValue {")
                for value in cases {
                    writer.line(
                        "case \(writer.literal(value.value, isInteger: isInteger)): self = .\(writer.plain(value.name))"
                    )
                }
                writer.line("default: self = .undocumented(rawValue)")
                writer.line("}")
            }
            writer.line()
            writer.documentation(["The value as JSON has it."])
            writer.block("\(writer.access)var rawValue: \(raw)") { writer in
                writer.line("switch self {")
                for value in cases {
                    writer.line(
                        "case .\(writer.plain(value.name)): \(writer.literal(value.value, isInteger: isInteger))")
                }
                writer.line("case .undocumented(let value): value")
                writer.line("}")
            }
            writer.line()
            writer.documentation(["Reads the value; any \(raw) is accepted."])
            writer.block("\(writer.access)init(from decoder: any Decoder) throws") { writer in
                writer.line("self.init(rawValue: try decoder.singleValueContainer().decode(\(raw).self))")
            }
            writer.line()
            writer.documentation(["Writes the raw value."])
            writer.block("\(writer.access)func encode(to encoder: any Encoder) throws") { writer in
                writer.line("var container = encoder.singleValueContainer()")
                writer.line("try container.encode(rawValue)")
            }
        }
    }

    private func literal(_ value: String, isInteger: Bool) -> String {
        isInteger ? value : SwiftNaming.stringLiteral(value)
    }

    // MARK: Unions

    mutating func writeUnion(
        name: String, summary: String, cases: [GeneratedUnionCase], discriminator: String?, isIndirect: Bool
    ) {
        let how =
            discriminator.map { "The member `\($0)` names the alternative." }
            ?? "The alternatives are tried in the document's order; the first that decodes is taken."
        documentation([summary, "", how])
        block("\(access)\(isIndirect ? "indirect " : "")enum \(name): Codable, Sendable, Hashable") { writer in
            for option in cases {
                if !option.discriminatorValues.isEmpty {
                    let values = option.discriminatorValues.map { "`\($0)`" }.joined(separator: ", ")
                    writer.documentation(["`\(discriminator ?? "")`: \(values)."])
                }
                writer.line("case \(option.name)(\(writer.swiftType(option.type, qualified: false)))")
            }
            writer.documentation(["A value no documented alternative reads."])
            writer.line("case undocumented(JSONValue)")
            writer.line()
            writer.documentation(["Reads the alternative the value is."])
            writer.block("\(writer.access)init(from decoder: any Decoder) throws") { writer in
                if let discriminator {
                    writer.line("let container = try decoder.container(keyedBy: OpenAPIDynamicKey.self)")
                    writer.line(
                        "let kind = try container.decodeIfPresent(String.self, forKey: OpenAPIDynamicKey(\(SwiftNaming.stringLiteral(discriminator))))"
                    )
                    writer.line("switch kind {")
                    for option in cases {
                        let values = option.discriminatorValues.map { SwiftNaming.stringLiteral($0) + "?" }
                        writer.line(
                            "case \(values.joined(separator: ", ")): self = .\(writer.plain(option.name))(try \(writer.swiftType(option.type, qualified: false))(from: decoder))"
                        )
                    }
                    writer.line("default: self = .undocumented(try JSONValue(from: decoder))")
                    writer.line("}")
                } else {
                    for option in cases {
                        let type = writer.swiftType(option.type, qualified: false)
                        writer.block("if let value = try? \(type)(from: decoder)") { writer in
                            writer.line("self = .\(writer.plain(option.name))(value)")
                            writer.line("return")
                        }
                    }
                    writer.line("self = .undocumented(try JSONValue(from: decoder))")
                }
            }
            writer.line()
            writer.documentation(["Writes the alternative's value."])
            writer.block("\(writer.access)func encode(to encoder: any Encoder) throws") { writer in
                writer.line("switch self {")
                for option in cases {
                    writer.line("case .\(writer.plain(option.name))(let value): try value.encode(to: encoder)")
                }
                writer.line("case .undocumented(let value): try value.encode(to: encoder)")
                writer.line("}")
            }
        }
    }

    // MARK: Support types

    mutating func writeCoding() {
        documentation([
            "The JSON coders of the generated calls: `date-time` values as RFC 3339 text, with or",
            "without fractional seconds.",
        ])
        block("\(access)enum OpenAPICoding") { writer in
            writer.documentation(["Reads JSON bodies."])
            writer.block("\(writer.access)static let decoder: JSONDecoder =") { writer in
                writer.line("let decoder = JSONDecoder()")
                writer.block("decoder.dateDecodingStrategy = .custom") { writer in
                    writer.line("decoder in")
                    writer.line("let container = try decoder.singleValueContainer()")
                    writer.line("let text = try container.decode(String.self)")
                    writer.block(
                        "if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))"
                    ) { writer in writer.line("return date") }
                    writer.block("if let date = try? Date(text, strategy: Date.ISO8601FormatStyle())") { writer in
                        writer.line("return date")
                    }
                    writer.line("throw DecodingError.dataCorruptedError(")
                    writer.line("    in: container, debugDescription: \"not an RFC 3339 date-time: \\(text)\")")
                }
                writer.line("return decoder")
            }
            writer.lines[writer.lines.count - 1] += "()"
            writer.line()
            writer.documentation(["Writes JSON bodies."])
            writer.block("\(writer.access)static let encoder: JSONEncoder =") { writer in
                writer.line("let encoder = JSONEncoder()")
                writer.line("encoder.dateEncodingStrategy = .iso8601")
                writer.line("return encoder")
            }
            writer.lines[writer.lines.count - 1] += "()"
        }
        line()
        documentation(["A member name known only when a value is read: `additionalProperties`, discriminators."])
        block("\(access)struct OpenAPIDynamicKey: CodingKey, Sendable") { writer in
            writer.line("\(writer.access)let stringValue: String")
            writer.line("\(writer.access)var intValue: Int? { nil }")
            writer.line("\(writer.access)init(_ name: String) { stringValue = name }")
            writer.line("\(writer.access)init?(stringValue: String) { self.stringValue = stringValue }")
            writer.line("\(writer.access)init?(intValue: Int) { nil }")
        }
    }

    mutating func writeIndirect() {
        documentation(["A value held out of line: what lets a recursive schema's struct hold its own type."])
        block("\(access)struct Indirect<Value: Hashable & Sendable>: Hashable, Sendable") { writer in
            writer.block("private final class Box: Sendable") { writer in
                writer.line("let value: Value")
                writer.line("init(_ value: Value) { self.value = value }")
            }
            writer.line("private let box: Box")
            writer.line()
            writer.documentation(["Holds `value`."])
            writer.line("\(writer.access)init(_ value: Value) { box = Box(value) }")
            writer.documentation(["The value held."])
            writer.line("\(writer.access)var value: Value { box.value }")
            writer.line()
            writer.line(
                "\(writer.access)static func == (left: Indirect, right: Indirect) -> Bool { left.value == right.value }"
            )
            writer.line("\(writer.access)func hash(into hasher: inout Hasher) { hasher.combine(value) }")
        }
    }

    mutating func writeJSONValue() {
        documentation(["Any JSON value: what a schema without a type (or with several) holds."])
        for text in SwiftWriter.jsonValueSource(access: access, conformances: "Codable, Sendable, Hashable") {
            line(text)
        }
    }
}
