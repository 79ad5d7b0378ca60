/// One call's arguments, read along its descriptor's ``ArgumentPlan``.
///
/// Every argument is consumed by a wildcard, the body, the progress handler, the download
/// destination, a multipart part or the URL builder; one that nothing consumes is an error, never
/// silently dropped. Declared positions are checked as they are used (a missing argument is named
/// with its use); the open positions are searched once (``searchOpenPositions(urlBuilder:)``).
struct ArgumentBinder {
    let arguments: [any Sendable]
    let plan: ArgumentPlan

    init(_ arguments: [any Sendable], plan: ArgumentPlan) {
        self.arguments = arguments
        self.plan = plan
    }

    /// The argument at `index`; a typed error when it was not passed.
    ///
    /// `place` names the use in that error, and is only built for it.
    func take(_ index: Int, for place: @autoclosure () -> String) throws(WebServiceError) -> any Sendable {
        guard index < arguments.count else {
            throw .invalidArguments(
                index: index,
                reason: "missing: \(place()) uses argument \(index) but only \(arguments.count) were passed")
        }
        return arguments[index]
    }

    /// The wildcard value of the argument at `index`.
    func wildcard(_ index: Int, in place: @autoclosure () -> String) throws(WebServiceError) -> WildcardValue {
        let argument = try take(index, for: "%%\(index)%% in the \(place())")
        guard let value = WildcardConversion.value(of: argument) else {
            throw .invalidArguments(
                index: index,
                reason: "a \(type(of: argument)) cannot fill %%\(index)%% in the \(place()); pass a String, number, "
                    + "Bool, UUID, Date, URL, RawRepresentable or Optional, or conform it to WildcardConvertible")
        }
        return value
    }

    /// The argument at `index` as a set of query items, for a query item that is a lone wildcard
    /// (`?%%0%%`): a ``QueryParameters``, a dictionary, or an `Encodable` value that does not fill
    /// a wildcard as text. `nil` for an argument that does (text, a number, `nil`…), which names
    /// an item without a value, as it always did.
    func queryParameters(_ index: Int) throws(WebServiceError) -> QueryParameters? {
        let argument = try take(index, for: "%%\(index)%% in the query")
        if let parameters = argument as? QueryParameters { return parameters }
        if WildcardConversion.value(of: argument) != nil { return nil }
        guard argument is [String: Any] || argument is any Encodable else { return nil }
        return QueryParameters(argument: argument)
    }

    /// The argument at `index` as its ``ParameterStyle`` `style` writes it: text, a list, or an
    /// object (an `Encodable` value or a dictionary, encoded by ``QueryItemEncoder``, whose leaves
    /// take the text they would take filling a wildcard). A list or an object inside one fails,
    /// naming it.
    func styledValue(_ index: Int, style: ParameterStyle, in place: @autoclosure () -> String)
        throws(WebServiceError) -> StyledValue
    {
        let argument = try take(index, for: "%%\(index)%% in the \(place())")
        let node: QueryItemEncoder.Node
        switch QueryItemEncoder.node(of: argument) {
        case .success(let encoded): node = encoded
        case .failure(let failure):
            if case .preEncodedPath? = WildcardConversion.value(of: argument) {
                throw .invalidArguments(
                    index: index,
                    reason: "a PreEncodedPath is inserted as written, which a styled wildcard (\(style)) never is; "
                        + "pass the text itself")
            }
            throw .invalidArguments(index: index, reason: "its value for \(style): \(failure)")
        }
        do {
            return try StyledValue(node)
        } catch {
            throw .invalidArguments(index: index, reason: "its value for \(style): \(error)")
        }
    }

    /// The `progressParameter` argument, in one of its two forms: which one is the only decision
    /// its run-time type makes.
    func progress() throws(WebServiceError) -> (ProgressHandler?, TransferProgressHandler?) {
        guard let index = plan.progressParameter else { return (nil, nil) }
        let argument = try take(index, for: "progressParameter")
        if let handler = argument as? ProgressHandler { return (handler, nil) }
        if let handler = argument as? TransferProgressHandler { return (nil, handler) }
        if let handler = argument as? ProgressHandler? { return (handler, nil) }
        if let handler = argument as? TransferProgressHandler? { return (nil, handler) }
        throw .invalidArguments(
            index: index,
            reason:
                "progressParameter needs a ProgressHandler or a TransferProgressHandler; got a \(type(of: argument))"
        )
    }

    /// Whether any argument has a role its run-time type decides: without one there is nothing
    /// to search, no multipart part, no implicit body and no argument left unused.
    var hasOpenPositions: Bool { arguments.count > plan.firstSearched }

    /// Decides the role of every open position (and of the `bodyParameter`'s) by its argument's
    /// run-time type, once each and in order: a ``DownloadDestination`` (at most one), an argument
    /// `urlBuilder` accepts (not the `bodyParameter`), a ``FormData`` or `[FormData]` part, or
    /// else one left for the body.
    func searchOpenPositions(urlBuilder: (any URLBuilder)?) throws(WebServiceError) -> OpenArguments {
        var found = OpenArguments()
        guard hasOpenPositions else { return found }
        for index in plan.firstSearched..<arguments.count {
            let role = plan.role(index)
            if role == .declared { continue }
            let argument = arguments[index]
            if let destination = argument as? DownloadDestination {
                guard found.destination == nil else {
                    throw .invalidArguments(index: index, reason: "a call downloads to one DownloadDestination only")
                }
                found.destination = destination
            } else if role == .open, let urlBuilder, urlBuilder.accepts(argument) {
                found.builderArguments.append(argument)
            } else if let part = argument as? FormData {
                found.parts.append(part)
            } else if let list = argument as? [FormData] {
                found.parts.append(contentsOf: list)
            } else {
                found.leftOver(index)
            }
        }
        return found
    }

    /// The error for an argument nothing used.
    func unused(_ index: Int, method: HTTPMethod) -> WebServiceError {
        let hint =
            method.takesBodyByDefault
            ? "the call already has a body" : "a \(method) call sends no body unless bodyParameter names one"
        return .invalidArguments(
            index: index,
            reason:
                "a \(type(of: arguments[index])) that nothing uses: no %%\(index)%% wildcard refers to it and \(hint)"
        )
    }
}

/// The arguments of a call's open positions, by the role their run-time type gave them.
struct OpenArguments {
    /// Where a download goes.
    var destination: DownloadDestination?
    /// The arguments the URL builder accepted, in order.
    var builderArguments: [Any] = []
    /// The multipart parts, in order.
    var parts: [FormData] = []
    /// The first two positions left over: the implicit body, and the first argument nothing uses.
    private(set) var firstLeftOver: Int?
    private(set) var secondLeftOver: Int?

    mutating func leftOver(_ index: Int) {
        if firstLeftOver == nil {
            firstLeftOver = index
        } else if secondLeftOver == nil {
            secondLeftOver = index
        }
    }

    /// The first position left over other than `taken` (the body's): the first argument nothing uses.
    func unusedPosition(besides taken: Int?) -> Int? {
        firstLeftOver == taken ? secondLeftOver : firstLeftOver
    }
}
