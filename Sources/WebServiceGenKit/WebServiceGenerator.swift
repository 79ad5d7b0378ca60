import Foundation

/// How the generated Swift is written.
public struct GeneratorOptions: Sendable, Equatable {
    /// The access level of the generated declarations.
    public enum Access: String, Sendable, CaseIterable {
        /// `public`: for a library target that offers the client to others.
        case `public`
        /// `package`: visible in the same package.
        case `package`
        /// No modifier: visible in the module (the default).
        case `internal`

        var modifier: String { self == .internal ? "" : rawValue + " " }
    }

    /// The access level; `.internal` by default.
    public var access: Access
    /// An enum that holds the model types (`Places.GoogleLocation`), or `nil` for top-level types.
    public var namespace: String?

    /// Creates options.
    public init(access: Access = .internal, namespace: String? = nil) {
        self.access = access
        self.namespace = namespace
    }
}

/// The input formats, told apart by file extension.
public enum IDLFormat: String, Sendable, CaseIterable {
    /// ifacegen's JSON IDL, `.json`.
    case ifaceGen = "json"
    /// HTTPIDL message files, `.http` (also `.httpidl`).
    case httpIDL = "http"

    /// The format of `path` by its extension, or `nil`.
    public init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "json": self = .ifaceGen
        case "http", "httpidl": self = .httpIDL
        default: return nil
        }
    }
}

/// Turns ifacegen JSON IDL and HTTPIDL files into one Swift file of `Codable` models and
/// `WebServiceCall` descriptors.
///
/// ```swift
/// let generator = WebServiceGenerator(options: GeneratorOptions(access: .public))
/// let swift = try generator.generate(["GooglePlaces.json", "Notes.http"])
/// ```
///
/// Every problem is an ``IDLError`` with the file, line and column it concerns.
public struct WebServiceGenerator: Sendable {
    /// How the Swift is written.
    public var options: GeneratorOptions
    /// Where input files are read from.
    public var source: any SourceReading

    /// Creates a generator that reads files with `source` (the file system by default).
    public init(options: GeneratorOptions = GeneratorOptions(), source: any SourceReading = FileSystemSource()) {
        self.options = options
        self.source = source
    }

    /// Reads and checks `paths` (and what they import) into one module, declarations in order.
    public func load(_ paths: [String]) throws(IDLError) -> IDLModule {
        guard !paths.isEmpty else { throw IDLError("no input files", at: nil) }
        var module = IDLModule()
        var ifaceGen = IfaceGenReader(source: source)
        for path in paths {
            switch IDLFormat(path: path) {
            case .ifaceGen:
                module.append(try ifaceGen.read(path: path))
            case .httpIDL:
                module.append(try HTTPIDLReader.read(try source.contents(of: path, importedAt: nil), file: path))
            case nil:
                throw IDLError(
                    "'\(path)': unknown input format; use .json for ifacegen IDL or .http for HTTPIDL", at: nil)
            }
        }
        return try IDLResolver.resolve(module)
    }

    /// The Swift file for `paths`.
    public func generate(_ paths: [String]) throws(IDLError) -> String {
        if let namespace = options.namespace,
            !IfaceGenReader.isIdentifier(namespace) || SwiftNaming.reservedTypeNames.contains(namespace)
                || SwiftNaming.keywords.contains(namespace)
        {
            throw IDLError("the namespace '\(namespace)' is not a usable Swift type name", at: nil)
        }
        let module = try load(paths)
        if let namespace = options.namespace, module.structures.contains(where: { $0.name == namespace }) {
            throw IDLError("the namespace '\(namespace)' is also the name of a struct", at: nil)
        }
        return SwiftWriter.write(module, sources: paths, options: options)
    }
}
