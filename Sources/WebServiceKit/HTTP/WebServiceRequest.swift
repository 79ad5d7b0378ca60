import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request a call sends, as every stage, interceptor, `prepare` closure, authentication
/// provider and transport sees it: method, URL, header fields, body and timeout.
///
/// It reads and changes like `URLRequest` (`url`, `httpMethod`, `setValue(_:forHTTPHeaderField:)`,
/// `value(forHTTPHeaderField:)`, `allHTTPHeaderFields`, `httpBody`, `timeoutInterval`), so code
/// written against `URLRequest` reads the same. What differs is what it keeps: a value is stored
/// exactly as it was set. Foundation's `URLRequest.setValue(_:forHTTPHeaderField:)` on Linux drops
/// a value with CR, LF or NUL without a word, so a field an interceptor set that way would go
/// missing and the call succeed without it; here the value stays, and the one request check below
/// every interceptor (RFC 9110 §5.5) fails the call with ``WebServiceError/invalidHeader(name:reason:)``,
/// the same error as for such a value from an argument.
///
/// ```swift
/// var request = WebServiceRequest(url: URL(string: "https://api.example.com/items")!, method: "POST")
/// request.setValue("application/json", forHTTPHeaderField: "Content-Type")
/// request.httpBody = Data("{}".utf8)
/// ```
///
/// `URLRequest` is only at the `URLSession` boundary (``urlRequest``, ``init(_:)``).
public struct WebServiceRequest: Sendable, Equatable, CustomStringConvertible {
    /// The URL the request goes to.
    public var url: URL?
    /// The method, `GET` unless set (RFC 9110 §9).
    public var method: String
    /// The header fields by name as they were set; a look-up by name ignores ASCII case.
    private var fields: [String: String]
    /// The body in memory, if any.
    public var httpBody: Data?
    /// How long the call may take, in seconds (the descriptor's `timeout` or the client's).
    public var timeoutInterval: TimeInterval
    /// A streamed body, opened for one send (``RequestBody/stream(length:isReplayable:open:)``).
    private var stream: StreamBox?

    /// A request for `url`; `GET`, no fields, no body, a 60 s timeout unless given.
    public init(
        url: URL?, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        timeoutInterval: TimeInterval = 60
    ) {
        self.url = url
        self.method = method
        self.fields = headers
        self.httpBody = body
        self.timeoutInterval = timeoutInterval
    }

    /// The request `request` describes (its fields as `URLRequest` kept them).
    public init(_ request: URLRequest) {
        self.init(
            url: request.url, method: request.httpMethod ?? "GET", headers: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody, timeoutInterval: request.timeoutInterval)
        httpBodyStream = request.httpBodyStream
    }

    /// The request as `URLRequest`, for `URLSession`: with its own cache bypassed (the client
    /// has its own, RFC 9111). On Linux a field whose value has CR, LF or NUL does not survive
    /// the conversion; a request the client sends has passed its check by then.
    public var urlRequest: URLRequest {
        var request = URLRequest(
            url: url ?? URL(fileURLWithPath: "/"), cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: timeoutInterval)
        if url == nil { request.url = nil }
        if method != "GET" { request.httpMethod = method }
        if !fields.isEmpty { request.allHTTPHeaderFields = fields }
        request.httpBody = httpBody
        if let stream { request.httpBodyStream = stream.stream }
        return request
    }

    /// The method, as `URLRequest` names it; setting `nil` makes it `GET`.
    public var httpMethod: String? {
        get { method }
        set { method = newValue ?? "GET" }
    }

    /// A streamed body for one send; the client attaches it below the interceptors.
    public var httpBodyStream: InputStream? {
        get { stream?.stream }
        set { stream = newValue.map(StreamBox.init) }
    }

    /// Every header field by name; `nil` when there is none (as `URLRequest` answers). Setting
    /// replaces them all.
    public var allHTTPHeaderFields: [String: String]? {
        get { fields.isEmpty ? nil : fields }
        set { fields = newValue ?? [:] }
    }

    /// The header fields in order of name.
    public var headers: HTTPHeaders {
        get { HTTPHeaders(fields) }
        set { fields = newValue.dictionary }
    }

    /// The value of the field named `name` in any ASCII case, if there is one.
    public func value(forHTTPHeaderField name: String) -> String? {
        if let value = fields[name] { return value }
        return fields.first { $0.key.caseInsensitiveEquals(name) }?.value
    }

    /// Sets the field named `name` (in any ASCII case) to `value` exactly as given, or removes
    /// it for `nil`. A value the request check refuses (CR, LF, NUL) is kept, and fails the call.
    public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
        if let existing = key(for: name), existing != name || value == nil { fields[existing] = nil }
        if let value { fields[name] = value }
    }

    /// Appends `value` to the field named `name` (after a comma, as `URLRequest` does), or sets it.
    public mutating func addValue(_ value: String, forHTTPHeaderField name: String) {
        guard let existing = key(for: name), let current = fields[existing] else {
            fields[name] = value
            return
        }
        fields[existing] = current + "," + value
    }

    /// The name the field `name` is stored under, in whichever case it was set.
    private func key(for name: String) -> String? {
        if fields[name] != nil { return name }
        return fields.keys.first { $0.caseInsensitiveEquals(name) }
    }

    /// `POST https://api.example.com/items`.
    public var description: String { "\(method) \(url?.absoluteString ?? "(no URL)")" }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.url == rhs.url && lhs.method == rhs.method && lhs.fields == rhs.fields && lhs.httpBody == rhs.httpBody
            && lhs.timeoutInterval == rhs.timeoutInterval && lhs.stream?.stream === rhs.stream?.stream
    }

    /// A stream is a class Foundation does not mark `Sendable`: one is opened for each send and
    /// read by that send's transport alone, after the stages above have let go of it.
    private struct StreamBox: @unchecked Sendable {
        let stream: InputStream
    }
}
