#if os(Linux) && canImport(CWebServiceKitSystem)
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    extension HTTP1Exchange {
        // MARK: - Reading the response

        /// Reads what the socket (or the TLS stream) has into the loop's buffer and gives it to
        /// the intake, or to a download's file writer; an end of input goes to the machine.
        func receive() {
            let buffer = loop.readBuffer
            let transfer =
                socket.tls.map { $0.receive(socket.fd, into: buffer) }
                ?? SocketOperations.receive(socket.fd, into: buffer)
            if case .moved(let count) = transfer, count > 0 {
                figures.received(count)
                if let files { return pass(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: files) }
                do {
                    try intake.take(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                } catch {
                    return handle(error)
                }
                handle(.received(intake.progress))
                if !machine.isDone, context.responseBody.isBackedUp { holdForConsumer() }
                return
            }
            // Records a read made without plaintext (an alert refusing renegotiation, an answer to
            // a key update) go out when the socket takes them.
            guard transfer != .wouldBlock else { return socket.tls?.hasPendingOutput == true ? watch() : () }
            // A server that refused the client's certificate says so with an alert, after a TLS
            // 1.3 handshake: its own error, not a lost connection.
            if let failure = socket.tls?.failure, failure.kind == .clientCertificateRequired {
                return handle(failure.urlError)
            }
            if let files, files.isBusy { return files.end = transfer }
            handle(Self.event(endingInput: transfer))
        }

        /// The event of a read that brought no bytes.
        static func event(endingInput transfer: SocketOperations.Transfer) -> HTTP1ConnectionMachine.Event {
            switch transfer {
            case .failed(let reason): .broke(reason)
            case .peerClosed: .broke("the server reset the connection")
            default: .inputEnded
            }
        }

        /// Reads on, on a later turn of the loop, what the TLS stream holds already: the socket will
        /// not say readable for records it has handed over.
        func readBufferedRecords() {
            guard !readScheduled, let tls = socket.tls, tls.hasBufferedInput else { return }
            readScheduled = true
            let stream = ObjectIdentifier(tls)
            _ = loop.execute { [self] in
                readScheduled = false
                guard socket.tls.map(ObjectIdentifier.init) == stream, !machine.isDone, machine.isReading,
                    files?.end == nil
                else { return }
                receive()
                watch()
            }
        }

        /// Stops reading until the streamed body's consumer has room again; a hang-up meanwhile is
        /// still read.
        func holdForConsumer() {
            handle(.consumerBehind)
            let loop = loop
            context.responseBody.whenDrained { [self] in
                _ = loop.execute { [self] in handle(.consumerCaughtUp) }
            }
        }
    }
#endif
