import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// When and how a call that failed is sent again: how many attempts, which failures, and how
/// long to wait between them (exponential backoff with full jitter, `Retry-After` honoured).
///
/// Set one on the client for every call, or on a descriptor (``CallFields/retryPolicy``), which
/// wins over the client's:
///
/// ```swift
/// client.retryPolicy = RetryPolicy(maximumAttempts: 3)
///
/// var fields = CallFields(method: .post, relativePath: "orders")
/// fields.isIdempotent = true            // the server deduplicates on an Idempotency-Key
/// fields.retryPolicy = .never           // or: this call is never retried
/// ```
///
/// A call is retried only when all of these hold:
/// - its method is idempotent (RFC 9110 §9.2.2: `GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`,
///   `TRACE`), or its descriptor says it is (``CallFields/isIdempotent``): a `POST` or `PATCH`
///   is never sent twice otherwise;
/// - its body can be sent again: bytes in memory, or a stream whose factory opens a new one
///   (``RequestBody/stream(length:isReplayable:open:)``); a one-shot stream is never retried;
/// - the attempt failed in a way ``retriedStatusCodes`` or ``retriedFailures`` name, and the
///   answer came from the network (an answer of the cache, such as the 504 of
///   ``CachePolicy/forceCache``, is never retried);
/// - fewer than ``maximumAttempts`` attempts were made, and the next wait ends within
///   ``maximumTotalTime`` of the first attempt's start.
///
/// The wait before retry `n` (1 for the first retry) is a random duration between 0 and
/// `min(maximumDelay, baseDelay × 2^(n-1))` ("full jitter"), unless the response says how long
/// to wait with `Retry-After` (RFC 9110 §10.2.3, in seconds or as an HTTP date): that wait is
/// used instead, and when it is longer than ``maximumDelay`` (or would end past
/// ``maximumTotalTime``) the call fails with ``WebServiceError/retryAfterTooLong(_:)``, which
/// carries it.
public struct RetryPolicy: Sendable {
    /// The fields, as plain values.
    private struct Fields {
        var maximumAttempts: Int
        var retriedStatusCodes: Set<Int> = RetryPolicy.defaultStatusCodes
        var retriedFailures: Set<URLError.Code> = RetryPolicy.defaultFailures
        var baseDelay: TimeInterval
        var maximumDelay: TimeInterval
        var maximumTotalTime: TimeInterval
        var environment: any RetryEnvironment
    }

    /// The fields behind one immutable reference, replaced on every write: every call copies
    /// its policy (the descriptor's or the client's), and one retain is cheaper than copying two
    /// sets and an existential.
    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// The most times the call is sent, the first included: 1 never retries. Values below 1 count
    /// as 1.
    public var maximumAttempts: Int {
        get { storage.fields.maximumAttempts }
        set { update { $0.maximumAttempts = max(1, newValue) } }
    }
    /// The statuses that are retried: 408, 429, 500, 502, 503 and 504 by default.
    public var retriedStatusCodes: Set<Int> {
        get { storage.fields.retriedStatusCodes }
        set { update { $0.retriedStatusCodes = newValue } }
    }
    /// The failures without a response that are retried, by their `URLError` code (the call's
    /// error is ``WebServiceError/transport(_:)``). By default: `.cannotConnectToHost` (the
    /// connection was refused), `.networkConnectionLost` (it was reset or closed before the answer
    /// was complete) and `.timedOut`, a timeout only when no response head had arrived.
    public var retriedFailures: Set<URLError.Code> {
        get { storage.fields.retriedFailures }
        set { update { $0.retriedFailures = newValue } }
    }
    /// The upper bound of the first retry's wait, in seconds; each retry doubles it (0.5 s by
    /// default).
    public var baseDelay: TimeInterval {
        get { storage.fields.baseDelay }
        set { update { $0.baseDelay = newValue } }
    }
    /// The longest single wait, in seconds (30 by default): the cap of the backoff, and the
    /// longest `Retry-After` honoured.
    public var maximumDelay: TimeInterval {
        get { storage.fields.maximumDelay }
        set { update { $0.maximumDelay = newValue } }
    }
    /// The most seconds from the start of the first attempt to the start of the last one (120 by
    /// default): a retry whose wait would end later is not made.
    public var maximumTotalTime: TimeInterval {
        get { storage.fields.maximumTotalTime }
        set { update { $0.maximumTotalTime = newValue } }
    }
    /// Where the policy reads the time, draws its jitter and waits: the system's by default; a
    /// test gives one that records the waits instead of sleeping.
    public var environment: any RetryEnvironment {
        get { storage.fields.environment }
        set { update { $0.environment = newValue } }
    }

    /// 408, 429, 500, 502, 503 and 504.
    public static let defaultStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Connection refused, connection lost (reset), and a timeout before any response head.
    public static let defaultFailures: Set<URLError.Code> = [.cannotConnectToHost, .networkConnectionLost, .timedOut]

    /// A policy that never retries: the client's default.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// A policy with the default statuses and failures.
    ///
    /// - Parameters:
    ///   - maximumAttempts: The most sends, the first included (3 by default).
    ///   - baseDelay: The bound of the first retry's wait, in seconds.
    ///   - maximumDelay: The longest single wait, in seconds.
    ///   - maximumTotalTime: The most seconds from the first attempt to the start of the last.
    ///   - environment: The clock, jitter and sleep; the system's by default.
    public init(
        maximumAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 30,
        maximumTotalTime: TimeInterval = 120, environment: any RetryEnvironment = SystemRetryEnvironment()
    ) {
        storage = Storage(
            Fields(
                maximumAttempts: max(1, maximumAttempts), baseDelay: baseDelay, maximumDelay: maximumDelay,
                maximumTotalTime: maximumTotalTime, environment: environment))
    }

    /// Whether the policy ever sends a call a second time.
    var retries: Bool { storage.fields.maximumAttempts > 1 }

    /// The backoff before retry `retry` (1 for the first): `random` (in 0..<1) times
    /// `min(maximumDelay, baseDelay × 2^(retry-1))`, "full jitter". Never negative, never more than
    /// ``maximumDelay``, whatever the fields hold (a huge `retry` does not overflow).
    public func backoff(beforeRetry retry: Int, random: Double) -> TimeInterval {
        let cap = Self.finite(maximumDelay)
        let base = Self.finite(baseDelay)
        // 2^62 is far past any cap; the exponent stays small so the product never overflows to inf.
        let exponent = retry <= 1 ? 0 : Double(min(retry, 63) - 1)
        let ceiling = min(cap, base * pow(2, exponent))
        let fraction = random.isFinite ? min(max(random, 0), 1) : 0
        return ceiling * fraction
    }

    /// A bound that is a number of seconds: negative and NaN count as 0, infinity as a day.
    private static func finite(_ seconds: TimeInterval) -> TimeInterval {
        guard !seconds.isNaN, seconds > 0 else { return 0 }
        return min(seconds, 86_400)
    }
}

/// A `Retry-After` wait (RFC 9110 §10.2.3) longer than the call's retry policy allows: the call
/// fails with it rather than wait (``WebServiceError/retryAfterTooLong(_:)``).
public struct RetryAfterRefusal: Sendable, CustomStringConvertible {
    /// The seconds the server asked the client to wait.
    public let retryAfter: TimeInterval
    /// The longest wait the policy allowed then, in seconds: ``RetryPolicy/maximumDelay``, or
    /// less when ``RetryPolicy/maximumTotalTime`` was nearer.
    public let limit: TimeInterval
    /// The status of the response that asked for the wait (429, 503…).
    public let statusCode: Int
    /// The header fields of that response.
    public let headers: HTTPHeaders
    /// How many times the call was sent.
    public let attempts: Int

    public var description: String {
        let asked = Self.seconds(retryAfter)
        let allowed = Self.seconds(limit)
        return
            "the server asked to wait \(asked) s before retrying (status \(statusCode), after \(attempts) attempt\(attempts == 1 ? "" : "s")), longer than the \(allowed) s the retry policy allows"
    }

    /// Whole seconds as an integer, others with one decimal.
    private static func seconds(_ value: TimeInterval) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.1f", value)
    }
}
