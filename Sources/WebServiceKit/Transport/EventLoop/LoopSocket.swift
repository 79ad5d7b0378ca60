#if os(Linux) && canImport(CWebServiceKitSystem)
    import Foundation
    import Glibc

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A TCP socket driven by one event loop: connect, write and read as readiness events, never
    /// waiting. Every method is called on its loop's thread, and every callback runs there.
    ///
    /// One registration per socket for its whole life; what a readiness event means is decided
    /// by the operation under way (``onEvent``). Between operations the socket waits for input
    /// only: bytes or a close arriving while no operation waits for them mean the peer spoke
    /// unasked or hung up, and the socket closes at once (a kept-alive connection the server
    /// dropped frees its descriptor then, not when it is next taken from the pool).
    final class LoopSocket: @unchecked Sendable {  // touched only on its loop's thread
        let loop: EventLoop
        private(set) var fd: Int32 = -1
        private var registration: EventLoop.Registration?
        /// What the next readiness event is for; `nil` between operations.
        private var onEvent: ((IOEvents) -> Void)?
        /// Whether the socket is connected and not closed, readable from any thread.
        private let open = Locked(false)
        /// What the registration waits for now, so that a change costs a system call only when
        /// it is one.
        private var interest: IOInterest = []
        /// The connection's TLS, once its handshake began (an `https` origin); `nil` in the clear.
        /// It lives and ends with the socket.
        var tls: TLSStream?

        init(loop: EventLoop) { self.loop = loop }

        /// Whether the socket is connected and not closed; any thread may ask.
        var isOpen: Bool { open.current }

        /// Whether the open socket has nothing waiting on it, neither bytes nor the peer's close
        /// (``SocketOperations/isQuiet(_:)``): on the loop, before a request goes out on it.
        var isQuiet: Bool {
            precondition(loop.inLoop, "isQuiet off the socket's loop")
            return fd >= 0 && SocketOperations.isQuiet(fd) && !(tls?.hasBufferedInput ?? false)
        }

        /// Connects to the first of `addresses` that accepts, then calls `completion`.
        func connect(
            to addresses: ArraySlice<ResolvedAddress>, name: String,
            completion: @escaping (Result<Void, URLError>) -> Void
        ) {
            precondition(loop.inLoop && fd < 0, "connect on an open socket or off its loop")
            var remaining = addresses
            var lastError = SocketOperations.SystemError(code: ECONNREFUSED)
            while let address = remaining.popFirst() {
                switch SocketOperations.startConnection(to: address) {
                case .failure(let error):
                    // No descriptor left: another address would meet the same.
                    if SocketOperations.isOutOfDescriptors(error) {
                        return completion(.failure(SocketOperations.connectionFailure(error, name: name)))
                    }
                    lastError = error
                    continue
                case .success(let started):
                    do {
                        try adopt(started.fd, interest: started.connected ? .read : .write)
                    } catch {
                        SocketOperations.closeDescriptor(started.fd)
                        return completion(.failure(error))
                    }
                    if started.connected {
                        open.withLock { $0 = true }
                        return completion(.success(()))
                    }
                    onEvent = { [unowned self] _ in
                        let failure = SocketOperations.pendingError(of: fd)
                        if failure == 0 {
                            onEvent = nil
                            open.withLock { $0 = true }
                            setInterest(.read)
                            return completion(.success(()))
                        }
                        close()
                        // The next address, with what is left.
                        connect(to: remaining, name: name, completion: completion)
                    }
                    return
                }
            }
            completion(.failure(SocketOperations.connectionFailure(lastError, name: name)))
        }

        /// Hands every readiness event of the socket to `handler`, waiting for `interest`, until
        /// ``stopWatching()``, another operation or the close: for an exchange, which reads and
        /// writes at once (listening for an early answer as the request goes out) and calls
        /// ``SocketOperations/send(_:_:)`` and ``SocketOperations/receive(_:into:)`` on ``fd``
        /// itself. Change what it waits for with ``watch(_:)``.
        func watch(_ interest: IOInterest, _ handler: @escaping (IOEvents) -> Void) {
            precondition(loop.inLoop && fd >= 0, "watch on a closed socket or off its loop")
            onEvent = handler
            setInterest(interest)
        }

        /// Changes what the current ``watch(_:_:)`` waits for.
        func watch(_ interest: IOInterest) {
            precondition(loop.inLoop, "watch off the socket's loop")
            setInterest(interest)
        }

        /// Ends the current ``watch(_:_:)``: the socket waits for input only, and closes when the
        /// peer speaks unasked or hangs up (an idle kept-alive connection).
        func stopWatching() {
            precondition(loop.inLoop, "stopWatching off the socket's loop")
            onEvent = nil
            setInterest(.read)
        }

        /// Deregisters and closes the socket; no callback of it runs afterwards. A TLS connection
        /// says `close_notify` first, as far as the socket takes it without waiting (RFC 8446 §6.1).
        func close() {
            precondition(loop.inLoop, "close off the socket's loop")
            onEvent = nil
            if let tls, fd >= 0 {
                tls.session.close()
                _ = tls.flush(to: fd)
            }
            tls = nil
            open.withLock { $0 = false }
            if let registration { loop.deregister(registration) }
            registration = nil
            if fd >= 0 { SocketOperations.closeDescriptor(fd) }
            fd = -1
        }

        private func adopt(_ descriptor: Int32, interest: IOInterest) throws(URLError) {
            fd = descriptor
            self.interest = interest
            registration = try loop.register(descriptor, interest: interest) { [unowned self] events in
                if let onEvent { onEvent(events) } else { close() }
            }
        }

        private func setInterest(_ interest: IOInterest) {
            guard let registration, interest != self.interest else { return }
            self.interest = interest
            // Cannot fail for a registered descriptor that is still open.
            try? loop.setInterest(interest, for: registration)
        }
    }
#endif
