import Foundation

/// Reads an OpenAPI 3.0.x or 3.1.x document (YAML or JSON) and the files its `$ref`s lead to
/// into an ``OpenAPIDocument``.
///
/// Errors (``OpenAPIError``) name the file and the JSON pointer of the offending value, or the
/// line and column of a YAML error. What the model leaves out (callbacks, links, `not`, `xml`)
/// is in ``OpenAPIDocument/warnings``. No input crashes the reader: files, `$ref` chains and
/// schema nesting are bounded by ``OpenAPILimits``.
public enum OpenAPIReader {
    /// Reads the document at the file URL `url`, and the files it refers to, from `source`.
    public static func read(
        contentsOf url: URL, source: any OpenAPIFileSource = OpenAPIFileSystemSource(),
        limits: OpenAPILimits = OpenAPILimits()
    ) throws(OpenAPIError) -> OpenAPIDocument {
        var builder = OpenAPIDocumentBuilder(loader: OpenAPILoader(source: source, limits: limits))
        return try builder.readDocument(at: url)
    }
}

/// The state of one reading: the loader, the warnings, and the schemas read and to read.
struct OpenAPIDocumentBuilder {
    var loader: OpenAPILoader
    var version = OpenAPIVersion(text: "3.0.0", minor: 0)
    var warnings: [OpenAPIWarning] = []
    /// The schemas read, by location.
    var schemas: [OpenAPILocation: OpenAPISchema] = [:]
    /// `$ref` targets still to read, and every location ever queued.
    var pendingSchemas: [OpenAPILocation] = []
    var queuedSchemas: Set<OpenAPILocation> = []

    init(loader: OpenAPILoader) {
        self.loader = loader
    }

    mutating func warn(_ message: String, at location: OpenAPILocation) {
        warnings.append(OpenAPIWarning(message, at: location))
    }

    mutating func readDocument(at url: URL) throws(OpenAPIError) -> OpenAPIDocument {
        let root = OpenAPILocation(file: OpenAPILoader.canonical(url))
        let document = try OpenAPIObject(loader.document(at: root.file), at: root, what: "an OpenAPI document")
        version = try readVersion(document)
        guard let info = try document.object("info", what: "'info'") else {
            throw OpenAPIError("the document has no 'info'", at: root)
        }
        let components = try readComponents(document.object("components"))
        let security = try document["security"].map { value throws(OpenAPIError) in
            try readSecurity(value, at: root.appending("security"))
        }
        var paths: [OpenAPIPathItem] = []
        if let pathsObject = try document.object("paths") {
            for member in pathsObject.members where !member.key.hasPrefix("x-") {
                let location = pathsObject.location.appending(member.key)
                guard member.key.hasPrefix("/") else {
                    throw OpenAPIError("the path '\(member.key.prefix(200))' does not start with '/'", at: location)
                }
                paths.append(try readPathItem(member.key, member.value, at: location, security: security))
            }
        }
        var webhooks: [OpenAPIPathItem] = []
        if let webhooksObject = try document.object("webhooks") {
            for member in webhooksObject.members where !member.key.hasPrefix("x-") {
                let location = webhooksObject.location.appending(member.key)
                webhooks.append(try readPathItem(member.key, member.value, at: location, security: security))
            }
        }
        let servers = try readServers(document)
        try readPendingSchemas()
        guard let apiVersion = try info.scalarText("version") else {
            throw OpenAPIError("'info' has no 'version'", at: info.location)
        }
        return OpenAPIDocument(
            version: version,
            info: OpenAPIInfo(
                title: try info.requiredString("title", of: "'info'"),
                version: apiVersion,
                description: try info.string("description")),
            servers: servers, paths: paths, webhooks: webhooks, components: components, security: security,
            schemas: schemas, warnings: warnings, file: root.file)
    }

    /// `openapi`: 3.0.x or 3.1.x; Swagger 2.0 and a missing version are errors.
    func readVersion(_ document: OpenAPIObject) throws(OpenAPIError) -> OpenAPIVersion {
        if document["swagger"] != nil {
            throw OpenAPIError(
                "this is a Swagger 2.0 document, which is not read: convert it to OpenAPI 3 first",
                at: document.location.appending("swagger"))
        }
        guard let text = try document.scalarText("openapi") else {
            throw OpenAPIError("the document has no 'openapi' version (3.0.x or 3.1.x)", at: document.location)
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "3", parts[1] == "0" || parts[1] == "1" else {
            throw OpenAPIError(
                "'\(text.prefix(40))' is not an OpenAPI version this reader knows (3.0.x, 3.1.x)",
                at: document.location.appending("openapi"))
        }
        return OpenAPIVersion(text: text, minor: parts[1] == "0" ? 0 : 1)
    }

    /// The `servers` of `object`; empty when it has none.
    func readServers(_ object: OpenAPIObject) throws(OpenAPIError) -> [OpenAPIServer] {
        guard let elements = try object.array("servers") else { return [] }
        var servers: [OpenAPIServer] = []
        for (index, element) in elements.enumerated() {
            let server = try OpenAPIObject(
                element, at: object.location.appending("servers").appending(index), what: "a server")
            var variables: [OpenAPIServerVariable] = []
            for member in try server.object("variables")?.members ?? [] {
                let variable = try OpenAPIObject(
                    member.value, at: server.location.appending("variables").appending(member.key),
                    what: "a server variable")
                guard let defaultValue = try variable.scalarText("default") else {
                    throw OpenAPIError("the server variable '\(member.key)' has no 'default'", at: variable.location)
                }
                variables.append(
                    OpenAPIServerVariable(
                        name: member.key, defaultValue: defaultValue, allowedValues: try variable.strings("enum") ?? [],
                        description: try variable.string("description")))
            }
            servers.append(
                OpenAPIServer(
                    url: try server.requiredString("url", of: "a server"),
                    description: try server.string("description"),
                    variables: variables))
        }
        return servers
    }

    /// A `security` array.
    func readSecurity(_ value: YAMLValue, at location: OpenAPILocation) throws(OpenAPIError)
        -> [OpenAPISecurityRequirement]
    {
        guard case .array(let elements) = value else {
            throw OpenAPIError("'security' must be an array, not \(value.kindName)", at: location)
        }
        var requirements: [OpenAPISecurityRequirement] = []
        for (index, element) in elements.enumerated() {
            let requirement = try OpenAPIObject(
                element, at: location.appending(index), what: "a security requirement")
            var entries: [OpenAPISecurityRequirement.Entry] = []
            for member in requirement.members {
                entries.append(
                    OpenAPISecurityRequirement.Entry(
                        scheme: member.key, scopes: try requirement.strings(member.key) ?? []))
            }
            requirements.append(OpenAPISecurityRequirement(entries: entries))
        }
        return requirements
    }
}
