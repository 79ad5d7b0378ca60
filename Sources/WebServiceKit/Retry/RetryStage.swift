import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a call again after a failure its ``RetryPolicy`` retries, after a backoff.
///
/// It sits above the follow-ups and below the user interceptors (``CallStages/all``): each
/// attempt goes down the follow-ups anew, so the authentication provider gives it fresh
/// credentials (and hears of an attempt that got no answer), redirects are followed from the
/// call's own request with their count started again, and the cache decides again (a stale
/// answer it may serve on error, a validator it adds). The user interceptors see the call once:
/// the request as the caller built it and the final response, as they do without retries.
struct RetryStage: CallStage {
    func applies(to outgoing: Outgoing, of call: CallExchange) -> Bool { call.retryPolicy.retries }

    func send(_ outgoing: Outgoing, next: StageChain) async throws(WebServiceError) -> Answer {
        let call = next.call
        let policy = call.retryPolicy
        guard Self.mayResend(outgoing, descriptor: call.descriptor) else { return try await next.proceed(outgoing) }
        let environment = policy.environment
        let start = environment.uptime()
        var attempts = 0
        while true {
            attempts += 1
            let headsBefore = call.context.responseBody.responsesBegun
            let outcome: Result<Answer, WebServiceError>
            do throws(WebServiceError) {
                var answer = try await next.proceed(outgoing)
                // The usual case first, without more work: an answer that is not retried.
                if attempts >= policy.maximumAttempts || !policy.retriedStatusCodes.contains(answer.response.statusCode)
                {
                    answer.response.attempts = attempts
                    return answer
                }
                outcome = .success(answer)
            } catch {
                outcome = .failure(error)
            }
            let headArrived = call.context.responseBody.responsesBegun != headsBefore
            guard attempts < policy.maximumAttempts, let reason = Self.reason(toRetry: outcome, policy, headArrived)
            else { return try Self.finish(outcome, attempts: attempts) }
            // The wait: the server's, when it gave one, or the backoff.
            let elapsed = max(0, environment.uptime() - start)
            let remaining = max(0, policy.maximumTotalTime - elapsed)
            var wait = policy.backoff(beforeRetry: attempts, random: environment.random())
            if case .success(let answer) = outcome,
                let asked = RetryAfter.seconds(in: answer.response.headers, now: environment.now())
            {
                let limit = min(max(0, policy.maximumDelay), remaining)
                guard asked <= limit else {
                    throw .retryAfterTooLong(
                        RetryAfterRefusal(
                            retryAfter: asked, limit: limit, statusCode: answer.response.statusCode,
                            headers: answer.response.headers, attempts: attempts))
                }
                wait = asked
            }
            // A retry whose wait would end past the total-time cap is not made: the last outcome stands.
            guard wait <= remaining else { return try Self.finish(outcome, attempts: attempts) }
            call.log?.retrying(
                outgoing.request, attempt: attempts + 1, of: policy.maximumAttempts, nextSend: call.sendCount + 1,
                after: reason, wait: wait)
            do {
                try await environment.sleep(seconds: wait)
            } catch {
                // Cancellation wakes the wait at once; any other failure of the sleep ends it too.
                throw .cancelled(reason: nil)
            }
            if Task.isCancelled { throw .cancelled(reason: nil) }
            call.context.metrics?.startRetry(attempts + 1)
        }
    }

    /// The call's answer, counting its attempts, or its error.
    private static func finish(_ outcome: Result<Answer, WebServiceError>, attempts: Int) throws(WebServiceError)
        -> Answer
    {
        switch outcome {
        case .success(var answer):
            answer.response.attempts = attempts
            return answer
        case .failure(let error):
            throw error
        }
    }

    /// Whether the call may be sent more than once at all: an idempotent method (RFC 9110
    /// §9.2.2) or a call its descriptor marks idempotent, and a body that can be sent again.
    static func mayResend(_ outgoing: Outgoing, descriptor: CallDescriptor) -> Bool {
        if let body = outgoing.body, !body.isReplayable { return false }
        return descriptor.isIdempotent || HTTPMethod.isIdempotent(outgoing.request.method)
    }

    /// Why `outcome` is retried under `policy`, or `nil` when it is not. `headArrived` says whether
    /// a response head arrived during the attempt (a timeout after one is not retried).
    static func reason(toRetry outcome: Result<Answer, WebServiceError>, _ policy: RetryPolicy, _ headArrived: Bool)
        -> String?
    {
        switch outcome {
        case .success(let answer):
            // The cache's own answers (the 504 of only-if-cached) are not the server's failures.
            guard answer.response.source == .network,
                policy.retriedStatusCodes.contains(answer.response.statusCode)
            else { return nil }
            return "status \(answer.response.statusCode)"
        case .failure(let failure):
            guard case .transport(let error) = failure.reason, policy.retriedFailures.contains(error.code) else {
                return nil
            }
            if error.code == .timedOut, headArrived { return nil }
            // Named by its code: the error's own text may hold the URL, which the log redacts.
            switch error.code {
            case .cannotConnectToHost: return "connection refused"
            case .networkConnectionLost: return "connection lost"
            case .timedOut: return "timeout before the response"
            default: return "URLError \(error.code.rawValue)"
            }
        }
    }
}
