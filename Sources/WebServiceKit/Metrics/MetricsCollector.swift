import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The monotonic clock every figure of ``CallMetrics`` is read from: nanoseconds of
/// `DispatchTime` (`CLOCK_MONOTONIC` on Linux, `mach_absolute_time` on Apple platforms), the
/// clock of the event loops' timers; never the wall clock, which may jump.
enum MetricsClock {
    /// Now, in nanoseconds.
    @inline(__always) static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The time from `start` to `end` (0 if `end` came first, which a monotonic clock never does).
    /// `duration` in nanoseconds.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return parts.seconds &* 1_000_000_000 &+ parts.attoseconds / 1_000_000_000
    }

    @inline(__always) static func duration(from start: UInt64, to end: UInt64) -> Duration {
        .nanoseconds(Int64(clamping: end >= start ? end - start : 0))
    }
}

/// One call's metrics as the stages learn them: one per call, in ``TransportContext/metrics``.
///
/// The stages run one after another in the call's task; a transport reports from its own thread
/// (an event loop, the session's delegate queue) before it resumes the call. The lock makes both
/// safe whatever a custom transport does. The collector is the lock itself: one allocation per
/// call.
typealias MetricsCollector = Locked<MetricsState>

/// What a ``MetricsCollector`` holds.
struct MetricsState {
    var metrics = CallMetrics()
    /// Why the next request is sent: set by the retry stage and the follow-ups.
    var nextReason = CallMetrics.Reason.initial
    /// The transport's report for the request under way.
    var report: TransportMetrics?
    /// When the call entered the stages, on ``MetricsClock``.
    let started = MetricsClock.now()
    /// A streamed response's request record, whose body is still arriving.
    var streamedTransaction: Int?
    /// A streamed body's end that came before its head's record: applied when the record is made.
    var streamedBodyEnd: StreamedBodyEnd?

    /// The end of a streamed response's body.
    struct StreamedBodyEnd {
        var at: UInt64
        var bytes: Int64
        var error: WebServiceError?
        var report: TransportMetrics?
    }

    /// Completes the record of a streamed request with its body's end.
    mutating func apply(_ end: StreamedBodyEnd, to index: Int) {
        guard metrics.transactions.indices.contains(index) else { return }
        var transaction = metrics.transactions[index]
        let start = started &+ UInt64(max(0, MetricsClock.nanoseconds(transaction.startOffset)))
        transaction.duration = MetricsClock.duration(from: start, to: end.at)
        transaction.responseBodyBytes = end.bytes
        if let report = end.report {
            transaction.route = transaction.route ?? report.route
            transaction.connectionReused = transaction.connectionReused ?? report.connectionReused
            transaction.connectDuration = transaction.connectDuration ?? report.connectDuration
            transaction.timeToFirstByte = transaction.timeToFirstByte ?? report.timeToFirstByte
            transaction.bytesSent = report.bytesSent ?? transaction.bytesSent
            transaction.bytesReceived = report.bytesReceived ?? transaction.bytesReceived
            transaction.reportedRequestBodyBytes = report.requestBodyBytes ?? transaction.reportedRequestBodyBytes
            transaction.tls = transaction.tls ?? report.tls
        }
        transaction.error = transaction.error ?? end.error
        metrics.transactions[index] = transaction
    }
}

extension Locked where Value == MetricsState {
    /// A collector for a call that starts now.
    convenience init() { self.init(MetricsState()) }

    /// The retry stage starts attempt `attempt` (from 2).
    func startRetry(_ attempt: Int) {
        withLock {
            $0.metrics.attempts = attempt
            $0.nextReason = .retry
        }
    }

    /// The follow-ups send the request again after a redirect.
    func followRedirect() {
        withLock {
            $0.metrics.redirects += 1
            $0.nextReason = .redirect
        }
    }

    /// The follow-ups send the request again with the provider's answer to a challenge.
    func answerChallenge() {
        withLock {
            $0.metrics.authenticationRoundTrips += 1
            $0.nextReason = .authentication
        }
    }

    /// The transport's report for the request it is carrying (``TransportContext/report(_:)``).
    func record(_ report: TransportMetrics) {
        withLock { $0.report = report }
    }

    /// A request goes to the transport: returns when, for ``endTransaction(_:start:response:error:)``.
    func beginTransaction() -> UInt64 {
        withLock { $0.report = nil }
        return MetricsClock.now()
    }

    /// The transport answered `outgoing` (begun at `start`) with `response`, or failed with
    /// `error`: the request's record, with what the transport reported.
    func endTransaction(_ outgoing: Outgoing, start: UInt64, response: TransportResponse?, error: WebServiceError?) {
        let end = MetricsClock.now()
        withLock { state in
            let report = state.report
            state.report = nil
            let reason = state.nextReason
            state.nextReason = .initial
            var transaction = CallMetrics.Transaction(
                send: outgoing.attempt, attempt: state.metrics.attempts, reason: reason, request: outgoing.request,
                statusCode: response?.statusCode, route: report?.route, connectionReused: report?.connectionReused,
                connectDuration: report?.connectDuration, timeToFirstByte: report?.timeToFirstByte)
            transaction.duration = MetricsClock.duration(from: start, to: end)
            transaction.startOffset = MetricsClock.duration(from: state.started, to: start)
            transaction.bytesSent = report?.bytesSent
            transaction.bytesReceived = report?.bytesReceived
            transaction.reportedRequestBodyBytes = report?.requestBodyBytes
            transaction.tls = report?.tls
            transaction.countsBodyInMemory = outgoing.body == nil && response != nil
            transaction.responseBodyBytes = response.map { $0.bodyFileLength ?? Int64($0.body.count) }
            transaction.error = error
            state.metrics.transactions.append(transaction)
            guard response?.live != nil else { return }
            // A streamed response: its body's end completes this record, now if it came already.
            let index = state.metrics.transactions.count - 1
            if let end = state.streamedBodyEnd {
                state.streamedBodyEnd = nil
                state.apply(end, to: index)
            } else {
                state.streamedTransaction = index
            }
        }
    }

    /// A streamed response's body ended with `bytes` in all, or `error`: its request's record gets
    /// the body's bytes, the transport's report made at the end, and the time to the body's end.
    func endStreamedBody(bytes: Int64, error: WebServiceError?) {
        let end = MetricsClock.now()
        withLock { state in
            let bodyEnd = MetricsState.StreamedBodyEnd(at: end, bytes: bytes, error: error, report: state.report)
            state.report = nil
            if let index = state.streamedTransaction {
                state.streamedTransaction = nil
                state.apply(bodyEnd, to: index)
            } else {
                state.streamedBodyEnd = bodyEnd
            }
        }
    }

    /// How many requests have their record so far.
    var transactionCount: Int { withLock { $0.metrics.transactions.count } }

    /// The record of the last request, if it came after the first `count` (a request that went
    /// to the transport since ``transactionCount`` was `count`).
    func transaction(after count: Int) -> CallMetrics.Transaction? {
        withLock { $0.metrics.transactions.count > count ? $0.metrics.transactions.last : nil }
    }

    /// The call's metrics once it ended with `response` (its source) or `error`.
    func finish(source: ResponseSource?, error: WebServiceError?) -> CallMetrics {
        let end = MetricsClock.now()
        return withLock { state in
            state.metrics.source = source
            state.metrics.error = error
            state.metrics.duration = MetricsClock.duration(from: state.started, to: end)
            return state.metrics
        }
    }
}
