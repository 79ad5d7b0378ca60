#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    extension HTTP1Exchange {
        // MARK: - A download's bytes, parsed and written off the loop

        /// Hands `bytes` to the file writer, or keeps them until it is free; the socket is not
        /// read meanwhile (TCP holds the server back), but for a hang-up.
        func pass(_ bytes: UnsafeRawBufferPointer, to files: FileIntake) {
            files.backlog.append([UInt8](bytes))
            pump(files)
        }

        private func pump(_ files: FileIntake) {
            guard !files.isBusy, !machine.isDone else { return }
            if !files.backlog.isEmpty {
                let bytes = files.backlog.removeFirst()
                files.isBusy = true
                handle(.consumerBehind)
                let loop = loop
                files.queue.async { [self] in
                    let outcome = Result { try intake.take(bytes) }
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
            handle(.received(intake.progress))
            handle(.consumerCaughtUp)
            pump(files)
        }
    }

    /// A download's intake off the loop: the queue that parses and writes, and what waits for it.
    final class FileIntake: @unchecked Sendable {  // touched only on its exchange's loop thread
        let queue: DispatchQueue
        /// Whether the intake is in the queue's hands.
        var isBusy = false
        /// What was read meanwhile, in order.
        var backlog: [[UInt8]] = []
        /// How the input ended while the queue was busy.
        var end: SocketOperations.Transfer?
        /// The call's outcome, held until the queue let go of the intake.
        var heldResult: Result<HTTP1Exchange.Outcome, any Error>?

        init(queue: DispatchQueue) { self.queue = queue }
    }
#endif
