#if os(Linux) && canImport(CWebServiceKitSystem)
    import CWebServiceKitSystem
    import Dispatch
    import Foundation
    import Glibc

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// What became ready on a registered descriptor.
    struct IOEvents: OptionSet, Sendable {
        let rawValue: UInt8
        static let readable = IOEvents(rawValue: 1)
        static let writable = IOEvents(rawValue: 2)
        /// The peer closed its side, or the connection hung up (`EPOLLHUP`, `EPOLLRDHUP`).
        static let hangUp = IOEvents(rawValue: 4)
        /// An error is pending on the descriptor (`EPOLLERR`): read it with `SO_ERROR`.
        static let error = IOEvents(rawValue: 8)
    }

    /// The readiness a registration waits for.
    struct IOInterest: OptionSet, Sendable {
        let rawValue: UInt8
        static let read = IOInterest(rawValue: 1)
        static let write = IOInterest(rawValue: 2)
    }

    /// One thread that waits on an epoll(7) set and runs, on that thread only: the handlers of
    /// the descriptors registered with it, its timers, and the work other threads hand it.
    ///
    /// Level-triggered: a handler is called as long as its descriptor is ready for what it waits
    /// for, so a handler that reads only part of what arrived is called again. Other threads
    /// reach the loop only through ``execute(_:)``, which wakes it with one `eventfd` per loop
    /// (not a pipe per connection). Everything else (``register(_:interest:_:)``,
    /// ``setInterest(_:for:)``, ``deregister(_:)``, ``schedule(at:_:)``, ``cancelTimer(_:)``) is
    /// called on the loop's thread, from a handler, a timer or executed work.
    final class EventLoop: @unchecked Sendable {  // loop-thread state is touched only on its thread
        /// A descriptor's place in the loop. Its token is never reused, so an event that arrives
        /// for a descriptor deregistered (and its number reused) in the same round is ignored.
        struct Registration: Hashable, Sendable {
            let token: UInt64
            let fd: Int32
        }

        typealias Handler = (IOEvents) -> Void

        private struct Inbox {
            var work: [@Sendable () -> Void] = []
            var wakePending = false
            var isShuttingDown = false
        }

        private let epollFD: Int32
        private let wakeFD: Int32
        private let inbox = Locked(Inbox())
        private let finished = DispatchSemaphore(value: 0)
        // Loop-thread state.
        private var handlers: [UInt64: Handler] = [:]
        private var nextToken: UInt64 = 0
        private var timers = TimerQueue<() -> Void>()
        private var sharedReadBuffer: UnsafeMutableRawBufferPointer?

        /// A 64 KiB buffer the loop's handlers share to receive into: a handler uses it only
        /// while it runs (and parses what it read before returning), so one per loop is enough
        /// whatever the number of connections. Loop thread only.
        var readBuffer: UnsafeMutableRawBufferPointer {
            precondition(inLoop, "readBuffer off the loop's thread")
            if let sharedReadBuffer { return sharedReadBuffer }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
            sharedReadBuffer = buffer
            return buffer
        }

        /// The token of the wake-up `eventfd`.
        private static let wakeToken: UInt64 = 0
        private static let currentKey: pthread_key_t = {
            var key = pthread_key_t()
            let status = pthread_key_create(&key, nil)
            precondition(status == 0, "pthread_key_create failed: \(status)")
            return key
        }()

        /// Creates the loop and starts its thread, named `name`.
        init(name: String) throws(URLError) {
            let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epollFD >= 0 else { throw Self.failure("epoll_create1", errno) }
            let wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
            guard wakeFD >= 0 else {
                let code = errno
                close(epollFD)
                throw Self.failure("eventfd", code)
            }
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = Self.wakeToken
            guard epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
                let code = errno
                close(wakeFD)
                close(epollFD)
                throw Self.failure("epoll_ctl", code)
            }
            self.epollFD = epollFD
            self.wakeFD = wakeFD
            let thread = Thread { [self] in
                Self.nameCurrentThread(name)
                run()
            }
            thread.name = name
            thread.start()
        }

        /// Whether the caller runs on this loop's thread.
        var inLoop: Bool { pthread_getspecific(Self.currentKey) == Unmanaged.passUnretained(self).toOpaque() }

        /// The monotonic clock of timers, in nanoseconds.
        static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

        /// Runs `work` on the loop's thread, after the work handed to it before (FIFO). Returns
        /// `false`, and drops `work`, once the loop is shutting down.
        @discardableResult
        func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
            let needsWake: Bool? = inbox.withLock { inbox in
                guard !inbox.isShuttingDown else { return nil }
                inbox.work.append(work)
                defer { inbox.wakePending = true }
                return !inbox.wakePending
            }
            guard let needsWake else { return false }
            if needsWake { wake() }
            return true
        }

        /// Registers `fd` for `interest`; `handler` runs on the loop's thread when it is ready.
        func register(_ fd: Int32, interest: IOInterest, _ handler: @escaping Handler) throws(URLError) -> Registration
        {
            precondition(inLoop, "register off the loop's thread")
            nextToken += 1
            let registration = Registration(token: nextToken, fd: fd)
            try control(EPOLL_CTL_ADD, registration, interest)
            handlers[registration.token] = handler
            return registration
        }

        /// Changes what `registration` waits for.
        func setInterest(_ interest: IOInterest, for registration: Registration) throws(URLError) {
            precondition(inLoop, "setInterest off the loop's thread")
            try control(EPOLL_CTL_MOD, registration, interest)
        }

        /// Stops watching `registration`'s descriptor; call it before closing the descriptor.
        /// Its handler is never called again, not even for an event of the current round.
        func deregister(_ registration: Registration) {
            precondition(inLoop, "deregister off the loop's thread")
            guard handlers.removeValue(forKey: registration.token) != nil else { return }
            var event = epoll_event()
            _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, registration.fd, &event)
        }

        /// Runs `work` on the loop's thread once ``now()`` reaches `deadline`.
        func schedule(at deadline: UInt64, _ work: @escaping () -> Void) -> TimerQueue<() -> Void>.ID {
            precondition(inLoop, "schedule off the loop's thread")
            return timers.schedule(at: deadline, work)
        }

        /// Cancels a timer; `false` when it already ran or was cancelled.
        @discardableResult
        func cancelTimer(_ id: TimerQueue<() -> Void>.ID) -> Bool {
            precondition(inLoop, "cancelTimer off the loop's thread")
            return timers.cancel(id)
        }

        /// Stops the loop after the work already handed to it, waits for its thread to end, and
        /// closes its descriptors. Registered descriptors stay open: they belong to their owners.
        /// Call it from another thread.
        func shutdown() {
            precondition(!inLoop, "shutdown from the loop's own thread")
            let first = inbox.withLock { inbox in
                defer { inbox.isShuttingDown = true }
                return !inbox.isShuttingDown
            }
            guard first else { return }
            wake()
            finished.wait()
            close(wakeFD)
            close(epollFD)
        }

        private func control(_ operation: Int32, _ registration: Registration, _ interest: IOInterest) throws(URLError)
        {
            var event = epoll_event()
            // EPOLLHUP and EPOLLERR are reported whatever the mask; the peer's half-close only
            // with read interest.
            var mask: UInt32 = 0
            if interest.contains(.read) { mask |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
            if interest.contains(.write) { mask |= EPOLLOUT.rawValue }
            event.events = mask
            event.data.u64 = registration.token
            guard epoll_ctl(epollFD, operation, registration.fd, &event) == 0 else {
                throw Self.failure("epoll_ctl", errno)
            }
        }

        private func wake() {
            var one: UInt64 = 1
            // A full counter (never in practice) still leaves the loop readable: nothing is lost.
            _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, $0.count) }
        }

        /// Gives the calling thread `name` (its first 15 bytes, the kernel's limit) where tools and
        /// tests see it, `/proc/self/task/*/comm`: Foundation's `Thread.name` does not reach it on
        /// Linux, and `pthread_setname_np` is not imported.
        private static func nameCurrentThread(_ name: String) {
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }

        private func run() {
            pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
            var events = [epoll_event](repeating: epoll_event(), count: 256)
            var running = true
            while running {
                let count = events.withUnsafeMutableBufferPointer {
                    epoll_wait(epollFD, $0.baseAddress, Int32($0.count), timeout())
                }
                if count < 0 {
                    // EINTR: a signal; anything else cannot happen with a valid epoll descriptor.
                    if errno != EINTR { usleep(1000) }
                    continue
                }
                for index in 0..<Int(count) {
                    let event = events[index]
                    if event.data.u64 == Self.wakeToken {
                        var counter: UInt64 = 0
                        _ = withUnsafeMutableBytes(of: &counter) { read(wakeFD, $0.baseAddress, $0.count) }
                    } else if let handler = handlers[event.data.u64] {
                        handler(Self.readiness(event.events))
                    }
                }
                let now = Self.now()
                while let work = timers.popDue(now: now) { work() }
                running = drainInbox()
            }
            handlers.removeAll()
            timers = TimerQueue()
            sharedReadBuffer?.deallocate()
            sharedReadBuffer = nil
            pthread_setspecific(Self.currentKey, nil)
            finished.signal()
        }

        /// Runs the work handed to the loop so far; `false` once it is shutting down.
        private func drainInbox() -> Bool {
            let (work, shuttingDown) = inbox.withLock { inbox in
                defer {
                    inbox.work.removeAll()
                    inbox.wakePending = false
                }
                return (inbox.work, inbox.isShuttingDown)
            }
            for item in work { item() }
            return !shuttingDown
        }

        /// The wait of `epoll_wait` in milliseconds: until the next timer, rounded up; -1 for none.
        private func timeout() -> Int32 {
            guard let deadline = timers.nextDeadline() else { return -1 }
            let now = Self.now()
            guard deadline > now else { return 0 }
            let milliseconds = (deadline - now + 999_999) / 1_000_000
            return Int32(clamping: milliseconds)
        }

        private static func readiness(_ mask: UInt32) -> IOEvents {
            var events: IOEvents = []
            if mask & EPOLLIN.rawValue != 0 { events.insert(.readable) }
            if mask & EPOLLOUT.rawValue != 0 { events.insert(.writable) }
            if mask & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 { events.insert(.hangUp) }
            if mask & EPOLLERR.rawValue != 0 { events.insert(.error) }
            return events
        }

        private static func failure(_ call: String, _ code: Int32) -> URLError {
            URLError(.cannotConnectToHost, reason: "\(call) failed: \(String(cString: strerror(code)))")
        }
    }
#endif
