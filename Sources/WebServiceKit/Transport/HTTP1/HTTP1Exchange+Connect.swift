#if os(Linux) && canImport(CWebServiceKitSystem)
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    extension HTTP1Exchange {
        // MARK: - Connecting: the socket, a proxy's tunnel, the TLS handshake

        /// Connects to the origin, or to the proxy: a numeric host on the loop, a name on the
        /// resolver; then the tunnel and the TLS handshake where they apply.
        func connect() {
            figures.connectStarts()
            // Through a proxy, the connection is the proxy's.
            let (peer, peerPort) = proxy.map { ($0.host, $0.port) } ?? (host, port)
            resolver.addresses(of: peer, port: peerPort, on: loop) { [self] result in
                guard !machine.isDone else { return }
                switch result {
                case .success(let addresses):
                    let name = proxy.map { "the proxy \($0)" } ?? "\(host):\(port)"
                    socket.connect(to: addresses[...], name: name) { [self] result in
                        guard !machine.isDone else { return }
                        switch result {
                        case .success:
                            if let tls, let proxy { return startTunnel(through: proxy, then: tls) }
                            if let tls { return startTLS(tls) }
                            figures.connectedAt = MetricsClock.now()
                            handle(.connected(now: EventLoop.now()))
                        case .failure(let error): handle(error)
                        }
                    }
                case .failure(let error): handle(error)
                }
            }
        }

        /// Asks the proxy just connected to for a tunnel to the origin (`CONNECT`); TLS begins once
        /// it answers with a 2xx. Like the handshake, it is part of connecting for the machine.
        func startTunnel(through proxy: ProxyRoute, then context: TLSContext) {
            let tunnel = ProxyTunnel(to: host, port: port, through: proxy)
            tunnelRequest = tunnel.request(fields: request.allHTTPHeaderFields ?? [:])[...]
            self.tunnel = tunnel
            socket.watch([.read, .write]) { [unowned self] events in tunnelStep(events, then: context) }
        }

        /// Writes what is left of the `CONNECT` request, then reads the proxy's answer.
        func tunnelStep(_ events: IOEvents, then context: TLSContext) {
            guard !machine.isDone, var tunnel else { return }
            while !tunnelRequest.isEmpty {
                switch tunnelRequest.withUnsafeBytes({ SocketOperations.send(socket.fd, $0) }) {
                case .moved(let count): tunnelRequest.removeFirst(count)
                case .wouldBlock: return socket.watch([.read, .write])
                case .peerClosed: return handle(tunnel.ended())
                case .failed(let reason): return handle(.broke(reason))
                }
            }
            guard !events.isDisjoint(with: [.readable, .hangUp, .error]) else { return socket.watch(.read) }
            let buffer = loop.readBuffer
            switch SocketOperations.receive(socket.fd, into: buffer) {
            case .moved(let count) where count > 0:
                switch tunnel.receive(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                case .incomplete:
                    self.tunnel = tunnel
                    socket.watch(.read)
                case .established:
                    self.tunnel = nil
                    startTLS(context)
                case .refused(let error): handle(error)
                }
            case .wouldBlock: socket.watch(.read)
            case .failed(let reason): handle(.broke(reason))
            default: handle(tunnel.ended())
            }
        }

        /// Begins the TLS handshake of the connection just made; the machine hears `connected` once
        /// it is done, so a deadline during it names the connecting phase.
        func startTLS(_ context: TLSContext) {
            figures.handshakeStartedAt = MetricsClock.now()
            do {
                socket.tls = TLSStream(
                    session: try TLSSession(context: context, role: .client(host: host), peer: "\(host):\(port)"))
            } catch {
                return handle(error.urlError)
            }
            socket.watch(.read) { [unowned self] events in handshake(events) }
            handshake([])
        }

        /// Moves the handshake on: reads what came, answers, and says `connected` when it is done.
        func handshake(_ events: IOEvents) {
            guard !machine.isDone, let tls = socket.tls else { return }
            if !events.isDisjoint(with: [.readable, .hangUp, .error]),
                let broken = Self.handshakeBreak(tls.receiveRecords(socket.fd, into: loop.readBuffer))
            {
                return handle(broken)
            }
            let done: Bool
            do {
                done = try tls.session.handshake()
            } catch {
                // The alert that says why goes out, as far as the socket takes it.
                _ = tls.flush(to: socket.fd)
                return handle(error.urlError)
            }
            // The last flight of a finished handshake (the client's Finished, in TLS 1.3 and in a
            // resumed TLS 1.2 one) waits for the request head, so that both go out in one write.
            if !done, let broken = Self.handshakeBreak(tls.flush(to: socket.fd)) { return handle(broken) }
            guard done else { return socket.watch(tls.hasPendingOutput ? [.read, .write] : .read) }
            figures.connectedAt = MetricsClock.now()
            figures.tls = tls.session.negotiated
            handle(.connected(now: EventLoop.now()))
        }

        /// The event of a read or write of the handshake that broke the connection; `nil` when it
        /// moved bytes or would block.
        static func handshakeBreak(_ transfer: SocketOperations.Transfer) -> HTTP1ConnectionMachine.Event? {
            switch transfer {
            case .failed(let reason): .broke(reason)
            case .peerClosed: .broke("the server reset the connection during the TLS handshake")
            case .moved, .wouldBlock: nil
            }
        }
    }
#endif
