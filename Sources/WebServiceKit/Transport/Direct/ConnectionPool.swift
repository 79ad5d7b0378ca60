import Dispatch
import Foundation

/// A connection kept open between requests, with the queue whose thread runs its exchanges.
final class KeptAliveConnection: Sendable {
    let socket: SocketConnection
    /// A serial queue of the connection's own: an exchange blocks a thread while it waits for
    /// the response, and Dispatch gives each such queue a thread of its pool when it has work.
    let queue = DispatchQueue(label: "WebServiceKit.keep-alive")

    init(_ socket: SocketConnection) { self.socket = socket }
}

/// The idle kept-alive connections of a ``DirectTransport``, by origin (host and port).
///
/// A connection goes back only after a complete response that leaves it reusable, and comes
/// out only if it has been idle for less than ``maximumIdleTime`` and the server has not closed
/// it meanwhile; a server may still close it as the next request goes out, which the caller
/// handles by sending that request again on a new connection (RFC 9112 §9.3.1).
final class ConnectionPool: Sendable {
    private struct Idle {
        let connection: KeptAliveConnection
        let since: DispatchTime
    }

    /// Idle connections kept per origin; more are closed.
    static let maximumIdlePerOrigin = 16
    /// How long an idle connection is kept: less than nginx's 75 s keep-alive timeout, more
    /// than gunicorn's 2 s (whose closing shows as a readable socket, and is never used).
    static let maximumIdleTime: UInt64 = 30 * 1_000_000_000

    private let idle = Locked<[String: [Idle]]>([:])

    /// The most recently used idle connection to `origin` that is still open, if any.
    func take(for origin: String) -> KeptAliveConnection? {
        while true {
            guard let candidate = idle.withLock({ $0[origin]?.popLast() }) else { return nil }
            // Read after the pop: the connection was put back before it.
            let idleTime = DispatchTime.now().uptimeNanoseconds - candidate.since.uptimeNanoseconds
            // Checked outside the lock: a poll(2) each. A stale one is closed when it is released.
            if idleTime < Self.maximumIdleTime, candidate.connection.socket.isIdleAndOpen {
                return candidate.connection
            }
        }
    }

    /// Keeps `connection` for the next request to `origin`.
    func put(_ connection: KeptAliveConnection, for origin: String) {
        let dropped: Idle? = idle.withLock { table in
            var list = table[origin, default: []]
            list.append(Idle(connection: connection, since: .now()))
            let oldest = list.count > Self.maximumIdlePerOrigin ? list.removeFirst() : nil
            table[origin] = list
            return oldest
        }
        _ = dropped  // closed here, outside the lock
    }
}
