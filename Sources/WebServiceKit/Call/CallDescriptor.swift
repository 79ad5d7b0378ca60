import Foundation

/// Everything a ``WebServiceCall`` declares except how its response is decoded.
///
/// Interceptors and authentication providers see this non-generic form. Its fields are one
/// ``CallFields`` value, read by name on the descriptor (`descriptor.method`,
/// `descriptor.timeout`) or whole as ``fields``. Templates are parsed and the arguments planned
/// once, when the descriptor is made; a malformed declaration is kept as an error that every
/// call reports (``WebServiceError/invalidCall(_:)``) and that ``validate()`` throws for tests.
@dynamicMemberLookup
public struct CallDescriptor: Sendable {
    /// Identifies this descriptor (and its copies) among all descriptors of the process.
    public var id: CallID { storage.id }
    /// A name for logs and test stubs: ``CallFields/name``, or `"METHOD relativePath"` without one.
    public var name: String { storage.name }
    /// The declared fields, as one value: copy it, change a field, and make a new call from it.
    public var fields: CallFields { storage.fields }

    /// The field `field` of ``fields``: `descriptor.method`, `descriptor.relativePath`…
    ///
    /// Inlinable, so that another module's optimizer can reduce a read to the one field instead
    /// of applying a key path at run time.
    @inlinable
    public subscript<Field>(dynamicMember field: KeyPath<CallFields, Field>) -> Field {
        storage.fields[keyPath: field]
    }

    var compiled: Result<CompiledCall, WebServiceError> { storage.compiled }

    /// Throws the problem that makes every call of this descriptor fail, if there is one.
    public func validate() throws(WebServiceError) { _ = try compiled.get() }

    /// Throws what ``validate()`` throws, and what would surprise a caller of this descriptor
    /// under `serviceRoot`: a ``CallFields/relativePath`` that starts with `/` while the root has
    /// a path, which resolves against the root's origin and so drops that path
    /// (`/users` under `https://api.example.com/v1/` calls `https://api.example.com/users`).
    /// Such a path is legal (a call outside the root's path, on purpose); check an endpoint table
    /// with this form to catch the accidental ones. The error says where the call goes, and how to
    /// keep it under the root.
    ///
    /// It also refuses a `.` or `..` segment written in the path: a server removes it as it
    /// resolves the path (RFC 3986 §5.2.4), so the call reaches another path than the one written
    /// (`../admin` under `https://api.example.com/v1/` is `https://api.example.com/admin`). An
    /// argument that would make such a segment is refused at every call already.
    public func validate(serviceRoot: URL) throws(WebServiceError) {
        let compiled = try compiled.get()
        let root = ServiceRoot(serviceRoot)
        let path = fields.relativePath
        let segments = path.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false)
        if compiled.url.anchor != .absolute, segments.contains(where: { $0 == "." || $0 == ".." }) {
            let written = (compiled.url.anchor == .origin ? root.origin : root.base) + path
            let resolved = root.origin + Self.removingDotSegments(String(written.dropFirst(root.origin.count)))
            throw .invalidCall(
                "relativePath \"\(path)\" has a \".\" or \"..\" segment, which the server removes as it resolves "
                    + "the path (RFC 3986 §5.2.4): the call would reach \(resolved), not \(written); write the "
                    + "path without it")
        }
        guard compiled.url.anchor == .origin, root.base.count > root.origin.count + 1 else { return }
        let kept = path.drop { $0 == "/" }
        throw .invalidCall(
            "relativePath \"\(path)\" starts with \"/\", so it resolves against the origin "
                + "(\(root.origin)\(path)) and drops the service root's path "
                + "\"\(root.base.dropFirst(root.origin.count))\"; write \"\(kept)\" to call \(root.base)\(kept), "
                + "or validate without the root if the call leaves the root's path on purpose")
    }

    /// `path` (from its first `/`, a query after `?` kept as it is) with its `.` and `..`
    /// segments removed as RFC 3986 §5.2.4 does.
    static func removingDotSegments(_ path: String) -> String {
        let query = path.firstIndex(of: "?").map { String(path[$0...]) } ?? ""
        var output: [Substring] = []
        let segments = path.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case ".": if isLast { output.append("") }
            case "..":
                _ = output.popLast()
                if isLast { output.append("") }
            default: output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/") + query
    }

    /// The fields, shared by every copy: a descriptor travels through each call's pipeline by
    /// value, and copying one reference costs one retain where twenty fields cost twenty. The
    /// library reads a field through it (`storage.fields.method`), which copies nothing.
    @usableFromInline let storage: Storage

    /// Makes a descriptor of `fields`, checking and compiling them once.
    ///
    /// `supportsSerializationRoot` tells whether the response serializer can decode from a
    /// ``CallFields/serializationRoot``; `downloadsToFile`, whether the call's response body goes
    /// to a file (a `WebServiceCall<DownloadedFile>`); `streamsResponse`, whether its response is
    /// a ``ResponseStream``; `signature`, the argument types a ``TypedCall`` declares, checked
    /// against the templates.
    init(
        _ fields: CallFields, supportsSerializationRoot: Bool, downloadsToFile: Bool = false,
        streamsResponse: Bool = false, signature: ArgumentSignature? = nil
    ) {
        storage = Storage(
            fields, supportsSerializationRoot: supportsSerializationRoot, downloadsToFile: downloadsToFile,
            streamsResponse: streamsResponse, signature: signature)
    }

    /// Whether the call's response body goes to a file (``DownloadedFile``): decided once, when
    /// the descriptor is made from its serializer, never by a type test per call.
    var downloadsToFile: Bool { storage.downloadsToFile }

    /// Whether the call's response is a ``ResponseStream`` (`WebServiceCall<ResponseStream<E>>`):
    /// never cached, whichever way it is performed. Decided once, from its serializer.
    var streamsResponse: Bool { storage.streamsResponse }

    /// The fields, the name in use, the identity and the compiled form: made once per descriptor.
    @usableFromInline final class Storage: Sendable {
        let id: CallID
        let name: String
        @usableFromInline let fields: CallFields
        let compiled: Result<CompiledCall, WebServiceError>
        let downloadsToFile: Bool
        let streamsResponse: Bool

        init(
            _ fields: CallFields, supportsSerializationRoot: Bool, downloadsToFile: Bool, streamsResponse: Bool,
            signature: ArgumentSignature?
        ) {
            id = CallID.next()
            self.downloadsToFile = downloadsToFile
            self.streamsResponse = streamsResponse
            name = fields.name ?? "\(fields.method.rawValue) \(fields.relativePath)"
            self.fields = fields
            compiled = Result { () throws(WebServiceError) in
                let compiled = try CompiledCall(fields, supportsSerializationRoot: supportsSerializationRoot)
                try signature?.check(
                    fields, wildcardIndices: compiled.wildcardIndices, querySetIndices: compiled.querySetIndices)
                return compiled
            }
        }
    }
}

/// The identity of a descriptor, for test stubs and logs.
public struct CallID: Hashable, Sendable, CustomStringConvertible {
    let value: Int

    private static let counter = Locked(0)

    static func next() -> CallID {
        CallID(
            value: counter.withLock { count in
                count += 1
                return count
            })
    }

    public var description: String { "#\(value)" }
}

/// The parsed, checked form of a descriptor's templates, and the plan of its arguments.
final class CompiledCall: Sendable {
    struct HeaderTemplate: Sendable {
        let name: String
        let value: Template
    }

    let url: URLTemplate
    let headers: [HeaderTemplate]
    /// Whether two of ``headers`` have the same name in different cases (the later one wins).
    let headerNamesCollide: Bool
    let serializationRoot: [String]?
    let cacheIdentifier: Template?
    /// The URL of a call without wildcards in its path or query, kept for the last service root
    /// it was built against: parsing it again costs more than the rest of the request.
    let staticURL: StaticURLCache?
    /// What handles each argument position, decided from the declaration.
    let arguments: ArgumentPlan

    /// Every wildcard index the templates use: the URL's, the headers' and the cache identifier's.
    let wildcardIndices: [Int]
    /// The indices of the query items that are a lone wildcard (`?%%1%%`), which a
    /// ``QueryParameters`` argument (or a dictionary, or an `Encodable` value) fills with items.
    let querySetIndices: [Int]

    init(_ fields: CallFields, supportsSerializationRoot: Bool) throws(WebServiceError) {
        let method = fields.method
        guard fields.streamBufferSize > 0, (fields.maximumStreamedBodySize ?? 0) >= 0 else {
            throw .invalidCall("streamBufferSize must be positive and maximumStreamedBodySize at least 0")
        }
        guard method.isValidToken else {
            throw .invalidCall("method \"\(method.rawValue)\" is not a valid HTTP token (RFC 9110 §9.1)")
        }
        do {
            url = try URLTemplate.parse(fields.relativePath)
            staticURL = url.argumentIndices.isEmpty ? StaticURLCache() : nil
            self.cacheIdentifier = try fields.cacheIdentifier.map { (text) throws(TemplateError) in
                try Template.parse(text)
            }
        } catch {
            throw .invalidCall(error.description)
        }
        var headerTemplates: [HeaderTemplate] = []
        for (name, value) in fields.headers.sorted(by: { $0.key < $1.key }) {
            do throws(TemplateError) {
                headerTemplates.append(HeaderTemplate(name: name, value: try Template.parse(value)))
            } catch {
                // Neither the value nor its wildcard is quoted: a header template may hold a credential.
                throw .invalidHeader(
                    name: name,
                    reason:
                        "malformed template: a wildcard is %%N%% with N a decimal argument index from 0 to \(Template.maximumIndex)"
                )
            }
        }
        self.headers = headerTemplates
        headerNamesCollide = Set(headerTemplates.map { $0.name.lowercased() }).count < headerTemplates.count
        for header in self.headers {
            guard HTTPToken.isValidFieldName(header.name) else {
                throw .invalidHeader(name: header.name, reason: "not a valid field name (RFC 9110 §5.1)")
            }
            for case .literal(let text) in header.value.parts {
                if let problem = HeaderValidation.problem(in: text) {
                    throw .invalidHeader(name: header.name, reason: problem)
                }
            }
        }
        if let serializationRoot = fields.serializationRoot {
            guard supportsSerializationRoot else {
                throw .invalidCall("serializationRoot \"\(serializationRoot)\" needs a serializer that supports it")
            }
            let steps = serializationRoot.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !steps.contains(where: \.isEmpty) else {
                throw .invalidCall("serializationRoot \"\(serializationRoot)\" has an empty step")
            }
            self.serializationRoot = steps
        } else {
            self.serializationRoot = nil
        }
        for (label, index) in [
            ("bodyParameter", fields.bodyParameter), ("progressParameter", fields.progressParameter),
        ] {
            if let index, index < 0 || index > Template.maximumIndex {
                throw .invalidCall("\(label) \(index) is not an argument index")
            }
        }
        if let bodyParameter = fields.bodyParameter, bodyParameter == fields.progressParameter {
            throw .invalidCall("bodyParameter and progressParameter are both argument \(bodyParameter)")
        }
        if fields.overridesClientSuccessCodes, fields.successCodes == nil {
            throw .invalidCall("overridesClientSuccessCodes needs successCodes to replace the client's with")
        }
        if let boundary = fields.multipartBoundary, let problem = MultipartBoundary.problem(in: boundary) {
            throw .invalidCall("multipartBoundary \"\(boundary)\": \(problem)")
        }
        if let timeout = fields.timeout, !(timeout > 0) {
            throw .invalidCall("timeout must be positive; got \(timeout)")
        }
        if !fields.parameterStyles.isEmpty {
            try ParameterStylePlacement.check(
                fields.parameterStyles, url: url, headers: headerTemplates, cacheIdentifier: cacheIdentifier)
        }
        querySetIndices = url.query.compactMap { $0.value == nil ? $0.name.soleArgument : nil }
        wildcardIndices =
            url.argumentIndices + headerTemplates.flatMap(\.value.argumentIndices)
            + (cacheIdentifier?.argumentIndices ?? [])
        arguments = ArgumentPlan(
            wildcardIndices: wildcardIndices, progressParameter: fields.progressParameter,
            bodyParameter: fields.bodyParameter)
    }
}

/// One URL remembered with the service root it was built against.
final class StaticURLCache: Sendable {
    private let entry = Locked<(root: String, url: URL)?>(nil)

    /// The URL built for `root`, if it is the one remembered.
    func url(for root: String) -> URL? {
        entry.withLock { entry in entry.flatMap { $0.root == root ? $0.url : nil } }
    }

    func remember(_ url: URL, for root: String) { entry.withLock { $0 = (root, url) } }
}
