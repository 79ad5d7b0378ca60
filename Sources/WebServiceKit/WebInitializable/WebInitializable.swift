/// A type that a web API initialises in one line, as WebStruct's `WebInitializable` did:
///
/// ```swift
/// struct Greeting: Decodable, Sendable, WebInitializable {
///     let message: String
///     static let webServiceClient = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!)
///     static let webServiceCall = WebServiceCall<Greeting>(method: .post, relativePath: "greetings/%%0%%")
/// }
///
/// let greeting = try Greeting("en", ["name": "Ada"])          // blocks the thread
/// let same = try await Greeting(fetching: "en", ["name": "Ada"])  // suspends instead
/// ```
///
/// The arguments are those of ``WebServiceClient/perform(_:_:)``: `%%N%%` wildcards, the body,
/// a progress handler. Failures are ``WebServiceError``s; ``WebServiceError/category`` sorts them
/// into WebStruct's network, http, ignoreData, parse and application cases.
public protocol WebInitializable: Sendable {
    /// The call whose decoded response is the new value.
    static var webServiceCall: WebServiceCall<Self> { get }
    /// The client that performs it: its service root, authentication, cache and logging apply.
    static var webServiceClient: WebServiceClient { get }
}

extension WebInitializable {
    /// Performs ``webServiceCall`` with `arguments` and waits for the value, blocking the thread
    /// (WebStruct's `init(_:)`).
    ///
    /// Inside a Swift task, or on the client's callback queue, it throws
    /// ``WebServiceError/invalidCall(_:)`` rather than risk a deadlock: use ``init(fetching:)``.
    public init(_ arguments: any Sendable...) throws(WebServiceError) {
        self = try Self.webServiceClient.performSynchronously(Self.webServiceCall, arguments).value
    }

    /// Performs ``webServiceCall`` with `arguments` and suspends until the value is there.
    public init(fetching arguments: any Sendable...) async throws(WebServiceError) {
        self = try await Self.webServiceClient.perform(Self.webServiceCall, arguments)
    }
}
