/// Where each ``ParameterStyle`` may fill a wildcard, checked once when a descriptor is made, so
/// that a style in the wrong place is the descriptor's error (``CallDescriptor/validate()``), not
/// a surprise in the request.
///
/// - `simple`, `label`, `matrix`: the path (a whole segment or part of one);
/// - `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`: a query item written as a lone
///   wildcard (`?%%N%%`, `&%%N%%`), the items the style writes;
/// - `simple`: a header value, and the cache identifier; `form`: the `Cookie` field's value (an
///   OpenAPI cookie parameter).
///
/// Every style must be for an index some wildcard uses.
enum ParameterStylePlacement {
    /// Throws the first style of `styles` (by index) that is in a place it cannot fill, names no
    /// parameter where its style writes one, or is for an index no wildcard uses.
    static func check(
        _ styles: [Int: ParameterStyle], url: URLTemplate, headers: [CompiledCall.HeaderTemplate],
        cacheIdentifier: Template?
    ) throws(WebServiceError) {
        for (index, style) in styles.sorted(by: { $0.key < $1.key }) {
            let named = "parameterStyles[\(index)] \(style)"
            if style.name.isEmpty, style.kind != .simple, style.kind != .label {
                throw .invalidCall("\(named) has no parameter name; write the name the \(style.kind) style writes")
            }
            var used = false
            if url.path.argumentIndices.contains(index) {
                used = true
                guard style.fillsPath else {
                    throw .invalidCall(
                        "\(named) fills a query item, but %%\(index)%% is in the path: use .simple, .label or "
                            + ".matrix there, or write the wildcard as a query item of its own (?%%\(index)%%)")
                }
            }
            for item in url.query {
                if item.value == nil, item.name.soleArgument == index {
                    used = true
                    guard style.fillsQuery else {
                        throw .invalidCall(
                            "\(named) fills a path wildcard, but %%\(index)%% is a query item: use .form, "
                                + ".spaceDelimited, .pipeDelimited or .deepObject there")
                    }
                } else if item.name.argumentIndices.contains(index)
                    || item.value?.argumentIndices.contains(index) == true
                {
                    throw .invalidCall(
                        "\(named): %%\(index)%% is part of a query item; a styled argument writes whole items "
                            + "(name and value), so write the item as the wildcard alone (?%%\(index)%% or &%%\(index)%%)"
                    )
                }
            }
            for header in headers where header.value.argumentIndices.contains(index) {
                used = true
                let isCookie = header.name.caseInsensitiveEquals("Cookie")
                guard style.kind == .simple || (style.kind == .form && isCookie) else {
                    throw .invalidCall(
                        "\(named) cannot fill the header \(header.name): a header value takes .simple, and the "
                            + "Cookie field .form (an OpenAPI cookie parameter)")
                }
            }
            if cacheIdentifier?.argumentIndices.contains(index) == true {
                used = true
                guard style.kind == .simple else {
                    throw .invalidCall("\(named) cannot fill the cacheIdentifier, which takes .simple only")
                }
            }
            guard used else {
                throw .invalidCall(
                    "\(named): no %%\(index)%% wildcard uses argument \(index); remove the style, or use the "
                        + "wildcard in the relative path or a header")
            }
        }
    }
}

extension ParameterStyle {
    /// Whether the style fills a path wildcard.
    var fillsPath: Bool { kind == .simple || kind == .label || kind == .matrix }

    /// Whether the style fills a lone query wildcard with items.
    var fillsQuery: Bool { !fillsPath }
}
