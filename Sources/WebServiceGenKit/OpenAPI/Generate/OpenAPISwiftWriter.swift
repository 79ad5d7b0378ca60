import Foundation

/// Writes the declarations and calls of an OpenAPI document as one Swift file. The text depends
/// only on its input, so a second run over the same document gives the same bytes.
struct OpenAPISwiftWriter {
    let options: GeneratorOptions
    var lines: [String] = []
    var indent = 0
    /// The models, for what the calls' code needs to know of them (a multipart body's struct).
    var declarations: [GeneratedDeclaration] = []

    init(options: GeneratorOptions) { self.options = options }

    var access: String { options.access.modifier }

    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: indent) + text)
    }

    mutating func block(_ opening: String, _ body: (inout OpenAPISwiftWriter) -> Void) {
        line(opening.isEmpty ? "{" : opening + " {")
        indent += 1
        body(&self)
        indent -= 1
        line("}")
    }

    /// A block whose opening is `head` (ending with `where `) and the comma-separated `items`: on
    /// one line when it fits in 120 columns, else `where` alone and the items filling lines
    /// indented by four, `{` on a line of its own.
    mutating func blockWrapped(_ head: String, _ items: [String], _ body: (inout OpenAPISwiftWriter) -> Void) {
        let opening = head + items.joined(separator: ", ")
        guard 4 * indent + opening.count + 2 > 120 else {
            block(opening, body)
            return
        }
        // swift-format's layout of a long where clause: the keyword alone, the requirements below.
        let words = head.split(separator: " ")
        line(words.dropLast().joined(separator: " "))
        line(String(words.last ?? ""))
        var current = "    "
        var first = true
        for (position, item) in items.enumerated() {
            let piece = item + (position == items.count - 1 ? "" : ",")
            let candidate = first ? current + piece : current + " " + piece
            if !first, 4 * indent + candidate.count > 120 {
                line(current)
                current = "    " + piece
            } else {
                current = candidate
            }
            first = false
        }
        line(current)
        line("{")
        indent += 1
        body(&self)
        indent -= 1
        line("}")
    }

    /// Doc comment lines (`///`), an empty text an empty comment line.
    mutating func documentation(_ texts: [String]) {
        for text in texts { line(text.isEmpty ? "///" : "/// " + text) }
    }

    /// The Swift spelling of `type`; `qualified` adds the namespace (outside of it).
    func swiftType(_ type: GeneratedType, qualified: Bool) -> String {
        let prefix = qualified ? options.namespace.map { $0 + "." } ?? "" : ""
        switch type {
        case .json: return prefix + "JSONValue"
        case .named(let name): return prefix + name
        case .array(let element): return "[\(swiftType(element, qualified: qualified))]"
        case .dictionary(let value): return "[String: \(swiftType(value, qualified: qualified))]"
        default: return OpenAPIModelBuilder.swiftName(of: type)
        }
    }

    // MARK: File

    /// The names of the file's own types that are not models: the servers, the security
    /// provider.
    struct FileTypes {
        var servers: String?
        var security: String?
    }

    /// A top-level piece of the output: a declaration (or a group of calls) and where it goes.
    struct Piece {
        enum Section { case models, support, servers, security, calls }
        let section: Section
        /// The lines, indented for their place (inside the namespace but for the calls).
        let lines: [String]
        /// How many declarations or calls it holds, for splitting files.
        let weight: Int
    }

    /// The lines `body` writes with a writer of this one's options and models, at `indent`.
    private func piece(
        _ section: Piece.Section, weight: Int = 1, _ body: (inout OpenAPISwiftWriter) -> Void
    ) -> Piece {
        var writer = OpenAPISwiftWriter(options: options)
        writer.declarations = declarations
        writer.indent = options.namespace != nil && section != .calls ? 1 : 0
        body(&writer)
        return Piece(section: section, lines: writer.lines, weight: weight)
    }

    /// Every piece of the output, in order.
    static func pieces(
        declarations: [GeneratedDeclaration], calls: [GeneratedCall], document: OpenAPIDocument,
        types: FileTypes, options: GeneratorOptions
    ) -> [Piece] {
        var writer = OpenAPISwiftWriter(options: options)
        writer.declarations = declarations
        var pieces: [Piece] = []
        for declaration in declarations {
            pieces.append(writer.piece(.models) { $0.writeDeclaration(declaration) })
        }
        for call in calls {
            // A `…ToFile` twin shares its call's error enum.
            if case .file = call.response { continue }
            if let failureType = call.failureType {
                pieces.append(writer.piece(.models) { $0.writeFailure(failureType, of: call) })
            }
        }
        let support = SupportTypes(declarations: declarations, calls: calls)
        pieces.append(writer.piece(.support) { $0.writeCoding() })
        if calls.contains(where: { $0.failureType != nil }) {
            pieces.append(writer.piece(.support) { $0.writeErrorHandler() })
        }
        if support.jsonValue { pieces.append(writer.piece(.support) { $0.writeJSONValue() }) }
        if support.indirect { pieces.append(writer.piece(.support) { $0.writeIndirect() }) }
        if let servers = types.servers {
            pieces.append(writer.piece(.servers) { $0.writeServers(document.servers, named: servers) })
        }
        if let security = types.security {
            pieces.append(
                writer.piece(.security) {
                    $0.writeSecurity(document.components.securitySchemes, calls: calls, named: security)
                })
        }
        pieces += writer.callPieces(calls)
        return pieces
    }

    /// The first line of every file.
    static func banner(_ document: OpenAPIDocument) -> String {
        "// Generated by webservice-gen from \(document.file.lastPathComponent) (OpenAPI \(document.version.text): "
            + "\(SwiftNaming.stringLiteral(document.info.title)) \(document.info.version)). Do not edit."
    }

    /// The whole output as one file.
    static func file(_ pieces: [Piece], document: OpenAPIDocument, options: GeneratorOptions) -> String {
        var lines = [banner(document), "", "import Foundation", "import WebServiceKit"]
        let titles: [(Piece.Section, String)] = [
            (.models, "Models"), (.support, "Coding"), (.servers, "Servers"), (.security, "Security"),
        ]
        var inside: [String] = []
        for (section, title) in titles {
            let part = pieces.filter { $0.section == section }
            guard !part.isEmpty else { continue }
            let mark = options.namespace == nil ? "// MARK: - \(title)" : "    // MARK: - \(title)"
            inside += (inside.isEmpty && options.namespace != nil ? [mark, ""] : ["", mark, ""]) + join(part)
        }
        if let namespace = options.namespace {
            lines += ["", namespaceDocumentation(document), "\(options.access.modifier)enum \(namespace) {"]
            lines += inside + ["}"]
        } else {
            lines += inside
        }
        let calls = pieces.filter { $0.section == .calls }
        if !calls.isEmpty { lines += ["", "// MARK: - Calls", ""] + join(calls) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func namespaceDocumentation(_ document: OpenAPIDocument) -> String {
        "/// The types of \(SwiftNaming.stringLiteral(document.info.title)), from \(document.file.lastPathComponent)."
    }

    /// The output as several files, none with more than `limit` declarations or calls: Swift
    /// compiles one large file in a time that grows faster than its size (a 1,000-operation
    /// document's single file took minutes), several small ones in linear time. The files are
    /// named `PREFIXModels1.swift`…, `PREFIXCalls1.swift`… and `PREFIXSupport.swift` (the
    /// namespace, the coders, the servers and the security provider).
    static func files(
        _ pieces: [Piece], prefix: String, limit: Int, document: OpenAPIDocument, options: GeneratorOptions
    ) -> [(name: String, source: String)] {
        let header = [banner(document), "", "import Foundation", "import WebServiceKit", ""]
        func wrap(_ body: [String], inNamespace: Bool) -> String {
            var lines = header
            if inNamespace, let namespace = options.namespace {
                lines.append("extension \(namespace) {")
                lines += body
                lines.append("}")
            } else {
                lines += body
            }
            return lines.joined(separator: "\n") + "\n"
        }
        var files: [(name: String, source: String)] = []
        for (section, title) in [(Piece.Section.models, "Models"), (.calls, "Calls")] {
            var chunk: [Piece] = []
            var weight = 0
            var number = 0
            func flush() {
                guard !chunk.isEmpty else { return }
                number += 1
                files.append(("\(prefix)\(title)\(number).swift", wrap(join(chunk), inNamespace: section == .models)))
                chunk = []
                weight = 0
            }
            for piece in pieces where piece.section == section {
                if weight > 0, weight + piece.weight > limit { flush() }
                chunk.append(piece)
                weight += piece.weight
            }
            flush()
        }
        var support: [String] = []
        for section in [Piece.Section.support, .servers, .security] {
            for piece in pieces where piece.section == section {
                if !support.isEmpty { support.append("") }
                support += piece.lines
            }
        }
        if let namespace = options.namespace {
            support =
                [namespaceDocumentation(document), "\(options.access.modifier)enum \(namespace) {"] + support + ["}"]
        }
        files.append(("\(prefix)Support.swift", wrap(support, inNamespace: false)))
        return files
    }

    /// Pieces' lines with an empty line between two.
    private static func join(_ pieces: [Piece]) -> [String] {
        var lines: [String] = []
        for piece in pieces {
            if !lines.isEmpty { lines.append("") }
            lines += piece.lines
        }
        return lines
    }

    /// Which support types the file needs.
    struct SupportTypes {
        var jsonValue = false
        var indirect = false

        init(declarations: [GeneratedDeclaration], calls: [GeneratedCall]) {
            for declaration in declarations {
                switch declaration {
                case .structure(_, _, let properties, let additional):
                    jsonValue =
                        jsonValue || properties.contains { $0.type.usesJSONValue }
                        || (additional?.usesJSONValue ?? false)
                    indirect = indirect || properties.contains(where: \.isIndirect)
                case .union:
                    jsonValue = true
                case .alias(_, _, let type):
                    jsonValue = jsonValue || type.usesJSONValue
                case .enumeration:
                    break
                }
            }
            for call in calls {
                jsonValue = jsonValue || call.arguments.contains { $0.type.usesJSONValue }
                if case .json(let type, _)? = call.body { jsonValue = jsonValue || type.usesJSONValue }
                if case .form(let type, _)? = call.body { jsonValue = jsonValue || type.usesJSONValue }
                if case .json(let type) = call.response { jsonValue = jsonValue || type.usesJSONValue }
            }
        }
    }

    private mutating func writeDeclaration(_ declaration: GeneratedDeclaration) {
        switch declaration {
        case .structure(let name, let summary, let properties, let additional):
            writeStructure(name: name, summary: summary, properties: properties, additional: additional)
        case .enumeration(let name, let summary, let isInteger, let cases):
            writeEnumeration(name: name, summary: summary, isInteger: isInteger, cases: cases)
        case .union(let name, let summary, let cases, let discriminator, let isIndirect):
            writeUnion(name: name, summary: summary, cases: cases, discriminator: discriminator, isIndirect: isIndirect)
        case .alias(let name, let summary, let type):
            documentation([summary])
            line("\(access)typealias \(name) = \(swiftType(type, qualified: false))")
        }
    }

    // MARK: Calls

    /// The calls, grouped by signature (an extension of `TypedCall` each), then the
    /// `formData()` of the structs multipart bodies send.
    private func callPieces(_ calls: [GeneratedCall]) -> [Piece] {
        var groups: [(signature: String, calls: [GeneratedCall])] = []
        var groupIndex: [String: Int] = [:]
        for call in calls {
            let signature = self.signature(of: call)
            if let index = groupIndex[signature] {
                groups[index].calls.append(call)
            } else {
                groupIndex[signature] = groups.count
                groups.append((signature, [call]))
            }
        }
        var pieces: [Piece] = []
        for group in groups {
            pieces.append(
                piece(.calls, weight: group.calls.count) { writer in
                    writer.blockWrapped("extension TypedCall where ", Self.splitTopLevel(group.signature)) { writer in
                        for (position, call) in group.calls.enumerated() {
                            if position > 0 { writer.line() }
                            writer.writeCall(call)
                        }
                    }
                })
        }
        var partsWritten: Set<String> = []
        for call in calls {
            guard case .multipart(.named(let name)?, let contentTypes)? = call.body,
                partsWritten.insert(name).inserted
            else { continue }
            for case .structure(name, _, let properties, _) in declarations {
                let qualified = options.namespace.map { $0 + "." + name } ?? name
                pieces.append(
                    piece(.calls) {
                        $0.writeFormData(for: qualified, properties: properties, contentTypes: contentTypes)
                    })
            }
        }
        return pieces
    }

    /// `Arguments == ArgumentList<…>, Body == …, Response == …`.
    private func signature(of call: GeneratedCall) -> String {
        var arguments = call.arguments.map { swiftType($0.type, qualified: true) + ($0.isOptional ? "?" : "") }
        if case .file = call.response { arguments.append("DownloadDestination?") }
        return "Arguments == ArgumentList<\(arguments.joined(separator: ", "))>, Body == \(bodyType(call.body)), "
            + "Response == \(responseType(call.response))"
    }

    private func bodyType(_ body: GeneratedBody?) -> String {
        switch body {
        case nil: "NoBody"
        case .json(let type, _)?, .form(let type, _)?: swiftType(type, qualified: true)
        case .multipart?: "[FormData]"
        case .data?: "RequestBody"
        case .text?: "String"
        }
    }

    private func responseType(_ response: GeneratedResponse) -> String {
        switch response {
        case .json(let type): swiftType(type, qualified: true)
        case .text: "String"
        case .data: "Data"
        case .file: "DownloadedFile"
        case .empty: "EmptyResponse"
        case .eventStream: "ResponseStream<ServerSentEvent>"
        case .jsonLines(let type): "ResponseStream<\(swiftType(type, qualified: true))>"
        }
    }

    private mutating func writeCall(_ call: GeneratedCall) {
        var docs = call.documentation
        if !call.arguments.isEmpty || call.body != nil {
            docs += ["", "Arguments:"]
            for (index, argument) in call.arguments.enumerated() {
                let requirement = argument.isOptional ? "optional, `nil` leaves it out" : "required"
                var text = "- \(index) `\(argument.key)`: \(argument.location.rawValue), \(requirement)"
                if let summary = argument.summary { text += ": \(summary)" }
                docs.append(text)
            }
            if let body = call.body { docs.append("- `body:` " + describe(body)) }
        }
        documentation(docs)
        let prefix = options.namespace.map { $0 + "." } ?? ""
        let path = call.server.map { Self.absolute($0, call.relativePath) } ?? call.relativePath
        var arguments = [
            "name: \(SwiftNaming.stringLiteral(GeneratedNames.unescaped(call.name)))",
            "method: \(SwiftWriter.method(call.method))",
            "relativePath: \(SwiftNaming.stringLiteral(path))",
        ]
        if !call.headers.isEmpty {
            let fields = call.headers.map {
                "\(SwiftNaming.stringLiteral($0.name)): \(SwiftNaming.stringLiteral($0.value))"
            }
            arguments.append("headers: [\(fields.joined(separator: ", "))]")
        }
        if !call.styles.isEmpty {
            let styles = call.styles.map { "\($0.index): \($0.expression)" }
            arguments.append("parameterStyles: [\(styles.joined(separator: ", "))]")
        }
        if case .json(let type) = call.response {
            arguments.append(
                "serializer: JSONResponseSerializer<\(swiftType(type, qualified: true))>(decoder: \(prefix)OpenAPICoding.decoder)"
            )
        }
        switch call.body {
        case .json?: arguments.append("requestSerializer: .json(encoder: \(prefix)OpenAPICoding.encoder)")
        case .form(_, let styles)?:
            let entries = styles.map { "\(SwiftNaming.stringLiteral($0.property)): \($0.expression)" }
            arguments.append(
                entries.isEmpty
                    ? "requestSerializer: StyledFormRequestSerializer()"
                    : "requestSerializer: StyledFormRequestSerializer(styles: [\(entries.joined(separator: ", "))])")
        case .text(let mediaType)?:
            arguments.append(
                "requestSerializer: TextRequestSerializer(mediaType: \(SwiftNaming.stringLiteral(mediaType)))")
        default: break
        }
        if let failureType = call.failureType {
            arguments.append(
                "errorHandler: \(prefix)OpenAPIErrorHandler { \(prefix)\(failureType).read(statusCode: $0, body: $1) }")
        }
        switch call.response {
        case .eventStream: arguments.append("stream: .serverSentEvents")
        case .jsonLines(let type):
            arguments.append(
                "stream: .jsonLines(\(swiftType(type, qualified: true)).self, decoder: \(prefix)OpenAPICoding.decoder)")
        default: break
        }
        line("\(access)static let \(call.name) = TypedCall(")
        indent += 1
        line(".init(")
        indent += 1
        for (position, argument) in arguments.enumerated() {
            argumentLine(argument, last: position == arguments.count - 1)
        }
        indent -= 2
    }

    /// Writes an argument of the descriptor's initializer; a `[…]` list too long for a line of 120
    /// goes one element a line, as swift-format would write it.
    private mutating func argumentLine(_ argument: String, last: Bool) {
        let end = last ? "))" : ","
        let width = 4 * indent + argument.count + end.count
        guard width > 120, argument.hasSuffix("]"), let open = argument.firstIndex(of: "[") else {
            line(argument + end)
            return
        }
        line(String(argument[...open]))
        for element in Self.splitTopLevel(
            String(argument[argument.index(after: open)..<argument.index(before: argument.endIndex)]))
        {
            line("    " + element + ",")
        }
        line("]" + end)
    }

    /// The elements of a list's text, split at the commas outside parentheses, brackets and
    /// string literals.
    static func splitTopLevel(_ text: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                current.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "(", "[", "<": depth += 1
            case ")", "]", ">": depth -= 1
            case "," where depth == 0:
                elements.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty {
            elements.append(current.trimmingCharacters(in: .whitespaces))
        }
        return elements
    }

    /// An operation's own server and its path: an absolute template.
    static func absolute(_ server: String, _ relativePath: String) -> String {
        (server.hasSuffix("/") ? server : server + "/") + relativePath
    }

    private func describe(_ body: GeneratedBody) -> String {
        switch body {
        case .json(_, let mediaType): "the \(mediaType) body"
        case .form: "the form (application/x-www-form-urlencoded) body"
        case .multipart(.named(let name)?, _): "the multipart/form-data parts: a `\(name)`'s `formData()`"
        case .multipart: "the multipart/form-data parts"
        case .data(let mediaType): "the body (`.data(bytes)`, or `.file(url)` streamed from disk), sent as \(mediaType)"
        case .text(let mediaType): "the \(mediaType) body"
        }
    }
}
