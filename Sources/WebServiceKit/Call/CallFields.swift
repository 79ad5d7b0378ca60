import Foundation

/// Everything a call declares except how its response is decoded, as one value.
///
/// This is the one list of a descriptor's fields: ``CallDescriptor`` stores it and reads each
/// field by name from it (`descriptor.method`, `call.timeout`), and every initializer of
/// ``WebServiceCall`` builds one. Build a call from it directly when you want to set fields one
/// by one, or derive a variant of an existing call:
///
/// ```swift
/// var fields = CallFields(method: .post, relativePath: "users/%%0%%/avatar")
/// fields.timeout = 120
/// fields.logLevel = .headers
/// let upload = WebServiceCall<EmptyResponse>(fields)
///
/// var slow = upload.fields
/// slow.timeout = 600
/// let slowUpload = WebServiceCall<EmptyResponse>(slow)
/// ```
///
/// Every field but ``relativePath`` has a default, so a field added here reaches every call
/// without a change anywhere else.
public struct CallFields: Sendable {
    /// A name for logs and test stubs; `nil` names the call `"METHOD relativePath"`
    /// (``CallDescriptor/name`` is the name in use).
    public var name: String? = nil
    /// The request method.
    public var method: HTTPMethod = .get
    /// The path (and query) relative to the client's service root, with `%%N%%` wildcards that
    /// take the N-th argument. A leading `/` resolves from the service root's origin; a full
    /// `https://` URL ignores the service root.
    public var relativePath: String
    /// Header fields; values may contain wildcards. A `nil` argument drops the field.
    public var headers: [String: String] = [:]
    /// How arguments fill their wildcards by OpenAPI's parameter serialization rules: argument
    /// index → ``ParameterStyle`` (`[2: .form("tags", explode: false)]`). An argument with a style
    /// may be text, a list or an object (an `Encodable` structure or a dictionary); one without
    /// fills its wildcards as text. Each style may only fill the places it is defined for, and
    /// only an index a wildcard uses: anything else makes the descriptor invalid.
    public var parameterStyles: [Int: ParameterStyle] = [:]
    /// Status codes this call accepts, in addition to or instead of the client's
    /// (e.g. `[200..<300, 304]`).
    public var successCodes: StatusCodes? = nil
    /// `true`: ``successCodes`` replace the client's; `false`: they are added to them.
    public var overridesClientSuccessCodes: Bool = false
    /// A dotted key path (`"coord.lon"`, `"items.0"`) to decode instead of the whole body.
    public var serializationRoot: String? = nil
    /// How the body argument is serialized; `nil` uses the client's (JSON).
    public var requestSerializer: (any RequestSerializer)? = nil
    /// The charset of text bodies (JSON, XML, form, text).
    public var bodyCharset: Charset = .utf8
    /// The index of the argument that becomes the body (ROAD's `postParameter`). Without it, a
    /// POST, PUT or PATCH sends the first argument that nothing else uses.
    public var bodyParameter: Int? = nil
    /// Seconds before the call fails with a timeout; `nil` uses the client's.
    public var timeout: TimeInterval? = nil
    /// How the call uses the HTTP cache.
    public var cache: CachePolicy = .automatic
    /// A name for the responses this call stores, with `%%N%%` wildcards (`"user-%%0%%"`), so
    /// that ``HTTPCache/removeResponses(identifiedBy:)`` can drop them by prefix (ROAD's cache
    /// identifiers).
    public var cacheIdentifier: String? = nil
    /// The index of the argument that is a ``ProgressHandler`` or a ``TransferProgressHandler``
    /// (ROAD's `progressBlockParameter`).
    public var progressParameter: Int? = nil
    /// Builds the URL from arguments of its own kind (OData).
    public var urlBuilder: (any URLBuilder)? = nil
    /// Turns error bodies into the service's own error; `nil` uses the client's.
    public var errorHandler: (any ResponseErrorHandler)? = nil
    /// The boundary of multipart bodies; `nil` picks a random one. A call whose in-memory part
    /// holds this boundary at the start of a line fails with
    /// ``WebServiceError/invalidArguments(index:reason:)`` rather than send a body that would be
    /// cut there (RFC 2046 §5.1.1); file and stream parts are not searched.
    public var multipartBoundary: String? = nil
    /// How multipart bodies write `"`, a backslash, CR and LF in field names and file names:
    /// `%22` as browsers do (the default) or `\"` for PHP, Django and python-multipart, which
    /// keep `%22` as it is (``MultipartNameEscaping``).
    public var multipartNameEscaping: MultipartNameEscaping = .percentEncoding
    /// How much of this call is logged; `nil` uses the client's level.
    public var logLevel: LogLevel? = nil
    /// When and how this call is sent again after a failure; `nil` uses the client's
    /// (``WebServiceClient/retryPolicy``). See ``RetryPolicy``.
    public var retryPolicy: RetryPolicy? = nil
    /// Whether sending this call twice has the effect of sending it once, whatever its method:
    /// `true` lets a retry policy retry a `POST` or `PATCH` (one the server deduplicates, with an
    /// idempotency key). `GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE` and `TRACE` are idempotent
    /// already (RFC 9110 §9.2.2).
    public var isIdempotent: Bool = false
    /// For a streamed response (``WebServiceClient/stream(_:_:)``): how many bytes may wait for
    /// the consumer before the transport stops reading (the server is then held back by TCP), and
    /// reads again once half of them were consumed. See ``ResponseStream``.
    public var streamBufferSize: Int = 256 * 1024
    /// For a streamed response: the most bytes its whole body may have; `nil` (the default) for no
    /// limit, since a stream may run for hours. ``WebServiceClient/maximumResponseBodySize`` does
    /// not apply to a streamed body, only to the body of an error status, which is read whole.
    /// Past it the stream fails with ``WebServiceError/responseTooLarge(limit:statusCode:)``.
    public var maximumStreamedBodySize: Int? = nil

    /// Fields with every default: a `GET` of `relativePath` unless `method` says otherwise.
    public init(method: HTTPMethod = .get, relativePath: String) {
        self.method = method
        self.relativePath = relativePath
    }
}
