import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request ready for the interceptor chain, with the parts of the call that travel beside it.
struct PreparedRequest {
    var request: WebServiceRequest
    /// The `progressParameter` argument, in one of its two forms.
    var progress: ProgressHandler?
    var transferProgress: TransferProgressHandler?
    /// The ``DownloadDestination`` argument, if there is one.
    var downloadDestination: DownloadDestination?
    /// A streamed body, attached anew to each send; in-memory bodies are on `request` already.
    var streamedBody: RequestBody?
    /// The rendered `cacheIdentifier`, if the descriptor has one.
    var cacheIdentifier: String?
}

/// The client's defaults that building a request needs.
struct RequestDefaults {
    let serviceRoot: ServiceRoot
    let sharedHeaders: [String: String]
    let requestSerializer: any RequestSerializer
    let timeout: TimeInterval
    /// The transport's session fields, added as the request is built (``RequestBridge``).
    var bridge: RequestBridge? = nil
}

/// The service root as the two prefixes a path can be resolved against.
struct ServiceRoot: Sendable {
    /// The root with exactly one trailing `/` (`https://api.example.com/v1/`).
    let base: String
    /// Scheme, host and port (`https://api.example.com`).
    let origin: String

    init(_ url: URL) {
        var base = url.absoluteString
        if let query = base.firstIndex(where: { $0 == "?" || $0 == "#" }) { base = String(base[..<query]) }
        if !base.hasSuffix("/") { base += "/" }
        self.base = base
        // Keep the authority exactly as written (an IPv6 literal, a port); drop the rest.
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        components?.percentEncodedPath = ""
        components?.percentEncodedQuery = nil
        components?.percentEncodedFragment = nil
        origin = components?.string ?? base
    }
}

/// Binds a call's arguments and builds its `WebServiceRequest`: URL, query, headers, body, timeout.
///
/// Every descriptor field that shapes the request is read here and nowhere else.
struct RequestFactory {
    let descriptor: CallDescriptor
    let compiled: CompiledCall
    let defaults: RequestDefaults

    func makeRequest(arguments: [any Sendable]) throws(WebServiceError) -> PreparedRequest {
        // Read in place in the shared storage: a copy of the fields would retain each of them.
        let declared = descriptor.storage
        let binder = ArgumentBinder(arguments, plan: compiled.arguments)
        let (progress, transferProgress) = try binder.progress()
        var url = try buildURL(binder)
        // After the wildcards, as the URL builder and the destination were always looked for; a
        // call whose arguments all have declared roles has nothing to search.
        let open =
            try binder.hasOpenPositions ? binder.searchOpenPositions(urlBuilder: declared.fields.urlBuilder) : nil
        if let builder = declared.fields.urlBuilder {
            url = try applyURLBuilder(builder, to: url, arguments: open?.builderArguments ?? [])
        }
        var request = WebServiceRequest(
            url: url, method: declared.fields.method.rawValue,
            timeoutInterval: declared.fields.timeout ?? defaults.timeout)
        var headers = try buildHeaders(binder)
        let cacheIdentifier = try compiled.cacheIdentifier.flatMap { template throws(WebServiceError) in
            try renderText(template, place: "cacheIdentifier", binder: binder)
        }
        var streamedBody: RequestBody?
        let bodyPosition: Int?
        let bound: (RequestBody, String?)?
        if let open, !open.parts.isEmpty {
            bodyPosition = nil
            bound = try multipartBody(
                open.parts, boundary: declared.fields.multipartBoundary,
                nameEscaping: declared.fields.multipartNameEscaping)
        } else if let explicit = declared.fields.bodyParameter {
            bodyPosition = explicit
            bound = try body(at: explicit, binder: binder, fields: declared.fields)
        } else if let first = open?.unusedPosition(besides: nil), declared.fields.method.takesBodyByDefault {
            bodyPosition = first
            bound = try body(at: first, binder: binder, fields: declared.fields)
        } else {
            bodyPosition = nil
            bound = nil
        }
        if let (body, contentType) = bound {
            if let contentType, !headers.keys.contains(where: { $0.caseInsensitiveEquals("Content-Type") }) {
                try HeaderValidation.check(name: "Content-Type", value: contentType)
                headers["Content-Type"] = contentType
            }
            switch body.storage {
            case .data(let data): request.httpBody = data
            case .stream: streamedBody = body
            }
        }
        if let unused = open?.unusedPosition(besides: bodyPosition) {
            throw binder.unused(unused, method: declared.fields.method)
        }
        // The session's fields and the body's, in the same assignment: the bridge stage then has
        // nothing to add to most requests (``RequestBridge/bridge(_:streamed:)``).
        defaults.bridge?.complete(
            &headers, method: declared.fields.method.rawValue, body: request.httpBody,
            streamed: streamedBody != nil, cookiesFor: nil)
        request.allHTTPHeaderFields = headers
        return PreparedRequest(
            request: request, progress: progress, transferProgress: transferProgress,
            downloadDestination: open?.destination, streamedBody: streamedBody, cacheIdentifier: cacheIdentifier)
    }

    // MARK: URL

    private func buildURL(_ binder: ArgumentBinder) throws(WebServiceError) -> URL {
        var text: String
        switch compiled.url.anchor {
        case .serviceRoot: text = defaults.serviceRoot.base
        case .origin: text = defaults.serviceRoot.origin
        case .absolute: text = ""
        }
        let root = text
        if let cached = compiled.staticURL?.url(for: root) { return cached }
        // Room for the template and some argument text, so that the appends below do not reallocate.
        text.reserveCapacity(text.utf8.count + descriptor.storage.fields.relativePath.utf8.count + 64)
        let styles = descriptor.storage.fields.parameterStyles
        // The last styled wildcard of the segment being written, whose whole segment is checked
        // once it ends (a styled value never holds a `/`).
        var styledInSegment: Int?
        for part in compiled.url.path.parts {
            switch part {
            case .literal(let literal):
                if let index = styledInSegment, let slash = literal.utf8.firstIndex(of: UInt8(ascii: "/")) {
                    try Self.checkSegment(ending: text, literal[..<slash], styled: index)
                    styledInSegment = nil
                }
                text += literal
            case .argument(let index):
                if !styles.isEmpty, let style = styles[index] {
                    text += try styledPathText(index, style: style, binder: binder)
                    styledInSegment = index
                    continue
                }
                switch try binder.wildcard(index, in: "path") {
                case .text(let value):
                    // RFC 3986 §5.2.4: "." and ".." segments are removed when a URL is resolved, so a
                    // value like ".." would climb out of the declared path.
                    guard value != ".", value != ".." else {
                        throw .invalidArguments(
                            index: index, reason: "\"\(value)\" cannot fill a path segment: it would change the path")
                    }
                    text += URLEncoding.pathSegment(value)
                case .preEncodedPath(let path):
                    guard URLEncoding.isValidEncodedPath(path) else {
                        throw .invalidArguments(
                            index: index,
                            reason: "PreEncodedPath \"\(path)\" is not an encoded path: use pchar, '/' and %XX only")
                    }
                    text += path
                case .absent:
                    throw .invalidArguments(index: index, reason: "nil cannot fill %%\(index)%% in the path")
                case .list:
                    throw .invalidArguments(index: index, reason: "a list cannot fill %%\(index)%% in the path")
                }
            }
        }
        if let index = styledInSegment { try Self.checkSegment(ending: text, "", styled: index) }
        var separator: Character = "?"
        for item in compiled.url.query {
            if item.value == nil, !styles.isEmpty, let index = item.name.soleArgument, let style = styles[index] {
                let value = try binder.styledValue(index, style: style, in: "query")
                for styled in try StyledParameterWriter.queryItems(value, style: style, index: index) {
                    text.append(separator)
                    text += styled
                    separator = "&"
                }
                continue
            }
            if item.value == nil, let index = item.name.soleArgument,
                let parameters = try binder.queryParameters(index)
            {
                for (name, value) in try parameters.encodedItems(index: index) {
                    text.append(separator)
                    text += name
                    text += "="
                    text += value
                    separator = "&"
                }
                continue
            }
            guard let name = try render(item.name, binder: binder) else { continue }
            guard let valueTemplate = item.value else {
                text.append(separator)
                text += name
                separator = "&"
                continue
            }
            let values: [String]
            if let index = valueTemplate.soleArgument {
                // One conversion of the argument serves both forms.
                switch try binder.wildcard(index, in: "query") {
                case .text(let value): values = [URLEncoding.queryComponent(value)]
                case .absent: continue
                case .preEncodedPath:
                    throw .invalidArguments(index: index, reason: "a PreEncodedPath can only fill a path wildcard")
                // A list in a query value repeats the item: ids=1&ids=2 (Retrofit's @Query with a list).
                case .list(let list): values = list.map(URLEncoding.queryComponent)
                }
            } else {
                guard let value = try render(valueTemplate, binder: binder) else { continue }
                values = [value]
            }
            for value in values {
                text.append(separator)
                text += name
                text += "="
                text += value
                separator = "&"
            }
        }
        guard let url = URL(string: text) else {
            throw .invalidCall(
                "\"\(text)\" is not a valid URL (service root + \"\(descriptor.storage.fields.relativePath)\")")
        }
        compiled.staticURL?.remember(url, for: root)
        return url
    }

    /// The text a styled path wildcard takes (``StyledParameterWriter``); `nil` is an error in the
    /// path, as for any argument. (Its segment is checked for dots once it ends: ``checkSegment``.)
    private func styledPathText(_ index: Int, style: ParameterStyle, binder: ArgumentBinder)
        throws(WebServiceError) -> String
    {
        let value = try binder.styledValue(index, style: style, in: "path")
        guard let text = StyledParameterWriter.pathText(value, style: style) else {
            throw .invalidArguments(index: index, reason: "nil cannot fill %%\(index)%% in the path")
        }
        return text
    }

    /// Throws when the segment that ends with `written` (from its last `/`) and `rest` is `.` or
    /// `..`, which URL resolution removes (RFC 3986 §5.2.4): a styled value there (a `label` of
    /// `""` or of an empty list writes `.`) would change the path. A styled value inside a
    /// longer segment (`users%%0%%` → `users.`) is harmless.
    private static func checkSegment(ending written: String, _ rest: Substring, styled index: Int)
        throws(WebServiceError)
    {
        let start = written.utf8.lastIndex(of: UInt8(ascii: "/")).map { written.utf8.index(after: $0) }
        let segment = written.utf8[(start ?? written.utf8.startIndex)...]
        let length = segment.count + rest.utf8.count
        guard length == 1 || length == 2,
            segment.allSatisfy({ $0 == UInt8(ascii: ".") }), rest.utf8.allSatisfy({ $0 == UInt8(ascii: ".") })
        else { return }
        throw .invalidArguments(
            index: index,
            reason: "%%\(index)%% makes the path segment \"\(String(repeating: ".", count: length))\", which a server "
                + "removes as it resolves the path (RFC 3986 §5.2.4)")
    }

    /// Renders a query name or value template; `nil` when a `nil` argument drops the item.
    private func render(_ template: Template, binder: ArgumentBinder) throws(WebServiceError) -> String? {
        if template.parts.count == 1, case .literal(let literal) = template.parts[0] { return literal }
        var text = ""
        for part in template.parts {
            switch part {
            case .literal(let literal): text += literal
            case .argument(let index):
                switch try binder.wildcard(index, in: "query") {
                case .text(let value): text += URLEncoding.queryComponent(value)
                case .absent: return nil
                case .preEncodedPath:
                    throw .invalidArguments(index: index, reason: "a PreEncodedPath can only fill a path wildcard")
                case .list:
                    throw .invalidArguments(
                        index: index, reason: "a list can only fill a query value that is a single wildcard")
                }
            }
        }
        return text
    }

    private func applyURLBuilder(_ builder: any URLBuilder, to url: URL, arguments: [Any])
        throws(WebServiceError) -> URL
    {
        do {
            return try builder.buildURL(from: url, arguments: arguments)
        } catch let error as WebServiceError {
            throw error
        } catch {
            throw .invalidArguments(index: nil, reason: "the URL builder failed: \(error)")
        }
    }

    /// Renders a template whose wildcards take plain text (header values, cache identifiers);
    /// `nil` when a `nil` argument drops it.
    private func renderText(_ template: Template, place: @autoclosure () -> String, binder: ArgumentBinder)
        throws(WebServiceError) -> String?
    {
        if template.parts.count == 1, case .literal(let literal) = template.parts[0] { return literal }
        let styles = descriptor.storage.fields.parameterStyles
        if let pairs = cookiePairs(template, styles: styles) {
            // A cookie list (RFC 6265 §4.2.1): each `form` wildcard a pair, `nil` ones left out
            // with their separator; no pair left drops the field.
            var texts: [String] = []
            for (index, style) in pairs {
                let styled = try binder.styledValue(index, style: style, in: place())
                if let text = StyledParameterWriter.headerText(styled, style: style) { texts.append(text) }
            }
            return texts.isEmpty ? nil : texts.joined(separator: "; ")
        }
        var value = ""
        var dropped = false
        for part in template.parts {
            switch part {
            case .literal(let literal): value += literal
            case .argument(let index):
                // A styled argument: `simple` as it is, or the Cookie field's `form` (the only
                // styles a header value or a cache identifier takes, checked when the descriptor
                // was made).
                if !styles.isEmpty, let style = styles[index] {
                    let styled = try binder.styledValue(index, style: style, in: place())
                    if let text = StyledParameterWriter.headerText(styled, style: style) {
                        value += text
                    } else {
                        dropped = true
                    }
                    continue
                }
                // Every wildcard is consumed, even after a nil has dropped the value.
                switch try binder.wildcard(index, in: place()) {
                case .text(let text): value += text
                case .absent: dropped = true
                case .preEncodedPath, .list:
                    throw .invalidArguments(index: index, reason: "\(place()) takes a single text value")
                }
            }
        }
        return dropped ? nil : value
    }

    /// The wildcards of a template that is a list of cookie pairs: `form`-styled wildcards (the
    /// style only the `Cookie` field takes) separated by `;` and spaces only, as OpenAPI cookie
    /// parameters are declared (`%%3%%; %%4%%`); `nil` for any other template.
    private func cookiePairs(_ template: Template, styles: [Int: ParameterStyle]) -> [(Int, ParameterStyle)]? {
        guard !styles.isEmpty else { return nil }
        var pairs: [(Int, ParameterStyle)] = []
        for part in template.parts {
            switch part {
            case .literal(let literal):
                guard literal.utf8.allSatisfy({ $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: " ") }),
                    literal.utf8.contains(UInt8(ascii: ";"))
                else { return nil }
            case .argument(let index):
                guard let style = styles[index], style.kind == .form else { return nil }
                pairs.append((index, style))
            }
        }
        return pairs.count > 1 ? pairs : nil
    }

    // MARK: Headers

    /// The shared headers and the call's, each field checked as it is made, by the rule the
    /// request check applies below every interceptor (``HeaderValidation``). A second check on
    /// purpose: a bad argument fails the call even when an interceptor or the cache would answer
    /// it without sending, and ``WebServiceClient/request(for:arguments:)`` throws it. The
    /// descriptor's names and literal values were checked when it was made, so only shared
    /// fields and values with wildcards are checked here.
    ///
    /// One pass over the call's fields, each inserted once into the one dictionary the request
    /// takes; the only other table is of the shared names, which are few.
    private func buildHeaders(_ binder: ArgumentBinder) throws(WebServiceError) -> [String: String] {
        try HeaderValidation.check(defaults.sharedHeaders)
        var headers = defaults.sharedHeaders
        // Reserving room allocates storage even for nothing: a call without fields keeps none.
        if !compiled.headers.isEmpty { headers.reserveCapacity(headers.count + compiled.headers.count + 1) }
        // The call's field replaces a shared one (or an earlier one of its own) of the same name
        // in any case. Names are tokens (checked above and when the descriptor was made), so
        // `lowercased()` is ASCII's.
        if compiled.headerNamesCollide {
            // Two of the call's own names differ only in case: every name so far, by its
            // lowercase form, so that each field costs one look-up rather than a search.
            var namesByLowercase: [String: String] = [:]
            namesByLowercase.reserveCapacity(headers.count + compiled.headers.count)
            for name in headers.keys { namesByLowercase[name.lowercased()] = name }
            for header in compiled.headers {
                let lowercased = header.name.lowercased()
                if let existing = namesByLowercase.removeValue(forKey: lowercased) { headers[existing] = nil }
                if let value = try renderText(header.value, place: "header \(header.name)", binder: binder) {
                    if header.value.hasArguments { try HeaderValidation.check(name: header.name, value: value) }
                    headers[header.name] = value
                    namesByLowercase[lowercased] = header.name
                }
            }
            return headers
        }
        // The call's names are distinct in any case: a field can only replace a shared one, so
        // only the shared names are tabled, and a name is lowercased only when its length is
        // within theirs.
        var sharedByLowercase: [String: String] = [:]
        var shortest = Int.max
        var longest = 0
        if !headers.isEmpty {
            sharedByLowercase.reserveCapacity(headers.count)
            for name in headers.keys {
                sharedByLowercase[name.lowercased()] = name
                shortest = min(shortest, name.utf8.count)
                longest = max(longest, name.utf8.count)
            }
        }
        for header in compiled.headers {
            let length = header.name.utf8.count
            if length >= shortest, length <= longest,
                let existing = sharedByLowercase.removeValue(forKey: header.name.lowercased())
            {
                headers[existing] = nil
            }
            if let value = try renderText(header.value, place: "header \(header.name)", binder: binder) {
                if header.value.hasArguments { try HeaderValidation.check(name: header.name, value: value) }
                headers[header.name] = value
            }
        }
        return headers
    }

    // MARK: Body

    /// `FormData` and `[FormData]` arguments, in order, make the body `multipart/form-data`.
    private func multipartBody(
        _ parts: [FormData], boundary: String?, nameEscaping: MultipartNameEscaping
    ) throws(WebServiceError) -> (RequestBody, String?) {
        let form = MultipartForm(
            parts: parts, boundary: boundary ?? MultipartBoundary.random(avoiding: parts), nameEscaping: nameEscaping)
        return (try form.makeBody(), form.contentType)
    }

    /// The argument at `index` as the body: `Data` and ``RequestBody`` as they are, `nil` as no
    /// body, anything else through the request serializer.
    private func body(at index: Int, binder: ArgumentBinder, fields: borrowing CallFields) throws(WebServiceError)
        -> (RequestBody, String?)?
    {
        let argument = try binder.take(index, for: "the body")
        if let data = argument as? Data { return (.data(data), nil) }
        if let body = argument as? RequestBody { return (body, nil) }
        if WildcardConversion.isNil(argument) { return nil }
        let serializer = fields.requestSerializer ?? defaults.requestSerializer
        do {
            let body = try serializer.serialize(argument, charset: fields.bodyCharset)
            return (.data(body.data), body.contentType)
        } catch {
            throw .requestSerialization("argument \(index) (\(type(of: argument))): \(error)")
        }
    }
}
