/// The argument types a ``TypedCall`` declares, read once when it is made, and the check of its
/// templates against them.
struct ArgumentSignature: Sendable {
    /// What the declaration says of one argument.
    struct Argument: Sendable {
        /// The type's name, for messages.
        let typeName: String
        /// Whether a value of the type can fill a wildcard (``WildcardConversion/accepts(_:)``).
        let fillsWildcards: Bool
        /// Whether it is a ``DownloadDestination`` (or an `Optional` of one), which no wildcard uses.
        let isDownloadDestination: Bool
        /// Whether it is `Encodable` (a structure, a dictionary, a list…): it can fill a lone query
        /// wildcard with items, or a wildcard with a ``ParameterStyle`` as an object.
        let isEncodable: Bool
        /// Whether it can fill a lone query wildcard with items: a ``QueryParameters``, or an
        /// `Encodable` value (a structure, a dictionary).
        let fillsQueryItems: Bool
    }

    let arguments: [Argument]
    /// The body's type name, or `nil` for ``NoBody``.
    let body: String?

    init(arguments: [any Any.Type], body: (any Any.Type)?) {
        self.arguments = arguments.map { type in
            let isEncodable = type is any Encodable.Type
            return Argument(
                typeName: "\(type)", fillsWildcards: WildcardConversion.accepts(type),
                isDownloadDestination: type == DownloadDestination.self || type == DownloadDestination?.self,
                isEncodable: isEncodable, fillsQueryItems: type == QueryParameters.self || isEncodable)
        }
        self.body = body.map { "\($0)" }
    }

    /// `ArgumentList<String, Int>`, as the declaration wrote it.
    var declaration: String { "ArgumentList<\(arguments.map(\.typeName).joined(separator: ", "))>" }

    /// Throws the first way `fields` and its parsed templates (`indices`: every wildcard index
    /// they use; `querySetIndices`: those of lone query wildcards, which take items) do not fit the
    /// declared arguments.
    func check(_ fields: CallFields, wildcardIndices indices: [Int], querySetIndices: [Int]) throws(WebServiceError) {
        let count = arguments.count
        if fields.progressParameter != nil {
            throw .invalidCall(
                "a TypedCall reports progress to perform's progress: parameter; remove progressParameter from its call")
        }
        if fields.bodyParameter != (body == nil ? nil : count) {
            throw .invalidCall(
                body == nil
                    ? "a TypedCall whose Body is NoBody sends no body; remove bodyParameter, or declare the Body type"
                    : "a TypedCall's body is its Body argument, after the \(count) declared; remove bodyParameter")
        }
        if let index = indices.first(where: { $0 >= count }) {
            throw .invalidCall(
                "the template uses %%\(index)%% but the call declares \(count) argument\(count == 1 ? "" : "s") "
                    + "(\(declaration)); declare one type per wildcard, %%0%% first")
        }
        let used = Set(indices)
        for (index, argument) in arguments.enumerated() {
            // A styled argument (its wildcards' places were checked with the descriptor): text, a
            // list of text, or an object, which an `Encodable` type may be; `deepObject` takes an
            // object only.
            if let style = fields.parameterStyles[index] {
                if style.kind == .deepObject, argument.fillsWildcards || !argument.isEncodable {
                    throw .invalidCall(
                        "argument \(index) of \(declaration) is a \(argument.typeName), but \(style) writes the "
                            + "members of an object: declare an Encodable structure or a [String: V] dictionary")
                }
                guard argument.fillsWildcards || argument.isEncodable else {
                    throw .invalidCall(
                        "argument \(index) of \(declaration) is a \(argument.typeName), which cannot fill %%\(index)%% "
                            + "with \(style): declare text (a String, number, Bool, UUID, Date, URL, RawRepresentable), "
                            + "a list of it, or an Encodable structure or dictionary")
                }
                continue
            }
            let uses = indices.count { $0 == index }
            let querySetUses = querySetIndices.count { $0 == index }
            if querySetUses > 0, uses == querySetUses, argument.fillsQueryItems { continue }
            if used.contains(index) {
                guard argument.fillsWildcards else {
                    throw .invalidCall(
                        "argument \(index) of \(declaration) is a \(argument.typeName), which cannot fill %%\(index)%%: "
                            + "declare a String, number, Bool, UUID, Date, URL, RawRepresentable or Optional, or "
                            + "conform it to WildcardConvertible")
                }
            } else if !argument.isDownloadDestination, fields.urlBuilder == nil {
                throw .invalidCall(
                    "argument \(index) of \(declaration) (\(argument.typeName)) fills no wildcard: the template has no "
                        + "%%\(index)%%; use it in the relative path, a header or the cache identifier, or remove it")
            }
        }
    }
}
