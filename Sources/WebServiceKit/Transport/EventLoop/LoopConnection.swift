#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A kept-alive HTTP/1.1 connection owned by one event loop: the pool's handle of it, which
    /// any thread may hold, close or ask whether it is still open.
    ///
    /// Its socket is opened by the first exchange that needs it, and opened anew when a request
    /// goes again after the server dropped it (``HTTP1Exchange``). Between exchanges the socket
    /// waits for input only: a server that closes it, or speaks unasked, has it closed at once on
    /// the loop, so an idle connection the server dropped holds no descriptor.
    final class LoopConnection: Sendable {
        let loop: EventLoop
        /// Touched only on the loop's thread, but for ``LoopSocket/isOpen``.
        let socket: LoopSocket
        private let closed = Locked(false)

        /// A connection of `loop`, not opened yet.
        init(loop: EventLoop) {
            self.loop = loop
            socket = LoopSocket(loop: loop)
        }

        deinit {
            // A connection dropped without close() (never in the pool's hands) still frees its
            // descriptor, on the loop that owns it.
            guard !closed.current else { return }
            let socket = socket
            if loop.inLoop { socket.close() } else { loop.execute { socket.close() } }
        }

        /// Whether ``close()`` was called.
        var isClosed: Bool { closed.current }

        /// Whether the connection can take the next request: its socket is connected, and
        /// neither the pool nor the server closed it.
        var isIdleAndOpen: Bool { !isClosed && socket.isOpen }

        /// Closes the connection for good; its descriptor is released on its loop (at once when
        /// called there). Call it only when no exchange runs on it; calling it again does nothing.
        func close() {
            let first = closed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            guard first else { return }
            let socket = socket
            if loop.inLoop { socket.close() } else { loop.execute { socket.close() } }
        }
    }
#endif
