import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a call's time went: one record per request it sent (each retry attempt, each redirect
/// and each answered authentication challenge), and the call's counts and cache outcome.
///
/// Collected for every call, from the stages that know each figure: the transport reports its
/// route, connection reuse, connect time, time to the first response byte and bytes
/// (``TransportContext/report(_:)``); the follow-ups count redirects and challenges; the retry
/// stage counts attempts; the cache's outcome is the response's ``ResponseSource``. Times come
/// from a monotonic clock, never the wall clock. A figure the route cannot know is `nil`, never
/// a guess (Docs/Metrics.md lists what each route fills in).
///
/// Read it on ``WebServiceResponse/metrics``, or for every call, failed ones too, through
/// ``WebServiceClient/metricsMonitor``.
public struct CallMetrics: Sendable {
    /// The requests the call sent, in order. Empty when the cache answered without the network
    /// (``source`` is then ``ResponseSource/cache`` or ``ResponseSource/staleCache``) or the call
    /// failed before its first request went to the transport.
    public internal(set) var transactions: [Transaction] = []
    /// How many times the call was sent by its ``RetryPolicy``: 1, or more after retries.
    public internal(set) var attempts = 1
    /// Redirects followed, across all attempts.
    public internal(set) var redirects = 0
    /// Authentication challenges the provider answered (each one sends the request again), across
    /// all attempts.
    public internal(set) var authenticationRoundTrips = 0
    /// Where the final response came from: the network or the client's cache (fresh, revalidated
    /// with 304, or stale). `nil` for a call that failed without a response.
    public internal(set) var source: ResponseSource?
    /// The call's time through the stages, from the first stage to the final response or error
    /// (decoding is not counted).
    public internal(set) var duration: Duration = .zero
    /// The error the call failed with; `nil` for a call that got a response (whatever its status).
    public internal(set) var error: WebServiceError?

    /// Retries made: ``attempts`` minus one.
    public var retries: Int { max(0, attempts - 1) }

    /// Whether any request of the call went over a connection that an earlier request had used;
    /// `nil` when no transport said.
    public var reusedConnection: Bool? {
        let known = transactions.compactMap(\.connectionReused)
        return known.isEmpty ? nil : known.contains(true)
    }

    /// Creates empty metrics, for a test's expectations or a custom report.
    public init() {}

    /// The transport that carried a request.
    public enum Route: Sendable, Hashable, CustomStringConvertible {
        /// The library's own HTTP/1.1 connections (``HTTP1Transport``).
        case directHTTP1
        /// `URLSession` (``URLSessionTransport``).
        case session
        /// A custom transport, by the name it reported.
        case custom(String)

        public var description: String {
            switch self {
            case .directHTTP1: "direct HTTP/1.1"
            case .session: "session"
            case .custom(let name): name
            }
        }
    }

    /// What a TLS connection negotiated, for a request that went over one the transport made
    /// itself (the direct route's `https`; URLSession does not say).
    public struct TLS: Sendable, Hashable, CustomStringConvertible {
        /// The protocol version: `TLSv1.3`, `TLSv1.2`.
        public var protocolVersion: String
        /// The cipher suite, in OpenSSL's name: `TLS_AES_256_GCM_SHA384`.
        public var cipher: String
        /// Whether the connection resumed an earlier session (an abbreviated handshake).
        public var sessionResumed: Bool
        /// The protocol ALPN chose (`http/1.1`); `nil` when the server chose none.
        public var applicationProtocol: String?
        /// The handshake's time, from the end of the TCP connect to its last record; `nil` for a
        /// request on a connection an earlier one made (its handshake was that request's).
        public var handshakeDuration: Duration?

        /// Creates a report of a TLS connection (a custom transport's, a test's expectation).
        public init(
            protocolVersion: String, cipher: String, sessionResumed: Bool, applicationProtocol: String? = nil,
            handshakeDuration: Duration? = nil
        ) {
            self.protocolVersion = protocolVersion
            self.cipher = cipher
            self.sessionResumed = sessionResumed
            self.applicationProtocol = applicationProtocol
            self.handshakeDuration = handshakeDuration
        }

        public var description: String {
            var parts = [protocolVersion, cipher]
            if sessionResumed { parts.append("resumed") }
            if let handshakeDuration { parts.append("handshake \(CallMetrics.text(handshakeDuration))") }
            return parts.joined(separator: " ")
        }
    }

    /// Why a request was sent.
    public enum Reason: String, Sendable, Hashable, CustomStringConvertible {
        /// The call's first request.
        case initial
        /// The first request of a retry attempt (``RetryPolicy``).
        case retry
        /// A redirect the client followed.
        case redirect
        /// The request again, with the credentials the provider gave for a challenge.
        case authentication

        public var description: String { rawValue }
    }

    /// One request the call sent to its transport, and what came of it.
    public struct Transaction: Sendable {
        /// The request's number in the call, from 1 (the log's `attempt` metadata).
        public internal(set) var send: Int
        /// The retry attempt the request belongs to, from 1.
        public internal(set) var attempt: Int
        /// Why it was sent.
        public internal(set) var reason: Reason
        /// The request as it went to the transport.
        let request: WebServiceRequest
        /// The request's method.
        public var method: String { request.method }
        /// The request's URL.
        public var url: URL? { request.url }
        /// The response's status; `nil` when the request got no response.
        public internal(set) var statusCode: Int?
        /// The transport that carried it; `nil` when it did not say.
        public internal(set) var route: Route?
        /// Whether the request went over a connection that carried an earlier request; `nil`
        /// when the transport cannot know (the session on Linux).
        public internal(set) var connectionReused: Bool?
        /// The time to open the connection (name resolution and TCP connect); `nil` for a reused
        /// connection, or when the transport cannot know.
        public internal(set) var connectDuration: Duration?
        /// From the start of the transport's work to the first byte of the response; `nil`
        /// without a response, or when the transport cannot know.
        public internal(set) var timeToFirstByte: Duration?
        /// The request's whole time at the transport, to its complete response or its failure.
        public internal(set) var duration: Duration = .zero
        /// When the request went to the transport, counted from the start of the call.
        public internal(set) var startOffset: Duration = .zero
        /// Bytes written on the connection: request head and body with its framing; `nil` when
        /// the transport cannot know.
        public internal(set) var bytesSent: Int64?
        /// Bytes read from the connection: response head and body as they came (before content
        /// decoding, with chunk framing); `nil` when the transport cannot know.
        public internal(set) var bytesReceived: Int64?
        /// What the request's TLS connection negotiated; `nil` over plain `http`, or when the
        /// transport cannot know (URLSession).
        public internal(set) var tls: TLS?
        /// Bytes of the request's body that were sent; `nil` when unknown, 0 without a body.
        public var requestBodyBytes: Int64? {
            reportedRequestBodyBytes ?? (countsBodyInMemory ? Int64(request.httpBody?.count ?? 0) : nil)
        }
        /// The transport's count of body bytes sent.
        var reportedRequestBodyBytes: Int64?
        /// Whether, without the transport's count, the body in memory (or none) counts as sent:
        /// a request without a streamed body that got a response.
        var countsBodyInMemory = false
        /// Bytes of the response's body the call kept (after content decoding, in memory or in
        /// the download file); `nil` without a response.
        public internal(set) var responseBodyBytes: Int64?
        /// The error the request failed with; `nil` when it got a response.
        public internal(set) var error: WebServiceError?
    }
}

/// A call's metrics, shared by the copies of the response that carries them: a copy of a
/// response costs one reference, not a copy of every figure.
final class CallMetricsBox: Sendable {
    let value: CallMetrics
    init(_ value: CallMetrics) { self.value = value }
}

/// What a transport knows about one request it carried, for the call's ``CallMetrics``: report
/// it with ``TransportContext/report(_:)`` before returning the response (or throwing). Leave
/// `nil` what the transport cannot know.
public struct TransportMetrics: Sendable {
    /// The transport that carried the request.
    public var route: CallMetrics.Route
    /// Whether the connection had carried an earlier request.
    public var connectionReused: Bool?
    /// The time to open the connection; `nil` for a reused one.
    public var connectDuration: Duration?
    /// From the start of the transport's work to the first response byte.
    public var timeToFirstByte: Duration?
    /// Bytes written on the connection (head and body).
    public var bytesSent: Int64?
    /// Bytes read from the connection (head and body, as they came).
    public var bytesReceived: Int64?
    /// Bytes of the request's body sent.
    public var requestBodyBytes: Int64?
    /// What the connection's TLS negotiated; `nil` over plain `http`.
    public var tls: CallMetrics.TLS?

    /// Creates a report for a request carried by `route`.
    public init(
        route: CallMetrics.Route, connectionReused: Bool? = nil, connectDuration: Duration? = nil,
        timeToFirstByte: Duration? = nil, bytesSent: Int64? = nil, bytesReceived: Int64? = nil,
        requestBodyBytes: Int64? = nil, tls: CallMetrics.TLS? = nil
    ) {
        self.tls = tls
        self.route = route
        self.connectionReused = connectionReused
        self.connectDuration = connectDuration
        self.timeToFirstByte = timeToFirstByte
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.requestBodyBytes = requestBodyBytes
    }
}

extension CallMetrics: CustomStringConvertible {
    /// One line for the call, then one per request: route, reuse, times in milliseconds (to the
    /// microsecond), bytes.
    public var description: String {
        var lines = [
            "\(Self.text(duration)), \(attempts) attempt(s), \(redirects) redirect(s), "
                + "\(authenticationRoundTrips) authentication round trip(s), source "
                + (source.map { "\($0)" } ?? "none") + (error.map { ", failed: \($0)" } ?? "")
        ]
        for transaction in transactions {
            var parts = [
                "#\(transaction.send) (\(transaction.reason)) \(transaction.method) \(transaction.statusCode.map(String.init) ?? "failed")",
                transaction.route.map { "\($0)" } ?? "route unknown",
            ]
            if let reused = transaction.connectionReused { parts.append(reused ? "reused" : "new connection") }
            if let connect = transaction.connectDuration { parts.append("connect \(Self.text(connect))") }
            if let first = transaction.timeToFirstByte { parts.append("first byte \(Self.text(first))") }
            parts.append("total \(Self.text(transaction.duration))")
            if let sent = transaction.bytesSent { parts.append("\(sent) B sent") }
            if let received = transaction.bytesReceived { parts.append("\(received) B received") }
            if let tls = transaction.tls { parts.append("\(tls)") }
            lines.append("  " + parts.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// `duration` in milliseconds, to the microsecond: "0.412 ms".
    static func text(_ duration: Duration) -> String {
        let parts = duration.components
        let microseconds = parts.seconds * 1_000_000 + parts.attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }

    /// Whole milliseconds in `duration`.
    static func milliseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }
}
