import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every stage a call's request passes through, in order, from the caller down to the wire; the
/// response comes back up through the same stages in reverse. This list is the one place the
/// order is decided: read it to know everything that happens to a call (Docs/Architecture.md
/// draws it).
///
/// Each stage is a small type with one job. A waiting stage (``CallStage``) gets the request on
/// its way down and the rest of the list as a ``StageChain``; it may change the request, answer
/// it without going further, send it further more than once (follow-ups), and look at or change
/// what comes back. An inline stage (``InlineStage``) only checks or changes the request on its way
/// down and the response on its way up, without waiting: the chain runs it in place.
enum CallStages {
    /// A stage of the list. Each case holds its stage's concrete type, so that the chain calls
    /// it directly (an existential's asynchronous witness would cost a frame of its own per stage
    /// and call).
    enum Stage: Sendable {
        case userInterceptors(UserInterceptorStage)
        case retry(RetryStage)
        case followUps(FollowUpStage)
        case bridge(BridgeStage)
        case requestCheck(RequestCheckStage)
        case streamedBody(StreamedBodyStage)
        case cache(CacheStage)
        case networkInterceptors(NetworkInterceptorStage)
        case log(LogStage)
        case responseCheck(ResponseCheckStage)
        case responseBody(ResponseBodyStage)
        case transport(TransportStage)
    }

    static let all: [Stage] = [
        // Sees the request as the caller built it, once, and the final response, once.
        .userInterceptors(UserInterceptorStage()),
        // The retry policy: sends the call again after a failure it retries, after a backoff.
        // Above the follow-ups, so each attempt is a new exchange for authentication, redirects
        // and the cache; below the user interceptors, which see the call once.
        .retry(RetryStage()),
        // The one loop of a call: authentication, challenges answered and redirects followed,
        // each decided in one place (`FollowUp.decide`). Everything below runs once per attempt.
        .followUps(FollowUpStage()),
        // What the transport's session adds to every request (its additional fields, `Accept`,
        // `User-Agent`, `Accept-Encoding`, cookies, the body's type and length), once, here: the
        // check, the cache, the network interceptors and the log all see the wire's request.
        .bridge(BridgeStage()),
        // The only place a request is refused for its form: below every interceptor and the
        // provider, above the cache and the transport.
        .requestCheck(RequestCheckStage()),
        // A streamed body, opened anew for each attempt; a failure reading it is the call's error.
        .streamedBody(StreamedBodyStage()),
        // RFC 9111: answers from the store, or adds validators and stores what comes back.
        .cache(CacheStage()),
        // The client's network interceptors: each request that goes on the wire, each response
        // as it came (before the cache stores it). Their requests are checked once more.
        .networkInterceptors(NetworkInterceptorStage()),
        .requestCheck(RequestCheckStage(afterNetworkInterceptors: true)),
        // Logging (the call's event monitor). A choice, made here: below the cache, so the log
        // shows what goes on the wire (with the validators the cache added, a 304 as a 304);
        // answers the cache gives without the network are logged by the cache stage through
        // ``ExchangeLog/answered(_:with:)``.
        .log(LogStage()),
        // The only place a response head is refused for its form: right above the transport, so
        // neither the cache nor the log sees what it would refuse.
        .responseCheck(ResponseCheckStage()),
        // The call's one response-body sink (memory within the size limit, or the download file;
        // progress) takes a body a transport returned in memory instead of writing it there.
        .responseBody(ResponseBodyStage()),
        // The client's transport: it gets a checked request and gives back a whole response.
        .transport(TransportStage()),
    ]

    /// Runs a call's request down every stage and returns its answer.
    static func run(_ request: WebServiceRequest, body: RequestBody?, call: CallExchange) async throws(WebServiceError)
        -> Answer
    {
        try await StageChain(call: call, index: 0).proceed(Outgoing(request: request, body: body, attempt: 0))
    }
}

/// One stage of a call (see ``CallStages/all``).
protocol CallStage: Sendable {
    /// Whether the stage has anything to do for `outgoing`: a stage that has not is passed over
    /// without a call (an interceptor stage without interceptors, a log when nothing is logged).
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool

    /// Handles `outgoing`, usually by passing it on with `next.proceed(_:)`.
    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer
}

extension CallStage {
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool { true }
}

/// A stage that checks or changes the request on its way down and the response on its way up,
/// and does nothing else: it cannot answer, wait or send twice. The chain runs it in place,
/// without an asynchronous call of its own (see ``StageChain/proceed(_:)``).
protocol InlineStage: Sendable {
    /// Checks or changes the request before the stages below see it.
    func request(_ outgoing: inout Outgoing, of call: CallExchange) throws(WebServiceError)
    /// Checks or changes the response before the stages above see it.
    func response(_ answer: inout Answer, of call: CallExchange) throws(WebServiceError)
}

extension InlineStage {
    func request(_ outgoing: inout Outgoing, of call: CallExchange) throws(WebServiceError) {}
    func response(_ answer: inout Answer, of call: CallExchange) throws(WebServiceError) {}
}

/// The stages after the current one, and the call they work for.
struct StageChain: Sendable {
    /// What every stage may read about the call.
    let call: CallExchange
    let index: Int

    /// Hands `outgoing` to the next stage that applies to it and returns what it answers.
    ///
    /// Inline stages on the way run in place: their request checks now, their response checks,
    /// in reverse order, once the waiting stage below has answered. Passing over a waiting stage
    /// that does not apply costs a check, not an asynchronous call.
    func proceed(_ outgoing: Outgoing) async throws(WebServiceError) -> Answer {
        let stages = CallStages.all
        var outgoing = outgoing
        var index = self.index
        // The transport stage is last, a waiting stage that always applies and never proceeds:
        // the index stays inside the list.
        while index < stages.count {
            let stage = stages[index]
            if stage.isInline {
                try stage.request(&outgoing, of: call)
            } else if index == stages.count - 1 || stage.applies(to: outgoing, of: call) {
                var answer = try await stage.send(outgoing, next: StageChain(call: call, index: index + 1))
                for passed in stages[self.index..<index].reversed() where passed.isInline {
                    try passed.response(&answer, of: call)
                }
                return answer
            }
            index += 1
        }
        preconditionFailure("the last stage proceeded")
    }
}

extension CallStages.Stage {
    /// Whether the chain runs this stage in place (an ``InlineStage``).
    var isInline: Bool {
        switch self {
        case .bridge, .requestCheck, .responseCheck, .responseBody: true
        default: false
        }
    }

    /// An inline stage's look at the request on its way down.
    func request(_ outgoing: inout Outgoing, of call: CallExchange) throws(WebServiceError) {
        switch self {
        case .bridge(let stage): try stage.request(&outgoing, of: call)
        case .requestCheck(let stage): try stage.request(&outgoing, of: call)
        case .responseCheck(let stage): try stage.request(&outgoing, of: call)
        case .responseBody(let stage): try stage.request(&outgoing, of: call)
        default: break
        }
    }

    /// An inline stage's look at the response on its way up.
    func response(_ answer: inout Answer, of call: CallExchange) throws(WebServiceError) {
        switch self {
        case .bridge(let stage): try stage.response(&answer, of: call)
        case .requestCheck(let stage): try stage.response(&answer, of: call)
        case .responseCheck(let stage): try stage.response(&answer, of: call)
        case .responseBody(let stage): try stage.response(&answer, of: call)
        default: break
        }
    }

    /// Whether a waiting stage has anything to do for `outgoing`.
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool {
        switch self {
        case .userInterceptors(let stage): stage.applies(to: outgoing, of: call)
        case .retry(let stage): stage.applies(to: outgoing, of: call)
        case .followUps(let stage): stage.applies(to: outgoing, of: call)
        case .streamedBody(let stage): stage.applies(to: outgoing, of: call)
        case .cache(let stage): stage.applies(to: outgoing, of: call)
        case .networkInterceptors(let stage): stage.applies(to: outgoing, of: call)
        case .log(let stage): stage.applies(to: outgoing, of: call)
        case .transport(let stage): stage.applies(to: outgoing, of: call)
        case .bridge, .requestCheck, .responseCheck, .responseBody: false
        }
    }

    /// A waiting stage's handling of `outgoing`.
    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        switch self {
        case .userInterceptors(let stage): try await stage.send(outgoing, next: next)
        case .retry(let stage): try await stage.send(outgoing, next: next)
        case .followUps(let stage): try await stage.send(outgoing, next: next)
        case .streamedBody(let stage): try await stage.send(outgoing, next: next)
        case .cache(let stage): try await stage.send(outgoing, next: next)
        case .networkInterceptors(let stage): try await stage.send(outgoing, next: next)
        case .log(let stage): try await stage.send(outgoing, next: next)
        case .transport(let stage): try await stage.send(outgoing, next: next)
        case .bridge, .requestCheck, .responseCheck, .responseBody: try await next.proceed(outgoing)
        }
    }
}

/// A request on its way down the stages.
struct Outgoing: Sendable {
    var request: WebServiceRequest
    /// A streamed body, attached for each attempt by ``StreamedBodyStage``; `nil` for a body in
    /// `request.httpBody` or none.
    var body: RequestBody?
    /// 0 above the follow-ups; then 1 for the call's first send, 2, 3 … for each retry or redirect.
    var attempt: Int
}

/// A response on its way up, and the request it answers as it was sent.
struct Answer: Sendable {
    var request: WebServiceRequest
    var response: TransportResponse
}

/// What every stage may read about its call: set up once per call by
/// ``WebServiceClient/execute(_:arguments:prepare:progress:)``.
final class CallExchange: Sendable {
    let descriptor: CallDescriptor
    /// The client's interceptors, then the call's own (`prepare`).
    let interceptors: [any WebServiceInterceptor]
    /// The client's network interceptors.
    let networkInterceptors: [any WebServiceInterceptor]
    let provider: (any AuthenticationProvider)?
    let maximumRedirects: Int
    /// The descriptor's retry policy, or else the client's.
    let retryPolicy: RetryPolicy
    /// The client's cache, one for all its calls; `nil` when it has none.
    let cache: HTTPCache?
    /// Logs each request sent and its answer; `nil` when the call logs nothing.
    let log: ExchangeLog?
    let transport: any WebServiceTransport
    /// What the transport's session adds to each request (``BridgeStage``); `nil` for a transport
    /// without one.
    let bridge: RequestBridge?
    let context: TransportContext
    /// How many requests the call sent so far, across its retries: the follow-ups number each
    /// send from it (``nextSend()``). Unchecked: only the call's own task touches it, one send
    /// after another (the stages that count run in that task, never at once).
    private nonisolated(unsafe) var sends = 0

    /// How many requests the call sent so far.
    var sendCount: Int { sends }

    /// The number of the call's next send, from 1.
    func nextSend() -> Int {
        sends += 1
        return sends
    }

    init(
        descriptor: CallDescriptor, interceptors: [any WebServiceInterceptor],
        networkInterceptors: [any WebServiceInterceptor], provider: (any AuthenticationProvider)?,
        maximumRedirects: Int, retryPolicy: RetryPolicy = .never, cache: HTTPCache?, log: ExchangeLog?,
        transport: any WebServiceTransport, bridge: RequestBridge? = nil, context: TransportContext
    ) {
        self.descriptor = descriptor
        self.interceptors = interceptors
        self.networkInterceptors = networkInterceptors
        self.provider = provider
        self.maximumRedirects = maximumRedirects
        self.retryPolicy = retryPolicy
        self.cache = cache
        self.log = log
        self.transport = transport
        self.bridge = bridge
        self.context = context
    }
}

/// Runs user code (an interceptor, a provider), keeping a `WebServiceError` it throws and
/// wrapping anything else with `wrap`.
func runUserCode<T>(
    wrappingErrorsAs wrap: (any Error) -> WebServiceError, _ body: () async throws -> T
) async throws(WebServiceError) -> T {
    do {
        return try await body()
    } catch let error as WebServiceError {
        throw error
    } catch is CancellationError {
        throw .cancelled(reason: nil)
    } catch {
        throw wrap(error)
    }
}
