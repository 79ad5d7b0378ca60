import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A connection kept open between requests. On Linux a socket of one event loop of the process's
/// group, whose exchanges run on that loop (``HTTP1Exchange``) and park no thread; where there is
/// no event loop, or when a test asks (``HTTP1Transport/runsOnThreads``), a blocking socket with a
/// serial queue whose thread runs its exchanges (``BlockingExchange``).
final class KeptAliveConnection: Sendable {
    enum Socket: Sendable {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            case loop(LoopConnection)
        #endif
        /// A blocking socket and the queue of the connection's own: an exchange blocks a thread
        /// while it waits, and Dispatch gives such a queue a thread of its pool when it has work.
        case blocking(SocketConnection, DispatchQueue)
    }

    let socket: Socket

    init(_ socket: Socket) { self.socket = socket }

    /// A connection, not opened yet: on the next loop of the process's group, or blocking when
    /// `onThreads` (always where there is no event loop).
    static func make(onThreads: Bool) throws(URLError) -> KeptAliveConnection {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            if !onThreads {
                return KeptAliveConnection(.loop(LoopConnection(loop: try EventLoopGroup.shared().next())))
            }
        #endif
        return KeptAliveConnection(
            .blocking(try SocketConnection(deadline: nil), DispatchQueue(label: "WebServiceKit.keep-alive")))
    }

    /// Whether the connection can take the next request: open, and nothing waits on it.
    var isIdleAndOpen: Bool {
        switch socket {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            case .loop(let connection): connection.isIdleAndOpen
        #endif
        case .blocking(let connection, _): connection.isIdleAndOpen
        }
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool {
        switch socket {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            case .loop(let connection): connection.isClosed
        #endif
        case .blocking(let connection, _): connection.isClosed
        }
    }

    /// Closes the connection for good.
    func close() {
        switch socket {
        #if os(Linux) && canImport(CWebServiceKitSystem)
            case .loop(let connection): connection.close()
        #endif
        case .blocking(let connection, _): connection.close()
        }
    }
}
