import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fields every request of a transport's session gets when it has none of its own, and its
/// cookies (``WebServiceTransport/bridge``): what OkHttp's `BridgeInterceptor` adds, added once,
/// above the cache, for every route (``BridgeStage``), so that the cache, the network
/// interceptors and the log see the request the wire gets. The transports add none of these.
///
/// A request that sets a field keeps its own value. Added when missing, in this order:
/// - the session configuration's `httpAdditionalHeaders`;
/// - `Accept: */*` and `User-Agent: <process name> WebServiceKit` (what both routes sent before,
///   one value for both now);
/// - `Accept-Encoding: gzip, deflate`, unless the request asks for a range (the range would apply
///   to the coded bytes, RFC 9110 §14.2): both routes decode these codings as the body arrives, so
///   the caller sees the decoded body, without its `Content-Encoding` field;
/// - `Cookie`: the cookies the configuration's storage holds for the URL;
/// - for a body, when it has no type, `Content-Type: application/octet-stream` (what a recipient
///   assumes anyway, RFC 9110 §8.3; libcurl would label it a form otherwise);
/// - for a body in memory, `Content-Length` (§8.6), also where the request said another length;
///   for a POST, PUT or PATCH without a body, `Content-Length: 0`.
///
/// What stays the transport's, since it is a matter of the connection and not of the request:
/// `Host`, `Connection`, `Expect: 100-continue`, and the framing of a streamed body (its length,
/// or chunked). The URLSession route's libcurl also adds `Accept-Language` on Linux, below the log.
public struct RequestBridge: Sendable {
    /// The configuration's additional fields, sorted by name, added where the request lacks them.
    let additional: [(name: String, value: String)]
    /// Whether `Accept` and `User-Agent` are added (unless the configuration has its own).
    private let addsAccept: Bool
    private let addsUserAgent: Bool
    /// The fields a request without any gets, made once.
    private var sessionFields: [String: String] = [:]
    /// The configuration's cookies: sent with each request, and stored from each response that
    /// came off the wire (``TransportStage``).
    let cookies: CookieJar?

    /// The `User-Agent` of a request that has none: the process's name, then `WebServiceKit`.
    public static let userAgent = "\(ProcessInfo.processInfo.processName) WebServiceKit"
    /// The content codings both routes decode.
    static let acceptEncoding = "gzip, deflate"

    /// The bridge of a session made from `configuration`: its additional fields, and its cookie
    /// storage unless it sets no cookies (`.default` shares `HTTPCookieStorage.shared`; the
    /// storage of `.ephemeral` is in memory).
    public init(configuration: URLSessionConfiguration) {
        self.init(configuration: configuration, cookies: CookieJar(configuration: configuration))
    }

    /// The bridge of a session made from `configuration` (its additional fields), with `cookies`.
    init(configuration: URLSessionConfiguration, cookies: CookieJar?) {
        // Sorted, so that two requests of one session list them alike.
        additional = (configuration.httpAdditionalHeaders ?? [:]).compactMap { name, value in
            (name as? String).map { (name: $0, value: "\(value)") }
        }.sorted { $0.name < $1.name }
        let names = additional.map(\.name)
        addsAccept = !names.contains { $0.caseInsensitiveEquals("Accept") }
        addsUserAgent = !names.contains { $0.caseInsensitiveEquals("User-Agent") }
        self.cookies = cookies
        var sessionFields = [String: String](minimumCapacity: additional.count + 3)
        for field in additional { sessionFields[field.name] = field.value }
        if addsAccept { sessionFields["Accept"] = "*/*" }
        if addsUserAgent { sessionFields["User-Agent"] = Self.userAgent }
        sessionFields["Accept-Encoding"] = Self.acceptEncoding
        self.sessionFields = sessionFields
    }

    /// Adds to `request` what it lacks (see the type's description), and sets its
    /// `Content-Length` to the size of its body in memory where it says another; `streamed` when
    /// its body is a stream, attached below (``StreamedBodyStage``).
    ///
    /// A request the client built has all of it already but cookies
    /// (``complete(_:method:body:streamed:cookiesFor:)`` ran on its fields as they were made), so
    /// most requests are not changed here. When something is added, the fields are assigned once,
    /// as one dictionary.
    func bridge(_ request: inout WebServiceRequest, streamed: Bool) {
        var fields = request.allHTTPHeaderFields ?? [:]
        let changed = complete(
            &fields, method: request.method, body: request.httpBody, streamed: streamed, cookiesFor: request.url)
        if changed { request.allHTTPHeaderFields = fields }
    }

    /// Adds to `fields` what a request of `method` with `body` lacks (names in any ASCII case, RFC
    /// 9110 §5.1) and sets `Content-Length` to the body's size where it says another; the cookies
    /// for `url`, none for `nil`. Returns whether `fields` changed.
    ///
    /// The client runs it as it builds a call's request, in the one assignment of its fields
    /// (without cookies: they are each attempt's, after redirects), and the bridge stage again on
    /// each attempt's request (``bridge(_:streamed:)``), for what an interceptor changed.
    @discardableResult
    func complete(
        _ fields: inout [String: String], method: String, body: Data?, streamed: Bool, cookiesFor url: URL?
    ) -> Bool {
        let given = fields
        func has(_ name: String) -> Bool { given.keys.contains { $0.caseInsensitiveEquals(name) } }
        var changed = false
        func add(_ name: String, _ value: String) {
            fields[name] = value
            changed = true
        }
        if given.isEmpty {
            // A request without fields starts from the one dictionary made for them.
            fields = sessionFields
            changed = true
        } else {
            for field in additional where !has(field.name) { add(field.name, field.value) }
            if addsAccept, !has("Accept") { add("Accept", "*/*") }
            if addsUserAgent, !has("User-Agent") { add("User-Agent", Self.userAgent) }
            if !has("Accept-Encoding"), !has("Range") { add("Accept-Encoding", Self.acceptEncoding) }
        }
        if let cookies, let url, !has("Cookie"), let cookie = cookies.header(for: url) { add("Cookie", cookie) }
        if streamed || body != nil, !has("Content-Type") { add("Content-Type", "application/octet-stream") }
        // A streamed body's framing is the transport's (a length, or chunked).
        guard !streamed else { return changed }
        let length = body.map { String($0.count) } ?? (["POST", "PUT", "PATCH"].contains(method) ? "0" : nil)
        guard let length else { return changed }
        if let stated = given.first(where: { $0.key.caseInsensitiveEquals("Content-Length") }) {
            // One rule for every route: the length is the body's (the HTTP/1.1 transport frames
            // by the body; URLSession would send the field as it stands).
            if stated.value != length { add(stated.key, length) }
        } else {
            add("Content-Length", length)
        }
        return changed
    }

    /// Stores the cookies of a response that came off the wire for `url`.
    func store(from headers: HTTPHeaders, for url: URL?) {
        guard let cookies, let url else { return }
        cookies.store(from: headers, for: url)
    }
}

/// The stage of ``RequestBridge``: right below the follow-ups (so a redirect or a retry gets the
/// cookies of its own URL, and never carries the previous URL's), above the request check (which
/// checks what it added, a configuration's field too) and the cache (which keys `Vary` on them).
struct BridgeStage: InlineStage {
    func request(_ outgoing: inout Outgoing, of call: CallExchange) throws(WebServiceError) {
        call.bridge?.bridge(&outgoing.request, streamed: outgoing.body != nil)
    }
}
