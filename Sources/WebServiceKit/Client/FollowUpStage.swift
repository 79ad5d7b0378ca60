import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one loop of a call: each attempt gets its credentials from the authentication provider
/// and goes down the stages below; what comes back is either the call's answer or a reason to
/// send again, decided in one place (``FollowUp/decide(after:to:sent:call:)``), as OkHttp's
/// `followUpRequest`.
struct FollowUpStage: CallStage {
    /// A hard cap whatever providers answer: a server that keeps challenging (or keeps saying
    /// `stale=true`) never makes a call loop.
    static let maximumAuthenticationRetries = 3

    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        let call = next.call
        var request = outgoing.request
        var body = outgoing.body
        var attempt = 0
        var authenticationRetries = 0
        var redirects = 0
        while true {
            // A cancelled call starts no further attempt.
            if Task.isCancelled { throw .cancelled(reason: nil) }
            // Numbered across the call's retries, which each go through this loop again.
            attempt = call.nextSend()
            var sending = request
            if let provider = call.provider {
                sending = try await runUserCode(wrappingErrorsAs: { .authentication("\($0)") }) {
                    try await provider.authenticate(request, for: call.descriptor)
                }
            }
            let answer: Answer
            do throws(WebServiceError) {
                answer = try await next.proceed(Outgoing(request: sending, body: body, attempt: attempt))
            } catch {
                // The provider learns that this request got no answer, so calls waiting on it go on.
                await call.provider?.handle(error, to: sending, for: call.descriptor)
                throw error
            }
            switch try await FollowUp.decide(after: answer.response, to: request, sent: sending, call: call) {
            case .done:
                return answer
            case .authenticateAgain:
                authenticationRetries += 1
                guard authenticationRetries <= Self.maximumAuthenticationRetries else {
                    throw .authentication(
                        "still refused after \(Self.maximumAuthenticationRetries) retries (status \(answer.response.statusCode))"
                    )
                }
                call.context.metrics?.answerChallenge()
            case .redirect(let target):
                redirects += 1
                guard redirects <= call.maximumRedirects else {
                    throw .transport(
                        URLError(
                            .httpTooManyRedirects,
                            userInfo: [NSLocalizedDescriptionKey: "more than \(call.maximumRedirects) redirects"]))
                }
                call.context.metrics?.followRedirect()
                // A redirect that turned the request into a GET (RFC 9110 §15.4) drops the body.
                if target.method != request.method { body = nil }
                request = target
            }
        }
    }
}

/// What a call does after a response: the one decision about sending again.
enum FollowUp {
    /// The response is the call's answer.
    case done
    /// The authentication provider answered a challenge: send the request again.
    case authenticateAgain
    /// Follow a redirect with this request (RFC 9110 §15.4, ``RedirectRule``).
    case redirect(WebServiceRequest)

    /// Decides what follows `response`, the answer to `sent` (the call's `request` with its
    /// credentials). The provider sees the raw response first: a challenge it answers is retried
    /// before anything else happens; then a redirect is followed when the client follows any.
    static func decide(
        after response: TransportResponse, to request: WebServiceRequest, sent: WebServiceRequest, call: CallExchange
    ) async throws(WebServiceError) -> FollowUp {
        if let provider = call.provider {
            let decision = try await runUserCode(wrappingErrorsAs: { .authentication("\($0)") }) {
                try await provider.handle(response, to: sent, for: call.descriptor)
            }
            if case .retry = decision { return .authenticateAgain }
        }
        guard call.maximumRedirects > 0, let target = RedirectRule.nextRequest(after: response, to: request) else {
            return .done
        }
        return .redirect(target)
    }
}
