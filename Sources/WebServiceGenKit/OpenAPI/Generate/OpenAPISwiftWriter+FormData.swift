/// The `formData()` of the structs multipart bodies send: a part per property.
extension OpenAPISwiftWriter {
    /// `formData` for the struct of a multipart body: a part per property set, in order.
    mutating func writeFormData(
        for name: String, properties: [GeneratedProperty], contentTypes: [String: String]
    ) {
        block("extension \(name)") { writer in
            writer.documentation([
                "The properties as `multipart/form-data` parts, in order; `nil` ones are left out, a list",
                "gives a part per element, an object or a list of them a JSON part (which throws what",
                "encoding it throws).",
            ])
            writer.block("\(writer.access)func formData() throws -> [FormData]") { writer in
                writer.line("var parts: [FormData] = []")
                for property in properties {
                    let stored = "self." + GeneratedNames.unescaped(property.name)
                    let key = SwiftNaming.stringLiteral(property.key)
                    let contentType = contentTypes[property.key].map {
                        ", contentType: \(SwiftNaming.stringLiteral($0))"
                    }
                    if property.isOptional {
                        writer.block("if let value = \(stored)") { writer in
                            writer.writePart(property.type, key: key, contentType: contentType)
                        }
                    } else {
                        writer.block("do") { writer in
                            writer.line("let value = \(stored)")
                            writer.writePart(property.type, key: key, contentType: contentType)
                        }
                    }
                }
                writer.line("return parts")
            }
        }
    }

    /// The generated enums of values: a multipart part sends their raw value as text.
    private var enumNames: Set<String> {
        Set(declarations.compactMap { if case .enumeration(let name, _, _, _) = $0 { name } else { nil } })
    }

    private mutating func writePart(_ type: GeneratedType, key: String, contentType: String?) {
        switch type {
        case .string:
            line("parts.append(FormData(name: \(key), value: value))")
        case .data:
            line(
                "parts.append(FormData(name: \(key), data: value, fileName: \(key)"
                    + "\(contentType ?? ", contentType: \"application/octet-stream\"")))")
        case .int, .int32, .int64, .float, .double, .bool:
            line("parts.append(FormData(name: \(key), value: String(value)))")
        case .uuid:
            line("parts.append(FormData(name: \(key), value: value.uuidString.lowercased()))")
        case .url:
            line("parts.append(FormData(name: \(key), value: value.absoluteString))")
        case .date:
            line("parts.append(FormData(name: \(key), value: value.ISO8601Format()))")
        case .named(let name) where enumNames.contains(name):
            line("parts.append(FormData(name: \(key), value: String(value.rawValue)))")
        case .array(let element) where element.isScalar || element == .data:
            block("for value in value") { writer in writer.writePart(element, key: key, contentType: contentType) }
        default:
            line("let json = try \(options.namespace.map { $0 + "." } ?? "")OpenAPICoding.encoder.encode(value)")
            line(
                "parts.append(FormData(name: \(key), data: json, contentType: \(contentType ?? "\"application/json\"")))"
            )
        }
    }
}
