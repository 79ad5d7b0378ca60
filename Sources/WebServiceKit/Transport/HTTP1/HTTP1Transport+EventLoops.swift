import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTP1Transport {
    /// The number of event loops (one thread each) that carry the process's HTTP/1.1 exchanges on
    /// Linux: one per core by default.
    ///
    /// Every ``HTTP1Transport`` (and so the default ``RoutingTransport``) of the process shares
    /// one group of loops, started by the first exchange that needs it and never stopped, as
    /// SwiftNIO's `MultiThreadedEventLoopGroup.singleton`. Set this before that first exchange,
    /// at the start of `main` for instance, to choose its size:
    ///
    /// ```swift
    /// HTTP1Transport.eventLoopCount = 1  // one loop thread: a small tool, a sidecar
    /// ```
    ///
    /// When no code sets it, the environment variable `WEBSERVICEKIT_EVENT_LOOPS` (a positive
    /// integer) gives the count, and without it the count is
    /// `ProcessInfo.processInfo.activeProcessorCount`. A value below 1 is taken as 1.
    ///
    /// Once the loops run, their count is fixed: connections belong to their loop, so the group
    /// is never resized. A value set then is ignored, and this property keeps returning the
    /// count of the running group, so that `HTTP1Transport.eventLoopCount == wanted` after the
    /// assignment tells whether it took effect. Where there is no epoll (Apple platforms) there
    /// are no loops: the value is kept and has no effect.
    public static var eventLoopCount: Int {
        get { SharedEventLoops.process.count }
        set { SharedEventLoops.process.setCount(newValue) }
    }
}
