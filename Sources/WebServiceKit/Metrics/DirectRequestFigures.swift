/// What an exchange of the direct HTTP/1.1 route measures of its request for the call's metrics,
/// on ``MetricsClock``: when it started on the loop, when its (last) connect began and ended,
/// when the first response byte came, and the bytes it moved on its connection. Both loop
/// exchanges (kept-alive GETs and uploads) keep one and report it the same way.
struct DirectRequestFigures {
    var startedAt: UInt64 = 0
    var connectStartedAt: UInt64?
    var connectedAt: UInt64?
    var firstByteAt: UInt64?
    var bytesSent: Int64 = 0
    var bytesReceived: Int64 = 0
    /// When this exchange's TLS handshake began; `nil` on a reused connection or over `http`.
    var handshakeStartedAt: UInt64?
    /// What the connection's TLS negotiated, without the handshake's time.
    var tls: CallMetrics.TLS?

    /// A connect begins now (again, after a kept-alive connection the server had closed).
    mutating func connectStarts() {
        connectStartedAt = MetricsClock.now()
        connectedAt = nil
        handshakeStartedAt = nil
    }

    /// `count` bytes of the response came now.
    mutating func received(_ count: Int) {
        if firstByteAt == nil { firstByteAt = MetricsClock.now() }
        bytesReceived += Int64(count)
    }

    /// The report for the call's metrics.
    func report(connectionReused: Bool?, requestBodyBytes: Int64) -> TransportMetrics {
        TransportMetrics(
            route: .directHTTP1, connectionReused: connectionReused,
            connectDuration: connectStartedAt.flatMap { start in
                connectedAt.map { MetricsClock.duration(from: start, to: $0) }
            },
            timeToFirstByte: firstByteAt.map { MetricsClock.duration(from: startedAt, to: $0) },
            bytesSent: bytesSent, bytesReceived: bytesReceived, requestBodyBytes: requestBodyBytes,
            tls: tls.map { negotiated in
                var negotiated = negotiated
                // The handshake ends where the connect does (the machine hears `connected` then).
                negotiated.handshakeDuration = handshakeStartedAt.flatMap { start in
                    connectedAt.map { MetricsClock.duration(from: start, to: $0) }
                }
                return negotiated
            })
    }
}
