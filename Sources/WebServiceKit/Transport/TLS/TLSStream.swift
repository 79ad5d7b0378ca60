#if os(Linux) && canImport(CWebServiceKitSystem)
    /// A connection's ``TLSSession`` over its socket, for the event loop's driver: the plaintext
    /// side of `send` and `receive`, with the records moved to and from the descriptor, never
    /// waiting. Records a write produced that the socket did not take yet wait here
    /// (``hasPendingOutput``): the driver keeps the socket watched for writing until they went.
    ///
    /// Touched only on the socket's loop thread.
    final class TLSStream {
        let session: TLSSession
        /// Records not yet written, from `outputOffset` on.
        private var output: [UInt8] = []
        private var outputOffset = 0

        /// The failure a read met, for a verdict a transfer cannot carry (a server's refusal of
        /// the client's certificate).
        private(set) var failure: TLSFailure?

        init(session: TLSSession) { self.session = session }

        /// Whether records wait to be written.
        var hasPendingOutput: Bool { outputOffset < output.count || session.hasOutput }

        /// Whether received bytes (or the end that followed them) wait to be read without the
        /// socket (``TLSSession/hasBufferedInput``).
        var hasBufferedInput: Bool { pendingEnd != nil || session.hasBufferedInput }

        /// The end or failure a read met after plaintext it gave first; the next read gives it.
        private var pendingEnd: SocketOperations.Transfer?

        /// Writes the waiting records: `.moved(0)` once none waits, else what stopped them.
        func flush(to fd: Int32) -> SocketOperations.Transfer {
            if session.hasOutput {
                if outputOffset > 0 {
                    output.removeFirst(outputOffset)
                    outputOffset = 0
                }
                output += session.takeOutput()
            }
            while outputOffset < output.count {
                let transfer = output.withUnsafeBytes {
                    SocketOperations.send(fd, UnsafeRawBufferPointer(rebasing: $0[outputOffset...]))
                }
                guard case .moved(let count) = transfer else { return transfer }
                outputOffset += count
            }
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
            return .moved(0)
        }

        /// Encrypts `plaintext` and writes its records: `.moved(plaintext.count)` once it is taken
        /// (its records may still wait, see ``hasPendingOutput``); `.wouldBlock` without taking
        /// anything while records taken earlier wait for the socket. Records the session made
        /// but nobody took yet (the handshake's last flight) go out with the new ones, in order,
        /// in one write.
        func send(_ fd: Int32, _ plaintext: UnsafeRawBufferPointer) -> SocketOperations.Transfer {
            if outputOffset < output.count {
                let earlier = flush(to: fd)
                guard case .moved = earlier else { return earlier }
            }
            do {
                try session.write(plaintext)
            } catch {
                return .failed(error.message)
            }
            switch flush(to: fd) {
            case .moved, .wouldBlock: return .moved(plaintext.count)
            case let other: return other
            }
        }

        /// Reads plaintext into `buffer`, as much as the records at hand give (a TLS record holds at
        /// most 16 KiB: one read takes several, as a plain socket read would): `.moved(n)`,
        /// `.moved(0)` after the peer's `close_notify`, `.wouldBlock` when the socket has no more
        /// records for now, or the failure (a connection that ends without `close_notify` is one:
        /// what was read may be cut short). Plaintext read before an end or a failure is given
        /// first; the next read says what followed.
        func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> SocketOperations.Transfer {
            if let end = pendingEnd {
                pendingEnd = nil
                return end
            }
            var filled = 0
            /// `end`, after the plaintext read before it: that first, `end` on the next read (which
            /// ``hasBufferedInput`` asks for without waiting for the socket).
            func finish(_ end: SocketOperations.Transfer) -> SocketOperations.Transfer {
                guard filled > 0 else { return end }
                pendingEnd = end
                return .moved(filled)
            }
            while filled < buffer.count {
                let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
                do {
                    switch try session.read(into: rest) {
                    case .bytes(let count):
                        filled += count
                        continue
                    case .closed: return finish(.moved(0))
                    case .needsInput: break
                    }
                } catch {
                    failure = error
                    return finish(.failed(error.message))
                }
                // More records, or the peer's end (the next read then says what it means). They
                // go through the free part of `buffer`: the session copies them before it
                // decrypts into it.
                let transfer = receiveRecords(fd, into: rest)
                switch transfer {
                case .moved: continue
                case .wouldBlock: return filled > 0 ? .moved(filled) : .wouldBlock
                default: return finish(transfer)
                }
            }
            return .moved(filled)
        }

        /// Reads the records the socket has into the session (for the handshake, and for
        /// ``receive(_:into:)``) through `buffer`, the loop's shared one (no connection keeps a
        /// buffer of its own): `.moved(count)`, `.moved(0)` at the peer's end (said to the
        /// session), or what stopped it.
        func receiveRecords(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> SocketOperations.Transfer {
            let transfer = SocketOperations.receive(fd, into: buffer)
            switch transfer {
            case .moved(let count) where count > 0:
                session.receive(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            case .moved:
                session.receiveEnd()
            default:
                break
            }
            return transfer
        }
    }
#endif
