#if os(Linux) && canImport(CWebServiceKitSystem)
    /// What waits to be written on a connection, in order, and what of it went out: the request's
    /// head and body as ``HTTP1Exchange`` hands them over, written as far as the socket takes
    /// them.
    struct OutgoingBytes {
        private var pending: [[UInt8]] = []
        /// Where the first of `pending` goes on.
        private var offset = 0
        /// Body bytes in `pending`, counted as sent once all of `pending` went out.
        private var pendingBodyBytes = 0
        /// Every byte written, for the call's metrics.
        private(set) var wireBytes: Int64 = 0
        /// Body bytes written on the current connection, for the call's progress and metrics.
        private(set) var bodyBytesSent: Int64 = 0

        var isEmpty: Bool { pending.isEmpty }

        /// Queues `bytes`, of which `bodyBytes` are the body's.
        mutating func append(_ bytes: [UInt8], bodyBytes: Int = 0) {
            guard !bytes.isEmpty else { return }
            pending.append(bytes)
            pendingBodyBytes += bodyBytes
        }

        /// Drops what waits (sending stopped); with `restarting`, the request goes again from
        /// its start, and its body counts from 0.
        mutating func removeAll(restarting: Bool = false) {
            pending.removeAll()
            offset = 0
            pendingBodyBytes = 0
            if restarting { bodyBytesSent = 0 }
        }

        /// Writes with `send` (the socket's, or its TLS stream's) until nothing waits (`.moved`
        /// with the bytes of this call) or the socket takes no more (`.wouldBlock`), or the
        /// connection refuses them.
        mutating func flush(with send: (UnsafeRawBufferPointer) -> SocketOperations.Transfer)
            -> SocketOperations.Transfer
        {
            var moved = 0
            while let first = pending.first {
                let transfer = first.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                guard case .moved(let count) = transfer else { return transfer }
                moved += count
                wireBytes += Int64(count)
                offset += count
                if offset >= first.count {
                    pending.removeFirst()
                    offset = 0
                }
            }
            bodyBytesSent += Int64(pendingBodyBytes)
            pendingBodyBytes = 0
            return .moved(moved)
        }
    }
#endif
