import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTP1Transport {
    /// How many connections an ``HTTP1Transport`` opens: at most ``perOrigin`` to one origin (host
    /// and port) and ``total`` in all, each cap counting its kept-alive connections, in use or
    /// idle, whatever the requests they carry. A call that finds its origin
    /// or the transport at its cap waits, in order, for a connection to come free (an idle one
    /// of another origin is closed to make room); cancelling the call or reaching its timeout
    /// ends the wait. Idle connections are kept, up to the caps, for 30 s.
    ///
    /// ```swift
    /// // 1,000 calls in flight to one service, each on a connection while it runs.
    /// let transport = RoutingTransport(connectionLimits: .init(perOrigin: 1_000))
    /// ```
    ///
    /// By default (a cap left `nil`):
    /// - per origin: the session configuration's `httpMaximumConnectionsPerHost` (6 for
    ///   `.default` and `.ephemeral`; below 1, no cap per origin);
    /// - in all: ``defaultTotal``, from the process's descriptor limit.
    ///
    /// On Linux a connection holds one descriptor (a download to a file one more while it runs)
    /// and no thread. Raising ``total`` past what the process's descriptor limit (`ulimit -n`)
    /// leaves is allowed: a call that then finds no descriptor for its connection fails with
    /// `URLError(.cannotConnectToHost)`, whose description says "too many open files" and whose
    /// `userInfo[NSUnderlyingErrorKey]` is `POSIXError(.EMFILE)` (or `.ENFILE` when the whole
    /// system ran out); calls that wait meanwhile go on, each ending once.
    public struct ConnectionLimits: Sendable, Equatable {
        /// Open connections to one origin at most; `nil`: the configuration's
        /// `httpMaximumConnectionsPerHost`. A value below 1 counts as 1; `Int.max` means no cap
        /// per origin.
        public var perOrigin: Int?
        /// Open connections across origins at most; `nil`: ``defaultTotal``. A value below 1
        /// counts as 1.
        public var total: Int?

        /// Caps for a transport; a cap left `nil` keeps its default.
        public init(perOrigin: Int? = nil, total: Int? = nil) {
            self.perOrigin = perOrigin
            self.total = total
        }

        /// The default cap across origins, read from the process's soft `RLIMIT_NOFILE` when a
        /// transport is made.
        ///
        /// On Linux (every exchange on an event loop, one descriptor per connection): the limit
        /// less a reserve for the rest of the process of a quarter of it (at least 64), between
        /// 16 and 65,536. `ulimit -n 1024` gives 768; 8,192 gives 6,144; 1,048,576 or unlimited
        /// gives 65,536. Elsewhere (a thread and three descriptors per connection in use): a
        /// quarter of the limit over three, between 4 and 256.
        public static var defaultTotal: Int { ConnectionPool.defaultTotal }
    }
}

extension ConnectionPool {
    /// The caps for a transport made from `configuration`, with `connectionLimits` where set.
    ///
    /// Per origin, by default: the configuration's `httpMaximumConnectionsPerHost`, so that the
    /// direct path loads a server no more than the session would. Its default is 6 for `.default`
    /// and `.ephemeral`, on Linux as on Apple platforms, and FoundationNetworking passes it to
    /// libcurl (40 concurrent GETs through a Linux session use 6 connections): the six
    /// connections per host of browsers, between OkHttp's 5 requests per host and
    /// AsyncHTTPClient's 8 connections. A value below 1 means no cap per origin, as libcurl reads
    /// it; the total cap still applies. Across origins, by default: ``defaultTotal``.
    static func limits(
        for configuration: URLSessionConfiguration,
        _ connectionLimits: HTTP1Transport.ConnectionLimits = HTTP1Transport.ConnectionLimits()
    ) -> Limits {
        let perHost = configuration.httpMaximumConnectionsPerHost
        return Limits(
            perOrigin: connectionLimits.perOrigin ?? (perHost > 0 ? perHost : .max),
            total: connectionLimits.total ?? defaultTotal, idleTimeout: defaultIdleTimeout)
    }
}
