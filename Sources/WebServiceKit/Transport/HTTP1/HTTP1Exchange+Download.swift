#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    extension HTTP1Exchange {
        // MARK: - A download's bytes, parsed and written off the loop

        /// Hands `bytes` to the file writer, or keeps them until it is free. The socket is read on
        /// while the writer works, so reading and writing overlap, until
        /// ``FileIntake/highWater`` bytes wait (TCP then holds the server back); a hang-up is
        /// still read.
        func pass(_ bytes: UnsafeRawBufferPointer, to files: FileIntake) {
            files.backlog.append([UInt8](bytes))
            files.backlogBytes += bytes.count
            if files.backlogBytes >= FileIntake.highWater, !machine.consumerBehind { handle(.consumerBehind) }
            pump(files)
        }

        /// Gives the writer everything read meanwhile in one batch (one hand-off between the
        /// threads for many reads), or the input's end once every byte before it was taken.
        private func pump(_ files: FileIntake) {
            guard !files.isBusy, !machine.isDone else { return }
            if !files.backlog.isEmpty {
                let batch = files.backlog
                files.backlog.removeAll(keepingCapacity: true)
                files.backlogBytes = 0
                files.isBusy = true
                if machine.consumerBehind { handle(.consumerCaughtUp) }
                let loop = loop
                files.queue.async { [self] in
                    let outcome = Result { for bytes in batch { try intake.take(bytes) } }
                    loop.execute { [self] in took(outcome, files) }
                }
            } else if let end = files.end {
                files.end = nil
                handle(Self.event(endingInput: end))
            }
        }

        private func took(_ outcome: Result<Void, any Error>, _ files: FileIntake) {
            files.isBusy = false
            if let held = files.heldResult { return resume(held) }
            if case .failure(let error) = outcome { return handle(error) }
            // What the loop read while the writer worked is input too: after a complete response it
            // makes the connection unfit for another request (RFC 9112 §9.3), as bytes after the
            // end in the same read do for the parser. The machine decides with that.
            var progress = intake.progress
            if !files.backlog.isEmpty || files.end != nil { progress.leavesConnectionReusable = false }
            handle(.received(progress))
            pump(files)
        }
    }

    /// A download's intake off the loop: the queue that parses and writes, and what waits for it.
    final class FileIntake: @unchecked Sendable {  // touched only on its exchange's loop thread
        let queue: DispatchQueue
        /// Whether the intake is in the queue's hands.
        var isBusy = false
        /// What was read meanwhile, in order, and its size.
        var backlog: [[UInt8]] = []
        var backlogBytes = 0
        /// How many read bytes may wait for the writer before the socket is no longer read: four
        /// of the loop's reads, so a download's memory stays within a few hundred KiB.
        static let highWater = 256 * 1024
        /// How the input ended while the queue was busy (the socket is not read meanwhile).
        var end: SocketOperations.Transfer?
        /// The call's outcome, held until the queue let go of the intake.
        var heldResult: Result<HTTP1Exchange.Outcome, any Error>?

        init(queue: DispatchQueue) { self.queue = queue }

        /// Drops what was read for a request that goes again on a new connection.
        func discardInput() {
            backlog.removeAll()
            backlogBytes = 0
            end = nil
        }
    }
#endif
