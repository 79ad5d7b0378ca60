import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Performs ``WebServiceCall`` descriptors against one service.
///
/// ```swift
/// let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
/// client.sharedHeaders = ["User-Agent": "MyApp/1.0"]
/// let repos = try await client.perform(.userRepos, "octocat", "updated", "abc")
/// ```
///
/// A client is safe to use from any thread; its settings can change at any time and apply to
/// calls that start afterwards.
public final class WebServiceClient: Sendable {
    /// The URL that descriptors' relative paths are resolved against.
    public let serviceRoot: URL
    /// Sends requests; a ``RoutingTransport`` unless another was given.
    public let transport: any WebServiceTransport
    /// The queue that success, failure, completion (and progress) callbacks run on.
    public let callbackQueue: DispatchQueue

    let root: ServiceRoot
    /// What ``transport`` adds to each request, added by the ``BridgeStage`` instead.
    let bridge: RequestBridge?
    private let settings: Locked<Settings>
    private let callbackQueueKey = DispatchSpecificKey<Bool>()

    /// The client's settings as one value: a call takes a snapshot and reads it throughout.
    ///
    /// The fields live behind one immutable reference, replaced by a new one on every write: a
    /// snapshot is copied into several parts of each call, and one retain is cheaper than
    /// thirteen; an immutable box is read without the runtime's exclusivity check (settings are
    /// read on every call and written when the client is set up). Read and write them as
    /// members (`settings.timeout`).
    @dynamicMemberLookup
    struct Settings: Sendable {
        /// The fields, as plain values.
        struct Fields {
            var sharedHeaders: [String: String] = [:]
            var successCodes: StatusCodes = .successful
            var requestSerializer: any RequestSerializer = JSONRequestSerializer()
            var jsonDecoder: JSONDecoder = JSONDecoder()
            var errorHandler: (any ResponseErrorHandler)? = nil
            var interceptors: [any WebServiceInterceptor] = []
            var networkInterceptors: [any WebServiceInterceptor] = []
            var authenticationProvider: (any AuthenticationProvider)? = nil
            var timeout: TimeInterval = 60
            var maximumRedirects: Int = 10
            var retryPolicy: RetryPolicy = .never
            var metricsMonitor: (@Sendable (CallMetrics) -> Void)? = nil
            var collectsMetrics = true
            var maximumResponseBodySize: Int? = nil
            var cache: HTTPCache? = nil
            var logLevel: LogLevel = .none
            var logging: LogSettings = LogSettings()
        }

        /// Never changed once made.
        private final class Storage: @unchecked Sendable {
            let fields: Fields

            init(_ fields: Fields = Fields()) { self.fields = fields }
        }

        private var storage = Storage()

        subscript<Field>(dynamicMember field: WritableKeyPath<Fields, Field>) -> Field {
            get { storage.fields[keyPath: field] }
            set {
                var fields = storage.fields
                fields[keyPath: field] = newValue
                storage = Storage(fields)
            }
        }
    }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - serviceRoot: The base URL; relative paths are appended to it.
    ///   - transport: Sends requests; defaults to a new ``RoutingTransport`` (on Linux, plain `http`
    ///     over ``HTTP1Transport``, the rest through ``URLSessionTransport``).
    ///   - callbackQueue: Where callbacks run; defaults to a serial queue of the client's own.
    ///     Pass `.main` to update a user interface from callbacks.
    public init(
        serviceRoot: URL, transport: (any WebServiceTransport)? = nil, callbackQueue: DispatchQueue? = nil
    ) {
        self.serviceRoot = serviceRoot
        let transport = transport ?? RoutingTransport()
        self.transport = transport
        bridge = transport.bridge
        self.callbackQueue = callbackQueue ?? DispatchQueue(label: "WebServiceKit.callbacks")
        root = ServiceRoot(serviceRoot)
        settings = Locked(Settings())
        self.callbackQueue.setSpecific(key: callbackQueueKey, value: true)
    }

    /// Creates a client whose default transport trusts servers as `serverTrust` says: the
    /// system's trust, certificate authorities of your own, or public-key pins (Docs/Trust.md).
    ///
    /// ```swift
    /// let ca = try X509Certificate(pem: String(contentsOf: caFile, encoding: .utf8))
    /// let client = try WebServiceClient(serviceRoot: root, serverTrust: .additionalCertificateAuthorities([ca]))
    /// ```
    ///
    /// - Parameters:
    ///   - serviceRoot: The base URL; relative paths are appended to it.
    ///   - serverTrust: The policy of the client's ``RoutingTransport``.
    ///   - callbackQueue: Where callbacks run; defaults to a serial queue of the client's own.
    /// - Throws: ``ServerTrustError/unenforceable(_:)`` when this platform cannot enforce the
    ///   policy (on Linux, anything but ``ServerTrustPolicy/system`` when the system's OpenSSL
    ///   cannot be opened): the client is not made rather than ignore a pin.
    public convenience init(
        serviceRoot: URL, serverTrust: ServerTrustPolicy, callbackQueue: DispatchQueue? = nil
    ) throws(ServerTrustError) {
        let transport = try RoutingTransport(serverTrust: serverTrust)
        self.init(serviceRoot: serviceRoot, transport: transport, callbackQueue: callbackQueue)
    }

    /// Header fields sent with every call; a call's own field of the same name wins.
    public var sharedHeaders: [String: String] {
        get { settings.current.sharedHeaders }
        set { settings.withLock { $0.sharedHeaders = newValue } }
    }

    /// Status codes every call accepts (`200..<300` by default); calls add to or replace them.
    public var successCodes: StatusCodes {
        get { settings.current.successCodes }
        set { settings.withLock { $0.successCodes = newValue } }
    }

    /// Serializes body arguments of calls that name no serializer (JSON by default).
    public var requestSerializer: any RequestSerializer {
        get { settings.current.requestSerializer }
        set { settings.withLock { $0.requestSerializer = newValue } }
    }

    /// The decoder of JSON responses whose serializer was given none.
    public var jsonDecoder: JSONDecoder {
        get { settings.current.jsonDecoder }
        set { settings.withLock { $0.jsonDecoder = newValue } }
    }

    /// Turns responses into service errors for calls that have no handler of their own.
    public var errorHandler: (any ResponseErrorHandler)? {
        get { settings.current.errorHandler }
        set { settings.withLock { $0.errorHandler = newValue } }
    }

    /// The interceptor chain, outermost first. See ``WebServiceInterceptor``.
    ///
    /// These run once per call, above redirects, authentication and the cache: they see the
    /// request the call built and its final response.
    public var interceptors: [any WebServiceInterceptor] {
        get { settings.current.interceptors }
        set { settings.withLock { $0.interceptors = newValue } }
    }

    /// Interceptors of what goes on the wire, outermost first (OkHttp's network interceptors).
    ///
    /// They run below the cache, once for each request actually sent (each redirect followed,
    /// each challenge answered, a revalidation with the validators the cache added), and see each
    /// response as it came, before the cache stores it: a `Cache-Control` they rewrite decides what
    /// is stored. An answer from the cache never reaches them. The requests they return are
    /// checked again (method, URL, fields) before anything is sent.
    public var networkInterceptors: [any WebServiceInterceptor] {
        get { settings.current.networkInterceptors }
        set { settings.withLock { $0.networkInterceptors = newValue } }
    }

    /// Adds credentials to requests and answers challenges.
    public var authenticationProvider: (any AuthenticationProvider)? {
        get { settings.current.authenticationProvider }
        set { settings.withLock { $0.authenticationProvider = newValue } }
    }

    /// Seconds before a call without a timeout of its own fails (60 by default).
    public var timeout: TimeInterval {
        get { settings.current.timeout }
        set { settings.withLock { $0.timeout = newValue } }
    }

    /// How many redirects a call follows before it fails with `URLError.httpTooManyRedirects`
    /// (10 by default); 0 returns 3xx responses to the call as they are. Credentials never follow
    /// a redirect to another origin.
    public var maximumRedirects: Int {
        get { settings.current.maximumRedirects }
        set { settings.withLock { $0.maximumRedirects = max(0, newValue) } }
    }

    /// When and how calls are sent again after a failure, unless their descriptor has a policy of
    /// its own (``CallFields/retryPolicy``). ``RetryPolicy/never`` by default: a call is sent once.
    ///
    /// ```swift
    /// client.retryPolicy = RetryPolicy(maximumAttempts: 3)   // 503, 429, a reset… retried twice
    /// ```
    public var retryPolicy: RetryPolicy {
        get { settings.current.retryPolicy }
        set { settings.withLock { $0.retryPolicy = newValue } }
    }

    /// Called once for every call the client makes, with the call's ``CallMetrics``: after its
    /// stages and validation, whether it succeeded or failed (OkHttp's `EventListener`, as one
    /// value per call). `nil` by default. It runs on the call's task, before the call's result is
    /// delivered: keep it short (hand the value to a queue or a metrics system).
    ///
    /// ```swift
    /// client.metricsMonitor = { metrics in
    ///     print(metrics.duration, metrics.transactions.map(\.connectionReused))
    /// }
    /// ```
    public var metricsMonitor: (@Sendable (CallMetrics) -> Void)? {
        get { settings.current.metricsMonitor }
        set { settings.withLock { $0.metricsMonitor = newValue } }
    }

    /// Whether calls collect their ``CallMetrics`` (``WebServiceResponse/metrics``): `true` by
    /// default. Turned off, a call makes no collector (about 5,000 instructions less per call,
    /// Docs/Metrics.md), its response's metrics are empty, and the log times each request with
    /// its own clock, without the reuse flag. A ``metricsMonitor`` turns collection on whatever
    /// this says.
    public var collectsMetrics: Bool {
        get { settings.current.collectsMetrics }
        set { settings.withLock { $0.collectsMetrics = newValue } }
    }

    /// The most bytes a response body may have, or `nil` (the default) for no limit.
    ///
    /// A response whose `Content-Length` is over the limit fails before its body is read; one
    /// without (chunked, or delimited by the connection's close) fails as soon as the bytes
    /// received pass it. Either way the call fails with
    /// ``WebServiceError/responseTooLarge(limit:statusCode:)``, the connection is dropped and
    /// nothing is cached. The limit applies to every response a call reads into memory, error
    /// responses, redirects and challenges included; not to calls that download to a file
    /// (``DownloadedFile``), whose bodies never are in memory. Negative values count as 0.
    ///
    /// On Linux, `URLSession` reads ahead of the client with no back-pressure: a body of unknown
    /// length may have crossed the network well past the limit before the call fails (a
    /// `Content-Length` over it, and the direct HTTP/1.1 path, stop at once). The call keeps
    /// nothing past the limit either way.
    public var maximumResponseBodySize: Int? {
        get { settings.current.maximumResponseBodySize }
        set { settings.withLock { $0.maximumResponseBodySize = newValue.map { max(0, $0) } } }
    }

    /// The HTTP cache calls use, following RFC 9111 and each call's ``CachePolicy``; `nil` (the
    /// default) caches nothing.
    public var cache: HTTPCache? {
        get { settings.current.cache }
        set { settings.withLock { $0.cache = newValue } }
    }

    /// How much of each call is logged, unless the call's descriptor says otherwise (`.none` by
    /// default: nothing is logged, and no message is built). See ``WebServiceLogger``.
    public var logLevel: LogLevel {
        get { settings.current.logLevel }
        set { settings.withLock { $0.logLevel = newValue } }
    }

    /// Receives the messages of calls that log (a ``StandardErrorLogger`` by default).
    public var logger: any WebServiceLogger {
        get { settings.current.logging.logger }
        set { settings.withLock { $0.logging = $0.logging.replacing(logger: newValue) } }
    }

    /// Header fields and query parameters that logs hide, in addition to `Authorization`,
    /// `Proxy-Authorization`, `Cookie` and `Set-Cookie`, which are always hidden.
    ///
    /// ```swift
    /// client.logRedaction.headers.insert("X-Api-Key")
    /// ```
    public var logRedaction: LogRedaction {
        get { settings.current.logging.redaction }
        set { settings.withLock { $0.logging = $0.logging.replacing(redaction: newValue) } }
    }

    /// How many bytes of each body a `.body` log shows (4096 by default); the rest is left out
    /// and counted.
    public var logBodyLimit: Int {
        get { settings.current.logging.bodyLimit }
        set { settings.withLock { $0.logging = $0.logging.replacing(bodyLimit: max(0, newValue)) } }
    }

    /// A snapshot of the settings, taken once per call.
    var currentSettings: Settings { settings.current }

    /// Whether the current thread is running the callback queue.
    var isOnCallbackQueue: Bool { DispatchQueue.getSpecific(key: callbackQueueKey) == true }

    deinit { callbackQueue.setSpecific(key: callbackQueueKey, value: nil) }
}
