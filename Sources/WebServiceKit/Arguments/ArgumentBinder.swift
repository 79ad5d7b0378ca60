/// Hands each argument to the one place that consumes it, and reports what is missing or unused.
///
/// An argument is consumed by a wildcard, the body, the progress handler, or the URL builder;
/// one that nothing consumes is an error, never silently dropped.
struct ArgumentBinder {
    let arguments: [any Sendable]
    private(set) var consumed: [Bool]

    init(_ arguments: [any Sendable]) {
        self.arguments = arguments
        consumed = Array(repeating: false, count: arguments.count)
    }

    /// The argument at `index`, marked consumed; a typed error when it was not passed.
    ///
    /// `place` names the use in that error, and is only built for it.
    mutating func take(_ index: Int, for place: @autoclosure () -> String) throws(WebServiceError) -> any Sendable {
        guard index < arguments.count else {
            throw .invalidArguments(
                index: index,
                reason: "missing: \(place()) uses argument \(index) but only \(arguments.count) were passed")
        }
        consumed[index] = true
        return arguments[index]
    }

    /// The wildcard value of the argument at `index`.
    mutating func wildcard(_ index: Int, in place: @autoclosure () -> String) throws(WebServiceError)
        -> WildcardValue
    {
        let argument = try take(index, for: "%%\(index)%% in the \(place())")
        guard let value = WildcardConversion.value(of: argument) else {
            throw .invalidArguments(
                index: index,
                reason: "a \(type(of: argument)) cannot fill %%\(index)%% in the \(place()); pass a String, number, "
                    + "Bool, UUID, Date, URL, RawRepresentable or Optional, or conform it to WildcardConvertible")
        }
        return value
    }

    /// Indices of arguments nothing has consumed yet.
    var unconsumedIndices: [Int] { consumed.indices.filter { !consumed[$0] } }

    /// Throws for the first argument nothing consumed.
    func checkAllConsumed(method: HTTPMethod) throws(WebServiceError) {
        guard let index = consumed.firstIndex(of: false) else { return }
        let hint =
            method.takesBodyByDefault
            ? "the call already has a body" : "a \(method) call sends no body unless bodyParameter names one"
        throw .invalidArguments(
            index: index,
            reason:
                "a \(type(of: arguments[index])) that nothing uses: no %%\(index)%% wildcard refers to it and \(hint)"
        )
    }
}
