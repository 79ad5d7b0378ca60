import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's interceptors, then the call's own: each may change the request or answer it
/// without the network; on the way back each sees the final response, in reverse order.
///
/// They run once per call, above the follow-ups (as OkHttp's application interceptors): a
/// redirect or a challenge answered below them is not theirs to see. An answer an interceptor
/// gives goes back through the interceptors that ran before it.
struct UserInterceptorStage: CallStage {
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool { !call.interceptors.isEmpty }

    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        try await Self.intercept(outgoing, through: next.call.interceptors, next: next)
    }

    /// `outgoing` through `interceptors` on its way down and their answer on its way up: the
    /// one interceptor chain, for the client's interceptors here and its network interceptors
    /// (``NetworkInterceptorStage``).
    static func intercept(
        _ outgoing: Outgoing, through interceptors: [any WebServiceInterceptor], next: StageChain
    ) async throws(WebServiceError) -> Answer {
        var outgoing = outgoing
        for (position, interceptor) in interceptors.enumerated() {
            let request = outgoing.request
            let interception = try await runUserCode(wrappingErrorsAs: WebServiceError.intercepted) {
                try await interceptor.intercept(request, for: next.call.descriptor)
            }
            switch interception {
            case .proceed(let changed): outgoing.request = changed
            case .respond(let response):
                let answer = Answer(request: request, response: response)
                return try await back(answer, through: interceptors[..<position], call: next.call)
            }
        }
        return try await back(try await next.proceed(outgoing), through: interceptors[...], call: next.call)
    }

    /// `answer` after each interceptor of `chain`, last first, had its say on the response.
    private static func back(
        _ answer: Answer, through chain: ArraySlice<any WebServiceInterceptor>, call: CallExchange
    ) async throws(WebServiceError) -> Answer {
        var answer = answer
        for interceptor in chain.reversed() {
            let (response, request) = (answer.response, answer.request)
            answer.response = try await runUserCode(wrappingErrorsAs: WebServiceError.intercepted) {
                try await interceptor.intercept(response, for: request, call: call.descriptor)
            }
        }
        return answer
    }
}
