import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport for your own tests: answers calls with canned responses and records every request.
///
/// ```swift
/// let stubs = StubTransport()
/// stubs.stub(.userRepos, with: .json([Repo(id: 1, name: "kit")]))
/// let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
/// let repos = try await client.perform(.userRepos, "octocat", "updated", "abc")
/// XCTAssertEqual(stubs.requests.first?.request.url?.path, "/users/octocat/repos")
/// ```
///
/// A call with no stub fails with `URLError(.fileDoesNotExist)` unless a fallback was given.
public final class StubTransport: WebServiceTransport, @unchecked Sendable {  // state is guarded by `lock`
    /// One canned answer.
    public struct Stub: Sendable {
        /// The status code.
        public var statusCode: Int
        /// The header fields.
        public var headers: HTTPHeaders
        /// The body.
        public var body: Data
        /// Seconds to wait before answering (cancellation interrupts the wait; a request timeout
        /// shorter than the delay fails the call with `URLError(.timedOut)`).
        public var delay: TimeInterval
        /// A transport failure to throw instead of answering.
        public var error: URLError?

        /// Creates a stub.
        public init(
            statusCode: Int = 200, headers: HTTPHeaders = [:], body: Data = Data(), delay: TimeInterval = 0,
            error: URLError? = nil
        ) {
            self.statusCode = statusCode
            self.headers = headers
            self.body = body
            self.delay = delay
            self.error = error
        }

        /// A JSON body encoded from `value`.
        public static func json(
            _ value: some Encodable, statusCode: Int = 200, headers: HTTPHeaders = [:], delay: TimeInterval = 0
        ) -> Stub {
            var headers = headers
            if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
            let body = (try? JSONEncoder().encode(value)) ?? Data()
            return Stub(statusCode: statusCode, headers: headers, body: body, delay: delay)
        }

        /// A text body.
        public static func text(
            _ text: String, statusCode: Int = 200, contentType: String = "text/plain; charset=utf-8"
        ) -> Stub {
            Stub(statusCode: statusCode, headers: ["Content-Type": contentType], body: Data(text.utf8))
        }

        /// A status with no body.
        public static func status(_ statusCode: Int, headers: HTTPHeaders = [:]) -> Stub {
            Stub(statusCode: statusCode, headers: headers)
        }

        /// A transport failure.
        public static func failure(_ code: URLError.Code, delay: TimeInterval = 0) -> Stub {
            Stub(delay: delay, error: URLError(code))
        }
    }

    /// A request the transport received.
    public struct RecordedRequest: Sendable {
        /// The request as sent.
        public let request: WebServiceRequest
        /// The descriptor of the call that sent it.
        public let call: CallDescriptor
        /// The body's length as the client computed it (a streamed body's exact size).
        public let uploadLength: Int64?
    }

    private struct Route {
        let matches: @Sendable (WebServiceRequest, CallDescriptor) -> Bool
        var stubs: [Stub]
    }

    private struct State {
        var routes: [Route] = []
        var requests: [RecordedRequest] = []
    }

    private var state = State()
    private let lock = NSLock()
    private let fallback: Stub?

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Creates a transport; `fallback` answers calls that no stub matches.
    public init(fallback: Stub? = nil) { self.fallback = fallback }

    /// Answers `call` with `stubs` in turn; the last one repeats.
    public func stub<Response>(_ call: WebServiceCall<Response>, with stubs: Stub...) {
        stub(call.descriptor, stubs)
    }

    /// Answers every request of the typed call `call` with `stubs`, as
    /// ``stub(_:with:)-(WebServiceCall<Response>,_)`` does for an untyped one.
    public func stub<Arguments, Body, Response>(_ call: TypedCall<Arguments, Body, Response>, with stubs: Stub...) {
        stub(call.descriptor, stubs)
    }

    private func stub(_ descriptor: CallDescriptor, _ stubs: [Stub]) {
        let id = descriptor.id
        add(Route(matches: { _, descriptor in descriptor.id == id }, stubs: stubs))
    }

    /// Answers the requests `matches` accepts with `stubs` in turn; the last one repeats.
    public func stub(where matches: @escaping @Sendable (WebServiceRequest) -> Bool, with stubs: Stub...) {
        add(Route(matches: { request, _ in matches(request) }, stubs: stubs))
    }

    /// Every request received, in order.
    public var requests: [RecordedRequest] { withState { $0.requests } }

    /// Forgets the stubs and the recorded requests.
    public func reset() { withState { $0 = State() } }

    private func add(_ route: Route) {
        guard !route.stubs.isEmpty else { return }
        withState { $0.routes.append(route) }
    }

    public func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        let stub = withState { state -> Stub? in
            state.requests.append(
                RecordedRequest(request: request, call: context.call, uploadLength: context.uploadLength))
            // The latest stub for a call wins, so a test can override an earlier one.
            guard let index = state.routes.lastIndex(where: { $0.matches(request, context.call) }) else {
                return fallback
            }
            let stubs = state.routes[index].stubs
            if stubs.count > 1 { state.routes[index].stubs.removeFirst() }
            return stubs[0]
        }
        guard let stub else {
            throw URLError(
                .fileDoesNotExist,
                userInfo: [NSLocalizedDescriptionKey: "StubTransport has no stub for \(context.call.name)"])
        }
        if stub.delay > 0 {
            // Like URLSessionTransport, the request's timeout is a deadline for the whole exchange.
            if request.timeoutInterval > 0, stub.delay > request.timeoutInterval {
                try await Task.sleep(nanoseconds: UInt64(request.timeoutInterval * 1_000_000_000))
                throw URLError(.timedOut)
            }
            try await Task.sleep(nanoseconds: UInt64(stub.delay * 1_000_000_000))
        }
        if let error = stub.error { throw error }
        return TransportResponse(statusCode: stub.statusCode, headers: stub.headers, body: stub.body, url: request.url)
    }
}
